// SPDX-License-Identifier: Apache-2.0
#include "plancontroller.h"

#include "app/commands/plancommand.h"
#include "app/commands/planstepcommand.h"
#include "app/commands/removeactionscommand.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/plancontextmenu.h"
#include "app/controllers/plandragcontroller.h"
#include "app/controllers/plansaver.h"
#include "model/domainpath.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/filters.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planmarksbuilder.h"
#include "views/plan/planpanel.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolTip>
#include <QUndoStack>

#include <optional>
#include <utility>

namespace fleet::app {

namespace {

QString s(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

QString reasonsText(const std::vector<model::Reason>& reasons)
{
    return views::planReasonsText(reasons);
}

} // namespace

QMenu* planMenu(QMainWindow* window)
{
    if (auto* m = window->menuBar()->findChild<QMenu*>(QStringLiteral("menuPlan")))
        return m;
    QMenu* m = window->menuBar()->addMenu(QObject::tr("&Plan"));
    m->setObjectName(QStringLiteral("menuPlan"));
    return m;
}

PlanController::PlanController(QMainWindow* window, views::FleetMapView* map)
    : QObject(window)
    , m_map(map)
    , m_host(new PlanEngineHost(this))
{
    m_panel = new views::PlanPanel(window);
    m_dock = new QDockWidget(tr("Plan"), window);
    m_dock->setObjectName(QStringLiteral("planDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_panel, &views::PlanPanel::undoBackToRequested, this, &PlanController::undoBackTo);
    connect(m_host, &PlanEngineHost::engineInstalled, this, &PlanController::onEngineInstalled);
    m_drag = new PlanDragController(m_map, m_host, this);
    m_contextMenu = new PlanContextMenu(window, m_map, m_host, this);
    connect(m_contextMenu, &PlanContextMenu::placeWorkloadRequested, this, &PlanController::placeWorkloadRequested);
}

PlanController::~PlanController() = default;

std::shared_ptr<const model::PlanLedger> PlanController::planState() const
{
    return m_host->planState();
}

double PlanController::lastFeasibilityMs() const noexcept
{
    return m_drag->lastFeasibilityMs();
}

void PlanController::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    m_contextMenu->setNodeMask(std::move(mask));
}

void PlanController::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::shared_ptr<const model::PriceTable> prices)
{
    m_drag->endDrag();
    m_contextMenu->clearNodeMask();
    m_host->setCluster(std::move(store), std::move(topology), std::move(prices)); // onEngineInstalled(): none yet
}

void PlanController::buildEngineNow()
{
    m_host->buildEngineNow();
}

void PlanController::storeChanged(std::shared_ptr<const model::Topology> topology)
{
    if (m_host->hasPlan() || !m_host->store())
        return;
    m_drag->endDrag();
    if (m_host->engine()) { // let go of the engine that the host frees off this thread
        m_panel->setPlan(nullptr, nullptr);
        m_map->setPlanState(nullptr);
    }
    m_host->storeChanged(std::move(topology));
}

void PlanController::checkStale(const model::ClusterChangeBatch& batch)
{
    if (m_host->checkStale(batch))
        m_panel->model()->setStale(m_host->staleReasons());
}

void PlanController::onEngineInstalled()
{
    const auto& engine = m_host->engine();
    m_panel->setPlan(engine ? m_host->store() : nullptr, engine);
    m_map->setPlanMarks(nullptr);
    m_map->setPlanState(nullptr);
    if (engine)
        emit engineReady();
    emit planChanged();
}

void PlanController::showEngineInPanel()
{
    m_panel->setPlan(m_host->store(), m_host->engine());
}

std::shared_ptr<const model::Metric> PlanController::planMetricFor(const QString& id) const
{
    return m_host->planMetricFor(id);
}

void PlanController::showMessage(const QString& message, const QPoint& globalPos)
{
    m_lastMessage = message;
    if (!globalPos.isNull())
        QToolTip::showText(globalPos, message.toHtmlEscaped(), m_map);
    emit messageShown(message);
}

// ---- commands ---------------------------------------------------------------------------

bool PlanController::pushAction(const model::PlanAction& action, const QString& text, QString* refusal)
{
    auto* command = new PlanCommand(*m_host, action, text, [this] { afterChange(); });
    command->setRefusedHandler([refusal](const model::AppliedAction& r) {
        if (refusal)
            *refusal = views::planReasonsText(r.reasons);
    });
    const std::size_t before = m_host->engine()->applied().size();
    m_host->undoStack()->push(command); // redo() runs here; a refused command is obsolete and push() deletes it
    return m_host->engine()->applied().size() > before;
}

bool PlanController::movePod(model::PodId pod, model::NodeId node, bool override)
{
    if (!m_host->engine() || !m_host->store() || pod.index() >= m_host->store()->podCount() || !node.isValid())
        return false;
    const model::PlanLedger& state = m_host->engine()->state();
    if (state.podNode(pod) == node) {
        showMessage(tr("%1 is on %2 already.").arg(m_host->podText(pod), m_host->nodeText(node)));
        return false;
    }
    const model::Verdict verdict = model::checkMove(state, pod, node);
    const model::PodFeasibility feasibility(state, pod);
    if (!verdict.feasible && (!override || feasibility.immovable())) {
        showMessage(tr("Cannot move %1 to %2: %3.%4")
                        .arg(m_host->podText(pod), m_host->nodeText(node), reasonsText(verdict.reasons),
                            feasibility.immovable() ? QString() : tr(" Shift+drop applies it anyway, as a violation.")));
        return false;
    }
    model::PlanAction a;
    a.type = model::ActionType::MovePod;
    a.pod = model::podRef(*m_host->store(), pod);
    a.node = std::string(state.nodeName(node));
    // Shift also overrides the eviction rules (a gang member moved alone), which the engine
    // checks and the filters' verdict does not.
    const std::vector<model::Reason> blockers
        = override && state.podNode(pod).isValid() ? model::checkEviction(*m_host->store(), pod).blockers : std::vector<model::Reason> {};
    a.override = !verdict.feasible || !blockers.empty();
    QString refusal;
    if (!pushAction(a, tr("Move %1 to %2").arg(m_host->podText(pod), m_host->nodeText(node)), &refusal)) {
        showMessage(tr("Cannot move %1 to %2: %3.").arg(m_host->podText(pod), m_host->nodeText(node), refusal));
        return false;
    }
    showMessage(a.override ? tr("Moved %1 to %2 as a violation: %3.")
                                 .arg(m_host->podText(pod), m_host->nodeText(node), reasonsText(verdict.feasible ? blockers : verdict.reasons))
                           : tr("Moved %1 to %2.").arg(m_host->podText(pod), m_host->nodeText(node)));
    return true;
}

bool PlanController::drainNodes(const std::vector<model::NodeId>& nodes, const std::vector<model::PlanAction>& first)
{
    if (!m_host->engine() || (nodes.empty() && first.empty()))
        return false;
    const std::size_t before = m_host->engine()->applied().size();
    auto drainOf = [this](model::NodeId n) {
        model::PlanAction a;
        a.type = model::ActionType::DrainNode;
        a.node = std::string(m_host->engine()->state().nodeName(n));
        return a;
    };
    auto moveText = [](const model::PlanAction& a) {
        return tr("Move %1 to %2").arg(QString::fromStdString(a.pod.namespaceName + "/" + a.pod.name), QString::fromStdString(a.node));
    };
    std::size_t drainsFrom = before;
    if (nodes.size() + first.size() > 1) {
        // One step whose children refresh nothing themselves: the map and panel follow once.
        auto* step = new PlanStepCommand(first.empty() ? tr("Drain %1 nodes").arg(nodes.size())
                                                       : tr("Place %1 pending pods, drain %2 nodes").arg(first.size()).arg(nodes.size()),
            [this] { afterChange(); });
        for (const model::PlanAction& a : first)
            new PlanCommand(*m_host, a, moveText(a), {}, step);
        for (model::NodeId n : nodes)
            new PlanCommand(*m_host, drainOf(n), tr("Drain %1").arg(m_host->nodeText(n)), {}, step);
        m_host->undoStack()->push(step); // runs the children in order; deleted when none was applied
        // The placements that were applied come first in the plan; the drains follow.
        while (drainsFrom < m_host->engine()->applied().size() && m_host->engine()->applied()[drainsFrom].action.type != model::ActionType::DrainNode)
            ++drainsFrom;
    } else if (!first.empty()) {
        pushAction(first.front(), moveText(first.front()), nullptr);
        drainsFrom = m_host->engine()->applied().size();
    } else {
        pushAction(drainOf(nodes.front()), tr("Drain %1").arg(m_host->nodeText(nodes.front())), nullptr);
    }
    const std::size_t done = m_host->engine()->applied().size() - drainsFrom;
    std::size_t stay = 0;
    for (std::size_t i = drainsFrom; i < m_host->engine()->applied().size(); ++i)
        stay += m_host->engine()->applied()[i].unplaced.size();
    if (first.empty())
        showMessage(tr("Drained %1 of %2 nodes; %3 pods could not move.").arg(done).arg(nodes.size()).arg(stay));
    else
        showMessage(tr("Placed %1 pending pods; drained %2 of %3 nodes; %4 pods could not move.")
                        .arg(drainsFrom - before)
                        .arg(done)
                        .arg(nodes.size())
                        .arg(stay));
    return m_host->engine()->applied().size() > before;
}

bool PlanController::failNode(model::NodeId node)
{
    if (!m_host->engine() || !node.isValid())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::FailNode;
    a.node = std::string(m_host->engine()->state().nodeName(node));
    QString refusal;
    if (!pushAction(a, tr("Fail %1").arg(m_host->nodeText(node)), &refusal)) {
        showMessage(tr("Cannot fail %1: %2.").arg(m_host->nodeText(node), refusal));
        return false;
    }
    const model::AppliedAction& r = m_host->engine()->applied().back();
    showMessage(tr("Failed %1: %2 pods re-placed, %3 stranded.").arg(m_host->nodeText(node)).arg(r.changes.size()).arg(r.unplaced.size()));
    return true;
}

bool PlanController::addNodeLike(model::NodeId node)
{
    if (!m_host->engine() || !node.isValid() || node.index() >= m_host->store()->nodeCount() || m_host->store()->nodeInstanceType(node).empty())
        return false;
    const model::DomainId domain = m_host->topology()->nodeDomain(node);
    model::PlanAction a;
    a.type = model::ActionType::AddNode;
    a.instanceType = std::string(m_host->store()->nodeInstanceType(node));
    a.domain = domain.isValid() && domain != m_host->topology()->root() ? model::domainPathText(*m_host->topology(), domain) : std::string();
    a.count = 1;
    const QString type = QString::fromStdString(a.instanceType);
    QString refusal;
    if (!pushAction(a, tr("Add a %1 node").arg(type), &refusal)) {
        showMessage(tr("Cannot add a %1 node: %2.").arg(type, refusal));
        return false;
    }
    showMessage(tr("Added a %1 node in %2 (drawn under the domain, \"Added by the plan\").")
                    .arg(type, domain.isValid() ? m_host->domainText(domain) : tr("the cluster")));
    return true;
}

bool PlanController::addNodes(const QString& instanceType, const QString& capacityType, model::DomainId domain, int count)
{
    if (!m_host->engine() || instanceType.isEmpty() || count < 1)
        return false;
    model::PlanAction a;
    a.type = model::ActionType::AddNode;
    a.instanceType = instanceType.toStdString();
    a.capacityType = capacityType.toStdString();
    a.domain = domain.isValid() && domain != m_host->topology()->root() ? model::domainPathText(*m_host->topology(), domain) : std::string();
    a.count = count;
    const QString what = count == 1 ? tr("a %1 node").arg(instanceType) : tr("%1 %2 nodes").arg(count).arg(instanceType);
    QString refusal; // a missing template node: PlanCommand turns apply()'s error into the refusal
    if (!pushAction(a, tr("Add %1").arg(what), &refusal)) {
        showMessage(tr("Cannot add %1: %2.").arg(what, refusal));
        return false;
    }
    showMessage(tr("Added %1 in %2 (drawn under the domain, \"Added by the plan\").")
                    .arg(what, domain.isValid() && domain != m_host->topology()->root() ? m_host->domainText(domain) : tr("the cluster")));
    return true;
}

bool PlanController::failDomain(model::DomainId domain)
{
    if (!m_host->engine() || !domain.isValid() || domain == m_host->topology()->root())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::FailDomain;
    a.domain = model::domainPathText(*m_host->topology(), domain);
    QString refusal;
    if (!pushAction(a, tr("Fail domain %1").arg(m_host->domainText(domain)), &refusal)) {
        showMessage(tr("Cannot fail domain %1: %2.").arg(m_host->domainText(domain), refusal));
        return false;
    }
    const model::AppliedAction& r = m_host->engine()->applied().back();
    showMessage(tr("Failed %1: %2 nodes gone, %3 pods re-placed, %4 stranded.")
                    .arg(m_host->domainText(domain))
                    .arg(r.nodesRemoved.size())
                    .arg(r.changes.size())
                    .arg(r.unplaced.size()));
    return true;
}

bool PlanController::placeWorkload(model::WorkloadId workload, model::DomainId domain)
{
    if (!m_host->engine() || !workload.isValid() || !domain.isValid())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::PlaceWorkload;
    a.workloadNamespace = std::string(m_host->store()->workloadNamespace(workload));
    a.workloadName = std::string(m_host->store()->workloadName(workload));
    a.workloadKind = std::string(model::ownerKindName(m_host->store()->workloadKind(workload)));
    a.domain = domain == m_host->topology()->root() ? std::string() : model::domainPathText(*m_host->topology(), domain);
    const QString name = s(a.workloadKind) + QLatin1Char(' ') + s(a.workloadNamespace) + QLatin1Char('/') + s(a.workloadName);
    QString refusal;
    if (!pushAction(a, tr("Place %1 in %2").arg(name, m_host->domainText(domain)), &refusal)) {
        showMessage(tr("Cannot place %1 in %2 (all or nothing): %3.").arg(name, m_host->domainText(domain), refusal));
        return false;
    }
    const model::AppliedAction& r = m_host->engine()->applied().back();
    showMessage(tr("Placed %1 in %2: %3 pods.").arg(name, m_host->domainText(domain)).arg(r.changes.size()));
    return true;
}

namespace {

/// The change to the plan's action count that undoing `c` makes (-1 per action its redo applied,
/// + the count a removal took away); nullopt for a command of another kind.
std::optional<std::ptrdiff_t> undoDelta(const QUndoCommand* c)
{
    if (const auto* plan = dynamic_cast<const PlanCommand*>(c))
        return plan->applied() ? -1 : 0;
    if (const auto* removal = dynamic_cast<const RemoveActionsCommand*>(c))
        return static_cast<std::ptrdiff_t>(removal->count());
    if (c->childCount() == 0)
        return std::nullopt;
    std::ptrdiff_t sum = 0;
    for (int i = 0; i < c->childCount(); ++i) {
        const std::optional<std::ptrdiff_t> d = undoDelta(c->child(i));
        if (!d)
            return std::nullopt;
        sum += *d;
    }
    return sum;
}

} // namespace

void PlanController::undoBackTo(int row)
{
    if (!m_host->engine() || row < 0)
        return;
    const auto target = static_cast<std::size_t>(row);
    ++m_batch; // one refresh at the end, not one per command undone
    while (m_host->engine()->applied().size() > target && m_host->undoStack()->canUndo()) {
        const std::optional<std::ptrdiff_t> delta = undoDelta(m_host->undoStack()->command(m_host->undoStack()->index() - 1));
        if (delta && static_cast<std::ptrdiff_t>(m_host->engine()->applied().size()) + *delta < static_cast<std::ptrdiff_t>(target))
            break; // it straddles the row: remove its actions after the row instead
        m_host->undoStack()->undo();
    }
    if (const std::size_t n = m_host->engine()->applied().size(); n > target)
        m_host->undoStack()->push(new RemoveActionsCommand(*m_host, n - target, tr("Remove the plan's actions from row %1").arg(row + 1),
            [this] { afterChange(); }));
    --m_batch;
    afterChange();
}

bool PlanController::removeLastAction()
{
    if (!hasPlan())
        return false;
    const std::size_t before = m_host->engine()->applied().size();
    const model::PlanAction& last = m_host->engine()->applied().back().action;
    const std::string& subject = !last.node.empty() ? last.node : !last.domain.empty() ? last.domain : !last.pod.name.empty() ? last.pod.name : last.workloadName;
    const QString what = QString::fromUtf8(model::actionTypeName(last.type).data(), static_cast<qsizetype>(model::actionTypeName(last.type).size()))
        + QLatin1Char(' ') + QString::fromStdString(subject);
    m_host->undoStack()->push(new RemoveActionsCommand(*m_host, 1, tr("Remove %1").arg(what), [this] { afterChange(); }));
    showMessage(tr("Removed %1 (the plan's last action); %2 left.").arg(what).arg(before - 1));
    return m_host->engine()->applied().size() + 1 == before;
}

void PlanController::afterChange()
{
    const auto& engine = m_host->engine();
    if (m_batch > 0 || !engine)
        return;
    m_map->setPlanMarks(views::buildPlanMarks(*engine, m_host->topology().get()));
    m_map->setPlanState(planState());
    if (m_host->trimStale()) // undone actions take their marks along
        m_panel->model()->setStale(m_host->staleReasons());
    m_panel->refresh();
    if (hasPlan())
        m_dock->show();
    emit planChanged();
}

bool PlanController::adoptPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::size_t appliedBefore, const QString& text)
{
    const auto& current = m_host->engine();
    if (!current || !engine || !store || current->applied().size() != appliedBefore || engine->applied().size() != appliedBefore + 1)
        return false;
    m_drag->endDrag();
    // The stack's commands reach the engine through the host: they act on this one from now on.
    const PlanEngineHost::Replaced replaced = m_host->replaceEngine(std::move(store), std::move(engine));
    showEngineInPanel();
    const std::size_t last = m_host->engine()->applied().size() - 1;
    m_host->undoStack()->push(new PlanCommand(*m_host, m_host->engine()->applied()[last].action, text, [this] { afterChange(); },
        PlanCommand::AppliedAt { last })); // its redo records the applied action and refreshes the map and panel
    return true;
}

bool PlanController::adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text)
{
    const auto& current = m_host->engine();
    if (!current || !engine || &engine->state().store() != m_host->store().get() || current->applied().size() != appliedBefore
        || engine->applied().size() <= appliedBefore)
        return false;
    for (std::size_t i = 0; i < appliedBefore; ++i)
        if (!(engine->applied()[i].action == current->applied()[i].action))
            return false;
    m_drag->endDrag();
    // Freed on a worker (O(nodes + pods)); the store stays.
    releaseOffGuiThread(m_host->replaceEngine(m_host->store(), std::move(engine)).engine);
    showEngineInPanel();
    m_panel->model()->setStale(m_host->staleReasons());
    const auto& applied = m_host->engine()->applied();
    const model::ClusterStore& shown = *m_host->store();
    auto* step = new PlanStepCommand(text, [this] { afterChange(); });
    for (std::size_t i = appliedBefore; i < applied.size(); ++i)
        new PlanCommand(*m_host, applied[i].action, views::planActionText(shown, applied[i]), {}, PlanCommand::AppliedAt { i }, step);
    m_host->undoStack()->push(step); // records them as applied, then one refresh
    return true;
}

