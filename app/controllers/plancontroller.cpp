// SPDX-License-Identifier: Apache-2.0
#include "plancontroller.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/storereaders.h"
#include "model/plan/planstaleness.h"
#include "views/plan/planactionsmodel.h"
#include <QTimer>

#include "app/commands/plancommand.h"
#include "app/commands/removeactionscommand.h"
#include "app/commands/planstepcommand.h"
#include "model/plan/planprices.h"

#include "importers/output/outputfile.h"
#include "importers/plan/jsontext.h"
#include "importers/plan/planfile.h"
#include "model/domainpath.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/filters.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planmarksbuilder.h"
#include "views/plan/planpanel.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolTip>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <functional>
#include <cmath>
#include <optional>
#include <stdexcept>
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

// Reason lines for a tooltip: one per reason, at most a dozen.
QString reasonLines(const std::vector<model::Reason>& reasons)
{
    QStringList lines;
    for (const model::Reason& r : reasons) {
        if (lines.size() == 12) {
            lines << QObject::tr("\u2026 and %1 more").arg(reasons.size() - 12);
            break;
        }
        lines << QStringLiteral("\u2022 %1 <code>%2</code>").arg(s(r.message).toHtmlEscaped(), s(r.code()).toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
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

PlanController::PlanController(QMainWindow* window, views::FleetMapView* map, QUndoStack* stack)
    : QObject(window)
    , m_window(window)
    , m_map(map)
    , m_stack(stack)
{
    m_panel = new views::PlanPanel(window);
    m_dock = new QDockWidget(tr("Plan"), window);
    m_dock->setObjectName(QStringLiteral("planDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_panel, &views::PlanPanel::undoBackToRequested, this, &PlanController::undoBackTo);
    m_liveRebuild = new QTimer(this);
    m_liveRebuild->setSingleShot(true);
    m_liveRebuild->setInterval(kLiveRebuildMs);
    connect(m_liveRebuild, &QTimer::timeout, this, [this] {
        if (m_store && m_topology && !m_engine && !hasPlan())
            startEngineBuild();
    });

    connect(m_map, &views::FleetMapView::podDragStarted, this, &PlanController::onDragStarted);
    connect(m_map, &views::FleetMapView::podDragMoved, this, &PlanController::onDragMoved);
    connect(m_map, &views::FleetMapView::podDropped, this, &PlanController::onDropped);
    connect(m_map, &views::FleetMapView::podDragCancelled, this, &PlanController::onDragCancelled);
    connect(m_map, &views::FleetMapView::contextMenuRequested, this, &PlanController::onContextMenu);
}

PlanController::~PlanController() = default;

bool PlanController::hasPlan() const noexcept
{
    return m_engine && !m_engine->applied().empty();
}

std::shared_ptr<const model::PlacementState> PlanController::planState() const
{
    if (!hasPlan())
        return nullptr;
    return std::shared_ptr<const model::PlacementState>(m_engine, &m_engine->state()); // aliasing: keeps the engine
}

void PlanController::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::shared_ptr<const model::PriceTable> prices)
{
    endDrag();
    m_stack->clear(); // its commands hold the old engine
    m_store = std::move(store);
    m_shownStore = m_store;
    m_topology = std::move(topology);
    m_mask.reset();
    m_stale.clear();
    m_liveRebuild->stop();
    installEngine(nullptr);
    ++m_generation;
    if (!m_store || !m_topology)
        return;
    m_priceTable = std::move(prices);
    m_prices = model::planNodePrices(*m_store, m_priceTable.get());
    startEngineBuild();
}

void PlanController::startEngineBuild()
{
    const std::uint64_t generation = ++m_generation;
    if (m_prices.size() != m_store->nodeCount()) // a live cluster gained nodes
        m_prices = model::planNodePrices(*m_store, m_priceTable.get());
    // The ledger's indexes are O(nodes + pods): on a worker over the store, which no live
    // batch changes while the worker holds its StoreReadGuard.
    auto* watcher = new QFutureWatcher<std::shared_ptr<model::PlanEngine>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<model::PlanEngine>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation) // else a newer cluster replaced this one
            installEngine(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([store = m_store, topology = m_topology, prices = m_prices,
                                             reading = std::make_shared<StoreReadGuard>()] {
        return std::make_shared<model::PlanEngine>(*store, *topology, prices);
    }));
}

void PlanController::storeChanged(std::shared_ptr<const model::Topology> topology)
{
    if (hasPlan() || !m_store)
        return;
    endDrag();
    m_topology = std::move(topology);
    if (m_store != m_shownStore) { // a placement's copy: the live store moved on without it
        m_stack->clear();
        m_store = m_shownStore;
    }
    ++m_generation; // a build running now saw the old state: its result is dropped
    if (m_engine) {
        m_panel->setPlan(nullptr, nullptr);
        m_map->setPlanState(nullptr);
        releaseOffGuiThread(std::move(m_engine)); // its ledger is O(nodes + pods) to free
        m_engine.reset();
    }
    // Once the cluster has been quiet for kLiveRebuildMs: the build holds the live batches (it
    // reads the store), so a stream of changes would otherwise stall every few seconds.
    m_liveRebuild->start();
}

void PlanController::checkStale(const model::ClusterChangeBatch& batch)
{
    if (!m_engine || !m_store || !hasPlan())
        return;
    const auto& applied = m_engine->applied();
    m_stale.resize(applied.size());
    bool changed = false;
    for (const model::StaleAction& s : model::findStaleActions(applied, m_engine->state(), batch)) // placed pods re-checked too
        if (m_stale[s.index].isEmpty()) {
            m_stale[s.index] = QString::fromStdString(s.why);
            changed = true;
        }
    if (changed)
        m_panel->model()->setStale(m_stale);
}

void PlanController::buildEngineNow()
{
    if (!m_store || !m_topology)
        return;
    ++m_generation; // drops the worker's result
    installEngine(std::make_shared<model::PlanEngine>(*m_store, *m_topology, m_prices));
}

void PlanController::installEngine(std::shared_ptr<model::PlanEngine> engine)
{
    m_engine = std::move(engine);
    m_panel->setPlan(m_engine ? m_store : nullptr, m_engine);
    m_map->setPlanMarks(nullptr);
    m_map->setPlanState(nullptr);
    if (m_engine)
        emit engineReady();
    emit planChanged();
}

std::shared_ptr<const model::Metric> PlanController::planMetricFor(const QString& id) const
{
    if (!m_engine)
        return nullptr;
    // Aliasing: the metric keeps the engine (and so its state) alive.
    std::shared_ptr<const model::PlacementState> state(m_engine, &m_engine->state());
    const std::string key = id.toStdString();
    if (key.starts_with("plan-diff-"))
        return model::makePlanMetric(state, model::planMetricBaseId(key), model::PlanMetricKind::Difference);
    if (key.starts_with("plan-"))
        return model::makePlanMetric(state, model::planMetricBaseId(key), model::PlanMetricKind::After);
    if (hasPlan())
        return model::makePlanMetric(state, key, model::PlanMetricKind::After); // null for other ids
    return nullptr;
}

QString PlanController::podText(model::PodId pod) const
{
    return s(m_store->podNamespace(pod)) + QLatin1Char('/') + s(m_store->podName(pod));
}

QString PlanController::nodeText(model::NodeId node) const
{
    return m_engine ? s(m_engine->state().nodeName(node)) : s(m_store->nodeName(node));
}

QString PlanController::domainText(model::DomainId domain) const
{
    return s(m_topology->domainName(domain));
}

model::DomainId PlanController::domainOfNode(model::NodeId node) const
{
    if (!node.isValid())
        return {};
    if (node.index() < m_store->nodeCount())
        return m_topology->nodeDomain(node);
    // A node the plan added: the domain its add-node action named.
    if (m_engine)
        for (const model::AppliedAction& a : m_engine->applied())
            if (std::find(a.nodesAdded.begin(), a.nodesAdded.end(), node) != a.nodesAdded.end()) {
                if (a.action.domain.empty())
                    return m_topology->root();
                try {
                    return model::findDomainByPath(*m_topology, model::parseDomainPath(a.action.domain));
                } catch (const std::invalid_argument&) {
                    return {};
                }
            }
    return {};
}

bool PlanController::workloadDraggable(model::WorkloadId w) const
{
    if (!w.isValid() || w.index() >= m_store->workloadCount())
        return false;
    switch (m_store->workloadKind(w)) {
    case model::OwnerKind::Deployment:
    case model::OwnerKind::ReplicaSet:
    case model::OwnerKind::StatefulSet:
    case model::OwnerKind::Job:
    case model::OwnerKind::JobSet:
    case model::OwnerKind::LeaderWorkerSet:
    case model::OwnerKind::TrainingJob:
    case model::OwnerKind::VolcanoJob:
        return true;
    default:
        return false;
    }
}

void PlanController::showMessage(const QString& message, const QPoint& globalPos)
{
    m_lastMessage = message;
    if (!globalPos.isNull())
        QToolTip::showText(globalPos, message.toHtmlEscaped(), m_map);
    emit messageShown(message);
}

// ---- drags ----------------------------------------------------------------------------

void PlanController::onDragStarted(model::PodId pod, Qt::KeyboardModifiers modifiers)
{
    endDrag();
    if (!m_store || pod.index() >= m_store->podCount())
        return;
    if (!m_engine) {
        showMessage(tr("The what-if is still being prepared for this cluster; try again in a moment."));
        return;
    }
    QElapsedTimer timer;
    timer.start();
    m_dragPod = pod;
    if (modifiers & Qt::AltModifier) {
        const model::WorkloadId w = m_store->podWorkload(pod);
        if (workloadDraggable(w))
            m_dragWorkload = w;
    }
    m_feasibility = std::make_unique<model::PodFeasibility>(m_engine->state(), pod);
    m_feasible = std::make_shared<std::vector<std::uint8_t>>();
    m_feasibility->feasibleNodes(*m_feasible); // store nodes, then added ones (their squares)
    // A bound pod that the eviction rules keep from moving alone (one member of a gang, no
    // controller, do-not-disrupt) is refused at the drop whatever the node: no node may look
    // as if it could take it, and each says why (onDragMoved).
    if (!m_dragWorkload.isValid() && m_engine->state().podNode(pod).isValid()) {
        m_dragBlockers = model::checkEviction(*m_store, pod).blockers;
        if (!m_dragBlockers.empty())
            std::fill(m_feasible->begin(), m_feasible->end(), std::uint8_t { 0 });
    }
    m_lastFeasibilityMs = timer.nsecsElapsed() / 1e6;
    m_map->setDragShading(m_feasible);
}

void PlanController::onDragMoved(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers)
{
    if (!m_feasibility)
        return;
    if (m_dragWorkload.isValid()) {
        const model::DomainId target = label.isValid() ? label : domainOfNode(node);
        m_map->setDragTarget(node, true, target);
        if (target.isValid())
            QToolTip::showText(globalPos,
                tr("Drop to place %1 %2/%3 (every pod) in %4")
                    .arg(s(model::ownerKindName(m_store->workloadKind(m_dragWorkload))), s(m_store->workloadNamespace(m_dragWorkload)),
                        s(m_store->workloadName(m_dragWorkload)), domainText(target).toHtmlEscaped()),
                m_map);
        return;
    }
    const bool feasible = node.isValid() && m_dragBlockers.empty() && m_feasibility->feasible(node);
    m_map->setDragTarget(node, feasible, label);
    if (!node.isValid()) {
        QToolTip::hideText();
        return;
    }
    if (!m_dragBlockers.empty()) {
        const bool gang = std::any_of(m_dragBlockers.begin(), m_dragBlockers.end(),
            [](const model::Reason& r) { return r.kind == model::ReasonKind::GangMember; });
        QString hint = gang ? tr("Hold Alt when you start the drag to move the whole workload (every pod of the gang) into a domain.")
                            : QString();
        hint += (hint.isEmpty() ? QString() : QStringLiteral("<br>")) + tr("Shift+drop moves it anyway, as a violation.");
        QToolTip::showText(globalPos,
            tr("<b>%1</b> cannot take %2:<br>%3<br>%4")
                .arg(nodeText(node).toHtmlEscaped(), podText(m_dragPod).toHtmlEscaped(), reasonLines(m_dragBlockers), hint),
            m_map);
        return;
    }
    if (feasible) {
        QToolTip::showText(globalPos, tr("<b>%1</b> can take %2").arg(nodeText(node).toHtmlEscaped(), podText(m_dragPod).toHtmlEscaped()), m_map);
        return;
    }
    const model::Verdict v = m_feasibility->verdict(node);
    QToolTip::showText(globalPos,
        tr("<b>%1</b> cannot take %2:<br>%3").arg(nodeText(node).toHtmlEscaped(), podText(m_dragPod).toHtmlEscaped(), reasonLines(v.reasons)),
        m_map);
}

void PlanController::onDropped(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers)
{
    const model::PodId pod = m_dragPod;
    const model::WorkloadId workload = m_dragWorkload;
    const bool dragging = m_feasibility != nullptr;
    endDrag();
    if (!dragging)
        return;
    QToolTip::hideText();
    if (workload.isValid()) {
        const model::DomainId target = label.isValid() ? label : domainOfNode(node);
        if (target.isValid())
            placeWorkload(workload, target);
        return;
    }
    if (!node.isValid())
        return;
    if (!movePod(pod, node, modifiers & Qt::ShiftModifier) && !m_lastMessage.isEmpty())
        showMessage(m_lastMessage, globalPos);
}

void PlanController::onDragCancelled()
{
    endDrag();
    QToolTip::hideText();
}

void PlanController::endDrag()
{
    const bool was = m_feasibility != nullptr;
    m_feasibility.reset();
    m_feasible.reset();
    m_dragPod = {};
    m_dragWorkload = {};
    m_dragBlockers.clear();
    if (was)
        m_map->setDragShading(nullptr);
}

// ---- commands ---------------------------------------------------------------------------

bool PlanController::pushAction(const model::PlanAction& action, const QString& text, QString* refusal)
{
    auto* command = new PlanCommand(m_engine, action, text, [this] { afterChange(); });
    command->setRefusedHandler([refusal](const model::AppliedAction& r) {
        if (refusal)
            *refusal = views::planReasonsText(r.reasons);
    });
    const std::size_t before = m_engine->applied().size();
    m_stack->push(command); // redo() runs here; a refused command is obsolete and push() deletes it
    return m_engine->applied().size() > before;
}

bool PlanController::movePod(model::PodId pod, model::NodeId node, bool override)
{
    if (!m_engine || !m_store || pod.index() >= m_store->podCount() || !node.isValid())
        return false;
    const model::PlacementState& state = m_engine->state();
    if (state.podNode(pod) == node) {
        showMessage(tr("%1 is on %2 already.").arg(podText(pod), nodeText(node)));
        return false;
    }
    const model::Verdict verdict = model::checkMove(state, pod, node);
    const model::PodFeasibility feasibility(state, pod);
    if (!verdict.feasible && (!override || feasibility.immovable())) {
        showMessage(tr("Cannot move %1 to %2: %3.%4")
                        .arg(podText(pod), nodeText(node), reasonsText(verdict.reasons),
                            feasibility.immovable() ? QString() : tr(" Shift+drop applies it anyway, as a violation.")));
        return false;
    }
    model::PlanAction a;
    a.type = model::ActionType::MovePod;
    a.pod = model::podRef(*m_store, pod);
    a.node = std::string(state.nodeName(node));
    // Shift also overrides the eviction rules (a gang member moved alone), which the engine
    // checks and the filters' verdict does not.
    const std::vector<model::Reason> blockers
        = override && state.podNode(pod).isValid() ? model::checkEviction(*m_store, pod).blockers : std::vector<model::Reason> {};
    a.override = !verdict.feasible || !blockers.empty();
    QString refusal;
    if (!pushAction(a, tr("Move %1 to %2").arg(podText(pod), nodeText(node)), &refusal)) {
        showMessage(tr("Cannot move %1 to %2: %3.").arg(podText(pod), nodeText(node), refusal));
        return false;
    }
    showMessage(a.override ? tr("Moved %1 to %2 as a violation: %3.")
                                 .arg(podText(pod), nodeText(node), reasonsText(verdict.feasible ? blockers : verdict.reasons))
                           : tr("Moved %1 to %2.").arg(podText(pod), nodeText(node)));
    return true;
}

bool PlanController::drainNodes(const std::vector<model::NodeId>& nodes, const std::vector<model::PlanAction>& first)
{
    if (!m_engine || (nodes.empty() && first.empty()))
        return false;
    const std::size_t before = m_engine->applied().size();
    auto drainOf = [this](model::NodeId n) {
        model::PlanAction a;
        a.type = model::ActionType::DrainNode;
        a.node = std::string(m_engine->state().nodeName(n));
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
            new PlanCommand(m_engine, a, moveText(a), {}, step);
        for (model::NodeId n : nodes)
            new PlanCommand(m_engine, drainOf(n), tr("Drain %1").arg(nodeText(n)), {}, step);
        m_stack->push(step); // runs the children in order; deleted when none was applied
        // The placements that were applied come first in the plan; the drains follow.
        while (drainsFrom < m_engine->applied().size() && m_engine->applied()[drainsFrom].action.type != model::ActionType::DrainNode)
            ++drainsFrom;
    } else if (!first.empty()) {
        pushAction(first.front(), moveText(first.front()), nullptr);
        drainsFrom = m_engine->applied().size();
    } else {
        pushAction(drainOf(nodes.front()), tr("Drain %1").arg(nodeText(nodes.front())), nullptr);
    }
    const std::size_t done = m_engine->applied().size() - drainsFrom;
    std::size_t stay = 0;
    for (std::size_t i = drainsFrom; i < m_engine->applied().size(); ++i)
        stay += m_engine->applied()[i].unplaced.size();
    if (first.empty())
        showMessage(tr("Drained %1 of %2 nodes; %3 pods could not move.").arg(done).arg(nodes.size()).arg(stay));
    else
        showMessage(tr("Placed %1 pending pods; drained %2 of %3 nodes; %4 pods could not move.")
                        .arg(drainsFrom - before)
                        .arg(done)
                        .arg(nodes.size())
                        .arg(stay));
    return m_engine->applied().size() > before;
}

bool PlanController::failNode(model::NodeId node)
{
    if (!m_engine || !node.isValid())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::FailNode;
    a.node = std::string(m_engine->state().nodeName(node));
    QString refusal;
    if (!pushAction(a, tr("Fail %1").arg(nodeText(node)), &refusal)) {
        showMessage(tr("Cannot fail %1: %2.").arg(nodeText(node), refusal));
        return false;
    }
    const model::AppliedAction& r = m_engine->applied().back();
    showMessage(tr("Failed %1: %2 pods re-placed, %3 stranded.").arg(nodeText(node)).arg(r.changes.size()).arg(r.unplaced.size()));
    return true;
}

bool PlanController::addNodeLike(model::NodeId node)
{
    if (!m_engine || !node.isValid() || node.index() >= m_store->nodeCount() || m_store->nodeInstanceType(node).empty())
        return false;
    const model::DomainId domain = m_topology->nodeDomain(node);
    model::PlanAction a;
    a.type = model::ActionType::AddNode;
    a.instanceType = std::string(m_store->nodeInstanceType(node));
    a.domain = domain.isValid() && domain != m_topology->root() ? model::domainPathText(*m_topology, domain) : std::string();
    a.count = 1;
    const QString type = QString::fromStdString(a.instanceType);
    QString refusal;
    if (!pushAction(a, tr("Add a %1 node").arg(type), &refusal)) {
        showMessage(tr("Cannot add a %1 node: %2.").arg(type, refusal));
        return false;
    }
    showMessage(tr("Added a %1 node in %2 (drawn under the domain, \"Added by the plan\").")
                    .arg(type, domain.isValid() ? domainText(domain) : tr("the cluster")));
    return true;
}

bool PlanController::addNodes(const QString& instanceType, const QString& capacityType, model::DomainId domain, int count)
{
    if (!m_engine || instanceType.isEmpty() || count < 1)
        return false;
    model::PlanAction a;
    a.type = model::ActionType::AddNode;
    a.instanceType = instanceType.toStdString();
    a.capacityType = capacityType.toStdString();
    a.domain = domain.isValid() && domain != m_topology->root() ? model::domainPathText(*m_topology, domain) : std::string();
    a.count = count;
    const QString what = count == 1 ? tr("a %1 node").arg(instanceType) : tr("%1 %2 nodes").arg(count).arg(instanceType);
    QString refusal; // a missing template node: PlanCommand turns apply()'s error into the refusal
    if (!pushAction(a, tr("Add %1").arg(what), &refusal)) {
        showMessage(tr("Cannot add %1: %2.").arg(what, refusal));
        return false;
    }
    showMessage(tr("Added %1 in %2 (drawn under the domain, \"Added by the plan\").")
                    .arg(what, domain.isValid() && domain != m_topology->root() ? domainText(domain) : tr("the cluster")));
    return true;
}

bool PlanController::failDomain(model::DomainId domain)
{
    if (!m_engine || !domain.isValid() || domain == m_topology->root())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::FailDomain;
    a.domain = model::domainPathText(*m_topology, domain);
    QString refusal;
    if (!pushAction(a, tr("Fail domain %1").arg(domainText(domain)), &refusal)) {
        showMessage(tr("Cannot fail domain %1: %2.").arg(domainText(domain), refusal));
        return false;
    }
    const model::AppliedAction& r = m_engine->applied().back();
    showMessage(tr("Failed %1: %2 nodes gone, %3 pods re-placed, %4 stranded.")
                    .arg(domainText(domain))
                    .arg(r.nodesRemoved.size())
                    .arg(r.changes.size())
                    .arg(r.unplaced.size()));
    return true;
}

bool PlanController::placeWorkload(model::WorkloadId workload, model::DomainId domain)
{
    if (!m_engine || !workload.isValid() || !domain.isValid())
        return false;
    model::PlanAction a;
    a.type = model::ActionType::PlaceWorkload;
    a.workloadNamespace = std::string(m_store->workloadNamespace(workload));
    a.workloadName = std::string(m_store->workloadName(workload));
    a.workloadKind = std::string(model::ownerKindName(m_store->workloadKind(workload)));
    a.domain = domain == m_topology->root() ? std::string() : model::domainPathText(*m_topology, domain);
    const QString name = s(a.workloadKind) + QLatin1Char(' ') + s(a.workloadNamespace) + QLatin1Char('/') + s(a.workloadName);
    QString refusal;
    if (!pushAction(a, tr("Place %1 in %2").arg(name, domainText(domain)), &refusal)) {
        showMessage(tr("Cannot place %1 in %2 (all or nothing): %3.").arg(name, domainText(domain), refusal));
        return false;
    }
    const model::AppliedAction& r = m_engine->applied().back();
    showMessage(tr("Placed %1 in %2: %3 pods.").arg(name, domainText(domain)).arg(r.changes.size()));
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
    if (!m_engine || row < 0)
        return;
    const auto target = static_cast<std::size_t>(row);
    ++m_batch; // one refresh at the end, not one per command undone
    while (m_engine->applied().size() > target && m_stack->canUndo()) {
        const std::optional<std::ptrdiff_t> delta = undoDelta(m_stack->command(m_stack->index() - 1));
        if (delta && static_cast<std::ptrdiff_t>(m_engine->applied().size()) + *delta < static_cast<std::ptrdiff_t>(target))
            break; // it straddles the row: remove its actions after the row instead
        m_stack->undo();
    }
    if (const std::size_t n = m_engine->applied().size(); n > target)
        m_stack->push(new RemoveActionsCommand(m_engine, n - target, tr("Remove the plan's actions from row %1").arg(row + 1),
            [this] { afterChange(); }));
    --m_batch;
    afterChange();
}

bool PlanController::removeLastAction()
{
    if (!hasPlan())
        return false;
    const std::size_t before = m_engine->applied().size();
    const model::PlanAction& last = m_engine->applied().back().action;
    const std::string& subject = !last.node.empty() ? last.node : !last.domain.empty() ? last.domain : !last.pod.name.empty() ? last.pod.name : last.workloadName;
    const QString what = QString::fromUtf8(model::actionTypeName(last.type).data(), static_cast<qsizetype>(model::actionTypeName(last.type).size()))
        + QLatin1Char(' ') + QString::fromStdString(subject);
    m_stack->push(new RemoveActionsCommand(m_engine, 1, tr("Remove %1").arg(what), [this] { afterChange(); }));
    showMessage(tr("Removed %1 (the plan's last action); %2 left.").arg(what).arg(before - 1));
    return m_engine->applied().size() + 1 == before;
}

void PlanController::afterChange()
{
    if (m_batch > 0 || !m_engine)
        return;
    m_map->setPlanMarks(views::buildPlanMarks(*m_engine, m_topology.get()));
    m_map->setPlanState(planState());
    if (m_stale.size() > m_engine->applied().size()) { // undone actions take their marks along
        m_stale.resize(m_engine->applied().size());
        m_panel->model()->setStale(m_stale);
    }
    m_panel->refresh();
    if (hasPlan())
        m_dock->show();
    emit planChanged();
}

bool PlanController::adoptPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::size_t appliedBefore, const QString& text)
{
    if (!m_engine || !engine || !store || m_engine->applied().size() != appliedBefore || engine->applied().size() != appliedBefore + 1)
        return false;
    endDrag();
    rebindCommands(engine);
    m_store = std::move(store);
    m_engine = std::move(engine);
    m_panel->setPlan(m_store, m_engine);
    auto* command = new PlanCommand(m_engine, m_engine->applied().back().action, text, [this] { afterChange(); });
    command->setAppliedAlready();
    m_stack->push(command); // its redo records the applied action and refreshes the map and panel
    return true;
}

void PlanController::rebindCommands(const std::shared_ptr<model::PlanEngine>& engine)
{
    // Every command, in steps too, moves to the new engine (it replayed the same actions).
    std::function<void(const QUndoCommand*)> rebind = [&](const QUndoCommand* c) {
        if (auto* p = dynamic_cast<const PlanCommand*>(c))
            const_cast<PlanCommand*>(p)->setEngine(engine);
        for (int i = 0; i < c->childCount(); ++i)
            rebind(c->child(i));
    };
    for (int i = 0; i < m_stack->count(); ++i)
        rebind(m_stack->command(i));
}

bool PlanController::adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text)
{
    if (!m_engine || !engine || &engine->state().store() != m_store.get() || m_engine->applied().size() != appliedBefore
        || engine->applied().size() <= appliedBefore)
        return false;
    for (std::size_t i = 0; i < appliedBefore; ++i)
        if (!(engine->applied()[i].action == m_engine->applied()[i].action))
            return false;
    endDrag();
    rebindCommands(engine);
    // Freed on a worker (O(nodes + pods)); the store stays with this controller.
    releaseOffGuiThread(std::exchange(m_engine, std::move(engine)));
    m_panel->setPlan(m_store, m_engine);
    m_panel->model()->setStale(m_stale);
    const auto& applied = m_engine->applied();
    auto* step = new PlanStepCommand(text, [this] { afterChange(); });
    for (std::size_t i = appliedBefore; i < applied.size(); ++i)
        (new PlanCommand(m_engine, applied[i].action, views::planActionText(*m_store, applied[i]), {}, step))->setAppliedAlready(i);
    m_stack->push(step); // records them as applied, then one refresh
    return true;
}

void PlanController::adoptOpenedPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
    std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied, const QString& text, const QString& message)
{
    if (!store || !engine)
        return;
    endDrag();
    m_liveRebuild->stop();
    ++m_generation; // an engine build still running is for the plan replaced here
    m_stack->clear(); // its commands hold the engine replaced here
    m_stale.clear();
    struct Replaced {
        std::shared_ptr<const model::ClusterStore> store; // the engine reads it: freed after it
        std::shared_ptr<model::PlanEngine> engine;
    };
    auto replaced = std::make_shared<Replaced>(Replaced { m_store, std::move(m_engine) });
    m_store = std::move(store);
    m_engine = std::move(engine);
    m_panel->setPlan(m_store, m_engine);
    m_panel->model()->setNotApplied(std::move(notApplied));
    const auto& applied = m_engine->applied();
    if (!applied.empty()) {
        auto* step = new PlanStepCommand(text, [this] { afterChange(); });
        for (std::size_t i = 0; i < applied.size(); ++i) {
            auto* c = new PlanCommand(m_engine, applied[i].action, views::planActionText(*m_store, applied[i]), {}, step);
            c->setAppliedAlready(i);
        }
        m_stack->push(step); // records them as applied, then one refresh
    } else {
        afterChange();
    }
    m_stack->setClean(); // the plan is the file's: nothing to save
    releaseOffGuiThread(std::move(replaced)); // a ledger is O(nodes + pods) to free
    m_dock->show();
    showMessage(message);
}

