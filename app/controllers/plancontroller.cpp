// SPDX-License-Identifier: Apache-2.0
#include "plancontroller.h"

#include "app/commands/planactioncommand.h"
#include "app/commands/planstepcommand.h"
#include "app/commands/removeactionscommand.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/plancontextmenu.h"
#include "app/controllers/plandragcontroller.h"
#include "app/controllers/plansaver.h"
#include "app/controllers/plansteprunner.h"
#include "app/controllers/longjob.h"
#include "app/controllers/storereaders.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/filters.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planmarksbuilder.h"
#include "views/plan/planmarkstracker.h"
#include "views/plan/planpanel.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTimer>
#include <QToolTip>
#include <QUndoStack>

#include <algorithm>
#include <cstdlib>
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

/// A count with thousands separators ("2,483"), as every figure the window shows.
QString countText(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

/// "1 pod", "2,483 pods": a count with its noun, singular for one.
QString countOf(std::size_t n, const char* one, const char* many)
{
    return countText(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

// The Plan dock's height when it first opens: its buttons, its summary and about five action
// rows (logical px), at most kPlanDockMaxHeightShare of the window's height.
constexpr int kPlanDockHeightPx = 300;
constexpr double kPlanDockMaxHeightShare = 0.4;

/// Gives the Plan dock a usable size once the window's layout has placed it: beside another
/// dock of the top or bottom area (Problems, Pending, Heatmap) it had the width that dock left
/// over (a trial saw 195 px, its summary cut and one action row), so it takes half the row when
/// it has less than a third of it (a narrower split than that is not the user's), and at least
/// kPlanDockHeightPx of height. A floating dock, or one on a side, keeps its size.
void giveDockRoom(QDockWidget* dock)
{
    auto* window = qobject_cast<QMainWindow*>(dock->parentWidget());
    if (!window || !dock->isVisible() || dock->isFloating())
        return;
    const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
    if (area != Qt::BottomDockWidgetArea && area != Qt::TopDockWidgetArea)
        return;
    const QList<QDockWidget*> stacked = window->tabifiedDockWidgets(dock);
    for (QDockWidget* other : window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (other == dock || !other->isVisible() || other->isFloating() || window->dockWidgetArea(other) != area
            || stacked.contains(other))
            continue;
        const QRect a = dock->geometry(), b = other->geometry();
        if (std::abs(a.top() - b.top()) > 4 || a.intersects(b))
            continue; // one above the other, not side by side
        const int total = a.width() + b.width();
        if (a.width() < total / 3)
            window->resizeDocks({ dock, other }, { total / 2, total - total / 2 }, Qt::Horizontal);
        break;
    }
    const int height = std::min(kPlanDockHeightPx, static_cast<int>(window->height() * kPlanDockMaxHeightShare));
    if (dock->height() < height)
        window->resizeDocks({ dock }, { height }, Qt::Vertical);
}

/// Shows the Plan dock; when it was hidden, gives it room (giveDockRoom()) in the next turn,
/// once the layout has placed it.
void showPlanDock(QDockWidget* dock)
{
    if (dock->isVisible())
        return;
    dock->show();
    QTimer::singleShot(0, dock, [dock] { giveDockRoom(dock); });
}

/// The pods a failure's action moved that ended on another node under the plan, each once:
/// plan check's count of re-placed pods. Those it left without a node are `unplaced`.
std::size_t podsReplaced(const model::AppliedAction& r, const model::PlanLedger& state)
{
    std::vector<std::uint32_t> pods;
    pods.reserve(r.changes.size());
    for (const model::AppliedAction::PodChange& c : r.changes)
        if (c.to.isValid() && state.podNode(c.pod).isValid())
            pods.push_back(c.pod.index());
    std::sort(pods.begin(), pods.end());
    return static_cast<std::size_t>(std::unique(pods.begin(), pods.end()) - pods.begin());
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

PlanController::PlanController(QMainWindow* window, views::FleetMapView* map, std::shared_ptr<StoreReaders> readers)
    : QObject(window)
    , m_map(map)
    , m_host(new PlanEngineHost(std::move(readers), this))
{
    m_panel = new views::PlanPanel(window);
    m_dock = new QDockWidget(tr("Plan"), window);
    m_dock->setObjectName(QStringLiteral("planDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_panel, &views::PlanPanel::undoBackToRequested, this, &PlanController::undoBackTo);
    connect(m_host, &PlanEngineHost::engineInstalled, this, &PlanController::onEngineInstalled);
    m_steps = new PlanStepRunner(m_host->undoStack(), window, this);
    m_failJob = new LongJob(window, { QStringLiteral("failDomainProgress"), tr("Fail Domain"), kFailDomainProgressAfterMs, 100, nullptr }, this);
    connect(m_steps, &PlanStepRunner::finished, this, [this](bool cancelled) {
        if (cancelled)
            showMessage(tr("Cancelled: the plan is as it was."));
    });
    // The plan marks follow a large step slice by slice (the actions each slice undid or
    // applied), so the refresh at its end counts only what is left: counting a whole
    // consolidation's 26,640 actions back there was part of the turn that went over 50 ms.
    // Only the tracker moves; the map keeps the marks it shows until the refresh.
    connect(m_steps, &PlanStepRunner::progressed, this, [this] {
        const auto& engine = m_host->engine();
        if (m_batch == 0 && engine && m_marks && !m_preparedMarks && m_marksEngine.lock() == engine)
            m_marks->update(*engine, m_host->topology().get(), m_host->takeUnchangedBefore());
    });
    // An undo or redo says what it undid or redid: the status bar kept the undone gesture's
    // sentence ("Failed us-west-2d: ..."), which no longer held. A push moves the index too; it
    // is told from a redo by the command: a redo brings back the one that was next to redo.
    QUndoStack* stack = m_host->undoStack();
    connect(stack, &QUndoStack::indexChanged, this, [this, stack](int index) {
        const int was = std::exchange(m_stackIndex, index);
        const QUndoCommand* nextRedo = std::exchange(m_nextRedo, index < stack->count() ? stack->command(index) : nullptr);
        if (index == was - 1 && index < stack->count())
            showMessage(tr("Undone: %1.").arg(stack->text(index)));
        else if (index == was + 1 && nextRedo && stack->command(index - 1) == nextRedo)
            showMessage(tr("Redone: %1.").arg(stack->text(index - 1)));
    });
    m_drag = new PlanDragController(m_map, m_host, this);
    m_contextMenu = new PlanContextMenu(window, m_map, m_host, this);
    connect(m_contextMenu, &PlanContextMenu::placeWorkloadRequested, this, &PlanController::placeWorkloadRequested);
}

PlanController::~PlanController() = default;

std::shared_ptr<const model::PlanLedger> PlanController::planState() const
{
    return m_host->planState();
}

std::shared_ptr<const views::PlanMarks> PlanController::planMarks() const
{
    return m_marks && !m_marksEngine.expired() && m_marksEngine.lock() == m_host->engine() ? m_marks->marks() : nullptr;
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
    m_steps->abandon(); // the stack is cleared with the cluster
    m_failJob->drop(); // its engine is of the cluster replaced
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
    if (m_host->hasPlan() || !m_host->store() || m_steps->isBusy())
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
    // Called by the adoptions of a worker's engine, each of which pushes a command (or calls
    // afterChange()) in the same turn: afterChange()'s refresh counts the summary and the placed
    // pods once, unless a batch holds it back.
    m_panel->setPlan(m_host->store(), m_host->engine(), m_batch > 0);
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

PlanStepCommand* PlanController::newStep(PlanController* self, const QString& text)
{
    auto* step = new PlanStepCommand(text, [self] { self->afterChange(); });
    step->setRunner([self](PlanStepCommand& s, bool undo) { return self->m_steps->start(s, undo); });
    return step;
}

bool PlanController::isFailingDomain() const noexcept
{
    return m_failJob->isRunning();
}

bool PlanController::isBusy() const noexcept
{
    return m_steps->isBusy();
}

void PlanController::setOpeningPlan(const QString& name)
{
    if (name == m_openingPlan)
        return;
    if (m_openingPlan.isEmpty())
        m_refusedWhileOpening.clear();
    m_openingPlan = name;
    emit editsBlockedChanged();
}

bool PlanController::refuseWhileBusy(const QString& gesture)
{
    if (!m_openingPlan.isEmpty()) {
        // An edit now would go to the plan on screen, which the opened one replaces in a moment.
        // Short: the status bar gives a plan message 40 % of its width.
        showMessage(gesture.isEmpty() ? tr("Not done: %1 is being opened.").arg(m_openingPlan)
                                      : tr("%1 not done: %2 is being opened.").arg(gesture, m_openingPlan));
        m_refusedWhileOpening = gesture.isEmpty() ? tr("An edit") : gesture;
        return true;
    }
    if (!m_steps->isBusy())
        return false;
    showMessage(tr("The plan is being undone or redone; wait for it, or cancel it."));
    return true;
}

bool PlanController::pushAction(const model::PlanAction& action, const QString& text, QString* refusal)
{
    auto* command = new PlanActionCommand(*m_host, action, text, [this] { afterChange(); });
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
    if (refuseWhileBusy())
        return false;
    if (!m_host->engine() || !m_host->store() || pod.index() >= m_host->store()->podCount() || !node.isValid())
        return false;
    const model::PlanLedger& state = m_host->engine()->state();
    if (state.podNode(pod) == node) {
        showMessage(tr("%1 is on %2 already.").arg(m_host->podText(pod), m_host->nodeText(node)));
        return false;
    }
    const model::Verdict verdict = model::checkMove(state, pod, node);
    const model::PodFeasibility feasibility(state, pod);
    // The eviction rules refuse a bound pod whatever the node (one member of a gang, no
    // controller, do-not-disrupt): they lead the refusal, as in the drag's tooltip, and the
    // node's own reasons follow.
    const std::vector<model::Reason> blockers
        = state.podNode(pod).isValid() ? model::checkEviction(*m_host->store(), pod).blockers : std::vector<model::Reason> {};
    if (!override && (!verdict.feasible || !blockers.empty())) {
        std::vector<model::Reason> reasons = blockers;
        reasons.insert(reasons.end(), verdict.reasons.begin(), verdict.reasons.end());
        const bool gang = std::any_of(blockers.begin(), blockers.end(), [](const model::Reason& r) { return r.kind == model::ReasonKind::GangMember; });
        QString hint = gang ? tr(" Hold Ctrl when you start the drag to move the whole workload into a domain.") : QString();
        if (!feasibility.immovable())
            hint += tr(" Shift+drop applies it anyway, as a violation.");
        showMessage(tr("Cannot move %1 to %2: %3.%4").arg(m_host->podText(pod), m_host->nodeText(node), reasonsText(reasons), hint));
        return false;
    }
    if (!verdict.feasible && feasibility.immovable()) {
        showMessage(tr("Cannot move %1 to %2: %3.").arg(m_host->podText(pod), m_host->nodeText(node), reasonsText(verdict.reasons)));
        return false;
    }
    model::PlanAction a;
    a.type = model::ActionType::MovePod;
    a.pod = model::podRef(*m_host->store(), pod);
    a.node = std::string(state.nodeName(node));
    // Shift also overrides the eviction rules (a gang member moved alone), which the engine
    // checks and the filters' verdict does not.
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

QString PlanController::drainRefusal(model::NodeId node) const
{
    const auto& engine = m_host->engine();
    if (!engine || !node.isValid() || node.index() >= engine->state().nodeCount())
        return {};
    const model::PlanLedger& state = engine->state();
    if (state.nodeCordonedByPlan(node))
        return state.nodePresent(node)
            ? tr("%1 is drained by the plan already; that drain does not hold (pods stay on it). Undo it, or remove it in the "
                 "Plan dock, to drain it again.")
                  .arg(m_host->nodeText(node))
            : tr("%1 is drained by the plan already (its pods moved, the node is gone under the plan).").arg(m_host->nodeText(node));
    if (!state.nodePresent(node))
        return tr("%1 is gone under the plan already (failed, or in a failed domain): there is nothing to drain.").arg(m_host->nodeText(node));
    return {};
}

QString PlanController::drainRefusalShort(model::NodeId node) const
{
    const auto& engine = m_host->engine();
    if (!engine || !node.isValid() || node.index() >= engine->state().nodeCount())
        return {};
    const model::PlanLedger& state = engine->state();
    if (state.nodeCordonedByPlan(node))
        return state.nodePresent(node) ? tr("drained by the plan already; the drain does not hold") : tr("drained by the plan already");
    if (!state.nodePresent(node))
        return tr("gone under the plan already");
    return {};
}

bool PlanController::drainNodes(const std::vector<model::NodeId>& requested, const std::vector<model::PlanAction>& first)
{
    if (refuseWhileBusy())
        return false;
    if (!m_host->engine() || (requested.empty() && first.empty()))
        return false;
    // A drained or removed node is left out: a second DrainNode of it is a duplicate action.
    std::vector<model::NodeId> nodes;
    nodes.reserve(requested.size());
    QString refusal;
    std::size_t refused = 0;
    for (const model::NodeId n : requested) {
        if (QString why = drainRefusal(n); !why.isEmpty()) {
            if (refused++ == 0)
                refusal = std::move(why);
        } else {
            nodes.push_back(n);
        }
    }
    if (nodes.empty() && first.empty()) {
        showMessage(refused == 1 ? refusal
                                 : tr("Every one of the %1 nodes is drained or gone under the plan already; nothing to drain.")
                                       .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(refused)))));
        return false;
    }
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
        auto* step = newStep(first.empty() ? tr("Drain %1 nodes").arg(nodes.size())
                                           : tr("Place %1 pending pods, drain %2 nodes").arg(first.size()).arg(nodes.size()));
        for (const model::PlanAction& a : first)
            new PlanActionCommand(*m_host, a, moveText(a), {}, step);
        for (model::NodeId n : nodes)
            new PlanActionCommand(*m_host, drainOf(n), tr("Drain %1").arg(m_host->nodeText(n)), {}, step);
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
    // A drain that leaves pods behind is applied but does not hold: it is no drained node.
    std::size_t holding = 0, failing = 0, stay = 0;
    std::vector<model::Reason> why; // the stranded pods' reasons, one of each code
    for (std::size_t i = drainsFrom; i < m_host->engine()->applied().size(); ++i) {
        const model::AppliedAction& r = m_host->engine()->applied()[i];
        (r.holds ? holding : failing) += 1;
        stay += r.unplaced.size();
        for (const auto& [pod, reasons] : r.unplaced)
            for (const model::Reason& reason : reasons)
                if (std::none_of(why.begin(), why.end(), [&](const model::Reason& w) { return w.code() == reason.code(); }))
                    why.push_back(reason);
        if (r.unplaced.empty())
            for (const model::Reason& reason : r.reasons)
                if (std::none_of(why.begin(), why.end(), [&](const model::Reason& w) { return w.code() == reason.code(); }))
                    why.push_back(reason);
    }
    auto number = [](std::size_t n) { return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n))); };
    QString text;
    if (!first.empty())
        text = tr("Placed %1 pending pods; ").arg(number(drainsFrom - before));
    if (nodes.size() == 1 && failing == 1)
        text += tr("The drain of %1 does not hold: %2 pods cannot move: %3.").arg(m_host->nodeText(nodes.front()), number(stay), reasonsText(why));
    else if (failing > 0)
        text += tr("Drained %1 of %2 nodes; %3 drains do not hold, %4 pods cannot move: %5.")
                    .arg(number(holding), number(nodes.size()), number(failing), number(stay), reasonsText(why));
    else
        text += tr("Drained %1 of %2 nodes.").arg(number(holding), number(nodes.size()));
    if (refused > 0)
        text += tr(" %1 left out, drained or gone under the plan already.").arg(number(refused));
    showMessage(text);
    return m_host->engine()->applied().size() > before;
}

bool PlanController::failNode(model::NodeId node)
{
    if (refuseWhileBusy())
        return false;
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
    showMessage(tr("Failed %1: %2 re-placed on other nodes, %3 left without a node.")
                    .arg(m_host->nodeText(node), countOf(podsReplaced(r, m_host->engine()->state()), "pod", "pods"), countText(r.unplaced.size())));
    return true;
}

bool PlanController::addNodeLike(model::NodeId node)
{
    if (refuseWhileBusy())
        return false;
    if (!m_host->engine() || !node.isValid() || node.index() >= m_host->store()->nodeCount() || m_host->store()->nodeInstanceType(node).empty())
        return false;
    // A node the plan failed or drained is gone, and so is a failed domain's every node: a
    // copy put beside it would land where the plan says nothing runs, without a word.
    if (!m_host->engine()->state().nodePresent(node)) {
        showMessage(tr("Cannot add a node like %1: it is gone under the plan (failed or drained), and the copy would go into its domain. "
                       "Select a node the plan keeps, or use Plan > Add Nodes to choose the domain.")
                        .arg(m_host->nodeText(node)));
        return false;
    }
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
    if (refuseWhileBusy())
        return false;
    if (!m_host->engine() || instanceType.isEmpty() || count < 1)
        return false;
    model::PlanAction a;
    a.type = model::ActionType::AddNode;
    a.instanceType = instanceType.toStdString();
    a.capacityType = capacityType.toStdString();
    a.domain = domain.isValid() && domain != m_host->topology()->root() ? model::domainPathText(*m_host->topology(), domain) : std::string();
    a.count = count;
    const QString what = count == 1 ? tr("a %1 node").arg(instanceType) : tr("%1 %2 nodes").arg(count).arg(instanceType);
    QString refusal; // a missing template node: PlanActionCommand turns apply()'s error into the refusal
    if (!pushAction(a, tr("Add %1").arg(what), &refusal)) {
        showMessage(tr("Cannot add %1: %2.").arg(what, refusal));
        return false;
    }
    showMessage(tr("Added %1 in %2 (drawn under the domain, \"Added by the plan\").")
                    .arg(what, domain.isValid() && domain != m_host->topology()->root() ? m_host->domainText(domain) : tr("the cluster")));
    return true;
}

std::size_t PlanController::domainPods(model::DomainId domain) const
{
    // The loaded pods on the domain's nodes: what its failure plans again, within a few of what
    // the plan moved in or out. O(nodes of the domain).
    const model::ClusterStore& store = *m_host->store();
    std::size_t pods = 0;
    for (const model::NodeId n : m_host->topology()->domainNodes(domain))
        pods += store.nodePods(n).size();
    return pods;
}

bool PlanController::failDomain(model::DomainId domain)
{
    if (refuseWhileBusy())
        return false;
    if (!m_host->engine() || !domain.isValid() || domain == m_host->topology()->root())
        return false;
    if (m_failJob->isRunning()) {
        showMessage(tr("A domain's failure is being planned; wait for it, or cancel it."));
        return false;
    }
    model::PlanAction a;
    a.type = model::ActionType::FailDomain;
    a.domain = model::domainPathText(*m_host->topology(), domain);
    const QString text = tr("Fail domain %1").arg(m_host->domainText(domain));
    if (domainPods(domain) >= m_failDomainOnWorkerPods) {
        startFailDomain(std::move(a), domain, text);
        return true;
    }
    QString refusal;
    if (!pushAction(a, text, &refusal)) {
        showMessage(tr("Cannot fail domain %1: %2.").arg(m_host->domainText(domain), refusal));
        return false;
    }
    const model::AppliedAction& r = m_host->engine()->applied().back();
    showMessage(failedText(domain, r));
    return true;
}

QString PlanController::failedText(model::DomainId domain, const model::AppliedAction& r) const
{
    return tr("Failed %1: %2 gone, %3 re-placed on other nodes, %4 left without a node.")
        .arg(m_host->domainText(domain), countOf(r.nodesRemoved.size(), "node", "nodes"),
            countOf(podsReplaced(r, m_host->engine()->state()), "pod", "pods"), countText(r.unplaced.size()));
}

namespace {

/// A domain's failure planned on a worker: the engine with it applied last, or the error.
struct FailedOnWorker {
    std::shared_ptr<model::PlanEngine> engine;
    std::size_t appliedBefore = 0;
    PlanController::PreparedStep prepared;
    QString error; // "" with an engine; "cancelled" when cancelled
};

} // namespace

void PlanController::startFailDomain(model::PlanAction action, model::DomainId domain, const QString& text)
{
    // Its failure re-plans every pod of the domain (a zone of a 100,000-node fleet: 238,846
    // pods, 16 to 30 s): on a worker, over an engine of its own that replays the plan, which the
    // window then takes as one undo step (adoptStep()), as Plan > Consolidate does.
    std::vector<model::PlanAction> current;
    current.reserve(m_host->engine()->applied().size());
    for (const model::AppliedAction& r : m_host->engine()->applied())
        current.push_back(r.action);
    auto reading = std::make_shared<StoreReadGuard>(m_host->storeReaders(), m_host->shownStore()); // a live batch waits for this worker
    showMessage(tr("Planning the failure of %1\u2026").arg(m_host->domainText(domain)));
    m_failJob->start(
        tr("Failing %1 and placing its pods elsewhere\u2026").arg(m_host->domainText(domain)),
        [action = std::move(action), current = std::move(current), store = m_host->store(), topology = m_host->topology(),
            prices = m_host->nodePrices(), reading, prepare = stepPreparer()](LongJobToken& token) {
            FailedOnWorker out;
            out.appliedBefore = current.size();
            try {
                auto engine = std::make_shared<model::PlanEngine>(*store, *topology, prices);
                for (std::size_t i = 0; i < current.size() && !token.isCancelled(); ++i) {
                    engine->apply(current[i]);
                    token.setProgress(0.5 * static_cast<double>(i + 1) / static_cast<double>(current.size()));
                }
                if (token.isCancelled()) {
                    out.error = QStringLiteral("cancelled");
                    return out;
                }
                token.setBusy(); // the failure itself says nothing of how far it is
                const std::size_t before = engine->applied().size();
                const model::AppliedAction& r = engine->apply(action);
                if (engine->applied().size() == before) {
                    out.error = views::planReasonsText(r.reasons);
                    return out;
                }
                if (token.isCancelled()) {
                    out.error = QStringLiteral("cancelled");
                    return out;
                }
                out.prepared = prepare(*engine, current.size()); // the undo step's commands and the plan marks, here
                out.engine = std::move(engine);
            } catch (const std::exception& e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this, domain, text](FailedOnWorker out) {
            if (!out.engine) {
                showMessage(out.error == QLatin1String("cancelled") ? tr("Cancelled: the plan is as it was.")
                                                                     : tr("Cannot fail domain %1: %2.").arg(m_host->domainText(domain), out.error));
                emit failDomainFinished(false);
                return;
            }
            if (!adoptStep(std::move(out.engine), out.appliedBefore, text, std::move(out.prepared))) {
                showMessage(tr("The plan changed while the failure of %1 was being planned: fail it again.").arg(m_host->domainText(domain)));
                emit failDomainFinished(false);
                return;
            }
            showMessage(failedText(domain, m_host->engine()->applied().back()));
            emit failDomainFinished(true);
        });
}

bool PlanController::placeWorkload(model::WorkloadId workload, model::DomainId domain)
{
    if (refuseWhileBusy())
        return false;
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

/// The engine's applied actions from `first` on, as an undo step holds them.
std::vector<model::PlanAction> appliedActionsFrom(const model::PlanEngine& engine, std::size_t first)
{
    const auto& applied = engine.applied();
    std::vector<model::PlanAction> actions;
    actions.reserve(applied.size() - std::min(first, applied.size()));
    for (std::size_t i = first; i < applied.size(); ++i)
        actions.push_back(applied[i].action);
    return actions;
}

/// The change to the plan's action count that undoing `c` makes (-1 per action its redo applied,
/// + the count a removal took away); nullopt for a command of another kind.
std::optional<std::ptrdiff_t> undoDelta(const QUndoCommand* c)
{
    if (const auto* plan = dynamic_cast<const PlanActionCommand*>(c))
        return plan->applied() ? -1 : 0;
    if (const auto* removal = dynamic_cast<const RemoveActionsCommand*>(c))
        return static_cast<std::ptrdiff_t>(removal->count());
    if (const auto* step = dynamic_cast<const PlanStepCommand*>(c))
        return -static_cast<std::ptrdiff_t>(step->appliedChildren());
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
    if (refuseWhileBusy())
        return;
    if (!m_host->engine() || row < 0)
        return;
    const auto target = static_cast<std::size_t>(row);
    ++m_batch; // one refresh at the end, not one per command undone
    while (m_host->engine()->applied().size() > target && m_host->undoStack()->canUndo()) {
        const std::optional<std::ptrdiff_t> delta = undoDelta(m_host->undoStack()->command(m_host->undoStack()->index() - 1));
        if (delta && static_cast<std::ptrdiff_t>(m_host->engine()->applied().size()) + *delta < static_cast<std::ptrdiff_t>(target))
            break; // it straddles the row: remove its actions after the row instead
        m_host->undoStack()->undo();
        m_steps->finishNow(); // a large step's undo runs in slices: the loop needs it done
    }
    if (const std::size_t n = m_host->engine()->applied().size(); n > target)
        m_host->undoStack()->push(new RemoveActionsCommand(*m_host, n - target, tr("Remove the plan's actions from row %1").arg(row + 1),
            [this] { afterChange(); }));
    --m_batch;
    afterChange();
}

bool PlanController::removeLastAction()
{
    if (refuseWhileBusy())
        return false;
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
    // The marks a worker counted for this very plan (adoptStep(), adoptOpenedPlan(), adoptPlacement());
    // else those of the actions undone and applied since the last change, on the marks of this
    // engine (another engine: counted again).
    const std::size_t unchangedBefore = m_host->takeUnchangedBefore();
    if (m_preparedMarks) {
        m_marks = std::exchange(m_preparedMarks, nullptr);
        m_marksEngine = engine;
    } else if (m_marksEngine.lock() != engine || !m_marks) {
        if (!m_marks)
            m_marks = std::make_shared<views::PlanMarksTracker>();
        m_marks->rebuild(*engine, m_host->topology().get());
        m_marksEngine = engine;
    } else {
        m_marks->update(*engine, m_host->topology().get(), unchangedBefore);
    }
    m_map->setPlanMarks(m_marks->marks());
    m_map->setPlanState(planState());
    if (m_host->trimStale()) // undone actions take their marks along
        m_panel->model()->setStale(m_host->staleReasons());
    m_panel->refresh(unchangedBefore); // the panel made every row again when its engine changed (setPlan())
    if (hasPlan())
        showPlanDock(m_dock);
    emit planChanged();
}

bool PlanController::adoptPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::size_t appliedBefore, const QString& text, std::shared_ptr<views::PlanMarksTracker> marks)
{
    m_steps->finishNow(); // the plan it compares with is the one the step leaves
    const auto& current = m_host->engine();
    if (!current || !engine || !store || current->applied().size() != appliedBefore || engine->applied().size() != appliedBefore + 1)
        return false;
    m_drag->endDrag();
    // The stack's commands reach the engine through the host: they act on this one from now on.
    // The replaced engine and store copy are O(nodes + pods) to free: on a worker, as in adoptStep().
    auto replaced = std::make_shared<PlanEngineHost::Replaced>(m_host->replaceEngine(std::move(store), std::move(engine)));
    showEngineInPanel();
    const std::size_t last = m_host->engine()->applied().size() - 1;
    m_preparedMarks = std::move(marks);
    m_host->undoStack()->push(new PlanActionCommand(*m_host, m_host->engine()->applied()[last].action, text, [this] { afterChange(); },
        PlanActionCommand::AppliedAt { last })); // its redo records the applied action and refreshes the map and panel
    m_preparedMarks.reset();
    releaseOffGuiThread(std::move(replaced));
    return true;
}

bool PlanController::adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text)
{
    return adoptStep(std::move(engine), appliedBefore, text, {});
}

PlanController::PreparedStep::PreparedStep() = default;
PlanController::PreparedStep::PreparedStep(PreparedStep&&) noexcept = default;
PlanController::PreparedStep& PlanController::PreparedStep::operator=(PreparedStep&&) noexcept = default;
PlanController::PreparedStep::~PreparedStep() = default;

PlanController::PreparedStep PlanController::StepPreparer::operator()(const model::PlanEngine& engine, std::size_t appliedBefore) const
{
    PreparedStep prepared;
    prepared.step.reset(newStep(controller, QString())); // adoptStep() names it
    prepared.step->setAppliedActions(*host, appliedActionsFrom(engine, appliedBefore));
    prepared.marks = std::make_shared<views::PlanMarksTracker>();
    prepared.marks->rebuild(engine, topology.get());
    return prepared;
}

bool PlanController::adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text, PreparedStep prepared)
{
    m_steps->finishNow(); // the plan it compares with is the one the step leaves
    const auto& current = m_host->engine();
    if (!current || !engine || &engine->state().store() != m_host->store().get() || current->applied().size() != appliedBefore
        || engine->applied().size() <= appliedBefore)
        return false;
    for (std::size_t i = 0; i < appliedBefore; ++i)
        if (!(engine->applied()[i].action == current->applied()[i].action))
            return false;
    m_drag->endDrag();
    // The replaced engine is O(nodes + pods) to free: on a worker, after the panel, the map and
    // the inspector let go of it below (dropped by the panel's last reference, the ledger of a
    // 100,000-node fleet held the GUI thread about 300 ms). The store stays.
    std::shared_ptr<model::PlanEngine> replaced = m_host->replaceEngine(m_host->store(), std::move(engine)).engine;
    showEngineInPanel();
    m_panel->model()->setStale(m_host->staleReasons());
    const auto& applied = m_host->engine()->applied();
    PlanStepCommand* step = nullptr;
    if (prepared.step && static_cast<std::size_t>(prepared.step->actionCount()) == applied.size() - appliedBefore) {
        step = prepared.step.release();
        step->setText(text);
    } else {
        step = newStep(text);
        step->setAppliedActions(*m_host, appliedActionsFrom(*m_host->engine(), appliedBefore));
    }
    m_preparedMarks = std::move(prepared.marks);
    m_host->undoStack()->push(step); // records them as applied, then one refresh
    m_preparedMarks.reset();
    releaseOffGuiThread(std::move(replaced));
    return true;
}

void PlanController::adoptOpenedPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied, const QString& text, const QString& message, PreparedStep prepared)
{
    if (!store || !engine)
        return;
    m_steps->abandon(); // the stack is cleared below: the plan is replaced
    m_drag->endDrag();
    m_host->cancelBuild(); // an engine build still running is for the plan replaced here
    m_host->undoStack()->clear(); // its commands are the plan replaced here
    m_host->clearStale();
    auto replaced = std::make_shared<PlanEngineHost::Replaced>(m_host->replaceEngine(std::move(store), std::move(engine)));
    showEngineInPanel();
    m_panel->model()->setNotApplied(std::move(notApplied));
    const auto& applied = m_host->engine()->applied();
    if (!applied.empty() && !text.isEmpty()) {
        PlanStepCommand* step = nullptr;
        if (prepared.step && static_cast<std::size_t>(prepared.step->actionCount()) == applied.size()) {
            step = prepared.step.release();
            step->setText(text);
        } else {
            step = newStep(text);
            step->setAppliedActions(*m_host, appliedActionsFrom(*m_host->engine(), 0));
        }
        m_preparedMarks = std::move(prepared.marks);
        m_host->undoStack()->push(step); // records them as applied, then one refresh
        m_preparedMarks.reset();
    } else {
        // No undo step: the actions are the plan's starting point; the marks the worker
        // counted are those of this engine.
        if (!applied.empty())
            m_preparedMarks = std::move(prepared.marks);
        afterChange();
        m_preparedMarks.reset();
    }
    m_host->undoStack()->setClean(); // the plan is the file's: nothing to save
    releaseOffGuiThread(std::move(replaced)); // a ledger is O(nodes + pods) to free
    showPlanDock(m_dock);
    // A refusal shown while the plan opened stays said: the message that the plan opened,
    // which may follow within a frame, carries it.
    const QString refused = std::exchange(m_refusedWhileOpening, QString());
    showMessage(refused.isEmpty() ? message : message + QLatin1Char(' ') + tr("%1 asked for while it opened was not done.").arg(refused));
}

// ---- files ------------------------------------------------------------------------------

QString PlanController::savePlan(const QString& path, const importers::PlanSource& source) const
{
    m_steps->finishNow(); // the plan as the stack has it, not half undone
    return savePlanFile(m_host->engine().get(), path, source, m_consolidationKept.get());
}

QString PlanController::exportPlan(const QString& path, bool kubectlScript, const importers::PlanSource& source) const
{
    m_steps->finishNow();
    return exportPlanFile(m_host->engine().get(), path, kubectlScript, source);
}

QString PlanController::notReadyText() const
{
    // A live cluster's hint replaces "try again": the what-if is built once the feed has been
    // quiet for kLiveRebuildMs, which a busy cluster may never be.
    return m_notReadyHint.isEmpty() ? tr("The what-if is still being prepared for this cluster; try again in a moment.") : m_notReadyHint;
}

} // namespace fleet::app
