// SPDX-License-Identifier: Apache-2.0
#include "comparecontroller.h"
#include "app/dialogs/filedialogs.h"

#include "app/cli/clustersource.h"
#include "app/cli/commandlinepath.h"
#include "app/controllers/importcontroller.h"
#include "app/controllers/longjob.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/planopener.h"
#include "app/controllers/storereaders.h"
#include "app/shared/importfailure.h"
#include "app/window/mainwindow.h"
#include "app/window/windowdocument.h"

#include "importers/clusterloader.h"
#include "importers/document/planoutcome.h"
#include "importers/document/statediff.h"
#include "importers/export/planoutcomeformat.h"
#include "importers/plan/planfile.h"
#include "importers/output/outputfile.h"
#include "importers/export/statediffformat.h"
#include "model/figures.h"
#include "model/metrics/comparedmetric.h"
#include "model/metrics/metricregistry.h"
#include "model/metrics/planmetrics.h"
#include "model/plan/planprices.h"
#include "app/controllers/plancontroller.h"
#include "views/itemmodels/changesmodel.h"
#include "views/itemmodels/planoutcomemodel.h"
#include "views/map/comparedmarks.h"
#include "views/map/fleetmapview.h"
#include "views/panels/changespanel.h"

#include <QCoreApplication>
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <exception>
#include <tuple>
#include <utility>

namespace fleet::app {

/// A comparison's result: the diff and the later state it was made against (kept for the
/// map's difference), with the two labels. Immutable once handed to the GUI thread.
struct ComparedState {
    std::shared_ptr<const importers::StateDiff> diff;
    std::shared_ptr<const model::ClusterStore> after;
    std::shared_ptr<const model::Topology> afterTopology;
    QString thenLabel, nowLabel;
    /// The two states as an exported plan outcome names them (planOutcomeStateLabel(), the rule
    /// `diff --plan` follows): "before.fleet", not the document's "before.fleet (nodes.json + ...)".
    QString thenOutcomeLabel, nowOutcomeLabel;
    /// The later state's nodes matched to the shown ones, for the map's difference.
    std::shared_ptr<const model::LaterState> later;
    /// The nodes added and removed, as the map marks them.
    std::shared_ptr<const views::ComparedMarks> marks;
    /// The plan open at the comparison against the later state (null: no plan was open).
    std::shared_ptr<const importers::PlanOutcome> outcome;
    QString planLabel;   ///< "doc.fleet:Plan 1", the plan's file, or "The window's plan"
    QString outcomeNote; ///< importers::sharedNodesNote(), "" when the states share most nodes
};

/// The plan shown in the window as the comparison's worker checks it: its actions copied on the
/// GUI thread (the engine is the plan controller's and changes with the next gesture), the state
/// it was made on (the engine's: the shown one with the plan's template pods).
struct CompareController::OpenPlan {
    importers::PlanDocument plan;
    std::string label;
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
};

namespace {
constexpr int kProgressAfterMs = 500;
constexpr int kOutcomeSettleMs = 300; // the plan at rest this long before its outcome is checked again

/// The comparison's own worker thread. Not QThreadPool::globalInstance(): Qt's raster paint
/// engine splits fills over that pool and waits for them on the GUI thread, so a worker holding
/// one of its threads for seconds stalled every repaint (bench_gui: 4.4 s at 100,000 nodes, the
/// progress bar's paint waiting), as placeworkloaddialog.cpp found. Made once, never destroyed:
/// quitting does not wait for a comparison that runs.
QThreadPool* comparePool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        p->setObjectName(QStringLiteral("compareWith"));
        return p;
    }();
    return pool;
}

