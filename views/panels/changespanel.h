// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Changes panel: the shown state compared with a later one (File > Compare With...), as
// ChangesModel lists it in a tree, with a line naming the two states.

#include "importers/document/statediff.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeView;

namespace fleet::views {

class ChangesModel;

/// A QTreeView over a ChangesModel (uniform row heights: a group of 100,000 node names
/// scrolls as one of ten), the Totals group open, and a line "Then: A · Now: B". A click on a
/// node's row emits nodeActivated with its name (the app selects it on the map when the shown
/// state has it). Thread: GUI thread.
class ChangesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChangesPanel(QWidget* parent = nullptr);

    /// Shows `diff` of the state labelled `thenLabel` against the one labelled `nowLabel`;
    /// null clears the panel.
    void setDiff(std::shared_ptr<const importers::StateDiff> diff, const QString& thenLabel, const QString& nowLabel);
    [[nodiscard]] ChangesModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTreeView* view() const noexcept { return m_view; }
    /// The line above the tree ("Then: ... · Now: ..." or what to do to fill the panel).
    [[nodiscard]] QString summaryText() const;

signals:
    void nodeActivated(const QString& nodeName);

private:
    ChangesModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace fleet::views
