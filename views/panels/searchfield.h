// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search field: a node or pod name with completion; a pod finds its node.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "views/map/fleetmapview.h"
#include "model/scheduling/planledger.h"
#include "model/searchindex.h"

#include <QWidget>

#include <atomic>
#include <cstdint>
#include <memory>

class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;

namespace fleet::views {

/// A line edit with a popup of up to kMaxCompletions completions: the names that start with
/// the text first (model::SearchIndex::complete, per keystroke in O(log n + 50), instant at
/// 1.7M pods), then the names that contain it elsewhere (SearchIndex::containing, a scan of
/// every name on a worker, appended when it ends; a newer keystroke cancels it). A short result
/// line beside it, of a fixed width (elided in the middle, the whole sentence in its tooltip), so
/// a long sentence never pushes the toolbar's other items behind its extension button.
/// Enter or picking a completion looks the text up (model::SearchIndex::find, then a name that
/// contains it, on a worker): a node, or a pod's node, emits nodeFound (and podFound for a
/// pod); a pending pod or an unknown name says so in the result line. Enter looks up exactly
/// the text shown in the field, once, also while the popup is open: the completer's own
/// handling of Enter (activate the popup's current row, by default the first completion) is
/// never reached, so an exact name never finds another entry; a completion is taken by
/// clicking it or by moving to it with the arrows (which puts it in the field). A search
/// that finds nothing, or whose scan still runs, leaves the selection as it was and says so in
/// the result line ("No match: ..."); one that finds a pod without a node it may point at (a
/// pending pod) emits selectionCleared, so the window does not show the node selected before
/// as that pod's. A scan's answer is dropped when the
/// text changes, another search starts or cancelPending() is called (the user selected
/// something else meanwhile). Under a plan
/// (setPlanState()), a pod is found on its node under the plan, and a node the plan removed
/// (failed) or drained is found (nodeFound) with a result line that says so ("Node x is removed
/// by the plan"); a pod is never pointed at a node the plan removed. Without a cluster (at start,
/// after an open that failed) the field is disabled with "No cluster to search"; from a cluster's
/// setIndex(nullptr) to its index, with "Indexing names…". Thread: GUI thread.
class SearchField : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxCompletions = 50;

    explicit SearchField(QWidget* parent = nullptr);

    /// The index to search (null: disabled, "Indexing names…" until it comes). Built on a worker
    /// by the caller.
    void setIndex(std::shared_ptr<const model::SearchIndex> index);
    /// No cluster is shown: disabled, "No cluster to search" (no index will come).
    void setNoCluster();
    [[nodiscard]] const std::shared_ptr<const model::SearchIndex>& index() const noexcept { return m_index; }
    /// The plan's ledger (null: the loaded state), PlanController::planState(): where a pod is
    /// and which nodes are present under the plan.
    void setPlanState(std::shared_ptr<const model::PlanLedger> plan);
    /// Looks `text` up as Enter does; returns the node found (invalid when none, or when only a
    /// name containing the text can match: that scan runs on a worker and emits nodeFound or
    /// sets the result line when it ends, searchFinished() either way).
    model::NodeId search(const QString& text);
    [[nodiscard]] QLineEdit* lineEdit() const noexcept { return m_edit; }
    [[nodiscard]] QCompleter* completer() const noexcept { return m_completer; }
    /// The completions offered for the text typed last.
    [[nodiscard]] QStringList completions() const;
    [[nodiscard]] QString resultText() const;
    /// Drops the answer of a running scan (the selection changed by other means: a click on
    /// the map, a panel's row); its result line says so.
    void cancelPending();

signals:
    /// `node` was found for `text`; `description` says how ("pod ml/x on node y").
    void nodeFound(fleet::model::NodeId node, const QString& description);
    /// A pod was found (after nodeFound for its node): the inspector selects its row.
    void podFound(fleet::model::PodId pod);
    /// A search found a pod but no node it may point at (pending, on a node not in the input,
    /// or on one the plan removed): the selection shown before it is cleared, so nothing shows
    /// or acts on another node as that pod's. Not emitted when nothing matches.
    void selectionCleared();
    /// A search ended (found or not): resultText() says what.
    void searchFinished();
    /// The completions of a name containing the text were appended (completions()).
    void completionsUpdated();

protected:
    /// Takes Enter in the completer's popup (see the class comment).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateCompletions(const QString& text);
    void setResult(const QString& text);
    /// Says what `m` names under the plan and emits nodeFound (and podFound); the node found or
    /// an invalid id.
    model::NodeId reportMatch(const model::SearchIndex::Match& m);
    /// Stops a running containing() scan (its result is ignored).
    void cancelScan();

    std::shared_ptr<const model::SearchIndex> m_index;
    QLineEdit* m_edit = nullptr;
    QCompleter* m_completer = nullptr;
    QStringListModel* m_completions = nullptr;
    QLabel* m_result = nullptr;
    QString m_resultText; // whole; the label shows it elided
    std::shared_ptr<const model::PlanLedger> m_plan;
    std::shared_ptr<std::atomic<bool>> m_cancel; // the running scan's
    QString m_scanFieldText; // the field's text when the running scan started
    std::uint64_t m_generation = 0;
};

} // namespace fleet::views
