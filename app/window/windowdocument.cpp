// SPDX-License-Identifier: Apache-2.0
#include "windowdocument.h"
#include "app/controllers/workerpool.h"

#include "app/controllers/importcontroller.h"
#include "app/dialogs/unsavedchangesbox.h"
#include "app/dialogs/filedialogs.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/planopener.h"
#include "app/controllers/plansteprunner.h"
#include "app/controllers/storereaders.h"
#include "app/window/mainwindow.h"
#include "app/window/plandocument.h"

#include "importers/export/evaluationformat.h"
#include "importers/output/outputfile.h"
#include "importers/plan/planfile.h"
#include "importers/pricing/pricetableloader.h"

#include <QAction>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <exception>
#include <utility>

namespace fleet::app {

namespace {

const QString kRecentKey = QStringLiteral("recentSources");
const QString kFleetSuffix = QStringLiteral(".fleet");
constexpr qint64 kMaxPlanFileBytes = qint64 { 512 } << 20;

// Plan JSON for `actions` naming `source` (planJson()), with the consolidation's kept-node
// record when it was made for these actions; "" for no action.
std::string planJsonOf(const importers::PlanSource& source, std::vector<model::PlanAction> actions, const importers::PlanKeptRecord* kept = nullptr)
{
    if (actions.empty())
        return {};
    importers::PlanDocument plan;
    plan.source = source;
    plan.actions = std::move(actions);
    if (kept)
        plan.consolidation = *kept;
    return importers::planJson(plan);
}

// `plan check --format json` of `plan` on `doc`'s state (as `save --plan` stores it), on a copy
// of the store: a place-pods action adds its template pod, which the saved state must not hold.
// "" when the plan cannot be read (it is saved without one). `prices`: $/h by NodeId, the
// window's. Thread: any (the save's worker).
std::string evaluationOf(const importers::DocumentPlan& entry, const importers::FleetDocument& doc, const std::vector<double>& prices)
{
    try {
        const importers::PlanDocument plan = importers::parsePlanText(entry.planJson, entry.name);
        model::ClusterStore copy = doc.cluster.store->clone();
        importers::addPlanTemplatePods(copy, plan, entry.name);
        importers::PlanEvaluation evaluation = importers::evaluatePlan(copy, *doc.cluster.topology, plan, prices);
        evaluation.state = doc.provenance;
        return importers::evaluationJson(entry.name, evaluation, copy);
    } catch (const std::exception&) {
        return {};
    }
}

std::vector<model::PlanAction> actionsOf(const model::PlanEngine* engine)
{
    std::vector<model::PlanAction> actions;
    if (!engine)
        return actions;
    actions.reserve(engine->applied().size());
    for (const model::AppliedAction& a : engine->applied())
        actions.push_back(a.action);
    return actions;
}

} // namespace

WindowDocument::WindowDocument(MainWindow* window, PlanController* plan, PlanDocument* planDocument)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
    , m_planDocument(planDocument)
{
    connect(m_plan->undoStack(), &QUndoStack::cleanChanged, this, &WindowDocument::updateTitle);
    connect(m_plan->undoStack(), &QUndoStack::indexChanged, this, &WindowDocument::updateTitle);
    connect(this, &WindowDocument::plansChanged, this, &WindowDocument::updateTitle);
    connect(m_plan, &PlanController::engineReady, this, [this] {
        if (!std::exchange(m_openFirst, false) || m_plans.empty())
            return;
        if (!switchToPlan(0)) {
            m_current = 0; // nothing could open it: the list stays as the file has it
            emit plansChanged();
        }
    });
    // The plan left for another stays shown while the other is read on a worker, and the user
    // may still edit it: what it holds when the other replaces it is what its entry keeps (the
    // stash at the switch alone lost such edits, or kept them in no plan).
    connect(m_planDocument->opener(), &PlanOpener::aboutToReplace, this, [this] {
        if (m_pending < 0 || m_previous < 0)
            return;
        if (m_plan->isBusy())
            m_plan->stepRunner()->finishNow(); // a step started meanwhile: kept whole, never in part
        stashShownPlanAt(m_previous);
    });
    connect(m_planDocument->opener(), &PlanOpener::finished, this, [this](bool opened) {
        if (m_pending < 0) {
            // File > Open Plan put other actions in the shown plan: a document that keeps plans
            // now differs from its file, though the plan is "as opened" (its undo stack clean).
            // A plan alone, without a document, is the plan file it opened: nothing to save.
            if (opened && (!m_path.isEmpty() || m_plans.size() > 1))
                setListModified(true);
            return;
        }
        const int index = std::exchange(m_pending, -1);
        const bool modifies = std::exchange(m_pendingModifies, false);
        if (opened) {
            m_current = index;
            if (modifies)
                setListModified(true);
        } else if (m_previous >= 0 && static_cast<std::size_t>(m_previous) < m_plans.size()) {
            m_current = m_previous; // the window still shows the plan it was to leave
        } else {
            // The plan could not be shown and none was before (a document's first plan): it
            // stays in the list as it was, and the window shows a new empty plan of its own
            // (never the failed one's entry, whose actions a save would replace by the shown ones).
            m_plans.push_back(importers::DocumentPlan { uniqueName(tr("Plan %1").arg(m_plans.size() + 1)).toStdString(), {}, {}, {}, {} });
            m_current = static_cast<int>(m_plans.size()) - 1;
            setListModified(true);
        }
        m_previous = -1;
        emit plansChanged();
    });
    // A plan added to be shown while another was being opened: shown now that it is, from the
    // event loop (the opener may still count as running while it says it finished).
    connect(m_planDocument->opener(), &PlanOpener::finished, this, [this] {
        if (m_showWhenOpened.empty())
            return;
        QMetaObject::invokeMethod(this, [this, name = std::exchange(m_showWhenOpened, {})] {
            const auto it = std::find_if(m_plans.begin(), m_plans.end(), [&](const importers::DocumentPlan& p) { return p.name == name; });
            if (it != m_plans.end() && static_cast<int>(it - m_plans.begin()) != m_current)
                switchToPlan(static_cast<int>(it - m_plans.begin()));
        }, Qt::QueuedConnection);
    });
}

WindowDocument::~WindowDocument() = default;

void WindowDocument::addFileActions(QMenu* file)
{
    QAction* saveAction = file->addAction(tr("&Save"), this, [this] { save(); });
    saveAction->setObjectName(QStringLiteral("actionSave"));
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setStatusTip(tr("Save the cluster shown and its plans as one .fleet document"));
    QAction* saveAsAction = file->addAction(tr("Save &As\u2026"), this, [this] { saveAs(); });
    saveAsAction->setObjectName(QStringLiteral("actionSaveAs"));
    saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
}

QMenu* WindowDocument::addRecentMenu(QMenu* file)
{
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("menuOpenRecent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &WindowDocument::rebuildRecentMenu);
    return m_recentMenu;
}

bool WindowDocument::isModified() const
{
    return m_listModified || !m_plan->undoStack()->isClean();
}

void WindowDocument::setListModified(bool modified)
{
    if (modified)
        ++m_listGeneration;
    m_listModified = modified;
    updateTitle();
}

void WindowDocument::updateTitle()
{
    QString name;
    if (!m_path.isEmpty())
        name = QFileInfo(m_path).fileName();
    else if (m_cluster)
        name = m_cluster->sourceLabel;
    if (name.isEmpty()) {
        m_window->setWindowTitle(tr("Fleetscope"));
        return;
    }
    name.replace(QStringLiteral("[*]"), QStringLiteral("[*][*]")); // a literal placeholder in a file name stays literal
    m_window->setWindowTitle(tr("%1[*] \u2014 Fleetscope").arg(name));
    m_window->setWindowModified(isModified());
}

void WindowDocument::setCluster(std::shared_ptr<const ImportedCluster> cluster, const QStringList& files)
{
    m_cluster = std::move(cluster);
    m_pending = -1;
    m_previous = -1;
    m_pendingModifies = false;
    m_showWhenOpened.clear();
    m_plans.clear();
    m_path.clear();
    m_source = {};
    m_takenAt = importers::utcNowIso();
    const OpenedDocument* document = m_cluster ? m_cluster->document.get() : nullptr;
    if (document) {
        m_path = document->path;
        m_plans = document->plans;
        m_source = document->provenance;
    }
    if (m_plans.empty()) {
        m_plans.push_back(importers::DocumentPlan { tr("Plan 1").toStdString(), {}, {}, {}, {} });
        m_current = 0;
        m_openFirst = false;
    } else {
        m_current = -1; // the first plan opens once the what-if is ready
        m_openFirst = true;
    }
    m_listModified = false;
    if (!document && m_cluster) {
        // The files' digests are read on a worker; a plan stashed before they are known names none.
        const std::uint64_t generation = ++m_sourceGeneration;
        QPointer<WindowDocument> self(this);
        (void)QtConcurrent::run(longWorkPool(), [self, generation, source = m_window->planSourceOnWorker()] {
            importers::PlanSource s;
            try {
                s = source();
            } catch (const std::exception&) {
                return; // a file gone since: the plan is saved naming what can be named then
            }
            QMetaObject::invokeMethod(
                self, [self, generation, s] { if (self && generation == self->m_sourceGeneration) self->m_source = s; }, Qt::QueuedConnection);
        });
    } else {
        ++m_sourceGeneration;
    }
    if (!files.isEmpty())
        rememberRecent(files);
    emit plansChanged();
}

// ---- saving ------------------------------------------------------------------------------

bool WindowDocument::saveTo(const QString& path)
{
    if (!m_cluster || m_saving || path.isEmpty())
        return false;
    if (m_plan->isBusy()) {
        // A large step is being undone or redone in slices: the engine holds part of it, and
        // the shown plan's actions are copied below. The save starts when the step ends (a
        // cancel included: the plan is then as before the step), and counts as running now.
        m_saving = true;
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(m_plan->stepRunner(), &PlanStepRunner::busyChanged, this, [this, path, once](bool busy) {
            if (busy)
                return;
            disconnect(*once);
            m_saving = false;
            if (!saveTo(path))
                emit saveFailed(tr("There is no cluster to save."));
        });
        return true;
    }
    m_saving = true;
    m_cancelSave = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++m_saveGeneration;
    if (!m_progress) {
        m_progress = new QProgressDialog(m_window);
        m_progress->setObjectName(QStringLiteral("saveDocumentProgress"));
        m_progress->setWindowTitle(tr("Save"));
        // Cancel stops before the rename: the file saved before is left as it was.
        m_progress->setCancelButtonText(tr("Cancel"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(kProgressAfterMs);
        m_progress->setAutoReset(false);
        m_progress->setAutoClose(false);
        connect(m_progress, &QProgressDialog::canceled, this, &WindowDocument::cancelSave);
    }
    m_progress->setLabelText(tr("Saving %1\u2026").arg(QFileInfo(path).fileName()));
    m_progress->setRange(0, 0);
    m_progress->reset();
    m_progress->setValue(0);
    // The shown plan's actions are copied in slices of the event loop: a consolidation's
    // 200,000 actions at once held the GUI thread for a second or more.
    m_saveCopy = std::make_unique<SaveCopy>();
    m_saveCopy->path = path;
    m_saveCopy->cluster = m_cluster;
    QTimer::singleShot(0, this, [this, generation] { copySaveSlice(generation); });
    return true;
}

void WindowDocument::cancelSave()
{
    if (!m_saving || !m_cancelSave)
        return;
    m_cancelSave->store(true); // the next slice of the copy, or the worker at its next poll, stops
    if (m_progress)
        m_progress->setLabelText(tr("Cancelling the save\u2026"));
}

void WindowDocument::copySaveSlice(std::uint64_t generation)
{
    if (generation != m_saveGeneration || !m_saveCopy)
        return;
    if (m_cancelSave && m_cancelSave->load()) {
        const QString path = m_saveCopy->path;
        m_saveCopy.reset();
        onSaveFinished(generation, path, tr("%1: cancelled; the previous file is unchanged").arg(path), true, {}, {});
        return;
    }
    if (m_saveCopy->cluster != m_cluster) { // another cluster shown meanwhile: not the document asked for
        const QString path = m_saveCopy->path;
        m_saveCopy.reset();
        onSaveFinished(generation, path, tr("%1: another cluster was opened while it was saved; nothing was written").arg(path), false, {}, {});
        return;
    }
    if (m_plan->isBusy()) { // a step undone or redone in slices: the copy is of the plan after it
        QTimer::singleShot(kSaveSliceMs, this, [this, generation] { copySaveSlice(generation); });
        return;
    }
    SaveCopy& copy = *m_saveCopy;
    const std::shared_ptr<const model::PlanEngine> engine = m_current >= 0 ? m_plan->engine() : nullptr;
    const std::size_t total = engine ? engine->applied().size() : 0;
    const int undoIndex = m_plan->undoStack()->index();
    if (engine != copy.engine || undoIndex != copy.undoIndex || total != copy.total) {
        // The plan changed between slices (an edit while the dialog was not yet shown): the
        // file holds the plan as it is when the copy ends, so the copy starts again.
        copy.engine = engine;
        copy.undoIndex = undoIndex;
        copy.total = total;
        copy.actions.clear();
        copy.actions.reserve(total);
    }
    QElapsedTimer clock;
    clock.start();
    constexpr std::size_t kStride = 512; // actions between looks at the clock
    while (copy.actions.size() < total && clock.elapsed() < kSaveSliceMs) {
        const std::size_t end = std::min(total, copy.actions.size() + kStride);
        for (std::size_t i = copy.actions.size(); i < end; ++i)
            copy.actions.push_back(engine->applied()[i].action);
    }
    if (copy.actions.size() < total) {
        QTimer::singleShot(0, this, [this, generation] { copySaveSlice(generation); });
        return;
    }
    std::unique_ptr<SaveCopy> done = std::move(m_saveCopy);
    startSaveWorker(generation, done->path, std::move(done->actions));
}

void WindowDocument::startSaveWorker(std::uint64_t generation, const QString& path, std::vector<model::PlanAction> actions)
{
    const OpenedDocument* opened = m_cluster->document.get();
    auto doc = std::make_shared<importers::FleetDocument>();
    // The shown cluster is immutable while no live batch is applied, and a batch waits for the
    // worker's StoreReadGuard: the serializer only reads the store and the topology.
    doc->cluster.store = std::const_pointer_cast<model::ClusterStore>(m_cluster->store);
    doc->cluster.topology = std::const_pointer_cast<model::Topology>(m_cluster->topology);
    doc->cluster.report = m_cluster->report;
    doc->cluster.sourceLabel = opened ? opened->sourceLabel : m_cluster->sourceLabel.toStdString();
    doc->cluster.usage = m_cluster->usage;
    doc->cluster.server = m_cluster->server.toStdString();
    doc->cluster.resourceVersion = m_cluster->resourceVersion.toStdString();
    doc->takenAt = opened ? opened->takenAt : m_takenAt;
    doc->topologyKeys = opened && !opened->topologyKeys.empty() ? opened->topologyKeys : model::TopologySpec::defaults().levelKeys;
    doc->priceTableCsv = opened ? opened->priceTableCsv : std::string(importers::shippedPriceTableText());
    const int current = m_current;
    const bool currentChanged = !m_plan->undoStack()->isClean();
    // The shown plan's JSON is made again on the worker from `actions`: its entry's text (tens
    // of MB after a first save of a large plan) is not copied. Its evaluation (as large) is
    // moved out, copied on the worker, and moved back when the save ends (onSaveFinished()).
    auto shownEvaluation = std::make_shared<std::string>();
    doc->plans.reserve(m_plans.size());
    for (std::size_t i = 0; i < m_plans.size(); ++i) {
        if (static_cast<int>(i) != current) {
            doc->plans.push_back(m_plans[i]);
            continue;
        }
        importers::DocumentPlan& shown = m_plans[i];
        if (!currentChanged)
            *shownEvaluation = std::move(shown.evaluationJson);
        shown.evaluationJson.clear();
        doc->plans.push_back(importers::DocumentPlan { shown.name, {}, {}, shown.notes, shown.savedAt });
    }
    m_saveShownEvaluation = shownEvaluation;
    m_saveShownIndex = current;

    importers::OutputFileOptions options; // a document never replaces a file its cluster was read from
    if (!opened)
        for (const QString& f : m_window->shownFiles())
            options.inputs.push_back(f.toStdString());
    options.cancelled = [cancel = m_cancelSave] { return cancel->load(); };

    m_saveUndoIndex = m_plan->undoStack()->index();
    m_saveListGeneration = m_listGeneration;

    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_cluster->store); // a live batch waits for this worker
    std::function<importers::PlanSource()> source;
    if (!opened)
        source = m_window->planSourceOnWorker();
    QPointer<WindowDocument> self(this);
    (void)QtConcurrent::run(longWorkPool(), [self, generation, path, doc, current, actions = std::move(actions), currentChanged, source,
                                provenance = m_source, options, reading, prices = m_plan->nodePrices(), shownEvaluation]() mutable {
        QString error;
        bool cancelled = false;
        std::string currentJson;
        std::vector<SavedPlanState> kept; // per plan of the list: its evaluation and saved time as written
        try {
            if (current >= 0 && static_cast<std::size_t>(current) < doc->plans.size())
                doc->plans[static_cast<std::size_t>(current)].evaluationJson = *shownEvaluation;
            doc->provenance = source ? source() : provenance;
            const std::string now = importers::utcNowIso();
            if (current >= 0 && static_cast<std::size_t>(current) < doc->plans.size()) {
                importers::DocumentPlan& shown = doc->plans[static_cast<std::size_t>(current)];
                shown.planJson = currentJson = planJsonOf(doc->provenance, std::move(actions));
                if (currentChanged || shown.savedAt.empty()) {
                    shown.evaluationJson.clear(); // the evaluation kept is the one of the plan as it was saved
                    shown.savedAt = now;
                }
            }
            // Each plan keeps the evaluation it had when saved, as `save --plan` stores it: one
            // without (changed, renamed, copied, imported) is evaluated on the saved state now.
            for (importers::DocumentPlan& p : doc->plans) {
                if (options.cancelled())
                    throw importers::OutputCancelled(path.toStdString() + ": cancelled before it was written");
                if (!p.planJson.empty() && p.evaluationJson.empty())
                    p.evaluationJson = evaluationOf(p, *doc, prices);
            }
            kept.reserve(doc->plans.size());
            for (const importers::DocumentPlan& p : doc->plans)
                kept.push_back({ p.evaluationJson, p.savedAt.empty() && !p.planJson.empty() ? now : p.savedAt });
            // A plan without actions is not kept in the file; one first saved now (a copy, an
            // import) says so.
            std::erase_if(doc->plans, [](const importers::DocumentPlan& p) { return p.planJson.empty(); });
            for (importers::DocumentPlan& p : doc->plans)
                if (p.savedAt.empty())
                    p.savedAt = now;
            importers::saveFleetDocument(*doc, path.toStdString(), options);
        } catch (const importers::OutputCancelled& e) {
            error = QString::fromStdString(e.what());
            cancelled = true;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        doc.reset();
        QMetaObject::invokeMethod(
            self,
            [self, generation, path, error, cancelled, currentJson = std::move(currentJson), kept = std::move(kept)]() mutable {
                if (self)
                    self->onSaveFinished(generation, path, error, cancelled, std::move(currentJson), std::move(kept));
            },
            Qt::QueuedConnection);
    });
}

void WindowDocument::onSaveFinished(
    std::uint64_t generation, const QString& path, const QString& error, bool cancelled, std::string currentJson, std::vector<SavedPlanState> kept)
{
    if (generation != m_saveGeneration)
        return;
    m_saving = false;
    m_cancelSave.reset();
    // The shown plan's evaluation taken for the worker goes back to its entry, unless the list
    // or the plan changed meanwhile (then the next save evaluates it again).
    if (const std::shared_ptr<std::string> evaluation = std::exchange(m_saveShownEvaluation, nullptr);
        evaluation && m_saveShownIndex == m_current && m_listGeneration == m_saveListGeneration
        && m_plan->undoStack()->index() == m_saveUndoIndex && m_current >= 0 && static_cast<std::size_t>(m_current) < m_plans.size()
        && m_plans[static_cast<std::size_t>(m_current)].evaluationJson.empty())
        m_plans[static_cast<std::size_t>(m_current)].evaluationJson = std::move(*evaluation);
    if (m_progress) {
        m_progress->reset();
        m_progress->hide();
    }
    if (cancelled) {
        // Nothing was renamed: the file is as it was, and so is the document's modified state.
        m_plan->showMessage(tr("The save was cancelled: %1 was not written.").arg(QFileInfo(path).fileName()));
        emit saveFailed(error);
        return;
    }
    if (!error.isEmpty()) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Save"), tr("The document was not saved: %1").arg(withFullStop(error)),
            QMessageBox::Close, m_window);
        box->setObjectName(QStringLiteral("saveDocumentError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        emit saveFailed(error);
        return;
    }
    m_path = path;
    if (m_current >= 0 && static_cast<std::size_t>(m_current) < m_plans.size())
        m_plans[static_cast<std::size_t>(m_current)].planJson = std::move(currentJson);
    // Changes made while the worker wrote stay unsaved.
    if (m_plan->undoStack()->index() == m_saveUndoIndex)
        m_plan->undoStack()->setClean();
    if (m_listGeneration == m_saveListGeneration) {
        m_listModified = false;
        // The list is as written: each entry keeps what the file now says of it. (A list
        // changed meanwhile is evaluated again at the next save.)
        for (std::size_t i = 0; i < m_plans.size() && i < kept.size(); ++i) {
            m_plans[i].evaluationJson = std::move(kept[i].evaluationJson);
            m_plans[i].savedAt = std::move(kept[i].savedAt);
        }
    }
    rememberRecent({ path });
    updateTitle();
    emit saved(path);
}

QString WindowDocument::saveAndWait(const QString& path)
{
    if (!m_cluster)
        return tr("There is no cluster to save.");
    if (!saveTo(path))
        return tr("A save is already running.");
    QString result;
    QEventLoop loop;
    const auto ok = connect(this, &WindowDocument::saved, &loop, [&loop] { loop.quit(); });
    const auto failed = connect(this, &WindowDocument::saveFailed, &loop, [&loop, &result](const QString& error) {
        result = error;
        loop.quit();
    });
    loop.exec();
    disconnect(ok);
    disconnect(failed);
    return result;
}

bool WindowDocument::save()
{
    if (m_path.isEmpty())
        return saveAs();
    if (!m_cluster)
        return false;
    return saveTo(m_path);
}

bool WindowDocument::saveAs(bool wait)
{
    if (!m_cluster) {
        QMessageBox::information(m_window, tr("Save"), tr("Open a cluster first: a document keeps the cluster shown and its plans."));
        m_window->restoreMapFocus();
        return false;
    }
    QString suggested = m_path;
    if (suggested.isEmpty()) {
        const QStringList files = m_window->shownFiles();
        suggested = files.isEmpty() ? QStringLiteral("cluster.fleet") : QFileInfo(files.front()).completeBaseName() + kFleetSuffix;
    }
    QString path = askSaveFileName(m_window, tr("Save Document"), suggested, tr("Fleetscope documents (*.fleet)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += kFleetSuffix;
    if (!wait)
        return saveTo(path);
    return saveAndWait(path).isEmpty();
}

bool WindowDocument::confirmClose()
{
    if (m_saving) {
        // The save running ends first: its result decides what is left to ask.
        QEventLoop loop;
        connect(this, &WindowDocument::saved, &loop, &QEventLoop::quit);
        connect(this, &WindowDocument::saveFailed, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!isModified())
        return m_planDocument->confirmLosingUndoneSteps(); // nothing to save, but Redo's steps would go
    const bool document = !m_path.isEmpty() || m_listModified || m_plans.size() > 1;
    if (!document)
        return m_planDocument->confirmClose(); // one plan alone: saved as a plan file, as before documents
    const auto choice = askToSaveChanges(m_window,
        { QStringLiteral("unsavedDocumentBox"), tr("Unsaved Changes"),
          m_path.isEmpty() ? tr("The cluster's plans are not saved.") : tr("%1 has changes that are not saved.").arg(QFileInfo(m_path).fileName()),
          tr("Save the document before it is closed?"), m_path.isEmpty() });
    if (choice == QMessageBox::Discard)
        return true;
    if (choice == QMessageBox::Save)
        return m_path.isEmpty() ? saveAs(true) : saveAndWait(m_path).isEmpty();
    m_window->restoreMapFocus();
    return false;
}

// ---- recent files ------------------------------------------------------------------------

QList<QStringList> WindowDocument::recentSources()
{
    QList<QStringList> out;
    for (const QString& entry : QSettings().value(kRecentKey).toStringList())
        if (!entry.isEmpty())
            out << entry.split(QLatin1Char('\n'));
    return out;
}

void WindowDocument::rememberRecent(const QStringList& files)
{
    if (!m_remembersRecent)
        return;
    QStringList absolute;
    for (const QString& f : files)
        absolute << QFileInfo(f).absoluteFilePath();
    const QString entry = absolute.join(QLatin1Char('\n'));
    QSettings settings;
    QStringList entries = settings.value(kRecentKey).toStringList();
    entries.removeAll(entry);
    entries.prepend(entry);
    while (entries.size() > kRecentFiles)
        entries.removeLast();
    settings.setValue(kRecentKey, entries);
}

QStringList recentSourceLabels(const QList<QStringList>& sources)
{
    const auto join = [](const QStringList& files, bool withFolder) {
        QStringList names;
        for (const QString& f : files) {
            const QFileInfo info(f);
            names << (withFolder ? QStringLiteral("%1 (%2)").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())) : info.fileName());
        }
        return names.join(QStringLiteral(" + "));
    };
    QStringList names;
    for (const QStringList& files : sources)
        names << join(files, false);
    QStringList labels = names;
    for (int i = 0; i < sources.size(); ++i)
        if (names.count(names.at(i)) > 1)
            labels[i] = join(sources.at(i), true);
    return labels;
}

void WindowDocument::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QList<QStringList> sources = recentSources();
    const QStringList labels = recentSourceLabels(sources);
    int n = 0;
    for (const QStringList& files : sources) {
        QAction* a = m_recentMenu->addAction(tr("&%1 %2").arg(n + 1).arg(labels.at(n)));
        ++n;
        a->setToolTip(files.join(QLatin1Char('\n')));
        a->setStatusTip(files.join(QStringLiteral(", ")));
        connect(a, &QAction::triggered, this, [this, files] {
            if (confirmClose())
                m_window->openFiles(files);
        });
    }
    if (sources.isEmpty())
        m_recentMenu->addAction(tr("No Recent Files"))->setEnabled(false);
}

// ---- the plans ---------------------------------------------------------------------------

QString WindowDocument::shownPlanLabel(const QString& planPath) const
{
    if (m_current < 0 || static_cast<std::size_t>(m_current) >= m_plans.size())
        return planPath;
    const QString name = QString::fromStdString(m_plans[static_cast<std::size_t>(m_current)].name);
    if (!m_path.isEmpty())
        return QFileInfo(m_path).absoluteFilePath() + QLatin1Char(':') + name;
    return planPath.isEmpty() ? name : planPath;
}

std::string WindowDocument::currentPlanJson() const
{
    return planJsonOf(m_source, actionsOf(m_plan->engine().get()), m_plan->consolidationKept().get());
}

void WindowDocument::stashCurrentPlan()
{
    stashShownPlanAt(m_current);
}

void WindowDocument::stashShownPlanAt(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size())
        return;
    importers::DocumentPlan& shown = m_plans[static_cast<std::size_t>(index)];
    if (!m_plan->undoStack()->isClean()) {
        shown.evaluationJson.clear();
        shown.savedAt.clear();
        setListModified(true);
    }
    shown.planJson = currentPlanJson();
}

QString WindowDocument::uniqueName(const QString& wanted) const
{
    auto taken = [this](const QString& name) {
        return std::any_of(m_plans.begin(), m_plans.end(), [&](const importers::DocumentPlan& p) { return QString::fromStdString(p.name) == name; });
    };
    if (!taken(wanted))
        return wanted;
    for (int n = 2;; ++n)
        if (const QString candidate = QStringLiteral("%1 (%2)").arg(wanted).arg(n); !taken(candidate))
            return candidate;
}

bool WindowDocument::canOpenPlan() const
{
    // A large step undone or redone in slices leaves part of it in the engine: the plan left
    // would be kept with part of the step.
    return m_plan->engine() && !m_planDocument->opener()->isRunning() && !m_saving && !m_plan->isBusy();
}

bool WindowDocument::refusedWhileBusy() const
{
    if (!m_plan->isBusy())
        return false;
    m_plan->showMessage(tr("The plan is being undone or redone; wait for it, or cancel it."));
    return true;
}

bool WindowDocument::openPlanAt(int index)
{
    const importers::DocumentPlan& entry = m_plans[static_cast<std::size_t>(index)];
    std::string json = entry.planJson;
    if (json.empty()) {
        importers::PlanDocument empty;
        empty.source = m_source;
        json = importers::planJson(empty);
    }
    m_pending = index;
    if (!m_planDocument->opener()->openText(QString::fromStdString(entry.name), std::move(json), m_window->planSourceOnWorker())) {
        m_pending = -1;
        return false;
    }
    return true;
}

bool WindowDocument::switchToPlan(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size() || index == m_current || refusedWhileBusy() || !canOpenPlan())
        return false;
    stashCurrentPlan();
    const int previous = std::exchange(m_current, -1);
    if (!openPlanAt(index)) {
        m_current = previous;
        return false;
    }
    m_previous = previous;
    emit plansChanged();
    return true;
}

bool WindowDocument::newPlan()
{
    // A plan without actions is not written to the file (saveTo()): adding one leaves the
    // document as saved, so it is not a change to save (nor is leaving a clean plan for it).
    return showAddedPlan(tr("Plan %1").arg(m_plans.size() + 1), {}, false);
}

bool WindowDocument::addPlan(const QString& name, std::string json)
{
    return showAddedPlan(name, std::move(json), true);
}

bool WindowDocument::showAddedPlan(const QString& name, std::string json, bool modifies)
{
    if (!canOpenPlan())
        return false;
    m_plans.push_back(importers::DocumentPlan { uniqueName(name).toStdString(), std::move(json), {}, {}, {} });
    if (modifies)
        setListModified(true);
    if (!switchToPlan(static_cast<int>(m_plans.size()) - 1)) {
        emit plansChanged();
        return false;
    }
    m_pendingModifies = modifies;
    return true;
}

void WindowDocument::addPlanToShow(const QString& name, std::string json)
{
    if (canOpenPlan()) {
        showAddedPlan(name, std::move(json), true);
        return;
    }
    keepPlan(name, std::move(json));
    if (m_planDocument->opener()->isRunning())
        m_showWhenOpened = m_plans.back().name;
}

void WindowDocument::keepPlan(const QString& name, std::string json)
{
    m_plans.push_back(importers::DocumentPlan { uniqueName(name).toStdString(), std::move(json), {}, {}, {} });
    setListModified(true);
    emit plansChanged();
}

bool WindowDocument::duplicatePlan(int index)
{
    // While another plan opens, the one left is still shown and may change until the other
    // replaces it (its entry is written then); during a sliced step the shown one holds part
    // of the step. Either way the copy could not be the plan as the user sees it.
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size() || m_pending >= 0 || refusedWhileBusy())
        return false;
    importers::DocumentPlan copy = m_plans[static_cast<std::size_t>(index)];
    if (index == m_current)
        copy.planJson = currentPlanJson();
    copy.name = uniqueName(tr("%1 copy").arg(QString::fromStdString(copy.name))).toStdString();
    m_plans.push_back(std::move(copy));
    setListModified(true);
    emit plansChanged();
    return true;
}

bool WindowDocument::renamePlan(int index, const QString& name)
{
    const QString trimmed = name.trimmed();
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size() || trimmed.isEmpty())
        return false;
    importers::DocumentPlan& entry = m_plans[static_cast<std::size_t>(index)];
    if (QString::fromStdString(entry.name) == trimmed)
        return true;
    if (uniqueName(trimmed) != trimmed || !importers::isPrintablePlanName(trimmed.toStdString()))
        return false;
    entry.name = trimmed.toStdString();
    // A rename is a change of the plan as saved: the next save stamps it, and its evaluation,
    // which names the plan, is made again.
    entry.savedAt.clear();
    entry.evaluationJson.clear();
    if (planIsWritten(index)) // an empty plan is not in the file: its name changes nothing saved
        setListModified(true);
    emit plansChanged();
    return true;
}

