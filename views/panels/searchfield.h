// SPDX-License-Identifier: Apache-2.0
#pragma once
// The search field: a node or pod name with completion; a pod finds its node.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "views/map/fleetmapview.h"
#include "model/searchindex.h"

#include <QWidget>

#include <memory>

class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;

namespace fleet::views {

/// A line edit with a popup of up to kMaxCompletions completions (model::SearchIndex::complete,
/// computed per keystroke in O(log n + 50), so it stays instant at 1.7M pods), and a short
/// result line beside it. Enter or picking a completion looks the text up
/// (model::SearchIndex::find): a node, or a pod's node, emits nodeFound; a pending pod or an
/// unknown name says so in the result line. Until setIndex() the field is disabled with
/// "Indexing names…". Thread: GUI thread.
class SearchField : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxCompletions = 50;

    explicit SearchField(QWidget* parent = nullptr);

    /// The index to search (null: disabled). Built on a worker by the caller.
    void setIndex(std::shared_ptr<const model::SearchIndex> index);
    [[nodiscard]] const std::shared_ptr<const model::SearchIndex>& index() const noexcept { return m_index; }
    /// Looks `text` up as Enter does; returns the node found (invalid when none).
    model::NodeId search(const QString& text);
    [[nodiscard]] QLineEdit* lineEdit() const noexcept { return m_edit; }
    [[nodiscard]] QCompleter* completer() const noexcept { return m_completer; }
    /// The completions offered for the text typed last.
    [[nodiscard]] QStringList completions() const;
    [[nodiscard]] QString resultText() const;

signals:
    /// `node` was found for `text`; `description` says how ("pod ml/x on node y").
    void nodeFound(fleet::model::NodeId node, const QString& description);

private:
    void updateCompletions(const QString& text);

    std::shared_ptr<const model::SearchIndex> m_index;
    QLineEdit* m_edit = nullptr;
    QCompleter* m_completer = nullptr;
    QStringListModel* m_completions = nullptr;
    QLabel* m_result = nullptr;
};

} // namespace fleet::views
