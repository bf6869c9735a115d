// SPDX-License-Identifier: Apache-2.0
#include "reportexporter.h"
#include "app/dialogs/filedialogs.h"

#include "app/controllers/importcontroller.h"
#include "app/controllers/longjob.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/storereaders.h"
#include "app/shared/reportbuilder.h"
#include "app/window/mainwindow.h"
#include "app/window/windowdocument.h"
#include "importers/output/outputfile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLoggingCategory>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include <exception>

namespace fleet::app {
namespace {
// The time of each step: QT_LOGGING_RULES="fleet.app.exportreport.debug=true".
Q_LOGGING_CATEGORY(lcExport, "fleet.app.exportreport", QtInfoMsg)
constexpr int kProgressAfterMs = 500;
// The progress dialog's steps: the replay, the maps, the layout and the file.
constexpr int kSteps = 3;
} // namespace

/// The replay's outcome (on a worker): the job, or why not (empty when cancelled). A job not
/// used is released on a worker: its destructor joins the risks' and the baseline's workers.
struct ReportExporter::Replayed {
    std::shared_ptr<ReportJob> job;
    QString error;
};

/// The file's outcome (on a worker).
struct ReportExporter::Written {
    bool ok = false;
    QString message;
};

ReportExporter::ReportExporter(MainWindow* window, QMenu* file)
    : QObject(window)
    , m_window(window)
    , m_job(new LongJob(window, { QStringLiteral("exportReportProgress"), tr("Export Report"), kProgressAfterMs, kSteps, nullptr }, this))
{
    QAction* action = file->addAction(tr("&Export Report\u2026"), this, &ReportExporter::showDialog);
    action->setObjectName(QStringLiteral("actionExportReport"));
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
}

ReportExporter::~ReportExporter() = default; // the LongJob cancels a running export

bool ReportExporter::isRunning() const noexcept
{
    return m_job->isRunning();
}

void ReportExporter::showDialog()
{
    if (!m_window->cluster()) {
        QMessageBox::information(m_window, tr("Export Report"), tr("Open a cluster first: the report is of the cluster shown."));
        return;
    }
    const QString path = askSaveFileName(m_window, tr("Export Report"), m_path.isEmpty() ? QStringLiteral("report.pdf") : m_path,
        tr("PDF documents (*.pdf);;PNG images, the first page (*.png)"));
    m_window->restoreMapFocus();
    if (!path.isEmpty())
        exportTo(path);
}

bool ReportExporter::exportTo(const QString& path)
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    PlanController* plan = m_window->planController();
    const std::shared_ptr<const model::PlanEngine> engine = plan->engine();
    auto refuse = [&](const QString& why) {
        m_lastMessage = why;
        QMessageBox::warning(m_window, tr("Cannot Export Report"), withFullStop(why));
        return false;
    };
    if (m_job->isRunning())
        return refuse(tr("A report is being exported"));
    if (!cluster || !engine || !plan->store() || !plan->topology())
        return refuse(plan->notReadyText()); // on a live cluster, it points to Pause Live Updates
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("png"))
        return refuse(tr("Name the report .pdf or .png: %1").arg(path));
    importers::OutputFileOptions options; // the shown files: a report written over one would destroy the cluster
    for (const QString& f : m_window->shownFiles())
        options.inputs.push_back(f.toStdString());
    try { // a .fleet document, a folder or an input is refused before any work
        importers::checkOutputTarget(path.toStdString(), options);
    } catch (const std::exception& e) {
        return refuse(QString::fromStdString(e.what()));
    }

    // What the window shows, read here: the plan's actions (copied, the engine is the plan
    // controller's), the state, the prices and the metric; the source's digests are read on the worker.
    ReportSubject subject;
    subject.store = plan->store();
    subject.topology = plan->topology();
    subject.usage = cluster->usage;
    subject.prices = m_window->prices() ? m_window->prices() : std::make_shared<const model::PriceTable>();
    // One allocation: grown by push_back, the copy of a plan of 26,516 actions took 75 ms of the
    // GUI thread (6 to 40 ms reserved, load 4 to 6).
    subject.plan.actions.reserve(engine->applied().size());
    for (const model::AppliedAction& a : engine->applied())
        subject.plan.actions.push_back(a.action);
    if (!subject.plan.actions.empty()) {
        // As the Plans list and `fleetscope report --plan` name it ("doc.fleet:Plan 2").
        const QString label = m_window->document()->shownPlanLabel(m_window->planPath());
        subject.planName = label.isEmpty() ? std::string("the window's plan") : label.toStdString();
    }
    subject.metric = m_window->metricId().toStdString();
    const QString sourceLabel = cluster->sourceLabel;
    subject.title = reportDefaultTitle(subject.planName, sourceLabel);

    m_path = path;
    const std::shared_ptr<LongJobToken> token = m_job->begin(tr("Replaying the plan on the shown cluster\u2026"));
    auto reading = std::make_shared<StoreReadGuard>(m_window->storeReaders(), cluster->store); // a live batch waits for the workers
    m_job->run(
        token,
        [subject = std::move(subject), source = m_window->planSourceOnWorker(), sourceLabel, reading, kept = plan->consolidationKept()](
            LongJobToken& token) mutable {
            QElapsedTimer clock;
            clock.start();
            Replayed replayed;
            try {
                subject.current = source();
                subject.plan.source = subject.current;
                // The last Consolidate's reasons why nodes stay, when made for these actions
                // (startReport() checks the digest): no search again.
                if (kept)
                    subject.plan.consolidation = *kept;
                subject.provenance = reportProvenanceLines(subject.current, sourceLabel);
                if (!token.isCancelled()) {
                    replayed.job = std::shared_ptr<ReportJob>(startReport(std::move(subject)));
                    replayed.job->hold = reading; // until the last worker that reads the store ended
                }
            } catch (const std::exception& e) {
                replayed.error = QString::fromStdString(e.what());
            }
            qCDebug(lcExport, "replay: %lld ms", static_cast<long long>(clock.elapsed()));
            return replayed;
        },
        [this, token](Replayed replayed) {
            if (!replayed.job) {
                onDone(token, false, replayed.error.isEmpty() ? tr("Export cancelled") : replayed.error);
                return;
            }
            drawMaps(token, std::move(replayed.job));
        });
    return true;
}