QString count(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

/// `open` against the later state `after` (importers::comparePlanOutcome(), as `fleetscope diff
/// --plan`): a plan that places new pods brings its template pods to a copy of `after` (the
/// compared state itself stays as read). Thread: the comparison's worker.
std::pair<std::shared_ptr<const importers::PlanOutcome>, QString> computeOutcome(const CompareController::OpenPlan& open,
    const std::shared_ptr<const model::ClusterStore>& after, const model::Topology& afterTopology, const model::PriceTable* prices)
{
    std::shared_ptr<const model::ClusterStore> later = after;
    if (std::any_of(open.plan.actions.begin(), open.plan.actions.end(),
            [](const model::PlanAction& a) { return a.type == model::ActionType::PlacePods; })) {
        auto copy = std::make_shared<model::ClusterStore>(after->clone());
        importers::addPlanTemplatePods(*copy, open.plan, open.label);
        later = std::move(copy);
    }
    auto outcome = std::make_shared<const importers::PlanOutcome>(importers::comparePlanOutcome(*open.store, *open.topology,
        model::planNodePrices(*open.store, prices), *later, afterTopology, model::planNodePrices(*later, prices), open.plan));
    return { std::move(outcome), QString::fromStdString(importers::sharedNodesNote(*open.store, *later)) };
}

/// The reading's progress and cancel, as the importers poll them, on the job's token.
class TokenImportProgress final : public importers::ImportProgress {
public:
    explicit TokenImportProgress(LongJobToken& token) : m_token(token) {}
    void progress(std::size_t done, std::size_t total) override
    {
        if (total > 0)
            m_token.setProgress(std::min(0.999, static_cast<double>(done) / static_cast<double>(total)));
    }
    bool isCancelled() const override { return m_token.isCancelled(); }

private:
    LongJobToken& m_token;
};
} // namespace

/// What a comparison's worker hands back: the result, or the error, or that it was cancelled.
struct CompareController::Outcome {
    std::shared_ptr<ComparedState> result;
    QString error;
    bool cancelled = false;
};

CompareController::CompareController(MainWindow* window, QMenu* file)
    : QObject(window)
    , m_window(window)
    , m_job(new LongJob(window, { QStringLiteral("compareProgress"), tr("Compare With"), kProgressAfterMs, 1000, comparePool() }, this))
{
    QAction* compare = file->addAction(tr("Compare &With\u2026"), this, &CompareController::showDialog);
    compare->setObjectName(QStringLiteral("actionCompareWith"));
    QAction* compareLive = file->addAction(tr("Compare With Li&ve Cluster\u2026"), this, &CompareController::showLiveDialog);
    compareLive->setObjectName(QStringLiteral("actionCompareWithLive"));
    compareLive->setToolTip(tr("Compare the shown state with a live cluster now (one read-only LIST)"));
    QAction* exportChanges = file->addAction(tr("Export C&hanges\u2026"), this, &CompareController::showExportDialog);
    exportChanges->setObjectName(QStringLiteral("actionExportChanges"));
    QAction* exportOutcome = file->addAction(tr("Export Plan O&utcome\u2026"), this, &CompareController::showExportOutcomeDialog);
    exportOutcome->setObjectName(QStringLiteral("actionExportPlanOutcome"));
    exportOutcome->setToolTip(tr("What of the open plan the compared state shows carried out, as fleetscope diff --plan writes it"));

    m_panel = new views::ChangesPanel(window);
    m_dock = new QDockWidget(tr("Changes"), window);
    m_dock->setObjectName(QStringLiteral("changesDock"));
    m_dock->setWidget(m_panel);
    m_dock->setAllowedAreas(Qt::AllDockWidgetAreas);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_panel, &views::ChangesPanel::nodeActivated, this, &CompareController::selectNode);
    connect(m_panel, &views::ChangesPanel::exportOutcomeRequested, this, &CompareController::showExportOutcomeDialog);
    // The "then" of the dock is the shown cluster: a new one makes it stale.
    connect(window, &MainWindow::clusterShown, this, &CompareController::clear);
    // The dialog's Cancel: nothing is shown, at once (the worker's result is dropped).
    connect(m_job, &LongJob::cancelRequested, this, &CompareController::cancel);
    // The Plan Outcome follows the plan shown: a gesture, an undo, a plan opened or switched
    // (a plan opened after the comparison started included), checked again on the comparison's
    // worker once the plan rests for a moment.
    m_outcomeTimer = new QTimer(this);
    m_outcomeTimer->setSingleShot(true);
    m_outcomeTimer->setInterval(kOutcomeSettleMs);
    connect(m_outcomeTimer, &QTimer::timeout, this, &CompareController::refreshOutcome);
    if (PlanController* plan = window->planController()) {
        connect(plan, &PlanController::planChanged, m_outcomeTimer, qOverload<>(&QTimer::start));
        connect(plan, &PlanController::planChanged, this, [this] { m_copying.reset(); }); // a copy of the plan before
    }
    if (WindowDocument* document = window->document())
        connect(document, &WindowDocument::plansChanged, m_outcomeTimer, qOverload<>(&QTimer::start));
}

CompareController::~CompareController()
{
    // The LongJob cancels a comparison still running; its result is freed off the GUI thread.
    if (m_shown)
        releaseOffGuiThread(std::move(m_shown));
}

