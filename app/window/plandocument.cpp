// SPDX-License-Identifier: Apache-2.0
#include "plandocument.h"
#include "app/dialogs/filedialogs.h"

#include "app/controllers/plancontroller.h"
#include "app/controllers/planopener.h"
#include "app/controllers/plansaver.h"
#include "app/controllers/plansteprunner.h"
#include "app/dialogs/unsavedchangesbox.h"
#include "app/window/mainwindow.h"
#include "model/figures.h"

#include <QAction>
#include <QEventLoop>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QThread>
#include <QUndoStack>

#include <algorithm>
#include <exception>
#include <utility>

namespace fleet::app {

PlanDocument::PlanDocument(MainWindow* window, PlanController* plan)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
{
    m_opener = new PlanOpener(window, plan);
    connect(m_plan, &PlanController::engineReady, this, [this] {
        if (m_toOpen.isEmpty())
            return;
        const QString path = std::exchange(m_toOpen, QString());
        open(path);
    });
    connect(m_opener, &PlanOpener::finished, this, [this](bool opened) {
        if (opened)
            m_path = m_opener->path();
    });
}

void PlanDocument::addOpenAction(QMenu* file)
{
    QAction* open = file->addAction(tr("Open P&lan\u2026"), this, &PlanDocument::showOpenDialog);
    open->setObjectName(QStringLiteral("actionOpenPlan"));
    open->setStatusTip(tr("Open a saved plan and check it against the shown cluster, as `plan check` does"));
}

void PlanDocument::addSaveActions(QMenu* file)
{
    QAction* save = file->addAction(tr("Save &Plan…"), this, &PlanDocument::saveAs);
    save->setObjectName(QStringLiteral("actionSavePlan"));
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S)); // Ctrl+S saves the whole document
    save->setStatusTip(tr("Save the shown plan alone as a plan file (File > Save keeps every plan with the cluster)"));
    QAction* csv = file->addAction(tr("Export Plan as &CSV…"), this, [this] { exportPlan(false); });
    csv->setObjectName(QStringLiteral("actionExportPlanCsv"));
    QAction* script = file->addAction(tr("Export Plan as &kubectl Script…"), this, [this] { exportPlan(true); });
    script->setObjectName(QStringLiteral("actionExportPlanScript"));
    m_actions = { save, csv, script };
    setActionsEnabled(false);
}

void PlanDocument::setActionsEnabled(bool enabled)
{
    for (QAction* a : m_actions)
        a->setEnabled(enabled);
}

bool PlanDocument::isModified() const
{
    return !m_plan->undoStack()->isClean();
}

QStringList PlanDocument::takePlanFiles(const QStringList& paths)
{
    QStringList plans, cluster;
    for (const QString& p : paths)
        (p.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) && looksLikePlanFile(p) ? plans : cluster) << p;
    if (plans.size() > 1) {
        QMessageBox::warning(m_window, tr("Open"),
            tr("Open one plan at a time: %1 are plan files. Nothing was opened.").arg(plans.join(QStringLiteral(", "))));
        return {};
    }
    if (plans.isEmpty())
        return cluster;
    if (cluster.isEmpty())
        open(plans.front());
    else
        m_toOpen = plans.front(); // once the cluster files' what-if is ready
    return cluster;
}

void PlanDocument::showOpenDialog()
{
    const QString path = askOpenFileName(m_window, tr("Open Plan"), tr("Plan files (*.json);;All files (*)"));
    m_window->restoreMapFocus();
    if (!path.isEmpty())
        open(path);
}

bool PlanDocument::open(const QString& path)
{
    if (!m_plan->engine()) {
        QMessageBox::information(m_window, tr("Open Plan"),
            m_window->cluster() ? m_plan->notReadyText() // on a live cluster, it points to Pause Live Updates
                                : tr("Open a cluster first: a plan is checked against the cluster shown."));
        return false;
    }
    if (m_opener->isRunning() || !confirmClose(CloseReason::Replace))
        return false;
    return m_opener->open(path, m_window->planSourceOnWorker());
}

QString PlanDocument::writtenText(const QString& sentence, const QString& path, std::size_t actions)
{
    // The whole path: the status bar cuts a long message at its end and shows it whole in its tooltip.
    const QString count = actions == 1 ? tr("1 action") : tr("%1 actions").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(actions))));
    return sentence.arg(QFileInfo(path).absoluteFilePath(), count);
}