// ---- context menu -----------------------------------------------------------------------

void PlanController::onContextMenu(model::NodeId node, model::DomainId label, const QPoint& globalPos)
{
    if (!m_store || !m_topology)
        return;
    QMenu menu(m_window);
    if (!m_engine) {
        menu.addAction(tr("Preparing the what-if\u2026"))->setEnabled(false);
    } else {
        if (node.isValid()) {
            const QString name = nodeText(node);
            menu.addAction(tr("Drain %1").arg(name), this, [this, node] { drainNodes({ node }); })->setObjectName(QStringLiteral("actionDrainNode"));
            menu.addAction(tr("Fail %1").arg(name), this, [this, node] { failNode(node); })->setObjectName(QStringLiteral("actionFailNode"));
            if (node.index() < m_store->nodeCount() && !m_store->nodeInstanceType(node).empty())
                menu.addAction(tr("Add a Node Like %1").arg(name), this, [this, node] { addNodeLike(node); })
                    ->setObjectName(QStringLiteral("actionAddNodeLike"));
        }
        if (m_mask) {
            std::vector<model::NodeId> nodes;
            for (std::size_t i = 0; i < m_mask->size() && i < m_store->nodeCount(); ++i)
                if ((*m_mask)[i] != 0 && m_engine->state().nodePresent(model::NodeId(static_cast<std::uint32_t>(i))))
                    nodes.push_back(model::NodeId(static_cast<std::uint32_t>(i)));
            if (!nodes.empty() && nodes.size() <= 5000)
                menu.addAction(tr("Drain the %1 Filtered Nodes").arg(nodes.size()), this, [this, nodes] { drainNodes(nodes); })
                    ->setObjectName(QStringLiteral("actionDrainFilteredNodes"));
        }
        if (label.isValid() && label != m_topology->root()) {
            menu.addAction(tr("Fail Domain %1").arg(domainText(label)), this, [this, label] { failDomain(label); })
                ->setObjectName(QStringLiteral("actionFailDomain"));
            menu.addAction(tr("Place Workload Here\u2026"), this, [this, label] { emit placeWorkloadRequested(label); })
                ->setObjectName(QStringLiteral("actionPlaceWorkloadHere"));
        }
    }
    if (menu.isEmpty())
        return;
    menu.exec(globalPos);
}