std::shared_ptr<const importers::StateDiff> CompareController::diff() const
{
    return m_shown ? m_shown->diff : nullptr;
}

std::shared_ptr<const importers::PlanOutcome> CompareController::planOutcome() const
{
    return m_shown ? m_outcome : nullptr;
}

void CompareController::showDialog()
{
    if (!m_window->cluster()) {
        QMessageBox::information(m_window, tr("Nothing to Compare"), tr("Open a cluster first: it is compared with a later state."));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Compare With"), m_lastDir,
        tr("Cluster states (*.fleet *.json *.csv);;Fleetscope documents (*.fleet);;All files (*)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return;
    m_lastDir = QFileInfo(path).absolutePath();
    // A plan file is not a state: say what it is, rather than a Node or Pod parse error.
    if (looksLikePlanFile(path)) {
        QMessageBox::warning(m_window, tr("Cannot Compare"),
            tr("%1 is a plan file, not a cluster state. Compare With takes a .fleet document or the cluster's files; a plan "
               "is opened with File > Open Plan.")
                .arg(QFileInfo(path).fileName()));
        return;
    }
    compareWithFiles({ path });
}

bool CompareController::compareWithFiles(const QStringList& paths)
{
    std::vector<std::string> files;
    for (const QString& p : paths)
        files.push_back(commandLinePath(p));
    return start(filesSourceLabel(paths), [files](importers::ImportProgress* progress) { return importers::loadClusterFiles(files, progress); },
        QString::fromStdString(importers::planOutcomeStateLabel(files)));
}

bool CompareController::compareWithSimulated(std::size_t nodeCount, std::uint64_t seed)
{
    importers::SimulationSpec spec;
    spec.nodeCount = nodeCount;
    spec.seed = seed;
    return start(simulatedSourceLabel(nodeCount, seed),
        [spec](importers::ImportProgress* progress) { return importers::loadSimulatedCluster(spec, progress); });
}

std::shared_ptr<const CompareController::OpenPlan> CompareController::openPlan() const
{
    std::shared_ptr<OpenPlan> open = describePlan();
    if (!open)
        return nullptr;
    const auto& applied = m_window->planController()->engine()->applied();
    open->plan.actions.reserve(applied.size()); // one allocation (26,516 actions: tens of ms grown)
    for (const model::AppliedAction& a : applied)
        open->plan.actions.push_back(a.action);
    return open;
}

std::shared_ptr<CompareController::OpenPlan> CompareController::describePlan() const
{
    PlanController* planController = m_window->planController();
    const std::shared_ptr<const model::PlanEngine> engine = planController ? planController->engine() : nullptr;
    if (!engine || engine->applied().empty() || !planController->store() || !planController->topology())
        return nullptr;
    auto open = std::make_shared<OpenPlan>();
    // Named as `fleetscope diff --plan` names a document's plan ("doc.fleet:Plan 1"), else its file.
    const WindowDocument* document = m_window->document();
    const int current = document ? document->currentPlan() : -1;
    if (document && !document->path().isEmpty() && current >= 0 && static_cast<std::size_t>(current) < document->plans().size())
        open->label = importers::planOutcomePlanLabel(commandLinePath(document->path()), document->plans()[static_cast<std::size_t>(current)].name);
    else if (const QString path = m_window->planPath(); !path.isEmpty())
        open->label = importers::planOutcomePlanLabel({}, commandLinePath(path));
    else
        open->label = "The window's plan";
    open->store = planController->store();
    open->topology = planController->topology();
    return open;
}

void CompareController::refreshOutcome()
{
    if (m_job->isRunning()) {
        // The comparison running checks the plan it started with: this one is checked after it
        // (a plan opened at startup beside `--compare`).
        m_outcomeStale = true;
        return;
    }
    if (!m_shown)
        return;
    PlanController* plan = m_window->planController();
    if (plan && plan->isBusy()) {
        m_outcomeTimer->start(); // a step undone or redone in slices: its end changes the plan again
        return;
    }
    const std::uint64_t generation = ++m_outcomeGeneration;
    std::shared_ptr<OpenPlan> open = describePlan();
    m_copying.reset();
    if (!open) {
        m_outcome.reset();
        m_panel->setPlanOutcome(nullptr, QString(), QString());
        return;
    }
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    if (!cluster || !cluster->store)
        return;
    m_panel->setOutcomeBusy(tr("Checking %1 against the later state\u2026").arg(QString::fromStdString(open->label)));
    m_copyEngine = plan->engine();
    open->plan.actions.reserve(plan->engine()->applied().size());
    m_copying = std::move(open);
    m_copyGeneration = generation;
    copyOutcomeSlice();
}

void CompareController::copyOutcomeSlice()
{
    if (!m_copying)
        return;
    PlanController* plan = m_window->planController();
    const std::shared_ptr<const model::PlanEngine> engine = plan ? plan->engine() : nullptr;
    std::vector<model::PlanAction>& copied = m_copying->plan.actions;
    // Each change of the plan drops the copy (planChanged()); a step undone or redone in slices
    // changes the engine before it says so, and another engine is another plan.
    if (m_copyGeneration != m_outcomeGeneration || !engine || engine != m_copyEngine.lock() || plan->isBusy()
        || engine->applied().size() < copied.size()) {
        m_copying.reset();
        m_outcomeTimer->start();
        return;
    }
    const auto& applied = engine->applied();
    QElapsedTimer clock;
    clock.start();
    for (int n = 0; copied.size() < applied.size(); ++n) {
        if (m_maxCopyPerSlice > 0 ? n >= m_maxCopyPerSlice : n > 0 && n % 256 == 0 && clock.elapsed() >= kOutcomeCopySliceMs)
            break;
        copied.push_back(applied[copied.size()].action);
    }
    emit outcomeCopyProgressed(static_cast<int>(copied.size()), static_cast<int>(applied.size()));
    if (copied.size() < applied.size()) {
        // A timer, not a posted call: the loop turns (input, repaints) between two slices.
        QTimer::singleShot(1, Qt::PreciseTimer, this, &CompareController::copyOutcomeSlice);
        return;
    }
    std::shared_ptr<const OpenPlan> open = std::exchange(m_copying, nullptr);
    checkOutcome(std::move(open), m_copyGeneration);
}

void CompareController::checkOutcome(std::shared_ptr<const OpenPlan> open, std::uint64_t generation)
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    if (!cluster || !cluster->store || !m_shown)
        return;
    auto reading = std::make_shared<StoreReadGuard>(m_window->storeReaders(), cluster->store); // a live batch waits for the worker
    QPointer<CompareController> self(this);
    (void)QtConcurrent::run(comparePool(), [self, generation, open, reading, after = m_shown->after, afterTopology = m_shown->afterTopology,
                                               prices = m_window->prices()] {
        std::shared_ptr<const importers::PlanOutcome> outcome;
        QString note, error;
        try {
            std::tie(outcome, note) = computeOutcome(*open, after, *afterTopology, prices.get());
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, outcome, note, error, label = QString::fromStdString(open->label)] {
                if (!self || generation != self->m_outcomeGeneration)
                    return; // the plan or the comparison changed since: a newer check follows
                self->m_outcome = outcome;
                self->m_outcomeLabel = label;
                self->m_outcomeNote = outcome ? note : tr("cannot check the plan: %1").arg(error);
                self->m_panel->setPlanOutcome(outcome, label, self->m_outcomeNote);
                emit self->outcomeChecked(outcome != nullptr);
            },
            Qt::QueuedConnection);
    });
}

