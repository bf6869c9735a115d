// SPDX-License-Identifier: Apache-2.0
#pragma once
// The window's .fleet document (importers/document/fleetdocument.h): the shown cluster state
// with its named plans, saved and reopened as one file. File > Save (Ctrl+S), Save As, Open
// Recent; the title with the document's name and its modified mark; the question before
// unsaved changes are closed; the plans kept in the document and which one the window shows.

#include "importers/document/fleetdocument.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <string>
#include <memory>
#include <vector>

class QAction;
class QMenu;
class QProgressDialog;

namespace fleet::app {

class MainWindow;
class PlanController;
class PlanDocument;
struct ImportedCluster;

/// The Open Recent menu's label of each source in `sources` (each a list of files): the file
/// names joined by " + ", and where two sources would read the same, each file name followed by
/// its folder ("small-cluster.json (/home/me/a)") so that the entries differ. Thread: any.
[[nodiscard]] QStringList recentSourceLabels(const QList<QStringList>& sources);

/// The document of `window`: the cluster it shows and the plans kept with it.
///
/// The plans: the window shows one of them at a time (currentPlan()); the others are kept as
/// their plan JSON (importers::DocumentPlan). Switching stores the shown plan's actions in its
/// entry and opens the other one through PlanOpener::openText() (re-evaluated against the
/// shown cluster on a worker, as File > Open Plan does, but as no undo step: a switch is no edit
/// of a plan, so the plan shown starts with an empty, clean undo stack, and its own edits from
/// then on are its history; the history of the plan left is not kept). A new cluster starts one empty plan,
/// "Plan 1"; a .fleet document starts with its plans, the first one shown once the what-if is
/// ready. A plan without actions is not written to the file.
///
/// One "modified" state (isModified()): the shown plan's undo stack is not at its clean state,
/// or the list of plans changed (another plan edited then left, a plan imported or recovered,
/// renamed, duplicated or deleted) since the document was last saved or opened. A new empty
/// plan is no change: the file keeps no plan without actions. The title shows it
/// with QWidget::setWindowModified() ("doc.fleet* — Fleetscope").
///
/// Saving: the shown plan's actions are copied on the GUI thread in slices of the event loop
/// (at most kSaveSliceMs each; an edit between slices starts the copy again), then the document
/// is assembled from shared, immutable parts (the shown store and topology, the other plans'
/// JSON; the shown plan's JSON is made on the worker from the copy), serialized and written on a
/// worker through importers::saveFleetDocument() (the atomic output writer: temporary file,
/// fsync, rename), with a progress dialog after half a second. Its Cancel (cancelSave()) stops
/// the save before the rename: the file saved before is left byte for byte as it was, no
/// temporary file is left, and the document stays as modified as it was.
/// Each plan written keeps the evaluation it had when saved (`plan check --format json` on the
/// saved state, with the window's prices), as `fleetscope save --plan` keeps it: a plan changed,
/// renamed, copied or imported since is evaluated on the worker, O(nodes + pods) per plan.
/// A live batch waits for the worker (StoreReadGuard). A save asked for while a large step is
/// undone or redone in slices (PlanController::isBusy()) starts when the step ends: the file holds
/// the shown plan before or after the step, never part of it. Thread: GUI thread.
class WindowDocument : public QObject {
    Q_OBJECT
public:
    static constexpr int kProgressAfterMs = 500;
    /// The longest slice of the GUI thread's copy of the shown plan's actions for a save.
    static constexpr int kSaveSliceMs = 15;
    /// Entries kept in File > Open Recent.
    static constexpr int kRecentFiles = 10;

    WindowDocument(MainWindow* window, PlanController* plan, PlanDocument* planDocument);
    ~WindowDocument() override;

    /// File > Save (Ctrl+S) and Save As… (Ctrl+Shift+S) into `file`.
    void addFileActions(QMenu* file);
    /// File > Open Recent into `file` (QSettings "recentSources": the sources opened and the
    /// documents saved, newest first); opening one asks confirmClose() first.
    QMenu* addRecentMenu(QMenu* file);

    /// The .fleet file saved to or opened ("" for a cluster read from other sources and never
    /// saved as a document).
    [[nodiscard]] QString path() const { return m_path; }
    /// See the class comment.
    [[nodiscard]] bool isModified() const;
    /// True while a save runs on its worker.
    [[nodiscard]] bool isSaving() const noexcept { return m_saving; }

