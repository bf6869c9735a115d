// SPDX-License-Identifier: Apache-2.0
#include "importcontroller.h"
#include "app/controllers/workerpool.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"

#include "app/cli/commandlinepath.h"
#include "app/shared/importfailure.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace fleet::app {

namespace {
// What the worker returns: exactly one of cluster / error / cancelled.
struct Outcome {
    std::shared_ptr<const ImportedCluster> cluster;
    QString error;
    bool cancelled = false;
};
} // namespace

// The job's ImportProgress as the importer sees it: the atomic figures and cancel flag, and what a
// slow request of a live cluster waits for (kept until the next progress, or for 6 s: a request
// still waiting is reported again every 5 s). Thread: the worker writes, the GUI reads.
class WaitingProgress final : public importers::ImportProgress, public importers::kube::RequestObserver {
public:
    explicit WaitingProgress(AtomicImportProgress& figures)
        : m_figures(figures)
    {
    }
    void progress(std::size_t done, std::size_t total) override
    {
        m_figures.progress(done, total);
        const std::lock_guard lock(m_mutex);
        m_waiting.clear();
    }
    bool isCancelled() const override { return m_figures.isCancelled(); }
    void requestWaiting(const importers::kube::RequestWait& wait) override
    {
        const std::lock_guard lock(m_mutex);
        m_waiting = QString::fromStdString(wait.describe());
        m_saidAt = std::chrono::steady_clock::now();
    }
    QString waiting() const
    {
        const std::lock_guard lock(m_mutex);
        return std::chrono::steady_clock::now() - m_saidAt < std::chrono::seconds(6) ? m_waiting : QString();
    }

private:
    AtomicImportProgress& m_figures;
    mutable std::mutex m_mutex;
    QString m_waiting;
    std::chrono::steady_clock::time_point m_saidAt;
};

struct ImportController::Job {
    std::uint64_t generation = 0;
    AtomicImportProgress progress;
    WaitingProgress note { progress };
};

ImportController::ImportController(QObject* parent)
    : QObject(parent)
    , m_progressTimer(new QTimer(this))
{
    m_progressTimer->setInterval(100); // at most ten progress updates a second
    connect(m_progressTimer, &QTimer::timeout, this, &ImportController::pollProgress);
}

ImportController::~ImportController()
{
    // A running worker keeps its Job alive through its own shared_ptr; cancel it so that it
    // ends soon. Its result is delivered to a watcher that dies with us, so it is dropped.
    if (m_job)
        m_job->progress.cancel();
}

void ImportController::startFiles(const QStringList& paths, Usage usage)
{
    std::vector<std::string> files;
    files.reserve(static_cast<std::size_t>(paths.size()));
    for (const QString& p : paths)
        files.push_back(commandLinePath(p));
    if (files.size() == 1 && importers::isFleetDocumentFile(files.front())) {
        // The document's plans travel beside its cluster, filled in on the worker.
        auto document = std::make_shared<OpenedDocument>();
        document->path = paths.front();
        start(filesSourceLabel(paths), std::move(usage),
            [path = files.front(), document](importers::ImportProgress* progress) {
                importers::FleetDocument doc = importers::openFleetDocument(path);
                document->plans = std::move(doc.plans);
                document->provenance = std::move(doc.provenance);
                document->takenAt = std::move(doc.takenAt);
                document->topologyKeys = std::move(doc.topologyKeys);
                document->priceTableCsv = std::move(doc.priceTableCsv);
                document->sourceLabel = doc.cluster.sourceLabel;
                const std::string base = std::filesystem::path(path).filename().string();
                doc.cluster.sourceLabel = base + (doc.cluster.sourceLabel.empty() ? "" : " (" + doc.cluster.sourceLabel + ")");
                if (progress)
                    progress->progress(1, 1);
                return std::move(doc.cluster);
            },
            document);
        return;
    }
    start(filesSourceLabel(paths), std::move(usage),
        [files](importers::ImportProgress* progress) { return importers::loadClusterFiles(files, progress); });
}

