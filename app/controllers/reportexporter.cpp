// SPDX-License-Identifier: Apache-2.0
#include "reportexporter.h"
#include "app/controllers/workerpool.h"

#include "app/controllers/importcontroller.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/storereaders.h"
#include "app/shared/reportbuilder.h"
#include "app/window/mainwindow.h"
#include "importers/output/outputfile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace fleet::app {
namespace {
// The time of each step: QT_LOGGING_RULES="fleet.app.exportreport.debug=true".
Q_LOGGING_CATEGORY(lcExport, "fleet.app.exportreport", QtInfoMsg)
// The maps' view in logical pixels, as `fleetscope report` draws them (at the window's device
// pixel ratio here: the command line draws them at three times that, for print).
const QSize kMapLogicalSize(720, 500);
constexpr int kProgressAfterMs = 500;

/// Drops the last reference to `job` on a worker: its destructor joins the risks' and the
/// baseline's workers, which may still run.
void releaseOnWorker(std::shared_ptr<ReportJob> job)
{
    if (job)
        (void)QtConcurrent::run(longWorkPool(), [job = std::move(job)]() mutable { job.reset(); });
}
} // namespace

ReportExporter::ReportExporter(MainWindow* window, QMenu* file)
    : QObject(window)
    , m_window(window)
{
    QAction* action = file->addAction(tr("&Export Report\u2026"), this, &ReportExporter::showDialog);
    action->setObjectName(QStringLiteral("actionExportReport"));
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
}

ReportExporter::~ReportExporter()
{
    cancel();
}

