// SPDX-License-Identifier: Apache-2.0
#include "changespanel.h"

#include "views/itemmodels/changesmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace fleet::views {

ChangesPanel::ChangesPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new ChangesModel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
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
    // An opened group widens the columns to its names and counts (QHeaderView measures at most
    // resizeContentsPrecision() rows, 1,000 by default: cheap at 100,000 rows); the tooltip
    // gives a cell whole where the dock is still too narrow.
    connect(m_view, &QTreeView::expanded, this, [this] {
        for (int c = 0; c < ChangesModel::ColumnCount; ++c)
            m_view->resizeColumnToContents(c);
    });
    m_view->header()->setStretchLastSection(true);
    column->addWidget(m_view, 1);
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
}

QString ChangesPanel::summaryText() const
{
    return m_summary->text();
}

} // namespace fleet::views
