// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs cluster imports on a worker thread for the GUI: progress, cancel, stale results dropped.

#include "app/window/clustertotals.h"

#include "importers/clusterloader.h"
#include "importers/document/fleetdocument.h"
#include "importers/importreport.h"
#include "importers/kube/kubeconfig.h"
#include "importers/prometheus/usagequery.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

class QTimer;

namespace fleet::app {

/// ImportProgress for a job on a worker thread: the worker stores `done`/`total` in atomics
/// (cheap, no signal per call) and polls an atomic cancel flag; the GUI thread reads the
/// figures with a timer, so the progress bar is updated at most ten times a second however
/// often the importer reports. Thread: progress()/isCancelled() on the worker, the rest anywhere.
class AtomicImportProgress final : public importers::ImportProgress {
public:
    void progress(std::size_t done, std::size_t total) override
    {
        m_done.store(done, std::memory_order_relaxed);
        m_total.store(total, std::memory_order_relaxed);
    }
    bool isCancelled() const override { return m_cancelled.load(std::memory_order_relaxed); }
    /// Sets the cancel flag; the importer throws ImportCancelled at its next poll.
    void cancel() noexcept { m_cancelled.store(true, std::memory_order_relaxed); }
    /// The last figures progress() stored (0 before the first call), in the importer's unit.
    [[nodiscard]] std::size_t done() const noexcept { return m_done.load(std::memory_order_relaxed); }
    [[nodiscard]] std::size_t total() const noexcept { return m_total.load(std::memory_order_relaxed); }

private:
    std::atomic<std::size_t> m_done { 0 };
    std::atomic<std::size_t> m_total { 0 };
    std::atomic<bool> m_cancelled { false };
};

/// What a .fleet document holds besides its cluster (importers::FleetDocument), when the
/// imported file was one: the window keeps its plans and re-saves its provenance.
struct OpenedDocument {
    QString path; ///< the .fleet file as given
    std::string sourceLabel; ///< the label the state was saved with (the cluster's is "FILE.fleet (LABEL)")
    std::vector<importers::DocumentPlan> plans;
    importers::PlanSource provenance;
    std::string takenAt;
    std::vector<std::string> topologyKeys;
    std::string priceTableCsv;
};

/// What the worker hands back: the cluster (immutable from now on) and its totals.
struct ImportedCluster {
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
    importers::ImportReport report;
    QString sourceLabel;
    /// What nodes and pods use, where the source has it (the simulated cluster); else null.
    std::shared_ptr<const model::ClusterUsage> usage;
    /// The Prometheus `usage` came from (the job's usage source), or nullopt: a live cluster's
    /// usage is queried from it again while it is watched (UsageController).
    std::optional<importers::prometheus::UsageSource> usageSource;
    /// A live cluster only (importers::LoadedCluster): its API server and the pod list's
    /// resourceVersion, which a saved plan names as its source.
    QString server, resourceVersion;
    /// A live cluster only: the node list's resourceVersion and the kubeconfig it was listed
    /// with, from which the window watches it (importers/live/kubewatchfeed.h).
    QString nodesResourceVersion;
    std::shared_ptr<const importers::kube::ResolvedKubeconfig> kubeconfig;
    /// A live cluster only: "" when the LIST saw every namespace's pods, else what it saw
    /// (importers::LoadedCluster::partialView), for the partial-view notice.
    QString partialView;
    /// The document's plans and provenance when the source was one .fleet file; else null.
    std::shared_ptr<const OpenedDocument> document;
    ClusterTotals totals;
    qint64 loadMs = 0; // wall time on the worker: import/generate, finalize, topology, totals
    qint64 totalsMs = 0; // of which computeTotals()
};

/// Starts imports with QtConcurrent::run over importers::loadClusterFiles /
/// loadSimulatedCluster and reports their end on the GUI thread.
///
/// Every start bumps a generation counter and cancels the job before it; a result whose
/// generation is not the current one is dropped (never emitted), so the last request wins.
/// cancel() sets the job's atomic flag; the importer stops at its next poll and
/// importCancelled() follows. Thread: GUI thread (the object and its signals).
class ImportController : public QObject {
    Q_OBJECT
public:
    explicit ImportController(QObject* parent = nullptr);
    ~ImportController() override;

    /// Where a job's usage comes from: a Prometheus (queried on the worker after the import; a
    /// failure is a warning of the import), for that job only; nullopt: none beyond what the
    /// source has (the simulated cluster's, metrics-server's for a live cluster).
    using Usage = std::optional<importers::prometheus::UsageSource>;
    /// Imports `paths` (kubectl JSON, Alibaba CSV, ...; see loadClusterFiles) into one cluster.
    /// One .fleet document (importers::isFleetDocumentFile) is opened with its plans
    /// (ImportedCluster::document).
    void startFiles(const QStringList& paths, Usage usage = std::nullopt);
    /// Generates a simulated cluster of `nodeCount` nodes from `seed` over `regions` regions
    /// (importers::SimulationSpec::regionCount; 1: one regional cluster).
    void startSimulated(std::size_t nodeCount, std::uint64_t seed, Usage usage = std::nullopt, std::size_t regions = 1);
    /// Lists a live cluster once (importers::loadLiveCluster) with kubeconfig as kubectl reads it:
    /// `kubeconfig` (empty: KUBECONFIG or ~/.kube/config) and `context` (empty: current-context).
    /// `input`: where the user gave them, which the errors name (the command line's flags or the
    /// Connect dialog's fields); `requestTimeout`: the longest one request (--request-timeout).
    void startLive(const QString& kubeconfig, const QString& context, Usage usage = std::nullopt,
                   importers::kube::KubeconfigInput input = importers::kube::KubeconfigInput::CommandLine,
                   std::chrono::milliseconds requestTimeout = importers::kube::kDefaultRequestTimeout);
    /// Cancels the running job, if any (its result is dropped; importCancelled() follows).
    void cancel();

    /// True while a job runs whose result would still be emitted.
    [[nodiscard]] bool isBusy() const noexcept { return m_job != nullptr; }
    /// The generation of the latest job (starts at 0, +1 per start).
    [[nodiscard]] std::uint64_t generation() const noexcept { return m_generation; }

signals:
    /// A job started; `label` says what is being read.
    void importStarted(const QString& label);
    /// Progress of the current job in [0, 1000] (-1 when the total is not known yet), ~10x/s.
    void progressChanged(int permille);
    /// A live cluster's request is slow: what it waits for (kube::RequestWait::describe()),
    /// after progressChanged() on each poll while it waits.
    void importWaiting(const QString& text);
    /// The current job finished; `cluster` is never null.
    void importFinished(std::shared_ptr<const fleet::app::ImportedCluster> cluster);
    /// The current job failed; `message` is ImportError::what() (file, place, what was expected).
    void importFailed(const QString& message);
    /// The current job was cancelled: emitted by cancel() itself, or when the worker stopped
    /// on a cancel it saw. Nothing was imported; the previous cluster stays.
    void importCancelled();

private:
    struct Job;
    template <class Load>
    void start(const QString& label, Usage usage, Load load, std::shared_ptr<OpenedDocument> document = nullptr);
    void pollProgress();

    std::uint64_t m_generation = 0;
    std::shared_ptr<Job> m_job; // the current job; null when idle
    QTimer* m_progressTimer = nullptr;
};

} // namespace fleet::app
