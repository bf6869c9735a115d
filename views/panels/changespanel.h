// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Changes panel: the shown state compared with a later one (File > Compare With...), as
// ChangesModel lists it in a tree, with a line naming the two states; beside it, in a second
// tab, the window's plan against what happened (PlanOutcomeModel) when a plan was open.

#include "importers/document/planoutcome.h"
#include "importers/document/statediff.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;
class QTreeView;

namespace fleet::views {

class ChangesModel;
class PlanOutcomeModel;

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

    /// Shows the plan `planLabel` against the later state in the "Plan Outcome" tab (objectName
    /// "planOutcomeView" for the table, "planOutcomeSummary" for its line) and brings that tab
    /// to the front; null removes the tab (no plan was open, or the comparison is gone).
    /// `note`, when not empty, is a warning shown above the figures (the states may be two
    /// clusters: importers::sharedNodesNote()).
    void setPlanOutcome(std::shared_ptr<const importers::PlanOutcome> outcome, const QString& planLabel, const QString& note = {});
    /// Says `text` on the outcome's line while it is checked again (the rows stay until then).
    void setOutcomeBusy(const QString& text);
    [[nodiscard]] PlanOutcomeModel* outcomeModel() const noexcept { return m_outcomeModel; }
    [[nodiscard]] QTableView* outcomeView() const noexcept { return m_outcomeView; }
    /// The line above the outcome table ("" without an outcome).
    [[nodiscard]] QString outcomeSummaryText() const;
    [[nodiscard]] QTabWidget* tabs() const noexcept { return m_tabs; }

signals:
    void nodeActivated(const QString& nodeName);
    /// The outcome tab's Export button (objectName "exportPlanOutcome") was pressed.
    void exportOutcomeRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Narrows the Change column so that the figures' columns fit the view (a narrow dock).
    void keepFiguresInSight();

    ChangesModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    QLabel* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_outcomePage = nullptr;
    PlanOutcomeModel* m_outcomeModel = nullptr;
    QTableView* m_outcomeView = nullptr;
    QLabel* m_outcomeSummary = nullptr;
    int m_differenceWidth = -1; // the width last given to the difference column (its figures')
};

} // namespace fleet::views
