// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plan > Add Nodes in the window: an add-node action of N nodes of an instance type,
// capacity type and topology domain (one undo step), and the seeds' capacity question "how
// many nodes of this type would this take", answered by model/search/nodesneeded.h on a worker.

#include "app/controllers/plancontroller.h"
#include "model/search/nodesneeded.h"

#include <QDialog>
#include <QString>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMainWindow;
class QProgressDialog;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class LongJob;

/// The dialog, made once per window; "Add Nodes…" (objectName actionAddNodes) in the Plan menu
/// (objectName menuPlan) opens it. Fields:
/// - instance type: the cluster's instance types (add-node copies a node of the state: plan-v1.md),
///   each with its template node's GPUs, allocatable cpu and memory and $/h (the price table's
///   figure for that node, by capacity type);
/// - capacity type: "any" or one the cluster has for that type (on-demand, spot, reserved);
/// - domain: a topology domain path (model/domainpath.h), by default the selected node's
///   innermost domain, "" the whole cluster;
/// - count, 1 to 100000.
/// "How Many?" computes, on a worker over its own PlanEngine replaying the window's plan, the
/// fewest such nodes that place the pending pods by the default policy (or a workload, by
/// place-workload into the domain), sets the count to it and lists the pods that still do not
/// fit with their reason codes. Add, with "Place the pods on them" checked (the default), adds
/// the nodes and places the pods asked about exactly as How Many? counted them
/// (model::addNodesAndPlace, on a worker; the plan adopts the worker's engine as one undo step,
/// PlanController::adoptStep()): added nodes alone would stay empty while the pods they were
/// added for still wait. Unchecked, Add pushes the add-node alone (PlanController::addNodes()).
/// Any change of the type, capacity type, domain or the pods asked about clears the answer
/// (it was for other nodes) and drops a How Many? or Add still running. How Many? and Add run
/// as a LongJob (app/controllers/longjob.h) on a worker (StoreReadGuard: a live batch waits) with
/// a progress dialog after kProgressAfterMs and Cancel (NodesNeededControl: the search stops
/// between two placements; Cancel of this dialog stops and drops it); the GUI thread only copies
/// the plan's actions, and the node each added node copies is found on the worker.
/// Thread: GUI thread.
class AddNodesDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kProgressAfterMs = 300;

    AddNodesDialog(QMainWindow* window, PlanController* plan, views::FleetMapView* map);
    ~AddNodesDialog() override;

    /// Fills the fields from the shown cluster and the map's selection and shows the dialog.
    void openForCluster();

    // ---- for tests (and the fields' own slots) ----
    /// Selects an instance type / capacity type ("" any); false when the list lacks it.
    bool setInstanceType(const QString& type);
    bool setCapacityType(const QString& capacity);
    void setDomainPath(const QString& path);
    void setCount(int count);
    [[nodiscard]] int count() const;
    [[nodiscard]] QString domainPath() const;
    /// The pods asked about: a workload (checked; the dialog opens with the selected node's first
    /// workload offered but the pending pods checked), or the pending pods (an invalid id).
    void setWorkload(model::WorkloadId workload);
    /// Starts the computation; false when no engine is ready, the domain is unknown or one runs.
    bool computeCount();
    /// The last answer (after countComputed) and its text.
    [[nodiscard]] const model::NodesNeededAnswer& lastAnswer() const noexcept { return m_answer; }
    /// The nodes the last answer's added nodes copy, with how many of each: for the pending pods,
    /// a node of each node group they need (model::fitPendingPerNodeGroup(), as `plan add-nodes
    /// --fit-pending`); for a workload, one. Empty when no node of the type helps.
    [[nodiscard]] const std::vector<model::TemplateCopies>& lastCopies() const noexcept { return m_copies; }
    [[nodiscard]] QString answerText() const;
    /// Adds the nodes and closes; false when refused (the reason stays shown). With
    /// placePods() it starts the worker and returns true; nodesAdded() tells the outcome.
    bool addNodes();
    /// Whether Add also places the pods asked about ("Place the pods on them").
    void setPlacePods(bool place);
    [[nodiscard]] bool placePods() const;
    /// Stops a running How Many? or Add (the progress dialog's Cancel): countComputed(false) or
    /// nodesAdded(false) follows, the plan as it was.
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept;
    /// The progress dialog of How Many? and Add (null before the first).
    [[nodiscard]] QProgressDialog* progressDialog() const noexcept;

signals:
    /// The computation finished: `ok` false when it failed or was cancelled (answerText() says why).
    void countComputed(bool ok);
    /// A running How Many? or Add got this far, 0..100 (at most about ten a second).
    void progressed(int percent);
    /// Add finished: `ok` false when it was refused or the plan changed meanwhile (the dialog
    /// stays open and says why).
    void nodesAdded(bool ok);

private:
    void fillTypes();
    void fillCapacityTypes();
    /// The line under the fields naming the node the copies are of (copiedTemplate()).
    void updateTemplateNote();
    struct Counted;
    struct Placed;
    void onAnswer(std::shared_ptr<model::NodesNeededAnswer> answer, model::NodeId copied, std::vector<model::TemplateCopies> copies, QString error);
    /// Stops a running How Many? or Add and drops its result (the question or the cluster changed).
    void dropRunning();
    /// The store's nodes by instance type (made once per store: fillTypes()).
    [[nodiscard]] const std::vector<model::NodeId>& nodesOfType(const std::string& type) const;
    /// The node add-node copies for the type and capacity ("" any) into the domain field's
    /// domain, by the engine's rule (model::templateNodeFor, as PlanEngine applies add-node): a
    /// node of the type inside the domain when it has one, else anywhere; a healthy one, of the
    /// node group the most of the pods still pending under the plan can use. Its price is the
    /// price the added nodes get. O(nodes of the type + pending pods x node groups).
    [[nodiscard]] model::NodeId copiedTemplate(const std::string& type, const QString& capacity) const;
    /// The question changed: the answer shown was for other nodes or pods.
    void clearAnswer();
    /// The question the fields ask (its add-node's count unset).
    [[nodiscard]] model::NodesNeededQuestion question() const;
    /// `prepared`: the step's undo commands and plan marks, made on the worker (PlanController::StepPreparer).
    void onPlaced(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, int placed, QString error,
        PlanController::PreparedStep prepared);
    [[nodiscard]] model::DomainId resolveDomain(QString* error) const;

    PlanController* m_plan;
    views::FleetMapView* m_map;
    QComboBox* m_type = nullptr;
    QComboBox* m_capacity = nullptr;
    QLineEdit* m_domain = nullptr;
    QSpinBox* m_count = nullptr;
    QRadioButton* m_pending = nullptr;
    QRadioButton* m_workloadButton = nullptr;
    QPushButton* m_compute = nullptr;
    QCheckBox* m_place = nullptr;
    QLabel* m_answerLabel = nullptr;
    model::WorkloadId m_workload;
    model::NodesNeededAnswer m_answer;
    model::NodeId m_copied; // the node a first add-node copies (found on the worker)
    std::vector<model::TemplateCopies> m_copies; // the answer's add-nodes: each template and its count
    LongJob* m_job; // How Many? or Add, one at a time
    std::weak_ptr<const model::ClusterStore> m_typesOf; // the store m_types was made for
    std::map<std::string, std::vector<model::NodeId>> m_types;
    QString m_pendingType; // model::instanceTypeForPending() of the store m_types was made for
    std::vector<model::PodId> m_pendingPods; // model::storePendingPods() of that store
    QLabel* m_templateNote = nullptr; // which node the copies are of, and where they go
};

} // namespace fleet::app
