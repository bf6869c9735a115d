// SPDX-License-Identifier: Apache-2.0
#include "pendingpanel.h"

#include "paneltable.h"

#include "model/figures.h"
#include "model/scheduling/planledger.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/pendingshapesmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace fleet::views {

PendingPanel::PendingPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new PendingShapesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("pendingUnboundBanner"));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff3c4; color: #3b3000; border: 1px solid #e0c060; padding: 4px; }"));
    m_banner->hide();
    column->addWidget(m_banner);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("pendingSummary"));
    column->addWidget(m_summary);
    m_planLine = new QLabel(this);
    m_planLine->setObjectName(QStringLiteral("pendingPlanLine"));
    m_planLine->setWordWrap(true);
    m_planLine->hide();
    column->addWidget(m_planLine);
    m_scope = new QLabel(this);
    m_scope->setObjectName(QStringLiteral("pendingScope"));
    m_scope->setWordWrap(true);
    m_scope->hide();
    column->addWidget(m_scope);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_view = makePanelTable(this, m_proxy);
    m_view->setObjectName(QStringLiteral("pendingTable"));
    column->addWidget(m_view, 1);
}

void PendingPanel::setShapes(std::shared_ptr<const model::ClusterStore> store, std::vector<model::PendingShape> shapes)
{
    // An input whose pods are all pending, none on a node, was never scheduled (a trace):
    // its map is all empty nodes, which says nothing of why.
    m_unbound = false;
    if (store && store->podCount() > 0) {
        bool anyBound = false;
        for (std::uint32_t i = 0; i < store->podCount() && !anyBound; ++i)
            anyBound = store->podNode(model::PodId(i)).isValid();
        m_unbound = !anyBound;
    }
    if (m_unbound)
        m_banner->setText(tr("None of the %1 pods of this input is bound to a node (a trace such as Alibaba's lists pods without "
                             "placing them), so every node shows empty. Plan > Consolidate places the pending pods first, then "
                             "frees nodes; Plan > Place Workload places new ones.")
                              .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(store->podCount())))));
    m_banner->setVisible(m_unbound);
    m_store = store;
    m_model->setShapes(std::move(store), std::move(shapes));
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the model's order: most pods first
    std::size_t gated = 0;
    for (std::size_t i = 0; i < m_model->shapeCount(); ++i)
        gated += m_model->shapeAt(static_cast<int>(i))->gatedPods;
    if (m_model->shapeCount() == 0) {
        m_summary->setText(tr("No pods are waiting for a node"));
    } else {
        QString text = tr("%1 pending pods in %2 shapes")
                           .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_model->pendingPodCount()))),
                               QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_model->shapeCount()))));
        if (gated > 0)
            text += tr(", %1 gated").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(gated))));
        m_summary->setText(text);
    }
    m_view->resizeColumnsToContents();
    if (m_view->columnWidth(PendingShapesModel::ReasonColumn) > 480)
        m_view->setColumnWidth(PendingShapesModel::ReasonColumn, 480);
    updatePlanLine();
}

void PendingPanel::setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom)
{
    m_plan = std::move(plan);
    m_planCopiedFrom = copiedFrom;
    updatePlanLine();
}

void PendingPanel::updatePlanLine()
{
    m_placedByPlan = 0;
    // A plan made on another state (a live cluster that moved on) numbers other pods. A plan
    // over a copy of the listed store (a placement's, with its template pods) numbers them as
    // the listed store does.
    const bool sameState = m_plan && m_store
        && (&m_plan->store() == m_store.get() || (m_planCopiedFrom.lock() == m_store && m_plan->store().podCount() >= m_store->podCount()));
    const std::size_t listed = m_model->pendingPodCount();
    if (!sameState || listed == 0) {
        m_planLine->hide();
        m_planLine->clear();
        return;
    }
    for (std::size_t i = 0; i < m_model->shapeCount(); ++i)
        for (const model::PodId p : m_model->shapeAt(static_cast<int>(i))->pods)
            if (m_plan->podNode(p).isValid())
                ++m_placedByPlan;
    auto n = [](std::size_t v) { return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(v))); };
    m_planLine->setText(tr("Listed as loaded. Under the plan, %1 of these pods are placed and %2 stay pending.")
                            .arg(n(m_placedByPlan), n(listed - m_placedByPlan)));
    m_planLine->show();
}

QString PendingPanel::planText() const
{
    return m_planLine->isHidden() ? QString() : m_planLine->text();
}

std::size_t PendingPanel::pendingPodCount() const
{
    return m_model->pendingPodCount();
}

QString PendingPanel::bannerText() const
{
    return m_unbound ? m_banner->text() : QString();
}

QString PendingPanel::summaryText() const
{
    return m_summary->text();
}

void PendingPanel::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    if (mask) {
        const auto kept = static_cast<std::int64_t>(std::count_if(mask->begin(), mask->end(), [](std::uint8_t m) { return m != 0; }));
        m_scope->setText(tr("The label filter keeps %1 nodes, but a pending pod has no node yet: every pending pod is listed.")
                             .arg(QString::fromStdString(model::formatCount(kept))));
    }
    m_scope->setVisible(mask != nullptr);
    if (!mask)
        m_scope->clear();
}

QString PendingPanel::scopeText() const
{
    return m_scope->text();
}

} // namespace fleet::views