void CompareController::showLiveDialog()
{
    if (!m_window->cluster()) {
        QMessageBox::information(m_window, tr("Nothing to Compare"), tr("Open a cluster first: it is compared with a later state."));
        return;
    }
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("compareLiveDialog"));
    dialog.setWindowTitle(tr("Compare With Live Cluster"));
    auto* form = new QFormLayout(&dialog);
    auto* note = new QLabel(tr("The shown state is compared with the cluster as it is now: one LIST of its nodes, pods, PDBs and "
                               "namespaces, read-only."),
        &dialog);
    note->setWordWrap(true);
    form->addRow(note);
    auto* kubeconfig = new QLineEdit(m_lastKubeconfig, &dialog);
    kubeconfig->setObjectName(QStringLiteral("compareLiveKubeconfig"));
    kubeconfig->setPlaceholderText(tr("KUBECONFIG, or ~/.kube/config"));
    kubeconfig->setMinimumWidth(kubeconfig->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 48);
    auto* browse = new QPushButton(tr("Browse\u2026"), &dialog);
    connect(browse, &QPushButton::clicked, &dialog, [&dialog, kubeconfig] {
        const QString path = QFileDialog::getOpenFileName(&dialog, tr("Kubeconfig"),
            kubeconfig->text().isEmpty() ? QDir::homePath() + QStringLiteral("/.kube") : QFileInfo(kubeconfig->text()).absolutePath());
        if (!path.isEmpty())
            kubeconfig->setText(path);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(kubeconfig, 1);
    row->addWidget(browse);
    auto* kubeconfigLabel = new QLabel(tr("&Kubeconfig:"), &dialog);
    kubeconfigLabel->setBuddy(kubeconfig);
    form->addRow(kubeconfigLabel, row);
    auto* context = new QLineEdit(m_lastContext, &dialog);
    context->setObjectName(QStringLiteral("compareLiveContext"));
    context->setPlaceholderText(tr("its current-context"));
    auto* contextLabel = new QLabel(tr("&Context:"), &dialog);
    contextLabel->setBuddy(context);
    form->addRow(contextLabel, context);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    const bool accepted = dialog.exec() == QDialog::Accepted;
    m_window->restoreMapFocus();
    if (!accepted)
        return;
    m_lastKubeconfig = kubeconfig->text().trimmed();
    m_lastContext = context->text().trimmed();
    // Said here in the window's words, before any connection: no kubeconfig to read at all.
    const QString file = m_lastKubeconfig.isEmpty() ? qEnvironmentVariable("KUBECONFIG").split(QLatin1Char(':'), Qt::SkipEmptyParts).value(0)
                                                    : m_lastKubeconfig;
    const QString fallback = QDir::homePath() + QStringLiteral("/.kube/config");
    if (file.isEmpty() && !QFileInfo::exists(fallback)) {
        QMessageBox::warning(m_window, tr("Cannot Compare"),
            tr("No kubeconfig to read: KUBECONFIG is not set and %1 does not exist. Give the kubeconfig file of the cluster.").arg(fallback));
        return;
    }
    if (!m_lastKubeconfig.isEmpty() && !QFileInfo(m_lastKubeconfig).isFile()) {
        QMessageBox::warning(m_window, tr("Cannot Compare"), tr("The kubeconfig %1 does not exist or is not a file.").arg(m_lastKubeconfig));
        return;
    }
    compareWithLive(m_lastKubeconfig, m_lastContext);
}

bool CompareController::compareWithLive(const QString& kubeconfig, const QString& context)
{
    ClusterSource source;
    source.live = true;
    source.kubeconfig = kubeconfig;
    source.context = context;
    source.kubeconfigInput = importers::kube::KubeconfigInput::WindowDialog; // errors name the dialog's fields
    // One LIST, not cancellable inside: a cancel drops its result, and the request timeout
    // bounds how long the comparison's worker stays busy with it.
    // Named by the file the user gave (the CLI's label names only the context).
    const QString label = kubeconfig.isEmpty() ? clusterSourceLabel(source)
        : context.isEmpty()                    ? tr("the live cluster of %1").arg(QFileInfo(kubeconfig).fileName())
                                               : tr("the live cluster of %1, context %2").arg(QFileInfo(kubeconfig).fileName(), context);
    return start(label, [source](importers::ImportProgress*) { return loadClusterOnly(source); });
}

template <class Load>
bool CompareController::start(const QString& label, Load load, const QString& outcomeLabel)
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    if (!cluster || !cluster->store) {
        m_lastMessage = tr("Open a cluster first: it is compared with a later state.");
        QMessageBox::information(m_window, tr("Nothing to Compare"), m_lastMessage);
        return false;
    }
    cancel();
    m_window->statusBar()->showMessage(tr("Comparing with %1\u2026").arg(label));
    auto reading = std::make_shared<StoreReadGuard>(m_window->storeReaders(), cluster->store); // a live batch waits for the worker
    std::shared_ptr<const OpenPlan> open = openPlan();
    // The exported outcome names the two states as `diff --plan` does (planOutcomeStateLabel()):
    // the shown files (a document by its own file), the compared ones; else the source's label.
    std::vector<std::string> shownFiles;
    if (const WindowDocument* document = m_window->document(); document && !document->path().isEmpty())
        shownFiles.push_back(commandLinePath(document->path())); // its name since the last Save As
    else
        for (const QString& f : m_window->shownFiles())
            shownFiles.push_back(commandLinePath(f));
    const QString thenOutcomeLabel = shownFiles.empty() ? cluster->sourceLabel : QString::fromStdString(importers::planOutcomeStateLabel(shownFiles));
    m_job->start(
        tr("Reading %1\u2026").arg(label),
        [load, label, reading, open, before = cluster->store, topology = cluster->topology, thenLabel = cluster->sourceLabel, thenOutcomeLabel,
            outcomeLabel,
            prices = m_window->prices()](LongJobToken& token) {
            Outcome out;
            try {
                TokenImportProgress progress(token);
                importers::LoadedCluster after = load(&progress);
                if (progress.isCancelled())
                    throw importers::ImportCancelled();
                token.setBusy(); // the diff itself reports no progress
                token.setLabel(tr("Comparing the two states\u2026"));
                auto state = std::make_shared<ComparedState>();
                state->diff = std::make_shared<const importers::StateDiff>(importers::diffStates(
                    *before, *after.store, model::planNodePrices(*before, prices.get()), model::planNodePrices(*after.store, prices.get())));
                state->later = model::makeLaterState(*before, after.store, prices);
                state->marks = std::make_shared<const views::ComparedMarks>(
                    views::makeComparedMarks(*before, topology, *after.store, state->diff->nodesRemoved, state->diff->nodesAdded));
                if (open) {
                    token.setLabel(tr("Checking the plan against the later state\u2026"));
                    std::tie(state->outcome, state->outcomeNote) = computeOutcome(*open, after.store, *after.topology, prices.get());
                    state->planLabel = QString::fromStdString(open->label);
                }
                state->after = std::move(after.store);
                state->afterTopology = std::move(after.topology);
                state->thenLabel = thenLabel;
                state->nowLabel = after.sourceLabel.empty() ? label : QString::fromStdString(after.sourceLabel);
                state->thenOutcomeLabel = thenOutcomeLabel;
                state->nowOutcomeLabel = outcomeLabel.isEmpty() ? state->nowLabel : outcomeLabel;
                out.result = std::move(state);
            } catch (const importers::ImportCancelled&) {
                out.cancelled = true;
            } catch (const std::exception& e) {
                out.error = importFailureMessage(e, label);
            }
            return out;
        },
        [this](Outcome out) { finish(std::move(out.result), out.error, out.cancelled); });
    return true;
}

