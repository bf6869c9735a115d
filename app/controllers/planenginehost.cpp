// SPDX-License-Identifier: Apache-2.0
#include "planenginehost.h"
#include "app/controllers/workerpool.h"

#include "app/controllers/offthreadrelease.h"
#include "app/controllers/storereaders.h"
#include "model/domainpath.h"
#include "model/metrics/planmetrics.h"
#include "model/plan/planprices.h"
#include "model/plan/planstaleness.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace fleet::app {

namespace {

QString s(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

} // namespace

PlanEngineHost::PlanEngineHost(std::shared_ptr<StoreReaders> readers, QObject* parent)
    : QObject(parent)
    , m_stack(new QUndoStack(this))
    , m_readers(std::move(readers))
{
    m_liveRebuild = new QTimer(this);
    m_liveRebuild->setSingleShot(true);
    m_liveRebuild->setInterval(kLiveRebuildMs);
    connect(m_liveRebuild, &QTimer::timeout, this, [this] {
        if (m_store && m_topology && !m_engine && !hasPlan())
            startEngineBuild();
    });
}

PlanEngineHost::~PlanEngineHost()
{
    // The commands go before the engine they act on (they do not touch it when deleted).
    delete m_stack;
}

std::shared_ptr<const model::PlanLedger> PlanEngineHost::planState() const
{
    if (!hasPlan())
        return nullptr;
    return ledgerKeepingItsInputs();
}

std::shared_ptr<const model::PlanLedger> PlanEngineHost::ledgerKeepingItsInputs() const
{
    // The ledger reads the engine's store and topology by reference: a reader that outlives
    // this engine (a panel's model, a metric on a worker, after a placement replaced the
    // engine and its store copy) keeps all three. Members go in reverse order: the engine
    // first, then what it read.
    struct Inputs {
        std::shared_ptr<const model::ClusterStore> store;
        std::shared_ptr<const model::Topology> topology;
        std::shared_ptr<model::PlanEngine> engine;
    };
    auto inputs = std::make_shared<const Inputs>(Inputs { m_store, m_topology, m_engine });
    return std::shared_ptr<const model::PlanLedger>(inputs, &inputs->engine->state());
}

void PlanEngineHost::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::shared_ptr<const model::PriceTable> prices)
{
    m_stack->clear(); // its commands act on the old engine
    m_store = std::move(store);
    m_shownStore = m_store;
    m_topology = std::move(topology);
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

void PlanEngineHost::startEngineBuild()
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
    watcher->setFuture(QtConcurrent::run(longWorkPool(), [store = m_store, topology = m_topology, prices = m_prices,
                                             reading = std::make_shared<StoreReadGuard>(m_readers, m_shownStore)] {
        return std::make_shared<model::PlanEngine>(*store, *topology, prices);
    }));
}

void PlanEngineHost::storeChanged(std::shared_ptr<const model::Topology> topology)
{
    if (hasPlan() || !m_store)
        return;
    m_topology = std::move(topology);
    // The commands left on the stack (undone ones, or removals of every action) act on the
    // engine dropped here: they go with it, once the stack has returned (this runs inside an
    // undo that emptied the plan, which let the held live batches in).
    if (m_store != m_shownStore)
        m_stack->clear();
    else if (m_engine)
        QMetaObject::invokeMethod(m_stack, &QUndoStack::clear, Qt::QueuedConnection);
    m_store = m_shownStore; // a placement's copy: the live store moved on without it
    ++m_generation; // a build running now saw the old state: its result is dropped
    if (m_engine) {
        releaseOffGuiThread(std::move(m_engine)); // its ledger is O(nodes + pods) to free
        m_engine.reset();
    }
    // Once the cluster has been quiet for kLiveRebuildMs: the build holds the live batches (it
    // reads the store), so a stream of changes would otherwise stall every few seconds.
    m_liveRebuild->start();
}

void PlanEngineHost::cancelBuild()
{
    m_liveRebuild->stop();
    ++m_generation;
}

void PlanEngineHost::buildEngineNow()
{
    if (!m_store || !m_topology)
        return;
    ++m_generation; // drops the worker's result
    installEngine(std::make_shared<model::PlanEngine>(*m_store, *m_topology, m_prices));
}

void PlanEngineHost::installEngine(std::shared_ptr<model::PlanEngine> engine)
{
    m_engine = std::move(engine);
    emit engineInstalled();
}

PlanEngineHost::Replaced PlanEngineHost::replaceEngine(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine)
{
    Replaced old { std::exchange(m_store, std::move(store)), std::exchange(m_engine, std::move(engine)) };
    return old;
}

bool PlanEngineHost::checkStale(const model::ClusterChangeBatch& batch)
{
    if (!m_engine || !m_store || !hasPlan())
        return false;
    const auto& applied = m_engine->applied();
    m_stale.resize(applied.size());
    bool changed = false;
    for (const model::StaleAction& a : model::findStaleActions(applied, m_engine->state(), batch)) // placed pods re-checked too
        if (m_stale[a.index].isEmpty()) {
            m_stale[a.index] = QString::fromStdString(a.why);
            changed = true;
        }
    return changed;
}

bool PlanEngineHost::trimStale()
{
    if (!m_engine || m_stale.size() <= m_engine->applied().size())
        return false;
    m_stale.resize(m_engine->applied().size()); // undone actions take their marks along
    return true;
}

std::shared_ptr<const model::Metric> PlanEngineHost::planMetricFor(const QString& id) const
{
    if (!m_engine)
        return nullptr;
    const std::shared_ptr<const model::PlanLedger> state = ledgerKeepingItsInputs();
    const std::string key = id.toStdString();
    if (key.starts_with("plan-diff-"))
        return model::makePlanMetric(state, model::planMetricBaseId(key), model::PlanMetricKind::Difference);
    if (key.starts_with("plan-"))
        return model::makePlanMetric(state, model::planMetricBaseId(key), model::PlanMetricKind::After);
    if (hasPlan())
        return model::makePlanMetric(state, key, model::PlanMetricKind::After); // null for other ids
    return nullptr;
}

QString PlanEngineHost::podText(model::PodId pod) const
{
    return s(m_store->podNamespace(pod)) + QLatin1Char('/') + s(m_store->podName(pod));
}

QString PlanEngineHost::nodeText(model::NodeId node) const
{
    return m_engine ? s(m_engine->state().nodeName(node)) : s(m_store->nodeName(node));
}

QString PlanEngineHost::domainText(model::DomainId domain) const
{
    return s(m_topology->domainName(domain));
}

model::DomainId PlanEngineHost::domainOfNode(model::NodeId node) const
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

} // namespace fleet::app