bool WindowDocument::planIsWritten(int index) const
{
    if (index == m_current) {
        const auto engine = m_plan->engine();
        return engine && !engine->applied().empty();
    }
    return !m_plans[static_cast<std::size_t>(index)].planJson.empty();
}

bool WindowDocument::deletePlan(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size())
        return false;
    const bool written = planIsWritten(index); // an empty plan's delete changes nothing saved
    if (index != m_current) {
        if (m_pending >= 0)
            return false; // the indexes of a plan being opened must stay
        m_plans.erase(m_plans.begin() + index);
        if (index < m_current)
            --m_current;
        if (written)
            setListModified(true);
        emit plansChanged();
        return true;
    }
    if (!canOpenPlan())
        return false;
    m_plans.erase(m_plans.begin() + index);
    if (m_plans.empty())
        m_plans.push_back(importers::DocumentPlan { tr("Plan 1").toStdString(), {}, {}, {}, {} });
    m_current = -1;
    m_previous = -1; // deleted: a failed open leaves a new empty plan shown
    if (written)
        setListModified(true);
    const int next = std::min(index, static_cast<int>(m_plans.size()) - 1);
    if (!openPlanAt(next))
        m_current = next; // nothing to open it with: the list names it shown, as the engine is empty
    emit plansChanged();
    return true;
}

