// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plans with unsaved work saved every minute into the user's data folder, and offered back after a run
// that did not quit cleanly ("Recover the plan from 14:02?").

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QString>

#include <memory>

class QLockFile;
class QTimer;

namespace fleet::app {

class MainWindow;
class PlanController;
class WindowDocument;

/// Autosave of the document's plans with unsaved work, and their recovery.
///
/// Each running window owns files in folder() (QStandardPaths::AppDataLocation + "/autosave"):
/// `plan-PID.lock`, a QLockFile held while it runs; `plan-PID.json`, the shown plan as a plan
/// file (resources/schemas/plan-v1.md), written every interval while the plans changed since
/// the last write (the actions copied on the GUI thread, O(actions); the JSON built and written
/// on a worker through importers::writeOutputFile(), whole or not at all) and removed while the
/// plan is empty or the document unmodified (at the next interval after a save, at once after an
/// undo back to the saved state; steps undone past it that Redo could bring back are not kept:
/// the file holds the plan shown, never its undo history, and the quit asks before they go,
/// PlanDocument::confirmLosingUndoneSteps()); and `plan-PID-K.json` (K = 1, 2, ...), each
/// other plan of the document whose work is not in its file (changed since it was saved, or
/// never saved: WindowDocument's entry without a saved time), written from its entry's plan
/// JSON (O(its size) copied on the GUI thread), the files of plans saved since removed. Each
/// has its `.about` file. A clean quit (closedCleanly()) removes them all.
///
/// Recovery: each time a what-if is ready (a cluster shown), each `plan-*.json` whose lock can be
/// taken (its process is gone: QLockFile's stale check by PID, with no age limit, so another
/// running window's file is never taken) is offered back in a question titled "Recover Plan"
/// ("Recover the plan from 14:02 (12 actions)?"), which says the cluster it was made on (the
/// plan's source): Recover adds it to the document's plans, the document modified; the first
/// one recovered in a run of questions is shown (WindowDocument::addPlanToShow(): once a plan
/// being opened is), the later ones listed, not shown (WindowDocument::keepPlan()), however
/// fast the questions are answered; Discard removes it; either way the
/// leftover files are removed. When the cluster shown is known not to be that one
/// (importers::clusterDifference() of the plan's source and the shown one), the question says
/// so and offers Keep for Later too, which leaves the files for when that cluster (or
/// document) is open, in this window or the next. The question names the plan and its document
/// when the leftover's `.about` file says them, and the recovered plan keeps its name
/// ("Consolidation (recovered 14:02)"). Thread: GUI thread.
class PlanAutosave : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 60000;

    PlanAutosave(MainWindow* window, PlanController* plan, WindowDocument* document);
    ~PlanAutosave() override;

    /// Takes this window's lock and writes every `intervalMs` from now on. The locks of windows
    /// whose process is gone and that left no plan (killed before their first autosave) are
    /// removed now, with their `.about` files; a lock with a plan beside it waits for the
    /// recovery's question.
    void start(int intervalMs = kDefaultIntervalMs);
    /// The folder of the autosaved plans (created by start()).
    [[nodiscard]] static QString folder();
    /// This window's autosave file.
    [[nodiscard]] QString filePath() const;
    /// Beside it, `plan-PID.about`: which plan of which document it is (JSON {"plan": name,
    /// "document": path, "" when none}), so that a recovery names them and keeps the plan's name.
    [[nodiscard]] QString aboutPath() const;
    /// Writes now when the plan changed since the last write (the timer's work).
    void saveIfChanged();
    /// The window closed as asked: waits for a running write, removes this window's files.
    void closedCleanly();

signals:
    /// The plan was written to filePath() (or the file removed: `actions` 0).
    void autosaved(int actions);

private:
    void offerRecovery();
    /// The document is back at its saved state (an undo to it): the file is removed now.
    void removeOnceSaved();
    void removeStaleLocks();

    MainWindow* m_window;
    PlanController* m_plan;
    WindowDocument* m_document;
    QTimer* m_timer = nullptr;
    std::unique_ptr<QLockFile> m_lock;
    QFuture<void> m_write;
    bool m_changed = false;
    // Leftovers the user keeps until their cluster is shown, with the cluster shown then (not
    // asked again while that one is shown; an engine rebuilt over it is the same cluster).
    QHash<QString, std::weak_ptr<const void>> m_keptForLater;
    bool m_closed = false;
};

} // namespace fleet::app