void ReportExporter::drawMaps(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job)
{
    if (!m_job->isCurrent(token) || token->isCancelled()) {
        releaseOffGuiThread(std::move(job));
        onDone(token, false, tr("Export cancelled"));
        return;
    }
    // The maps' views are widgets, so the GUI thread readies each: one map per event-loop turn
    // (views::ReportMapRenderer), its pixels painted on a worker, with Cancel between.
    // At the print resolution `fleetscope report` draws them at (views::kReportMapDevicePixelRatio),
    // not the screen's: the same images for the same input and plan.
    auto renderer = std::make_shared<views::ReportMapRenderer>(reportMapInput(*job), views::kReportMapLogicalSize, views::kReportMapDevicePixelRatio);
    drawNextMap(std::move(token), std::move(job), std::move(renderer));
}

void ReportExporter::drawNextMap(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job, std::shared_ptr<views::ReportMapRenderer> renderer)
{
    if (!m_job->isCurrent(token) || token->isCancelled()) {
        renderer.reset();
        releaseOffGuiThread(std::move(job));
        onDone(token, false, tr("Export cancelled"));
        return;
    }
    m_job->setLabel(tr("Drawing the maps (%1 of %2)\u2026").arg(renderer->stepsDone() + 1).arg(renderer->stepCount()));
    m_job->setProgress(1.0 / kSteps);
    QElapsedTimer clock;
    clock.start();
    const bool more = renderer->step();
    qCDebug(lcExport, "map %zu (GUI thread): %lld ms", renderer->stepsDone(), static_cast<long long>(clock.elapsed()));
    // The map's pixels are painted on a worker (views::ReportMapRenderer::painting()): the next
    // step, or the maps taken, once it finished, never waiting for it here.
    const QFuture<void> painting = renderer->painting();
    auto next = [this, token, job, renderer, more]() mutable {
        if (more)
            drawNextMap(std::move(token), std::move(job), std::move(renderer));
        else
            writeReport(std::move(token), std::move(job), std::move(renderer));
    };
    if (painting.isFinished()) {
        QTimer::singleShot(0, this, std::move(next));
        return;
    }
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [watcher, next = std::move(next)]() mutable {
        watcher->deleteLater();
        next();
    });
    watcher->setFuture(painting);
}

void ReportExporter::writeReport(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job, std::shared_ptr<views::ReportMapRenderer> renderer)
{
    if (!m_job->isCurrent(token) || token->isCancelled()) {
        renderer.reset();
        releaseOffGuiThread(std::move(job));
        onDone(token, false, tr("Export cancelled"));
        return;
    }
    views::ReportMaps maps = renderer->take();
    renderer.reset();
    if (maps.before.isNull()) {
        releaseOffGuiThread(std::move(job));
        onDone(token, false, tr("The map could not be rendered"));
        return;
    }
    m_job->setLabel(tr("Laying out and writing %1\u2026").arg(QFileInfo(m_path).fileName()));
    m_job->setProgress(2.0 / kSteps);
    const bool png = QFileInfo(m_path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0;
    importers::OutputFileOptions options;
    for (const QString& f : m_window->shownFiles())
        options.inputs.push_back(f.toStdString());
    m_job->run(
        token,
        [job = std::move(job), maps = std::move(maps), png, path = m_path, options](LongJobToken& token) mutable {
            Written written;
            FinishedReport report = finishReport(*job, std::move(maps), png);
            if (!report.keptNote.empty()) // the plan's recorded reasons were not used: the search was replayed
                qCInfo(lcExport, "%s", report.keptNote.c_str());
            job.reset(); // joins the risks' and baseline's workers here, not on the GUI thread
            if (token.isCancelled()) {
                written.message = tr("Export cancelled");
            } else if (report.bytes.isEmpty()) {
                written.message = tr("Cannot write %1: %2").arg(path, report.error);
            } else {
                try { // whole or not at all: a failure keeps the previous file
                    importers::writeOutputFile(
                        path.toStdString(), std::string_view(report.bytes.constData(), static_cast<std::size_t>(report.bytes.size())), options);
                    written.ok = true;
                    written.message = tr("Wrote %1 (%n page(s), %2 bytes)", nullptr, report.pages)
                                          .arg(QFileInfo(path).absoluteFilePath())
                                          .arg(report.bytes.size());
                    // The characters no installed font draws are shown as U+FFFD: said, not dropped.
                    if (!report.undrawable.empty())
                        written.message += QStringLiteral(". ") + undrawableCharactersText(report.undrawable);
                } catch (const std::exception& e) {
                    written.message = QString::fromStdString(e.what());
                }
            }
            return written;
        },
        [this, token](Written written) { onDone(token, written.ok, written.message); });
}

void ReportExporter::onDone(const std::shared_ptr<LongJobToken>& token, bool ok, const QString& message)
{
    if (!m_job->isCurrent(token))
        return;
    m_job->end(token);
    m_lastMessage = message;
    if (ok) {
        m_window->statusBar()->showMessage(message, 10000);
    } else if (message != tr("Export cancelled")) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot Export Report"), withFullStop(message), QMessageBox::Close, m_window);
        box->setObjectName(QStringLiteral("exportReportError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit finished(ok, message);
}

} // namespace fleet::app
