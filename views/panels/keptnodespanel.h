// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nodes that stay after a consolidation, grouped by why (KeptNodesModel), with a label
// filter, a text filter, sorting by column, Copy and Export. Shown in Plan > Consolidate's
// result dialog.

#include "model/search/consolidation.h"

#include <QFuture>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QTimer;
class QTreeView;

namespace fleet::views {

class FilterField;
class KeptNodesModel;

/// A QTreeView over a KeptNodesModel (uniform row heights: a group of 20,000 nodes scrolls as
/// one of ten; groups closed at first, so the list opens on the reasons and their counts), above
/// it a FilterField (label selector, workload:NS/NAME or namespace:NS: only the nodes it selects)
/// and a text field (node, pod, code or message containing the text), below it a summary line.
/// Clicking a column's header sorts by it. Copy (Ctrl+C, and the tree's context menu) puts the
/// selected rows on the clipboard as KeptNodesModel::rowsText() writes them. Export... writes
/// the shown rows, as CSV or as `plan consolidate --format json`'s keptByCode and kept
/// (importers/export/keptnodesexport.h), through importers::writeOutputFile on a worker: the
/// whole file or, on an error, none (the message names the file and why). A click on, or Enter
/// in, a node's row emits nodeActivated with its name. Thread: GUI thread.
class KeptNodesPanel : public QWidget {
    Q_OBJECT
public:
    explicit KeptNodesPanel(QWidget* parent = nullptr);

    /// Shows `kept` over `store` (null clears); the filters stay as typed and apply to it. The
    /// list's index is built on a worker (KeptNodesIndex::build); the model is empty until
    /// keptShown, and a newer call drops an older one's index.
    void setKept(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept);

    [[nodiscard]] KeptNodesModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTreeView* view() const noexcept { return m_view; }
    [[nodiscard]] FilterField* labelFilter() const noexcept { return m_labelFilter; }
    [[nodiscard]] QLineEdit* textFilter() const noexcept { return m_textFilter; }
    [[nodiscard]] QAction* copyAction() const noexcept { return m_copy; }
    [[nodiscard]] QAction* exportAction() const noexcept { return m_export; }
    /// The line under the tree: "80,933 nodes stay, in 12 groups" (and "; 40 shown" under a filter).
    [[nodiscard]] QString summaryText() const;

    /// The selected rows' text (KeptNodesModel::rowsText); what Copy puts on the clipboard.
    [[nodiscard]] QString selectedText() const;
    /// Writes the shown rows to `path` on a worker: JSON when the name ends in ".json" (any
    /// case), CSV otherwise. The future's result is empty on success, else the error (names the
    /// path and why; the previous file, if any, is unchanged). Also emits exportFinished.
    QFuture<QString> exportTo(const QString& path);

signals:
    /// The entries of the last setKept() are in the model (or it was cleared).
    void keptShown();
    void nodeActivated(const QString& nodeName);
    /// An export ended: `error` empty on success.
    void exportFinished(const QString& path, const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void copySelection();
    void chooseExportFile();
    void applyTextFilter(); // 250 ms after the last keystroke, or at once on Enter
    void updateSummary();
    void expandSmallResult();

    KeptNodesModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    FilterField* m_labelFilter = nullptr;
    QLineEdit* m_textFilter = nullptr;
    QTimer* m_textDebounce = nullptr;
    QLabel* m_summary = nullptr;
    QAction* m_copy = nullptr;
    QAction* m_export = nullptr;
    QString m_lastDir;
    std::uint64_t m_generation = 0; // of setKept(): a worker's index for an older call is dropped
};

} // namespace fleet::views