void ImportController::startSimulated(std::size_t nodeCount, std::uint64_t seed, Usage usage, std::size_t regions)
{
    importers::SimulationSpec spec;
    spec.nodeCount = nodeCount;
    spec.seed = seed;
    spec.regionCount = regions;
    start(simulatedSourceLabel(nodeCount, seed, regions), std::move(usage),
        [spec](importers::ImportProgress* progress) { return importers::loadSimulatedCluster(spec, progress); });
}

void ImportController::startLive(const QString& kubeconfig, const QString& context, Usage usage, importers::kube::KubeconfigInput input,
                                 std::chrono::milliseconds requestTimeout)
{
    auto request = importers::kube::KubeconfigRequest::fromEnvironment(kubeconfig.toStdString(), context.toStdString());
    request.input = input;
    request.requestTimeout = requestTimeout;
    start(liveSourceLabel(context), std::move(usage), [request](importers::ImportProgress* progress) {
        return importers::loadLiveCluster(importers::kube::loadKubeconfig(request), progress);
    });
}

template <class Load>
void ImportController::start(const QString& label, Usage usage, Load load, std::shared_ptr<OpenedDocument> document)
{
    if (m_job) {
        m_job->progress.cancel();
        m_job.reset();
    }
    auto job = std::make_shared<Job>();
    job->generation = ++m_generation;
    m_job = job;

    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        if (job->generation != m_generation || m_job != job)
            return; // stale: a newer job (or a cancel) replaced this one
        m_job.reset();
        m_progressTimer->stop();
        if (outcome.cluster) {
            emit progressChanged(1000);
            emit importFinished(outcome.cluster);
        } else if (outcome.cancelled) {
            emit importCancelled();
        } else {
            emit importFailed(outcome.error);
        }
    });

    // The worker owns a copy of `job` (progress and cancel flag) and works only on its own data.
    watcher->setFuture(QtConcurrent::run(longWorkPool(), [job, load, label, usage = std::move(usage), document]() -> Outcome {
        Outcome out;
        QElapsedTimer clock;
        clock.start();
        try {
            importers::LoadedCluster loaded = load(&job->note);
            if (job->progress.isCancelled()) {
                out.cancelled = true;
                return out;
            }
            if (usage)
                loaded.usage = importers::prometheus::loadClusterUsage(*usage, *loaded.store, loaded.report);
            auto result = std::make_shared<ImportedCluster>();
            const qint64 loadedAt = clock.elapsed();
            result->totals = computeTotals(*loaded.store, loaded.report);
            result->totalsMs = clock.elapsed() - loadedAt;
            result->store = std::move(loaded.store);
            result->topology = std::move(loaded.topology);
            result->report = std::move(loaded.report);
            result->usage = std::move(loaded.usage);
            result->usageSource = usage;
            result->server = QString::fromStdString(loaded.server);
            result->resourceVersion = QString::fromStdString(loaded.resourceVersion);
            result->nodesResourceVersion = QString::fromStdString(loaded.nodesResourceVersion);
            result->kubeconfig = std::move(loaded.kubeconfig);
            result->partialView = QString::fromStdString(loaded.partialView);
            result->sourceLabel = loaded.sourceLabel.empty() ? label : QString::fromStdString(loaded.sourceLabel);
            result->document = document;
            result->loadMs = clock.elapsed();
            out.cluster = std::move(result);
        } catch (const importers::ImportCancelled&) {
            out.cancelled = true;
        } catch (const std::exception& e) {
            // ImportError::what() names the file and the place already; bad_alloc gets the label.
            out.error = importFailureMessage(e, label);
        }
        return out;
    }));

    emit importStarted(label);
    emit progressChanged(-1);
    m_progressTimer->start();
}

void ImportController::cancel()
{
    if (!m_job)
        return;
    m_job->progress.cancel();
    m_job.reset(); // whatever the worker returns now is stale
    m_progressTimer->stop();
    emit importCancelled();
}

void ImportController::pollProgress()
{
    if (!m_job)
        return;
    const std::size_t total = m_job->progress.total();
    const std::size_t done = m_job->progress.done();
    if (total == 0)
        emit progressChanged(-1);
    else
        emit progressChanged(static_cast<int>(std::min<std::size_t>(1000, done * 1000 / total)));
    if (const QString waiting = m_job->note.waiting(); !waiting.isEmpty())
        emit importWaiting(waiting);
}

} // namespace fleet::app