QString WindowDocument::importPlan(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot read %1: %2").arg(QFileInfo(path).fileName(), file.errorString());
    if (file.size() > kMaxPlanFileBytes)
        return tr("%1 is larger than a plan file can be (%2 MiB).").arg(QFileInfo(path).fileName()).arg(kMaxPlanFileBytes >> 20);
    const QByteArray bytes = file.readAll();
    std::string json(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    try {
        (void)importers::parsePlanText(json, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (!canOpenPlan())
        return m_plan->engine() ? tr("A plan is being opened or saved; import it again in a moment.")
                                : tr("Open a cluster first: a plan is checked against the cluster shown.");
    addPlan(QFileInfo(path).completeBaseName(), std::move(json));
    return {};
}

QString WindowDocument::exportPlan(int index, const QString& path)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_plans.size())
        return tr("No such plan.");
    std::string json = index == m_current ? currentPlanJson() : m_plans[static_cast<std::size_t>(index)].planJson;
    if (json.empty()) {
        importers::PlanDocument empty;
        empty.source = m_source;
        json = importers::planJson(empty);
    }
    importers::OutputFileOptions options;
    for (const QString& f : m_window->shownFiles())
        options.inputs.push_back(f.toStdString());
    try {
        importers::writeOutputFile(path.toStdString(), json, options);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace fleet::app
