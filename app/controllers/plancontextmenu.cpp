// SPDX-License-Identifier: Apache-2.0
#include "plancontextmenu.h"

#include "app/controllers/plancontroller.h"
#include "app/controllers/planenginehost.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>

namespace fleet::app {

PlanContextMenu::PlanContextMenu(QMainWindow* window, views::FleetMapView* map, PlanEngineHost* host, PlanController* plan)
    : QObject(plan)
    , m_window(window)
    , m_host(host)
    , m_plan(plan)
{
    connect(map, &views::FleetMapView::contextMenuRequested, this, &PlanContextMenu::onContextMenu);
}

void PlanContextMenu::onContextMenu(model::NodeId node, model::DomainId label, const QPoint& globalPos)
{
    const auto store = m_host->store();
    const auto topology = m_host->topology();
    if (!store || !topology)
        return;
    // No tooltips: one shown beside an item covers the items below it, and a disabled item is
    // still hovered on the way down the menu. A disabled item says why in its own text (short)
    // and in its status tip (whole, in the window's status bar while it is hovered).
    QMenu menu(m_window);
    const auto& engine = m_host->engine();
    PlanController* plan = m_plan;
    if (!engine) {
        menu.addAction(tr("Preparing the what-if\u2026"))->setEnabled(false);
        // On a live cluster that keeps changing, the way to a what-if: hold the changes.
        if (QAction* pause = m_window->findChild<QAction*>(QStringLiteral("actionPauseLiveUpdates")); pause && pause->isEnabled()
            && !pause->isChecked())
            menu.addAction(pause);
    } else {
        if (node.isValid()) {
            const QString name = m_host->nodeText(node);
            QAction* drain = menu.addAction(tr("Drain %1").arg(name), plan, [plan, node] { plan->drainNodes({ node }); });
            drain->setObjectName(QStringLiteral("actionDrainNode"));
            // A drained or removed node: the item stays in its place, disabled, saying why.
            if (const QString why = plan->drainRefusal(node); !why.isEmpty()) {
                drain->setEnabled(false);
                drain->setText(tr("Drain %1 (%2)").arg(name, plan->drainRefusalShort(node)));
                drain->setStatusTip(why);
            }
            menu.addAction(tr("Fail %1").arg(name), plan, [plan, node] { plan->failNode(node); })
                ->setObjectName(QStringLiteral("actionFailNode"));
            if (node.index() < store->nodeCount() && !store->nodeInstanceType(node).empty())
                menu.addAction(tr("Add a Node Like %1").arg(name), plan, [plan, node] { plan->addNodeLike(node); })
                    ->setObjectName(QStringLiteral("actionAddNodeLike"));
        }
        if (m_mask) {
            std::vector<model::NodeId> nodes;
            for (std::size_t i = 0; i < m_mask->size() && i < store->nodeCount(); ++i)
                if ((*m_mask)[i] != 0 && engine->state().nodePresent(model::NodeId(static_cast<std::uint32_t>(i)))
                    && !engine->state().nodeCordonedByPlan(model::NodeId(static_cast<std::uint32_t>(i))))
                    nodes.push_back(model::NodeId(static_cast<std::uint32_t>(i)));
            if (!nodes.empty() && nodes.size() <= 5000)
                menu.addAction(tr("Drain the %1 Filtered Nodes").arg(nodes.size()), plan, [plan, nodes] { plan->drainNodes(nodes); })
                    ->setObjectName(QStringLiteral("actionDrainFilteredNodes"));
        }
        if (label.isValid() && label != topology->root()) {
            menu.addAction(tr("Fail Domain %1").arg(m_host->domainText(label)), plan, [plan, label] { plan->failDomain(label); })
                ->setObjectName(QStringLiteral("actionFailDomain"));
            menu.addAction(tr("Place Workload Here\u2026"), this, [this, label] { emit placeWorkloadRequested(label); })
                ->setObjectName(QStringLiteral("actionPlaceWorkloadHere"));
        }
    }
    // Last, after the plan's gestures (whose order a hand learns: Drain first).
    if (node.isValid() && (engine || node.index() < store->nodeCount())) {
        const QString name = m_host->nodeText(node);
        if (!menu.isEmpty())
            menu.addSeparator();
        menu.addAction(tr("Copy Node Name"), this, [name] { QGuiApplication::clipboard()->setText(name); })
            ->setObjectName(QStringLiteral("actionCopyNodeNameHere"));
    }
    if (menu.isEmpty())
        return;
    menu.exec(globalPos);
}

} // namespace fleet::app