    /// Starts saving the document to `path` on a worker; saved() or saveFailed() follows.
    /// False (nothing started) without a cluster or while a save runs.
    bool saveTo(const QString& path);
    /// saveTo() and waits for its end, the event loop running (the GUI is never blocked).
    /// Returns "" or the error for people.
    QString saveAndWait(const QString& path);
    /// The progress dialog's Cancel: the running save stops before it renames its temporary
    /// file (saveFailed() follows, with "cancelled"); nothing when no save runs.
    void cancelSave();
    /// File > Save: to path(), else as saveAs(). True when the document was written.
    bool save();
    /// File > Save As…: asks for a .fleet file ("Save Document") and saves there. `wait`: until
    /// written (true when it was); else true when the save started.
    bool saveAs(bool wait = false);
    /// When isModified(), asks Save / Discard / Cancel (a QMessageBox titled "Unsaved Changes",
    /// objectName unsavedDocumentBox) for a document (path() set, or more than the shown plan
    /// changed); else, for a plan alone, PlanDocument::confirmClose(). True to go on.
    bool confirmClose();

    // ---- the plans ----------------------------------------------------------------------
    /// The plans of the document; the shown one's JSON is as of its last switch or save.
    [[nodiscard]] const std::vector<importers::DocumentPlan>& plans() const noexcept { return m_plans; }
    /// The shown cluster's source as a plan names it (MainWindow::planSource(), computed once
    /// per cluster on a worker; empty until then).
    [[nodiscard]] const importers::PlanSource& shownSource() const noexcept { return m_source; }
    /// The shown plan as a report names it: "DOC.fleet:NAME" (the document's absolute path, as
    /// `fleetscope report DOC.fleet --plan NAME` names the plan) when the document has a file;
    /// else `planPath` (the plan file last opened or saved, MainWindow::planPath()) when given;
    /// else the plan's name in the Plans list ("Plan 2"); "" while no plan is shown.
    [[nodiscard]] QString shownPlanLabel(const QString& planPath) const;
    /// The index of the plan shown in plans(), -1 while none (a plan being opened).
    [[nodiscard]] int currentPlan() const noexcept { return m_current; }
    /// Shows plan `index` (see the class comment). False when nothing started: the index is
    /// the shown one or out of range, no what-if yet, a plan is being opened or saved, or a
    /// large step is undone or redone in slices (a message says so). Edits made to the shown
    /// plan until the other replaces it stay in the shown plan's entry.
    bool switchToPlan(int index);
    /// Adds an empty plan ("Plan N") and shows it. The document stays as modified as it was
    /// (an empty plan is not written to the file), unless the plan left had unsaved changes.
    bool newPlan();
    /// Adds a copy of plan `index` named "NAME copy" (the shown plan's current actions). False
    /// (nothing added) while another plan is being opened or a large step runs in slices.
    bool duplicatePlan(int index);
    /// Renames plan `index`; false (unchanged) for an empty name, one another plan has, or one
    /// that is not printable (importers::isPrintablePlanName()). The next save stamps the plan's
    /// saved time and evaluates it again (its evaluation names it).
    bool renamePlan(int index, const QString& name);
    /// Deletes plan `index`; the shown one is replaced by a neighbour (a new empty plan when
    /// it was the last).
    bool deletePlan(int index);
    /// Adds the plan in plan file `path` (resources/schemas/plan-v1.md), named after the file,
    /// and shows it. Returns "" or the error for people (an unreadable or invalid file).
    QString importPlan(const QString& path);
    /// Adds plan JSON `json` named `name` (made unique) and shows it; the document counts as
    /// changed (an imported or a recovered plan). False when it could not be shown now (it
    /// stays in the list).
    bool addPlan(const QString& name, std::string json);
    /// Adds plan JSON `json` named `name` (made unique) to the list without showing it (a plan
    /// recovered after the one to show); the document counts as changed.
    void keepPlan(const QString& name, std::string json);
    /// Adds plan JSON `json` named `name` (made unique), the document changed, and shows it: at
    /// once, or, while another plan is being opened (a document's own first plan as a
    /// recovery starts), as soon as that one is shown, so that what is shown does not depend on
    /// how long the other took. Stays listed, not shown, when no plan can be opened (a save or a
    /// step undone in slices under way) or when the open fails.
    void addPlanToShow(const QString& name, std::string json);
    /// Writes plan `index` as a plan file to `path`. Returns "" or the error for people.
    QString exportPlan(int index, const QString& path);

