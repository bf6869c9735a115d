// SPDX-License-Identifier: Apache-2.0
#include "problemspanel.h"

#include "paneltable.h"

#include "model/figures.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/problemsmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace fleet::views {

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new ProblemsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("problemsSummary"));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter problems"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(260);
    top->addWidget(m_summary, 1);
    top->addWidget(m_filter);
    column->addLayout(top);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_view = makePanelTable(this, m_proxy);
    m_view->setObjectName(QStringLiteral("problemsTable"));
    column->addWidget(m_view, 1);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const model::NodeId n = m_model->nodeAt(m_proxy->mapToSource(index).row());
        if (n.isValid())
            emit nodeActivated(n);
    });
}

void ProblemsPanel::setProblems(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::vector<model::NodeProblem> problems)
{
    m_store = std::move(store);
    m_topology = std::move(topology);
    m_all = std::move(problems);
    refill();
}

void ProblemsPanel::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    if (mask == m_mask)
        return;
    m_mask = std::move(mask);
    refill();
}

void ProblemsPanel::refill()
{
    std::vector<model::NodeProblem> problems;
    if (m_mask) {
        for (const auto& p : m_all)
            if (p.node.isValid() && p.node.index() < m_mask->size() && (*m_mask)[p.node.index()] != 0)
                problems.push_back(p);
    } else {
        problems = m_all;
    }
    std::map<model::NodeProblemKind, std::int64_t> byKind;
    for (const auto& p : problems)
        ++byKind[p.kind];
    const std::size_t shown = problems.size();
    m_model->setProblems(m_store, m_topology, std::move(problems));
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the model's order: by kind, then node
    QStringList parts;
    for (const auto& [kind, n] : byKind)
        parts << QString::fromStdString(model::formatCount(n)) + QLatin1Char(' ')
                + QString::fromUtf8(model::nodeProblemKindName(kind));
    QString summary = parts.isEmpty() ? tr("No problems found") : parts.join(QStringLiteral(" \u00b7 "));
    if (m_mask)
        summary = tr("Label filter: %1 of %2 problems \u00b7 ")
                      .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(shown))),
                          QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_all.size()))))
            + summary;
    m_summary->setText(summary);
    // Fit the columns to their contents (Qt samples the first 1,000 rows), then cap the long
    // ones so that the domain stays in view.
    m_view->resizeColumnsToContents();
    const QFontMetrics fm = m_view->fontMetrics();
    const int caps[ProblemsModel::ColumnCount]
        = { fm.horizontalAdvance(QStringLiteral("ip-10-123-123-123.us-west-2.compute.internal")) + 12,
              fm.horizontalAdvance(QStringLiteral("Pod on unknown node")) + 16, 420,
              fm.horizontalAdvance(QStringLiteral("2026-12-01T14:00:00Z")) + 16, 10000 };
    for (int c = 0; c < ProblemsModel::ColumnCount - 1; ++c)
        m_view->setColumnWidth(
            c, std::clamp(m_view->columnWidth(c), fm.horizontalAdvance(QStringLiteral("Problem")) + 24, caps[c]));
}

int ProblemsPanel::problemCount() const
{
    return m_model->rowCount();
}

QString ProblemsPanel::summaryText() const
{
    return m_summary->text();
}

} // namespace fleet::views
