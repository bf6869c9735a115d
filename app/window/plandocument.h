// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan as a document of the main window: File > Open Plan (also File > Open on a plan
// file, and a plan named on the command line), Save Plan, Export Plan, where it was saved, and
// the question before the plan is closed unsaved. One "modified" state: the undo stack's clean
// state.

#include "importers/plan/planfile.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <functional>

class QAction;
class QMenu;

namespace fleet::app {

class MainWindow;
class PlanController;
class PlanOpener;

/// The File menu's plan entries and what they do, for `window` and its `plan`:
/// - Open Plan… re-evaluates a plan file against the shown cluster on a worker (PlanOpener:
///   progress and Cancel after half a second), after confirmClose();
/// - Save Plan… (Ctrl+Alt+S; Ctrl+S is File > Save, the whole document), Export Plan as CSV… / as kubectl Script…, enabled while the plan has
///   actions (setActionsEnabled()); each names MainWindow::planSource();
/// - confirmClose(): Save / Discard / Cancel when the plan is modified, Discard / Cancel when
///   only undone steps that Redo could bring back are unsaved (the window's closeEvent and every
///   replacement of the plan ask it).
/// Errors go to a QMessageBox naming what failed. Thread: GUI thread.
class PlanDocument : public QObject {
    Q_OBJECT
public:
    PlanDocument(MainWindow* window, PlanController* plan);

    /// File > Open Plan… into `file`.
    void addOpenAction(QMenu* file);
    /// File > Save Plan…, Export Plan as CSV…, as kubectl Script… into `file` (disabled until
    /// the plan has actions).
    void addSaveActions(QMenu* file);
    /// Enables Save and Export (the plan has actions) or not.
    void setActionsEnabled(bool enabled);

    /// True when the plan differs from what was last saved or opened (QUndoStack::isClean()).
    [[nodiscard]] bool isModified() const;
    /// See MainWindow::openPlanFile().
    bool open(const QString& path);
    /// Of the files given to open, opens a plan file as a plan: returns the cluster files left.
    /// A plan beside cluster files opens once their what-if is ready (PlanController::engineReady).
    /// More than one plan opens none (a warning says so).
    QStringList takePlanFiles(const QStringList& paths);
    /// Opens the plan file at `path` once the cluster being loaded has its what-if
    /// (PlanController::engineReady), as a plan given beside cluster files.
    void openWhenReady(const QString& path) { m_toOpen = path; }
    [[nodiscard]] PlanOpener* opener() const noexcept { return m_opener; }
    /// The plan file last saved to or opened ("" when none).
    [[nodiscard]] QString path() const { return m_path; }
    /// Writes the plan to `path`; on success the stack's clean state is now, path() is `path`
    /// and the status bar says so ("Saved plan to FILE (N actions)."). Returns "" or the error for people. The write runs on a thread of its own while
    /// this waits in a local event loop without user input (the GUI thread is never blocked).
    /// A large step's undo or redo running in slices (PlanController::isBusy()) is waited for
    /// first, in the same loop: the file holds the plan before or after the step, never part of it.
    QString saveTo(const QString& path);
    /// Why the plan would go: the window closes, or another plan replaces it (Open Plan).
    enum class CloseReason { Close, Replace };
    /// When the plan is modified, asks Save / Discard / Cancel (a QMessageBox titled "Unsaved
    /// Plan", objectName unsavedPlanBox, its question in the words of `reason`); true to go on:
    /// saved or discarded. Save writes to path() only while the plan comes from that file
    /// (comesFromItsFile()), else it asks for a file.
    bool confirmClose(CloseReason reason = CloseReason::Close);
    /// Undone steps that Redo could bring back and that no saved file holds: the undo stack's
    /// commands after both its index and its clean index (those up to a clean index above the
    /// index are the saved file's). QUndoStack::isClean() says nothing of them: undoing every step
    /// of a plan never saved is the clean state of its empty stack. O(1).
    [[nodiscard]] int unsavedUndoneSteps() const;
    /// When unsavedUndoneSteps() > 0 and the plan is not modified (confirmClose() asks then, and
    /// says they go too), asks Discard / Cancel (askToLoseUndoneSteps(), in the words of
    /// `reason`); true to go on: none, or discarded. Undone steps are not autosaved
    /// (PlanAutosave writes the plan shown), so this question is their only guard.
    bool confirmLosingUndoneSteps(CloseReason reason = CloseReason::Close);
    /// Whether the plan shown was made from path() (saved to or opened from it, then changed
    /// by undo and redo or by commands after it): false once undone past that state and changed.
    [[nodiscard]] bool comesFromItsFile() const;

private:
    /// `sentence` with %1 the absolute path written and %2 "N actions" (the status bar's
    /// confirmation of a save or an export).
    [[nodiscard]] static QString writtenText(const QString& sentence, const QString& path, std::size_t actions);
    /// Asks for a file and saves there; true when the plan was written.
    bool saveAs();
    void exportPlan(bool kubectlScript);
    void showOpenDialog();

    MainWindow* m_window = nullptr;
    PlanController* m_plan = nullptr;
    PlanOpener* m_opener = nullptr;
    QList<QAction*> m_actions; // Save, Export as CSV, Export as script
    QString m_path; // the plan file last saved or opened
    QString m_toOpen; // a plan given beside cluster files: opened once their what-if is ready
    bool m_saving = false; // saveTo() waits for its writer
};

} // namespace fleet::app