// ---- files ------------------------------------------------------------------------------

QString PlanController::savePlan(const QString& path, const importers::PlanSource& source) const
{
    if (!m_engine)
        return tr("No plan to save.");
    importers::PlanDocument doc;
    doc.source = source;
    for (const model::AppliedAction& a : m_engine->applied())
        doc.actions.push_back(a.action);
    importers::OutputFileOptions options; // the loaded files: a plan saved over one would destroy the cluster it names
    for (const importers::PlanSource::File& f : source.files)
        options.inputs.push_back(f.name);
    try {
        importers::writeOutputFile(path.toStdString(), importers::planJson(doc), options);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString PlanController::exportPlan(const QString& path, bool kubectlScript, const importers::PlanSource& source) const
{
    if (!m_engine)
        return tr("No plan to export.");
    importers::PlanEvaluation evaluation;
    evaluation.actions = m_engine->applied();
    evaluation.before = m_engine->state().totalsBefore();
    evaluation.after = m_engine->state().totals();
    evaluation.addedNodeNames = importers::addedNodeNames(m_engine->state());
    evaluation.state = source;
    try { // a name no shell word can carry (a NUL byte) refuses the script
        const std::string text = kubectlScript ? importers::planKubectlScript(evaluation, *m_store) : importers::planCsv(evaluation, *m_store);
        importers::OutputFileOptions options;
        options.executable = kubectlScript;
        importers::writeOutputFile(path.toStdString(), text, options); // a failure leaves the previous file
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace fleet::app
