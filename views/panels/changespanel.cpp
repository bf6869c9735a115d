// SPDX-License-Identifier: Apache-2.0
#include "changespanel.h"

#include "views/itemmodels/changesmodel.h"
#include "views/itemmodels/planoutcomemodel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace fleet::views {

ChangesPanel::ChangesPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new ChangesModel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_outcomePage(new QWidget(this))
    , m_outcomeModel(new PlanOutcomeModel(this))
    , m_outcomeView(new QTableView(m_outcomePage))
    , m_outcomeSummary(new QLabel(m_outcomePage))
{
    setObjectName(QStringLiteral("changesPanel"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    m_summary->setObjectName(QStringLiteral("changesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Compare the shown state with a later one: File > Compare With\u2026"));
    column->addWidget(m_summary);
    m_view->setObjectName(QStringLiteral("changesView"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true); // no per-row size query: 100,000 rows scroll as 10
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    // Where the dock is too narrow for a cell (a group's "2 moved, 0 created, 2 deleted" beside
    // the figures), its middle gives way: both ends of a name or a count stay, and the tooltip
    // gives it whole.
    m_view->setTextElideMode(Qt::ElideMiddle);
    // An opened group widens the columns to its names and counts (QHeaderView measures at most
    // resizeContentsPrecision() rows, 1,000 by default: cheap at 100,000 rows); the tooltip
    // gives a cell whole where the dock is still too narrow.
    // The last column stretches to the view and is not sized to its texts: a group's long
    // "3,492 moved, 11,270 created, 15,843 deleted" made it wider than the view and pushed the
    // totals' right-aligned figures out of sight.
    connect(m_view, &QTreeView::expanded, this, [this] {
        for (int c = 0; c < ChangesModel::DifferenceColumn; ++c)
            m_view->resizeColumnToContents(c);
        keepFiguresInSight();
    });
    m_view->header()->setStretchLastSection(true);
    m_view->viewport()->installEventFilter(this);
    m_tabs->setObjectName(QStringLiteral("changesTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_view, tr("Changes"));
    column->addWidget(m_tabs, 1);

    // The plan against what happened: a tab of its own, there only while an outcome is shown.
    auto* outcomeColumn = new QVBoxLayout(m_outcomePage);
    outcomeColumn->setContentsMargins(0, 4, 0, 0);
    m_outcomeSummary->setObjectName(QStringLiteral("planOutcomeSummary"));
    m_outcomeSummary->setWordWrap(true);
    m_outcomeSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outcomeColumn->addWidget(m_outcomeSummary);
    m_outcomeView->setObjectName(QStringLiteral("planOutcomeView"));
    m_outcomeView->setModel(m_outcomeModel);
    m_outcomeView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_outcomeView->setAlternatingRowColors(true);
    m_outcomeView->setWordWrap(false);
    m_outcomeView->verticalHeader()->hide();
    m_outcomeView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed); // no per-row measure at 26,000 rows
    m_outcomeView->horizontalHeader()->setStretchLastSection(true);
    outcomeColumn->addWidget(m_outcomeView, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* exportButton = new QPushButton(tr("Export…"), m_outcomePage);
    exportButton->setObjectName(QStringLiteral("exportPlanOutcome"));
    exportButton->setToolTip(tr("Write the outcome as `fleetscope diff --plan` does: JSON (.json) or text"));
    connect(exportButton, &QPushButton::clicked, this, &ChangesPanel::exportOutcomeRequested);
    buttons->addWidget(exportButton);
    outcomeColumn->addLayout(buttons);
    m_outcomePage->hide();
    auto activateOutcomeRow = [this](const QModelIndex& index) {
        const QString node = index.data(PlanOutcomeModel::kNodeNameRole).toString();
        if (!node.isEmpty())
            emit nodeActivated(node);
    };
    connect(m_outcomeView, &QTableView::clicked, this, activateOutcomeRow);
    connect(m_outcomeView, &QTableView::activated, this, activateOutcomeRow);
    connect(m_view, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const QString node = index.siblingAtColumn(0).data(ChangesModel::kNodeNameRole).toString();
        if (!node.isEmpty())
            emit nodeActivated(node);
    });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString node = index.siblingAtColumn(0).data(ChangesModel::kNodeNameRole).toString();
        if (!node.isEmpty())
            emit nodeActivated(node);
    });
}

void ChangesPanel::setDiff(std::shared_ptr<const importers::StateDiff> diff, const QString& thenLabel, const QString& nowLabel)
{
    const bool shown = diff != nullptr;
    m_model->setDiff(std::move(diff));
    if (!shown) {
        m_summary->setText(tr("Compare the shown state with a later one: File > Compare With\u2026"));
        return;
    }
    m_summary->setText(tr("Then: %1 \u00b7 Now: %2").arg(thenLabel, nowLabel));
    m_view->expand(m_model->groupIndex(ChangesModel::Totals));
    for (int c = 0; c < ChangesModel::DifferenceColumn; ++c)
        m_view->resizeColumnToContents(c); // the top level and the open Totals only: a few rows
    keepFiguresInSight();
}

bool ChangesPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        keepFiguresInSight();
    return QWidget::eventFilter(watched, event);
}

void ChangesPanel::keepFiguresInSight()
{
    // The figures (then, now and their difference) are what a comparison is read for, whole:
    // when the dock is narrow the Change column, whose names the tooltip gives whole, gives up
    // its width first, down to what its group and totals names need or a third of the view,
    // whichever is less, and further where the figures still need it; it never grows here.
    QHeaderView* header = m_view->header();
    const int viewWidth = m_view->viewport()->width();
    const int margin = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 8;
    int figures = header->sectionSize(ChangesModel::ThenColumn) + header->sectionSize(ChangesModel::NowColumn);
    // The difference column's widest figure among the totals and the groups' rows (a few rows).
    int difference = header->sectionSizeHint(ChangesModel::DifferenceColumn);
    const QFontMetrics metrics(m_view->font());
    const QModelIndex totals = m_model->groupIndex(ChangesModel::Totals);
    const int workloads = m_model->groupIndex(ChangesModel::Workloads).row(); // its pod counts are text, elided
    for (const QModelIndex& parent : { QModelIndex(), totals })
        for (int row = 0; row < m_model->rowCount(parent) && row < 64; ++row)
            if (parent.isValid() || row != workloads)
                difference = std::max(difference,
                    metrics.horizontalAdvance(m_model->index(row, ChangesModel::DifferenceColumn, parent).data().toString()) + margin);
    // The last section stretches, but never below the size it was last given (QHeaderView keeps
    // it as the stretched section's least; the default section size at first, wider than a
    // figure): given its figures' width, it leaves the rest to the other columns.
    if (difference != m_differenceWidth) {
        header->resizeSection(ChangesModel::DifferenceColumn, difference);
        m_differenceWidth = difference;
    }
    figures += difference;
    // The names of the groups and the open Totals (a few rows), indented as the tree draws them.
    int names = header->sectionSizeHint(ChangesModel::ChangeColumn);
    for (const QModelIndex& parent : { QModelIndex(), totals }) {
        const int indent = m_view->indentation() * (parent.isValid() ? 2 : 1);
        for (int row = 0; row < m_model->rowCount(parent) && row < 64; ++row)
            names = std::max(names, indent + margin + metrics.horizontalAdvance(m_model->index(row, ChangesModel::ChangeColumn, parent).data().toString()));
    }
    const int room = std::max(std::min(viewWidth / 3, names), viewWidth - figures);
    if (header->sectionSize(ChangesModel::ChangeColumn) > room) {
        header->resizeSection(ChangesModel::ChangeColumn, room);
        return;
    }
    // Sized while the dock was hidden (a viewport of a few pixels), the column kept about 30
    // px once shown: it grows back to its names as far as the room allows; a width the user
    // gave it in between stays.
    if (!m_view->isVisible())
        return;
    if (const int wanted = std::min(names, room); header->sectionSize(ChangesModel::ChangeColumn) < wanted)
        header->resizeSection(ChangesModel::ChangeColumn, wanted);
}

QString ChangesPanel::summaryText() const
{
    return m_summary->text();
}

void ChangesPanel::setPlanOutcome(std::shared_ptr<const importers::PlanOutcome> outcome, const QString& planLabel, const QString& note)
{
    const int tab = m_tabs->indexOf(m_outcomePage);
    if (!outcome) {
        m_outcomeModel->setOutcome(nullptr);
        m_outcomeSummary->clear();
        if (tab >= 0)
            m_tabs->removeTab(tab);
        return;
    }
    const QString summary = PlanOutcomeModel::summary(*outcome, planLabel);
    m_outcomeSummary->setTextFormat(Qt::PlainText);
    m_outcomeSummary->setText(note.isEmpty() ? summary : tr("Warning: %1.").arg(note) + QLatin1Char('\n') + summary);
    m_outcomeSummary->setStyleSheet(note.isEmpty() ? QString() : QStringLiteral("color: #b01c1c;"));
    m_outcomeModel->setOutcome(std::move(outcome));
    if (tab < 0)
        m_tabs->addTab(m_outcomePage, tr("Plan Outcome"));
    // The first rows set the columns' widths (resizeColumnToContents() would read every row).
    const QFontMetrics metrics = m_outcomeView->fontMetrics();
    m_outcomeView->setColumnWidth(PlanOutcomeModel::IndexColumn, metrics.horizontalAdvance(QStringLiteral("000000")));
    m_outcomeView->setColumnWidth(PlanOutcomeModel::ActionColumn, metrics.horizontalAdvance(QLatin1Char('x')) * 36);
    m_outcomeView->setColumnWidth(PlanOutcomeModel::OutcomeColumn, metrics.horizontalAdvance(tr("No longer possible")) + 16);
    m_tabs->setCurrentWidget(m_outcomePage);
}

void ChangesPanel::setOutcomeBusy(const QString& text)
{
    if (m_tabs->indexOf(m_outcomePage) >= 0)
        m_outcomeSummary->setText(text);
}

QString ChangesPanel::outcomeSummaryText() const
{
    return m_outcomeSummary->text();
}

} // namespace fleet::views
