// SPDX-License-Identifier: Apache-2.0
#include "planpanel.h"

#include "model/figures.h"
#include "model/report/reportfigures.h"
#include "views/plan/placedpodsmodel.h"
#include "views/plan/planactionsmodel.h"

#include <QAction>
#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace fleet::views {

namespace {

// The Reasons column's least width, in average characters: "untolerated-taint:..." and
// "insufficient nvidia.com/gpu" stay readable in a narrow dock (it scrolls instead).
constexpr int kMinReasonsChars = 34;

QString s(const std::string& v)
{
    return QString::fromStdString(v);
}

/// A read-only table of whole rows.
QTableView* rowTable(QWidget* parent, const QString& name, QAbstractItemModel* model)
{
    auto* t = new QTableView(parent);
    t->setObjectName(name);
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    return t;
}

} // namespace

PlanPanel::PlanPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new PlanActionsModel(this))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    auto* row = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setToolTip(gpusAllocatedDefinition());
    m_toolbar = new QToolBar(this);
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // The buttons on their own row and the figures under them at the dock's whole width: beside
    // the buttons, a 1280-pixel window left the figures a column so narrow that "Nodes in use
    // 0 -> 1,013 (+1,013)" took five lines.
    row->addWidget(m_toolbar, 0);
    row->addStretch(1);
    column->addLayout(row);
    column->addWidget(m_summary);
    m_table = rowTable(this, QStringLiteral("planActions"), m_model);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->resizeSection(PlanActionsModel::ActionColumn, 460);
    m_table->viewport()->installEventFilter(this);
    m_table->setTextElideMode(Qt::ElideMiddle); // a node name's ends tell nodes apart
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (!index.isValid())
            return;
        QMenu menu(this);
        QAction* undo = menu.addAction(tr("Undo Back to Here"));
        if (menu.exec(m_table->viewport()->mapToGlobal(pos)) == undo)
            emit undoBackToRequested(index.row());
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { emit undoBackToRequested(index.row()); });
    column->addWidget(m_table, 1);
    m_placed = new PlacedPodsModel(this);
    m_placedTable = rowTable(this, QStringLiteral("planPlacedPods"), m_placed);
    m_placedTable->horizontalHeader()->setSectionResizeMode(PlacedPodsModel::DomainColumn, QHeaderView::Stretch);
    m_placedTable->hide();
    column->addWidget(m_placedTable, 1);
    refresh();
    fitReasonsColumn();
}

bool PlanPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitReasonsColumn();
    return QWidget::eventFilter(watched, event);
}

void PlanPanel::fitReasonsColumn()
{
    if (m_fittingReasons)
        return; // the resize below may show or hide a scroll bar, which resizes the viewport again
    m_fittingReasons = true;
    QHeaderView* header = m_table->horizontalHeader();
    int others = 0;
    for (int c = 0; c < header->count(); ++c)
        if (c != PlanActionsModel::ReasonsColumn && !header->isSectionHidden(c))
            others += header->sectionSize(c);
    const int minimum = m_table->fontMetrics().averageCharWidth() * kMinReasonsChars;
    header->resizeSection(PlanActionsModel::ReasonsColumn, std::max(minimum, m_table->viewport()->width() - others));
    m_fittingReasons = false;
}

PlanPanel::~PlanPanel() = default;

void PlanPanel::setPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::PlanEngine> engine, bool refreshNow)
{
    m_engine = store ? engine : nullptr;
    m_store = store;
    if (!m_engine)
        m_shownActions = 0;
    m_failures.clear();
    m_failuresScanned = 0;
    m_placed->setPlan(m_engine);
    m_model->setPlan(std::move(store), std::move(engine));
    if (refreshNow)
        refresh();
}

void PlanPanel::addToolActions(const QList<QAction*>& actions)
{
    m_toolbar->addActions(actions);
}

void PlanPanel::fitBeforeAfterColumns()
{
    // "1,234 -> 1,200 (-34)" is read whole or not at all: each before -> after column is as
    // wide as its widest text among the first and last rows (the plan's running totals grow
    // or shrink monotonically enough that the ends hold the longest numbers) and its header,
    // never narrower than it was. O(1), unlike ResizeToContents, which reads every row.
    const QFontMetrics fm = m_table->fontMetrics();
    const int rows = m_model->rowCount();
    for (const int c : { PlanActionsModel::NodesInUseColumn, PlanActionsModel::EmptyNodesColumn, PlanActionsModel::GpusColumn,
             PlanActionsModel::CostColumn }) {
        const QFontMetrics header = m_table->horizontalHeader()->fontMetrics();
        int widest = header.horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString()) + 2 * header.averageCharWidth() + 16;
        for (const int row : { 0, rows / 2, rows - 1 })
            if (row >= 0 && row < rows)
                widest = std::max(widest, fm.horizontalAdvance(m_model->index(row, c).data().toString()) + 2 * fm.averageCharWidth() + 8);
        if (m_table->horizontalHeader()->sectionSize(c) < widest)
            m_table->horizontalHeader()->resizeSection(c, widest);
    }
    fitReasonsColumn();
}