bool CompareController::isRunning() const noexcept
{
    return m_job->isRunning();
}

void CompareController::cancel()
{
    if (!m_job->isRunning())
        return;
    m_job->drop(); // whatever the worker returns now is stale
    finish(nullptr, QString(), true);
}

void CompareController::finish(std::shared_ptr<ComparedState> result, const QString& error, bool cancelled)
{
    if (cancelled) {
        m_lastMessage = tr("Comparison cancelled.");
        m_window->statusBar()->showMessage(m_lastMessage, MainWindow::kMessageMs);
        emit compareFinished(false, m_lastMessage);
        return;
    }
    if (!result) {
        m_lastMessage = withFullStop(error);
        m_window->statusBar()->clearMessage();
        QMessageBox::warning(m_window, tr("Cannot Compare"), m_lastMessage);
        emit compareFinished(false, m_lastMessage);
        return;
    }
    releaseOffGuiThread(std::exchange(m_shown, std::move(result)));
    const importers::StateDiff& d = *m_shown->diff;
    m_panel->setDiff(m_shown->diff, m_shown->thenLabel, m_shown->nowLabel);
    ++m_outcomeGeneration; // an outcome still being checked is of the comparison before
    m_outcome = m_shown->outcome;
    m_outcomeLabel = m_shown->planLabel;
    m_outcomeNote = m_shown->outcomeNote;
    m_panel->setPlanOutcome(m_outcome, m_outcomeLabel, m_outcomeNote);
    if (std::exchange(m_outcomeStale, false))
        m_outcomeTimer->start(); // the plan changed while the states were compared
    if (!m_placed) {
        // Beside the node inspector, whose dock is there from the start: a dock in an area of
        // its own would shrink the map, which lays 100,000 cells out again (hundreds of ms).
        if (auto* node = m_window->findChild<QDockWidget*>(QStringLiteral("nodeInspectorDock")))
            m_window->tabifyDockWidget(node, m_dock);
        m_placed = true;
    }
    m_dock->show();
    m_dock->raise();
    m_window->mapView()->setComparedMarks(m_shown->marks);
    if (m_metricAction && m_metricAction->isChecked())
        showDifference(true);
    // The noun agrees with the first count it follows ("1 node added, 3 removed").
    const QString nodes = d.nodesAdded.size() == 1 ? tr("1 node added") : tr("%1 nodes added").arg(count(d.nodesAdded.size()));
    const QString pods = d.podsMoved == 1 ? tr("1 pod moved") : tr("%1 pods moved").arg(count(d.podsMoved));
    m_lastMessage = tr("Compared with %1: %2, %3 removed; %4, %5 created, %6 deleted.")
                        .arg(m_shown->nowLabel, nodes, count(d.nodesRemoved.size()), pods, count(d.podsCreated), count(d.podsDeleted));
    if (const importers::PlanOutcome* o = m_outcome.get())
        m_lastMessage += QLatin1Char(' ')
            + (o->actions.size() == 1 ? tr("The plan: %1 of 1 action carried out, %2 no longer possible.")
                                            .arg(count(o->carriedOut), count(o->noLongerPossible))
                                      : tr("The plan: %1 of %2 actions carried out, %3 no longer possible.")
                                            .arg(count(o->carriedOut), count(o->actions.size()), count(o->noLongerPossible)));
    m_window->statusBar()->showMessage(m_lastMessage, MainWindow::kMessageMs);
    emit compareFinished(true, m_lastMessage);
}