QString PlanDocument::saveTo(const QString& path)
{
    if (m_saving)
        return tr("A save of the plan is already running.");
    if (m_plan->isBusy()) {
        // A large step is being undone or redone in slices: the engine holds part of it. The
        // save waits for its end (a cancel included: the plan is then as before the step) with
        // the slices still running from this loop; finishing the rest here, at once, held the
        // GUI thread for the whole rest of a 200,000-action step.
        m_saving = true;
        QEventLoop wait;
        connect(m_plan->stepRunner(), &PlanStepRunner::busyChanged, &wait, [&wait](bool busy) {
            if (!busy)
                wait.quit();
        });
        if (m_plan->isBusy())
            wait.exec(QEventLoop::ExcludeUserInputEvents);
        m_saving = false;
    }
    const auto engine = m_plan->engine();
    if (!engine) {
        QString error = savePlanFile(nullptr, path, {});
        if (error.isEmpty())
            m_plan->showMessage(writtenText(tr("Saved plan to %1 (%2)."), path, 0));
        return error;
    }
    const std::size_t actionCount = engine->applied().size();
    // The copy of the actions, the source's digests, the JSON and the write (its fsync) on a
    // thread of their own (not the long-work pool, where a consolidation's LP bound may hold
    // every thread), the event loop turning without user input meanwhile: no gesture, undo or
    // redo changes the engine while the thread reads it (a worker's result replaces the
    // engine, never edits it; the reference here keeps the one read alive). All on this
    // thread, a 26,516-action plan held it 80 to 280 ms (40 ms of CPU and the fsync) under load.
    const int savedIndex = m_plan->undoStack()->index();
    QString error;
    // The consolidation's kept-node record goes with the plan while its actions are the search's
    // (planJson() leaves it out otherwise).
    QThread* writer = QThread::create([&error, engine, path, source = m_window->planSourceOnWorker(), kept = m_plan->consolidationKept()] {
        std::vector<model::PlanAction> actions = planActionsOf(*engine);
        importers::PlanSource named;
        try {
            named = source();
        } catch (const std::exception& e) {
            error = tr("Cannot name the plan's source: %1").arg(QString::fromStdString(e.what()));
            return;
        }
        error = savePlanActions(std::move(actions), path, named, kept.get());
    });
    m_saving = true;
    QEventLoop loop;
    connect(writer, &QThread::finished, &loop, &QEventLoop::quit);
    writer->start();
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    writer->wait();
    delete writer;
    m_saving = false;
    if (error.isEmpty()) {
        m_path = path;
        if (m_plan->undoStack()->index() == savedIndex) // else the plan changed meanwhile: what was written is not what is shown
            m_plan->undoStack()->setClean();
        m_plan->showMessage(writtenText(tr("Saved plan to %1 (%2)."), path, actionCount));
    }
    return error;
}

bool PlanDocument::saveAs()
{
    const QString path = askSaveFileName(
        m_window, tr("Save Plan"), m_path.isEmpty() ? QStringLiteral("plan.json") : m_path, tr("Plan files (*.json)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return false;
    const QString error = saveTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Save Plan"), withFullStop(error));
    return error.isEmpty();
}

void PlanDocument::exportPlan(bool kubectlScript)
{
    const QString path = kubectlScript
        ? askSaveFileName(m_window, tr("Export Plan as kubectl Script"), QStringLiteral("plan.sh"), tr("Shell scripts (*.sh)"))
        : askSaveFileName(m_window, tr("Export Plan as CSV"), QStringLiteral("plan.csv"), tr("CSV files (*.csv)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return;
    QString error;
    try {
        error = m_plan->exportPlan(path, kubectlScript, m_window->planSource());
    } catch (const std::exception& e) {
        error = tr("Cannot name the plan's source: %1").arg(QString::fromStdString(e.what()));
    }
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export Plan"), withFullStop(error));
    else
        m_plan->showMessage(writtenText(kubectlScript ? tr("Exported the plan as a kubectl script to %1 (%2).") : tr("Exported the plan as CSV to %1 (%2)."),
            path, m_plan->engine() ? m_plan->engine()->applied().size() : 0));
}

bool PlanDocument::comesFromItsFile() const
{
    // The undo stack's clean index is the state saved to (or opened from) m_path; once a
    // command is pushed after undoing past it, QUndoStack drops it (-1): what is shown was not
    // made from that file any more, and writing it there would overwrite an unrelated plan.
    return !m_path.isEmpty() && m_plan->undoStack()->cleanIndex() >= 0;
}

int PlanDocument::unsavedUndoneSteps() const
{
    const QUndoStack* stack = m_plan->undoStack();
    return std::max(0, stack->count() - std::max(stack->index(), stack->cleanIndex()));
}

bool PlanDocument::confirmLosingUndoneSteps(CloseReason reason)
{
    const int steps = unsavedUndoneSteps();
    if (steps == 0 || isModified())
        return true;
    const bool discard = askToLoseUndoneSteps(m_window, steps,
        reason == CloseReason::Replace ? tr("Open the other plan and lose them?") : tr("Close the plan and lose them?"));
    if (!discard)
        m_window->restoreMapFocus();
    return discard;
}

bool PlanDocument::confirmClose(CloseReason reason)
{
    if (!isModified())
        return confirmLosingUndoneSteps(reason);
    const std::size_t actions = m_plan->engine() ? m_plan->engine()->applied().size() : 0;
    const bool ownFile = comesFromItsFile();
    const QString count = actions == 1 ? tr("1 action") : tr("%1 actions").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(actions))));
    const QString text = ownFile ? tr("The plan has changed since it was saved to %1.").arg(QFileInfo(m_path).fileName())
        : m_path.isEmpty()       ? tr("The plan (%1) is not saved.").arg(count)
                                 : tr("The plan (%1) is not saved: it is no longer the plan of %2.").arg(count, QFileInfo(m_path).fileName());
    // Undone steps after it go too, saved or not: a plan file holds the plan shown.
    const int undone = unsavedUndoneSteps();
    const QString undoneText = undone == 0 ? QString()
        : undone == 1 ? QLatin1Char(' ') + tr("1 undone step that Redo could bring back is not saved either.")
                      : QLatin1Char(' ') + tr("%1 undone steps that Redo could bring back are not saved either.").arg(undone);
    const auto choice = askToSaveChanges(m_window,
        { QStringLiteral("unsavedPlanBox"), tr("Unsaved Plan"), text + undoneText,
          reason == CloseReason::Replace ? tr("Save the plan before another is opened?") : tr("Save the plan before it is closed?"), !ownFile });
    if (choice == QMessageBox::Discard)
        return true;
    if (choice == QMessageBox::Save) {
        if (!ownFile)
            return saveAs();
        const QString error = saveTo(m_path);
        if (error.isEmpty())
            return true;
        QMessageBox::warning(m_window, tr("Save Plan"), withFullStop(error));
        return false;
    }
    m_window->restoreMapFocus();
    return false;
}

} // namespace fleet::app