void PlanPanel::refresh(std::size_t unchangedBefore)
{
    m_model->refresh();
    fitBeforeAfterColumns();
    // The action just added (or redone) is shown: it was added below the rows in view, out of
    // sight once the plan had more rows than the dock, and nothing said where it went.
    const std::size_t shown = m_engine ? m_engine->applied().size() : 0;
    if (shown > m_shownActions)
        m_table->scrollTo(m_model->index(static_cast<int>(shown) - 1, 0), QAbstractItemView::EnsureVisible);
    m_shownActions = shown;
    m_placed->refresh(unchangedBefore);
    // The failures of the actions from the first changed one on counted again (undo and apply
    // change the plan at its end only).
    {
        const std::size_t applied = m_engine ? m_engine->applied().size() : 0;
        const std::size_t from = std::min({ unchangedBefore, m_failuresScanned, applied });
        while (!m_failures.empty() && m_failures.back().first >= from)
            m_failures.pop_back();
        for (std::size_t i = from; i < applied; ++i) {
            const model::AppliedAction& a = m_engine->applied()[i];
            if (a.action.type == model::ActionType::FailNode || a.action.type == model::ActionType::FailDomain)
                m_failures.emplace_back(i, m_store ? failureCost(*m_store, a) : FailureCost {});
        }
        m_failuresScanned = applied;
    }
    m_placedTable->setVisible(m_placed->rowCount() > 0);
    if (!m_engine || m_engine->applied().empty()) {
        m_summary->setText(tr("No plan yet. Drag a pod from the node inspector or the zoomed map onto a node, or "
                              "right-click a node to drain or fail it."));
        return;
    }
    const model::PlanTotals& b = m_engine->state().totalsBefore();
    const model::PlanTotals& a = m_engine->state().totals();
    auto gpuShare = [](const model::PlanTotals& t) {
        return t.gpus > 0 ? static_cast<double>(t.gpuMilliAllocated) / (static_cast<double>(t.gpus) * 1000.0) : 0.0;
    };
    QStringList parts;
    parts << tr("Nodes in use %1").arg(beforeAfterText(b.nodesInUse, a.nodesInUse));
    parts << tr("empty (removable) %1").arg(beforeAfterText(b.nodesEmpty, a.nodesEmpty));
    parts << tr("nodes present %1").arg(beforeAfterText(b.nodes, a.nodes));
    // Of the allocatable nvidia.com/gpu of the present nodes (PlanTotals::gpus, plan check's
    // "GPUs (allocatable nvidia.com/gpu)"); the status bar's GPUs are physical devices, so the
    // total is given and named (gpusAllocatedDefinition() says both).
    parts << tr("GPUs allocated %1 of %2 nvidia.com/gpu (%3) \u2192 %4 of %5 (%6)")
                 .arg(s(model::formatGpus(b.gpuMilliAllocated)), s(model::formatCount(b.gpus)), s(model::formatShare(gpuShare(b))),
                     s(model::formatGpus(a.gpuMilliAllocated)), s(model::formatCount(a.gpus)), s(model::formatShare(gpuShare(a))));
    parts << tr("cost %1 \u2192 %2").arg(s(model::formatDollarsPerHour(b.costPerHour)), s(model::formatDollarsPerHour(a.costPerHour)));
    if (a.podsUnplaced > 0 || b.podsUnplaced > 0)
        parts << tr("pods without a node %1").arg(beforeAfterText(b.podsUnplaced, a.podsUnplaced));
    // Not work left without a node: they go with the nodes the plan removed.
    // Terminating pods are among them (PlanTotals::podsRemovedWithNodes): said apart.
    const std::int64_t terminating = m_store && a.podsRemovedWithNodes > 0 ? model::terminatingPodsRemovedWithNodes(*m_store, m_engine->state()) : 0;
    if (a.podsRemovedWithNodes > terminating)
        parts << tr("DaemonSet pods removed with their nodes %1").arg(s(model::formatCount(a.podsRemovedWithNodes - terminating)));
    if (terminating > 0)
        parts << tr("terminating pods removed with their nodes %1").arg(s(model::formatCount(terminating)));
    // What the failures of the plan cost (pods stranded, GPUs lost).
    FailureCost failures;
    for (const auto& [index, cost] : m_failures)
        failures += cost;
    if (!m_failures.empty())
        parts << tr("failures cost %1").arg(failureCostText(failures));
    const std::size_t count = m_engine->applied().size();
    const QString actions = count == 1 ? tr("1 action. ") : tr("%1 actions. ").arg(s(model::formatCount(static_cast<std::int64_t>(count))));
    m_summary->setText(actions + parts.join(QStringLiteral(", ")) + QLatin1Char('.'));
}

QString PlanPanel::summaryText() const
{
    return m_summary->text();
}

} // namespace fleet::views