void ReportExporter::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ReportExporter::showDialog()
{
    if (!m_window->cluster()) {
        QMessageBox::information(m_window, tr("Export Report"), tr("Open a cluster first: the report is of the cluster shown."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export Report"), m_path.isEmpty() ? QStringLiteral("report.pdf") : m_path,
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
    if (m_running)
        return refuse(tr("A report is being exported"));
    if (!cluster || !engine || !plan->store() || !plan->topology())
        return refuse(tr("The what-if is still being prepared for this cluster; export the report again in a moment"));
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
    for (const model::AppliedAction& a : engine->applied())
        subject.plan.actions.push_back(a.action);
    if (!subject.plan.actions.empty()) {
        const QString planPath = m_window->planPath();
        subject.planName = planPath.isEmpty() ? std::string("the window's plan") : planPath.toStdString();
    }
    subject.metric = m_window->metricId().toStdString();
    const QString sourceLabel = cluster->sourceLabel;
    subject.title = reportDefaultTitle(subject.planName, sourceLabel);

    m_running = true;
    m_path = path;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++m_generation;
    if (!m_progress) {
        m_progress = new QProgressDialog(m_window);
        m_progress->setObjectName(QStringLiteral("exportReportProgress"));
        m_progress->setWindowTitle(tr("Export Report"));
        m_progress->setRange(0, 3);
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(kProgressAfterMs);
        m_progress->setAutoReset(false);
        m_progress->setAutoClose(false);
        connect(m_progress, &QProgressDialog::canceled, this, &ReportExporter::cancel);
    }
    m_progress->setLabelText(tr("Replaying the plan on the shown cluster\u2026"));
    m_progress->reset();
    m_progress->setValue(0);

    QPointer<ReportExporter> self(this);
    auto reading = std::make_shared<StoreReadGuard>(); // a live batch waits for the workers
    (void)QtConcurrent::run(longWorkPool(), [self, generation, subject = std::move(subject), source = m_window->planSourceOnWorker(), sourceLabel,
                                cancel = m_cancel, reading]() mutable {
        QElapsedTimer clock;
        clock.start();
        std::shared_ptr<ReportJob> job;
        QString error;
        try {
            subject.current = source();
            subject.plan.source = subject.current;
            subject.provenance = reportProvenanceLines(subject.current, sourceLabel);
            if (!cancel->load()) {
                job = std::shared_ptr<ReportJob>(startReport(std::move(subject)));
                job->hold = reading; // until the last worker that reads the store ended
            }
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        qCDebug(lcExport, "replay: %lld ms", static_cast<long long>(clock.elapsed()));
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, job, error]() mutable {
                if (!self || !job) {
                    if (self)
                        self->onDone(generation, false, error.isEmpty() ? tr("Export cancelled") : error);
                    releaseOnWorker(std::move(job));
                    return;
                }
                self->drawMaps(generation, std::move(job));
            },
            Qt::QueuedConnection);
    });
    return true;
}

void ReportExporter::drawMaps(std::uint64_t generation, std::shared_ptr<ReportJob> job)
{
    if (generation != m_generation || m_cancel->load()) {
        releaseOnWorker(std::move(job));
        onDone(generation, false, tr("Export cancelled"));
        return;
    }
    // The maps need the fleet map's OpenGL context, so the GUI thread: one map per event-loop
    // turn (views::ReportMapRenderer), each turn a fraction of the whole, with Cancel between.
    auto renderer = std::make_shared<views::ReportMapRenderer>(reportMapInput(*job), kMapLogicalSize);
    drawNextMap(generation, std::move(job), std::move(renderer));
}

void ReportExporter::drawNextMap(std::uint64_t generation, std::shared_ptr<ReportJob> job, std::shared_ptr<views::ReportMapRenderer> renderer)
{
    if (generation != m_generation || m_cancel->load()) {
        renderer.reset();
        releaseOnWorker(std::move(job));
        onDone(generation, false, tr("Export cancelled"));
        return;
    }
    if (m_progress) {
        m_progress->setLabelText(tr("Drawing the maps (%1 of %2)\u2026").arg(renderer->stepsDone() + 1).arg(renderer->stepCount()));
        m_progress->setValue(1);
    }
    QElapsedTimer clock;
    clock.start();
    const bool more = renderer->step();
    qCDebug(lcExport, "map %zu (GUI thread): %lld ms", renderer->stepsDone(), static_cast<long long>(clock.elapsed()));
    if (more) {
        QTimer::singleShot(0, this, [this, generation, job = std::move(job), renderer = std::move(renderer)]() mutable {
            drawNextMap(generation, std::move(job), std::move(renderer));
        });
        return;
    }
    views::ReportMaps maps = renderer->take();
    renderer.reset();
    if (maps.before.isNull()) {
        releaseOnWorker(std::move(job));
        onDone(generation, false, tr("The map could not be rendered"));
        return;
    }
    if (m_progress) {
        m_progress->setLabelText(tr("Laying out and writing %1\u2026").arg(QFileInfo(m_path).fileName()));
        m_progress->setValue(2);
    }
    const bool png = QFileInfo(m_path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0;
    importers::OutputFileOptions options;
    for (const QString& f : m_window->shownFiles())
        options.inputs.push_back(f.toStdString());
    QPointer<ReportExporter> self(this);
    auto finish = [job, maps = std::move(maps), png]() mutable {
        FinishedReport report = finishReport(*job, std::move(maps), png);
        return std::make_shared<FinishedReport>(std::move(report));
    };
    auto write = [self, generation, path = m_path, options, cancel = m_cancel](std::shared_ptr<FinishedReport> report) {
        bool ok = false;
        QString message;
        if (cancel->load()) {
            message = tr("Export cancelled");
        } else if (report->bytes.isEmpty()) {
            message = tr("Cannot write %1: %2").arg(path, report->error);
        } else {
            try { // whole or not at all: a failure keeps the previous file
                importers::writeOutputFile(path.toStdString(),
                    std::string_view(report->bytes.constData(), static_cast<std::size_t>(report->bytes.size())), options);
                ok = true;
                message = tr("Wrote %1 (%n page(s), %2 bytes)", nullptr, report->pages)
                              .arg(QFileInfo(path).absoluteFilePath())
                              .arg(report->bytes.size());
            } catch (const std::exception& e) {
                message = QString::fromStdString(e.what());
            }
        }
        QMetaObject::invokeMethod(
            qApp, [self, generation, ok, message] { if (self) self->onDone(generation, ok, message); }, Qt::QueuedConnection);
    };
    (void)QtConcurrent::run(longWorkPool(), [finish = std::move(finish), write, job = std::move(job)]() mutable {
        write(finish());
        job.reset(); // joins the risks' and baseline's workers here, not on the GUI thread
    });
}

void ReportExporter::onDone(std::uint64_t generation, bool ok, const QString& message)
{
    if (generation != m_generation)
        return;
    m_running = false;
    m_lastMessage = message;
    if (m_progress) {
        m_progress->reset();
        m_progress->hide();
    }
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
