// SPDX-License-Identifier: Apache-2.0
#include "markersmenu.h"

#include "views/map/fleetmapview.h"
#include "views/map/layers/markerlayer.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>

#include <memory>
#include <vector>

namespace fleet::app {

void addMarkersMenu(QMenu* view, views::FleetMapView* map)
{
    QMenu* menu = view->addMenu(QObject::tr("&Markers"));
    menu->setObjectName(QStringLiteral("menuMarkers"));
    QAction* all = menu->addAction(QObject::tr("&Show Markers"));
    all->setObjectName(QStringLiteral("actionShowMarkers"));
    all->setCheckable(true);
    all->setChecked(true);
    all->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    all->setShortcutContext(Qt::WindowShortcut);
    menu->addSeparator();
    struct Kind {
        views::NodeMarkerKind kind;
        const char* text;
        const char* name;
    };
    static constexpr Kind kKinds[] = {
        { views::NodeMarkerKind::NotReady, QT_TR_NOOP("&NotReady (red ring)"), "actionShowNotReadyMarkers" },
        { views::NodeMarkerKind::Cordoned, QT_TR_NOOP("&Cordoned (pink diamond)"), "actionShowCordonedMarkers" },
        { views::NodeMarkerKind::Problem, QT_TR_NOOP("&Other Problems (amber triangle)"), "actionShowProblemMarkers" },
    };
    auto kinds = std::make_shared<std::vector<std::pair<QAction*, unsigned>>>();
    for (const Kind& k : kKinds) {
        QAction* a = menu->addAction(QObject::tr(k.text));
        a->setObjectName(QLatin1String(k.name));
        a->setCheckable(true);
        a->setChecked(true);
        kinds->emplace_back(a, 1u << static_cast<unsigned>(k.kind));
    }
    // The kinds keep their checks while all markers are off; "Show Markers" greys them.
    const auto apply = [all, kinds, map] {
        unsigned shown = 0;
        for (const auto& [action, bit] : *kinds) {
            action->setEnabled(all->isChecked());
            if (action->isChecked())
                shown |= bit;
        }
        map->setShownMarkerKinds(all->isChecked() ? shown : 0);
    };
    QObject::connect(all, &QAction::toggled, map, apply);
    for (const auto& entry : *kinds)
        QObject::connect(entry.first, &QAction::toggled, map, apply);
}

} // namespace fleet::app