void CompareController::clear()
{
    cancel();
    if (!m_shown)
        return;
    m_panel->setDiff(nullptr, QString(), QString());
    ++m_outcomeGeneration;
    m_copying.reset();
    m_outcome.reset();
    m_panel->setPlanOutcome(nullptr, QString(), QString());
    m_window->mapView()->setComparedMarks(nullptr);
    if (m_metricAction && m_metricAction->isChecked())
        m_metricAction->setChecked(false); // the map shows the new cluster's chosen metric already
    releaseOffGuiThread(std::move(m_shown));
    m_shown.reset();
}

void CompareController::addMetricAction(QMenu* metric)
{
    metric->addSeparator();
    m_metricAction = metric->addAction(tr("&Difference to the Compared State"));
    m_metricAction->setObjectName(QStringLiteral("actionCompareMetric"));
    m_metricAction->setCheckable(true);
    m_metricAction->setToolTip(tr("The chosen metric in the state compared with (File > Compare With) minus now"));
    connect(m_metricAction, &QAction::triggered, this, [this](bool on) { showDifference(on); });
    // Another metric chosen: the map shows it (MainWindow::setMetric()), no longer the difference.
    connect(metric, &QMenu::triggered, this, [this](QAction* chosen) {
        if (chosen != m_metricAction && m_metricAction->isChecked())
            m_metricAction->setChecked(false);
    });
    // A plan's change recolours the map by the chosen metric (MetricSelection::applyMetric(), which
    // runs after this controller's slots): the difference is put back after it.
    connect(m_window->planController(), &PlanController::planChanged, this, [this] {
        if (m_metricAction->isChecked())
            showDifference(true);
    }, Qt::QueuedConnection);
}

