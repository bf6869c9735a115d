// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plan > Place Workload in the window ("Placement of a new workload"): N new pods of a
// shape or a pod template file placed in the network topology with Kueue's Topology Aware
// Scheduling semantics (model/placement/topologyplacement.h), as `fleetscope plan place` does
// headless: the same request conversion (app/shared/placerequest.h), the same place-pods action.
//
// The template pod must be a pod of the engine's store, and the shown store is immutable (and
// 100,000 nodes large): the worker (app/shared/placementrun.h) copies it (ClusterStore::clone()),
// adds the template pod to the copy and finalizes it, builds a PlanEngine over the copy, replays
// the window's plan and applies the place-pods action; the GUI thread then only moves the undo
// stack to that engine and pushes one command (PlanController::adoptPlacement()). A name whose template is in the engine's
// store already with the same spec (the same workload placed again) reuses that store.

#include "app/shared/placementrun.h"
#include "app/shared/placerequest.h"

#include "model/ids.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMainWindow;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTimer;

namespace fleet::app {

class PlanController;
/// The dialog, made once per window; "Place Workload…" (objectName actionPlaceWorkload) in the
/// Plan menu opens it, and so does "Place Workload Here…" on a domain label (the domain, and its
/// level as the required level). Fields: pods (N), a shape (cpu, memory, GPUs, GPU model: the
/// cluster's models) or a pod template file, namespace, name, gang (all or nothing), required
/// level or preferred level (the loaded cluster's topology levels:
/// topologyPlacementLevels(), nvidia.com/gpu.clique where nodes carry it), slice size and slice
/// level, and the domain the pods must lie in. A bad field is named in the message line (and
/// marked); a gang that fits nowhere shows, per level, the domain that came closest and what it
/// lacks. Thread: GUI thread; the placement on a QtConcurrent worker (a StoreReadGuard held).
class PlaceWorkloadDialog : public QDialog {
    Q_OBJECT
public:
    PlaceWorkloadDialog(QMainWindow* window, PlanController* plan);
    ~PlaceWorkloadDialog() override;

    /// Fills the level lists from the shown cluster and shows the dialog; with a valid
    /// `domain`, the pods must lie in it and its level is the required level.
    void openFor(model::DomainId domain = {});

    // ---- for tests (and the fields' own slots) ----
    void setPods(int pods);
    void setShape(const QString& cpu, const QString& memory, int gpus = 0, const QString& gpuModel = {});
    void setPodTemplate(const QString& path);
    void setName(const QString& name);
    void setGang(bool gang);
    /// A level's label key, "" for none; false when the list lacks it.
    bool setRequiredLevel(const QString& key);
    bool setPreferredLevel(const QString& key);
    bool setSlices(int size, const QString& level);
    void setDomainPath(const QString& path);
    [[nodiscard]] QString domainPath() const;
    [[nodiscard]] QString requiredLevel() const;
    /// The level keys offered (outermost first).
    [[nodiscard]] QStringList levels() const;
    /// Validates and starts the placement; false when a field is bad (message shown), no engine
    /// is ready or one runs. The worker replays the plan as it is: its actions are copied first,
    /// kCopySliceMs at a time on this thread (the first slice at once, the rest from a 1 ms
    /// timer, so the event loop turns between them; a copy of 199,262 actions at once held the
    /// GUI thread about 300 ms), and copied again from the start when the plan changes meanwhile.
    bool place();
    static constexpr int kCopySliceMs = 10;
    /// At most this many actions per slice of the copy (0: as many as kCopySliceMs allows; tests).
    void setMaxCopyPerSlice(int n) { m_maxCopyPerSlice = n; }
    [[nodiscard]] bool isRunning() const noexcept { return m_running; }
    /// Stops a running placement: the worker stops at its next stage, its result is dropped,
    /// the plan is unchanged, and finished(false) is emitted at once. No-op when none runs.
    void cancel();
    /// The progress bar's value (a PlaceStage) and text while a placement runs.
    [[nodiscard]] int progressValue() const;
    [[nodiscard]] QString progressText() const;
    [[nodiscard]] const PlaceWorkloadOutcome& lastOutcome() const noexcept { return m_outcome; }
    /// The message line's text (plain): the placement, the explanation or the bad field.
    [[nodiscard]] QString messageText() const;
    /// The widget of a field (the one a bad request names).
    [[nodiscard]] QWidget* fieldWidget(PlaceField field) const;

signals:
    /// The worker's result was shown (placed or not); `placed` true when the plan got it.
    void finished(bool placed);
    /// After each slice of place()'s copy of the plan: `copied` of `total` actions.
    void planCopyProgressed(int copied, int total);

private:
    void fillLevels();
    void showError(PlaceField field, const QString& message);
    void clearMarks();
    struct PlanCopy;
    /// One slice of place()'s copy of the plan; starts the worker when it is whole.
    void copyPlanSlice();
    void onResult(std::uint64_t generation, std::shared_ptr<PlaceWorkerResult> result);
    void setRunning(bool running);
    void setMessage(const QString& text, bool error);
    void showStage();
    [[nodiscard]] QString fieldLabel(PlaceField field) const;

    PlanController* m_plan;
    QSpinBox* m_pods = nullptr;
    QRadioButton* m_shapeButton = nullptr;
    QRadioButton* m_templateButton = nullptr;
    QLineEdit* m_cpu = nullptr;
    QLineEdit* m_memory = nullptr;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_gpuModel = nullptr;
    QLineEdit* m_template = nullptr;
    QLineEdit* m_namespace = nullptr;
    QLineEdit* m_name = nullptr;
    QCheckBox* m_gang = nullptr;
    QComboBox* m_required = nullptr;
    QComboBox* m_preferred = nullptr;
    QSpinBox* m_sliceSize = nullptr;
    QComboBox* m_sliceLevel = nullptr;
    QLineEdit* m_domain = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_placeButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QTimer* m_progressTimer = nullptr;
    std::shared_ptr<PlaceProgress> m_work; // the running worker's stage and cancel flag
    PlaceWorkloadOutcome m_outcome;
    std::uint64_t m_generation = 0;
    std::shared_ptr<PlanCopy> m_copy; // place()'s copy of the plan, while it is made
    /// Counts the plan's changes (PlanController::planChanged): a copy or a result of an older
    /// revision is of another plan.
    std::uint64_t m_planRevision = 0;
    std::uint64_t m_replayedRevision = 0; // the revision the running worker replays
    /// The template pods this dialog's placements added ("namespace/name" -> the podTemplate):
    /// an undone placement leaves its template pod in the store, and placing the same workload
    /// again reuses it instead of refusing the name.
    std::map<std::string, std::string> m_addedTemplates;
    int m_maxCopyPerSlice = 0;
    bool m_running = false;
};

} // namespace fleet::app