void PlanController::adoptOpenedPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied, const QString& text, const QString& message)
{
    if (!store || !engine)
        return;
    m_drag->endDrag();
    m_host->cancelBuild(); // an engine build still running is for the plan replaced here
    m_host->undoStack()->clear(); // its commands are the plan replaced here
    m_host->clearStale();
    auto replaced = std::make_shared<PlanEngineHost::Replaced>(m_host->replaceEngine(std::move(store), std::move(engine)));
    showEngineInPanel();
    m_panel->model()->setNotApplied(std::move(notApplied));
    const auto& applied = m_host->engine()->applied();
    if (!applied.empty()) {
        const model::ClusterStore& opened = *m_host->store();
        auto* step = new PlanStepCommand(text, [this] { afterChange(); });
        for (std::size_t i = 0; i < applied.size(); ++i)
            new PlanCommand(*m_host, applied[i].action, views::planActionText(opened, applied[i]), {}, PlanCommand::AppliedAt { i }, step);
        m_host->undoStack()->push(step); // records them as applied, then one refresh
    } else {
        afterChange();
    }
    m_host->undoStack()->setClean(); // the plan is the file's: nothing to save
    releaseOffGuiThread(std::move(replaced)); // a ledger is O(nodes + pods) to free
    m_dock->show();
    showMessage(message);
}

// ---- files ------------------------------------------------------------------------------

QString PlanController::savePlan(const QString& path, const importers::PlanSource& source) const
{
    return savePlanFile(m_host->engine().get(), path, source);
}

QString PlanController::exportPlan(const QString& path, bool kubectlScript, const importers::PlanSource& source) const
{
    return exportPlanFile(m_host->engine().get(), path, kubectlScript, source);
}

} // namespace fleet::app
