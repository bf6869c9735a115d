// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan engine of the shown cluster and the undo stack whose commands act on it, owned
// together so that the engine can be replaced under the commands (a placement computed on a
// worker over a copy of the store) without touching any command.

#include "model/clusterchange.h"
#include "model/clusterstore.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/pricing/pricetable.h"
#include "model/topology.h"

#include <QObject>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

class QTimer;
class QUndoStack;

namespace fleet::app {

class StoreReaders;

/// Owns the PlanEngine of the shown cluster, the store it reads (the shown one, or its copy
/// with a placement's template pods), the node prices, and the QUndoStack of the plan. The undo
/// commands (app/commands/) hold a reference to this host and reach the engine through
/// engine() at each redo and undo, so replaceEngine() moves every command to the new engine at
/// once. Builds the engine on a worker when a cluster arrives (the ledger's indexes are
/// O(nodes + pods)), and again after live diffs once the cluster has been quiet for
/// kLiveRebuildMs; engineInstalled() follows each install (also of none). Keeps the staleness
/// marks of the applied actions. Names of pods, nodes and domains for people come from here
/// too (they read the engine's state or the store). Thread: GUI thread.
class PlanEngineHost : public QObject {
    Q_OBJECT
public:
    /// `readers` (not null): where the workers that read the shown store are counted (the
    /// engine's build here, and every worker started by the plan's gestures and dialogs).
    explicit PlanEngineHost(std::shared_ptr<StoreReaders> readers, QObject* parent = nullptr);
    ~PlanEngineHost() override;

    /// The plan's undo stack (owned; every command on it acts on engine()).
    [[nodiscard]] QUndoStack* undoStack() const noexcept { return m_stack; }

    /// A new cluster: the undo stack and the stale marks are cleared, the engine is dropped
    /// (engineInstalled()) and built again on a worker (engineInstalled() when it is in
    /// place). Null pointers clear.
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        std::shared_ptr<const model::PriceTable> prices);
    /// Builds the engine now, on this thread (tests, and the headless paths).
    void buildEngineNow();
    /// The store changed under a plan without actions (a live diff; `topology` the current
    /// one): the engine, built over the old state, is freed off the GUI thread at once and
    /// built again on a worker once no diff came for kLiveRebuildMs. The stack is cleared with
    /// it (what is left on it, undone commands, acts on that engine), and a placement's store
    /// copy is given up for the shown store. The caller lets go of the engine
    /// first (panel, map). No-op while the plan has actions or without a store.
    void storeChanged(std::shared_ptr<const model::Topology> topology);
    static constexpr int kLiveRebuildMs = 3000;
    /// Drops the result of an engine build still running and stops a pending live rebuild.
    void cancelBuild();

    /// Puts `engine` (reading `store`, which must outlive it) in place of the current engine,
    /// without a signal: the stack's commands act on it from now on (it replayed their
    /// actions). Returns the replaced store and engine, for the caller to free (a ledger is
    /// O(nodes + pods): releaseOffGuiThread()).
    struct Replaced {
        std::shared_ptr<const model::ClusterStore> store; // the engine reads it: freed after it
        std::shared_ptr<model::PlanEngine> engine;
    };
    [[nodiscard]] Replaced replaceEngine(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine);

    /// Marks the applied actions that `batch` (not applied yet: held while the plan is open)
    /// makes stale, with why (model/plan/planstaleness.h). True when a mark was added. A mark
    /// stays until the action is undone (trimStale()) or the cluster replaced.
    bool checkStale(const model::ClusterChangeBatch& batch);
    /// Drops the marks of undone actions; true when some were dropped.
    bool trimStale();
    void clearStale() { m_stale.clear(); }
    /// Why each applied action is stale ("" when it is not), by action index.
    [[nodiscard]] const std::vector<QString>& staleReasons() const noexcept { return m_stale; }

    [[nodiscard]] const std::shared_ptr<model::PlanEngine>& engine() const noexcept { return m_engine; }
    /// What follows the plan change by change (the map's plan marks, views::PlanMarksTracker)
    /// needs the first applied action that may differ since it last looked: each command calls
    /// this with the index of the action it is about to undo or apply, before it does
    /// (the engine undoes and applies at the end only). takeUnchangedBefore() returns the lowest
    /// index noted since the last call (SIZE_MAX: none) and forgets it. O(1).
    void noteAppliedChangeAt(std::size_t index) noexcept { m_unchangedBefore = std::min(m_unchangedBefore, index); }
    [[nodiscard]] std::size_t takeUnchangedBefore() noexcept { return std::exchange(m_unchangedBefore, SIZE_MAX); }
    /// The engine's store: the shown one, or its copy with a placement's template pods.
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> store() const noexcept { return m_store; }
    /// The window's store, which live batches change: what a worker's StoreReadGuard names.
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> shownStore() const noexcept { return m_shownStore; }
    /// The window's count of store readers (never null): what a worker's StoreReadGuard counts in.
    [[nodiscard]] const std::shared_ptr<StoreReaders>& storeReaders() const noexcept { return m_readers; }
    [[nodiscard]] std::shared_ptr<const model::Topology> topology() const noexcept { return m_topology; }
    /// Node prices in $/h by NodeId (empty without a price table).
    [[nodiscard]] const std::vector<double>& nodePrices() const noexcept { return m_prices; }
    [[nodiscard]] bool hasPlan() const noexcept { return m_engine && !m_engine->applied().empty(); }
    /// The engine's ledger while the plan has actions (it keeps the engine alive), else null.
    [[nodiscard]] std::shared_ptr<const model::PlanLedger> planState() const;
    /// The map's metric for a chosen metric id: under a plan with actions, "gpu", "cpu" and
    /// "memory" become their "plan-" versions; "plan-diff-*" need an engine. Null: use the
    /// registry's metric for `id`.
    [[nodiscard]] std::shared_ptr<const model::Metric> planMetricFor(const QString& id) const;

    /// "namespace/name" of a store pod.
    [[nodiscard]] QString podText(model::PodId pod) const;
    /// A node's name (one the plan added too, while the engine is there).
    [[nodiscard]] QString nodeText(model::NodeId node) const;
    [[nodiscard]] QString domainText(model::DomainId domain) const;
    /// The innermost domain of a store node; for a node the plan added, its add-node's domain.
    [[nodiscard]] model::DomainId domainOfNode(model::NodeId node) const;

signals:
    /// The engine was replaced by a build, or dropped (engine() null) by setCluster().
    void engineInstalled();

private:
    void startEngineBuild();
    void installEngine(std::shared_ptr<model::PlanEngine> engine);
    /// The engine's ledger, owning the engine and the store and topology it reads.
    [[nodiscard]] std::shared_ptr<const model::PlanLedger> ledgerKeepingItsInputs() const;

    QUndoStack* m_stack = nullptr;
    std::shared_ptr<const model::ClusterStore> m_store;      // the engine's: the shown one, or its copy with template pods
    std::shared_ptr<const model::ClusterStore> m_shownStore; // the window's
    std::shared_ptr<StoreReaders> m_readers;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const model::PriceTable> m_priceTable;
    std::vector<double> m_prices;
    std::shared_ptr<model::PlanEngine> m_engine;
    std::size_t m_unchangedBefore = SIZE_MAX; // noteAppliedChangeAt()
    std::uint64_t m_generation = 0;
    std::vector<QString> m_stale; // by applied action index
    QTimer* m_liveRebuild = nullptr; // single shot: the engine's build after live diffs
};

} // namespace fleet::app