bool CompareController::isShowingDifference() const
{
    return !model::comparedMetricBaseId(m_window->mapView()->currentMetric().id()).empty();
}

bool CompareController::showDifference(bool on)
{
    if (!on) {
        m_window->setMetric(m_window->metricId()); // the chosen metric, as the menu shows it
        return true;
    }
    auto refuse = [&](const QString& why) {
        if (m_metricAction)
            m_metricAction->setChecked(false);
        m_window->statusBar()->showMessage(why, MainWindow::kMessageMs);
        return false;
    };
    if (!m_shown || !m_shown->later)
        return refuse(tr("Compare the shown state with another first: File > Compare With\u2026"));
    const std::string chosen = m_window->metricId().toStdString();
    const std::string_view planBase = model::planMetricBaseId(chosen);
    auto base = model::MetricRegistry::builtin().find(planBase.empty() ? chosen : std::string(planBase));
    auto metric = model::makeComparedMetric(base, m_shown->later);
    if (!metric)
        return refuse(tr("The chosen metric has no difference to show (choose a share or an amount, such as GPU requested or Cost)"));
    m_window->mapView()->setMetric(std::move(metric));
    if (m_metricAction)
        m_metricAction->setChecked(true);
    return true;
}

void CompareController::selectNode(const QString& name)
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    const model::NodeId node = cluster && cluster->store ? cluster->store->findNode(name.toStdString()) : model::NodeId();
    if (!node.isValid()) {
        m_window->statusBar()->showMessage(tr("%1 is not in the shown state (it was added later).").arg(name), MainWindow::kMessageMs);
        return;
    }
    // The selection opens the node inspector (ExplorePanels follows selectionChanged), which
    // shares the Changes dock's tabs: the list stays in front, to go on down its rows.
    m_window->mapView()->setSelectedNode(node);
    m_window->mapView()->zoomToNode(node);
    m_dock->raise();
}