    /// A new cluster is shown (MainWindow::onImportFinished()): the document is the cluster's
    /// .fleet (cluster->document) or none; its plans replace the list. `files`: the files it was
    /// read from, for Open Recent.
    void setCluster(std::shared_ptr<const ImportedCluster> cluster, const QStringList& files);
    /// The recent files (newest first), each entry the files of one source.
    [[nodiscard]] static QList<QStringList> recentSources();
    /// Whether the sources opened and documents saved join Open Recent (on by default). A
    /// window that nobody sees (`fleetscope screenshot`) leaves the user's list alone.
    void setRemembersRecent(bool on) noexcept { m_remembersRecent = on; }
    /// Sets the title and modified mark from the document, the cluster and the plan.
    void updateTitle();

signals:
    /// A save ended: written to `path`.
    void saved(const QString& path);
    /// A save failed or was cancelled: `error` names the file and the reason; the previous
    /// file is as it was.
    void saveFailed(const QString& error);
    /// The list of plans, or which one is shown, changed.
    void plansChanged();

private:
    /// True when plan `index` has actions, so that saving writes it (saveTo() leaves out a plan
    /// without actions): renaming or deleting one without changes nothing saved.
    [[nodiscard]] bool planIsWritten(int index) const;
    /// What a save wrote of one plan of the list (in the list's order).
    struct SavedPlanState {
        std::string evaluationJson;
        std::string savedAt;
    };
    void onSaveFinished(std::uint64_t generation, const QString& path, const QString& error, bool cancelled, std::string currentJson,
        std::vector<SavedPlanState> kept);
    /// The save's copy of the shown plan's actions, made in slices (copySaveSlice()).
    struct SaveCopy {
        QString path;
        std::shared_ptr<const ImportedCluster> cluster;  // the cluster shown when the save was asked for
        std::shared_ptr<const model::PlanEngine> engine; // the engine copied from
        int undoIndex = -1;                              // its undo stack's index then
        std::size_t total = 0;                           // its actions then
        std::vector<model::PlanAction> actions;
    };
    /// Copies the next slice of the shown plan's actions for save `generation`; once all are
    /// copied, startSaveWorker().
    void copySaveSlice(std::uint64_t generation);
    void startSaveWorker(std::uint64_t generation, const QString& path, std::vector<model::PlanAction> actions);
    void rememberRecent(const QStringList& files);
    void rebuildRecentMenu();
    /// Stores the shown plan's actions in its entry (its JSON); marks the list modified when the
    /// plan had unsaved changes.
    void stashCurrentPlan();
    /// As stashCurrentPlan(), into plan `index`'s entry (the plan left while another opens).
    void stashShownPlanAt(int index);
    /// True, with a message, while a large step is undone or redone in slices.
    bool refusedWhileBusy() const;
    /// The shown plan as plan JSON naming the cached source, or "" without an engine.
    [[nodiscard]] std::string currentPlanJson() const;
    [[nodiscard]] QString uniqueName(const QString& wanted) const;
    /// Adds plan JSON `json` named `name` (made unique) and shows it; `modifies`: the document
    /// counts as changed (addPlan()), else as it was (newPlan()).
    bool showAddedPlan(const QString& name, std::string json, bool modifies);
    /// Opens plan `index` through PlanOpener::openText() (m_pending); false when it did not start.
    bool openPlanAt(int index);
    [[nodiscard]] bool canOpenPlan() const;
    void setListModified(bool modified);

    MainWindow* m_window = nullptr;
    PlanController* m_plan = nullptr;
    PlanDocument* m_planDocument = nullptr;
    QMenu* m_recentMenu = nullptr;
    QPointer<QProgressDialog> m_progress;

    std::shared_ptr<const ImportedCluster> m_cluster;
    QString m_path;
    std::vector<importers::DocumentPlan> m_plans;
    int m_current = -1;
    int m_pending = -1;        // the plan being opened by switchToPlan()
    int m_previous = -1;       // the plan shown before it, shown again when the open fails
    bool m_openFirst = false;  // the document's first plan opens once the what-if is ready
    bool m_pendingModifies = false; // the plan being opened makes the document modified (added, recovered)
    std::string m_showWhenOpened; // addPlanToShow(): the plan (by name) to show once the one being opened is
    bool m_listModified = false;
    bool m_remembersRecent = true;
    bool m_saving = false;
    std::unique_ptr<SaveCopy> m_saveCopy;               // while the actions are copied
    std::shared_ptr<std::atomic<bool>> m_cancelSave;    // the running save's Cancel
    std::shared_ptr<std::string> m_saveShownEvaluation; // the shown plan's evaluation, lent to the running save
    int m_saveShownIndex = -1;                          // the plan it was taken from
    std::uint64_t m_saveGeneration = 0;
    int m_saveUndoIndex = -1; // the undo stack's index when the running save started
    std::uint64_t m_listGeneration = 0; // +1 per change of the list
    std::uint64_t m_saveListGeneration = 0; // m_listGeneration when the running save started
    std::uint64_t m_sourceGeneration = 0; // +1 per cluster: a source computed for an older one is dropped
    std::string m_takenAt; // when the shown cluster was read, ISO 8601 UTC
    importers::PlanSource m_source; // the shown cluster's source, computed once on a worker
};

} // namespace fleet::app
