// SPDX-License-Identifier: Apache-2.0
#include "plannodeactions.h"

#include "app/controllers/plancontroller.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QInputDialog>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QStringList>

namespace fleet::app {

namespace {

QAction* addAction(QMenu* menu, const QString& text, const char* objectName, const QKeySequence& shortcut)
{
    QAction* a = menu->addAction(text);
    a->setObjectName(QLatin1String(objectName));
    a->setShortcut(shortcut);
    // Also while the focus is in a dock (the inspector's pod table, the Problems panel).
    a->setShortcutContext(Qt::WindowShortcut);
    return a;
}

} // namespace

PlanNodeActions::PlanNodeActions(QMainWindow* window, PlanController* plan, views::FleetMapView* map)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
    , m_map(map)
{
    QMenu* menu = planMenu(window);
    menu->addSeparator();
    connect(addAction(menu, tr("&Drain Selected Node"), "actionDrainSelectedNode", QKeySequence(Qt::CTRL | Qt::Key_D)),
        &QAction::triggered, this, [this] {
            if (const model::NodeId n = selectedOrSay(); n.isValid())
                m_plan->drainNodes({ n });
        });
    connect(addAction(menu, tr("&Fail Selected Node"), "actionFailSelectedNode", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)),
        &QAction::triggered, this, [this] {
            if (const model::NodeId n = selectedOrSay(); n.isValid())
                m_plan->failNode(n);
        });
    connect(addAction(menu, tr("Fail &Domain\u2026"), "actionFailDomainOfSelection", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)),
        &QAction::triggered, this, &PlanNodeActions::failDomainOfSelection);
    connect(addAction(menu, tr("Add a Node &Like the Selected"), "actionAddNodeLikeSelected", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)),
        &QAction::triggered, this, [this] {
            if (const model::NodeId n = selectedOrSay(); n.isValid())
                m_plan->addNodeLike(n);
        });
    connect(addAction(menu, tr("Drain the Filte&red Nodes"), "actionDrainFilteredNodes", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D)),
        &QAction::triggered, this, &PlanNodeActions::drainFiltered);
}

model::NodeId PlanNodeActions::selectedOrSay() const
{
    const model::NodeId n = m_map->selectedNode();
    if (!m_plan->engine()) {
        emit m_plan->messageShown(m_plan->notReadyText());
        return {};
    }
    if (!n.isValid())
        emit m_plan->messageShown(tr("Select a node first: click it on the map, or find it with Ctrl+F."));
    return n;
}

void PlanNodeActions::failDomainOfSelection()
{
    const model::NodeId n = selectedOrSay();
    const auto topology = m_plan->topology();
    if (!n.isValid() || !topology || n.index() >= m_plan->store()->nodeCount())
        return;
    // The selected node's domains, innermost first: "topology.kubernetes.io/zone=us-east-1a".
    QStringList items;
    std::vector<model::DomainId> domains;
    for (model::DomainId d = topology->nodeDomain(n); d.isValid() && d != topology->root(); d = topology->domainParent(d)) {
        const int level = topology->domainLevel(d);
        const auto& keys = topology->levelKeys();
        const QString name = QString::fromStdString(topology->domainName(d));
        items << (level >= 1 && static_cast<std::size_t>(level) <= keys.size()
                ? QStringLiteral("%1=%2").arg(QString::fromStdString(keys[static_cast<std::size_t>(level - 1)]), name)
                : name);
        domains.push_back(d);
    }
    if (domains.empty()) {
        emit m_plan->messageShown(tr("The selected node is in no topology domain but the cluster."));
        return;
    }
    bool ok = false;
    const QString chosen = QInputDialog::getItem(m_window, tr("Fail Domain"),
        tr("Which domain of the selected node fails (every node in it is gone under the plan)?"), items, 0, false, &ok);
    m_map->setFocus(Qt::OtherFocusReason);
    if (!ok)
        return;
    const auto index = items.indexOf(chosen);
    if (index >= 0)
        m_plan->failDomain(domains[static_cast<std::size_t>(index)]);
}

void PlanNodeActions::drainFiltered()
{
    const auto engine = m_plan->engine();
    const auto store = m_plan->store();
    if (!engine || !store) {
        emit m_plan->messageShown(m_plan->notReadyText());
        return;
    }
    std::vector<model::NodeId> nodes;
    if (m_mask)
        for (std::size_t i = 0; i < m_mask->size() && i < store->nodeCount(); ++i)
            if ((*m_mask)[i] != 0 && engine->state().nodePresent(model::NodeId(static_cast<std::uint32_t>(i)))
                && !engine->state().nodeCordonedByPlan(model::NodeId(static_cast<std::uint32_t>(i))))
                nodes.push_back(model::NodeId(static_cast<std::uint32_t>(i)));
    if (nodes.empty()) {
        emit m_plan->messageShown(tr("No filter is active (Ctrl+L), or it keeps no node that the plan has not drained or removed."));
        return;
    }
    m_plan->drainNodes(nodes);
}

} // namespace fleet::app