void CompareController::showExportDialog()
{
    if (!m_shown) {
        QMessageBox::information(m_window, tr("Nothing to Export"), tr("Compare the shown state with another first: File > Compare With\u2026"));
        return;
    }
    const QString path = askSaveFileName(m_window, tr("Export Changes"), QStringLiteral("changes.json"),
        tr("JSON, as fleetscope diff --format json (*.json);;CSV, the Changes panel's rows (*.csv);;Text, as fleetscope diff (*.txt)"));
    m_window->restoreMapFocus();
    if (!path.isEmpty())
        exportTo(path, true);
}

void CompareController::showExportOutcomeDialog()
{
    if (!planOutcome()) {
        QMessageBox::information(m_window, tr("Nothing to Export"),
            tr("Open or make a plan on the shown state, then compare it with a later one: File > Compare With\u2026"));
        return;
    }
    const QString path = askSaveFileName(m_window, tr("Export Plan Outcome"), QStringLiteral("plan-outcome.json"),
        tr("JSON, as fleetscope diff --plan --format json (*.json);;Text, as fleetscope diff --plan (*.txt)"));
    m_window->restoreMapFocus();
    if (!path.isEmpty())
        exportOutcomeTo(path, true);
}

bool CompareController::exportTo(const QString& path, bool interactive)
{
    if (!m_shown) {
        m_lastMessage = tr("No comparison is shown.");
        if (interactive)
            QMessageBox::warning(m_window, tr("Cannot Export Changes"), m_lastMessage);
        emit changesExported(false, m_lastMessage);
        return false;
    }
    // Written on the comparison's worker: at 100,000 nodes the text alone takes half a second.
    return writeOnWorker(path, interactive, [diff = m_shown->diff](const QString& suffix) {
        return suffix == QLatin1String("json") ? importers::stateDiffJson(*diff)
            : suffix == QLatin1String("csv")    ? views::changesCsv(*diff)
                                                : importers::stateDiffText(*diff, SIZE_MAX);
    });
}

bool CompareController::exportOutcomeTo(const QString& path, bool interactive)
{
    if (!m_shown || !m_outcome) {
        m_lastMessage = tr("No plan outcome is shown (no plan with actions is open beside the comparison).");
        if (interactive)
            QMessageBox::warning(m_window, tr("Cannot Export Changes"), m_lastMessage);
        emit changesExported(false, m_lastMessage);
        return false;
    }
    return writeOnWorker(path, interactive,
        [outcome = m_outcome, plan = m_outcomeLabel.toStdString(), then = m_shown->thenOutcomeLabel.toStdString(),
            now = m_shown->nowOutcomeLabel.toStdString()](const QString& suffix) {
            return suffix == QLatin1String("json") ? importers::planOutcomeJson(*outcome, plan, then, now)
                                                   : importers::planOutcomeText(*outcome, plan, now);
        });
}

bool CompareController::writeOnWorker(const QString& path, bool interactive, std::function<std::string(const QString& suffix)> bytes)
{
    auto fail = [&](const QString& why) {
        m_lastMessage = withFullStop(why);
        if (interactive)
            QMessageBox::warning(m_window, tr("Cannot Export Changes"), m_lastMessage);
        emit changesExported(false, m_lastMessage);
        return false;
    };
    importers::OutputFileOptions options; // a shown input is never overwritten
    for (const QString& f : m_window->shownFiles())
        options.inputs.push_back(f.toStdString());
    try { // a .fleet document, a folder or an input is refused before any work
        importers::checkOutputTarget(path.toStdString(), options);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    QPointer<CompareController> self(this);
    (void)QtConcurrent::run(comparePool(), [self, bytes = std::move(bytes), suffix, path, options, interactive]() {
        QString error;
        try {
            importers::writeOutputFile(path.toStdString(), bytes(suffix), options);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, path, error, interactive] {
                if (!self)
                    return;
                if (!error.isEmpty()) {
                    self->m_lastMessage = withFullStop(error);
                    if (interactive)
                        QMessageBox::warning(self->m_window, tr("Cannot Export Changes"), self->m_lastMessage);
                    emit self->changesExported(false, self->m_lastMessage);
                    return;
                }
                self->m_lastMessage = tr("Wrote %1.").arg(path);
                self->m_window->statusBar()->showMessage(self->m_lastMessage, MainWindow::kMessageMs);
                emit self->changesExported(true, self->m_lastMessage);
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace fleet::app
