// SPDX-License-Identifier: Apache-2.0
#include "keptnodespanel.h"

#include "views/itemmodels/keptnodesmodel.h"
#include "views/panels/filterfield.h"

#include "importers/export/keptnodesexport.h"
#include "importers/output/outputfile.h"
#include "model/figures.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace fleet::views {

namespace {

// Up to this many rows shown, a filter opens every group: the answer is then readable at once.
constexpr std::size_t kExpandAtMost = 200;

QString count(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

} // namespace

KeptNodesPanel::KeptNodesPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new KeptNodesModel(this))
    , m_view(new QTreeView(this))
    , m_labelFilter(new FilterField(this))
    , m_textFilter(new QLineEdit(this))
    , m_textDebounce(new QTimer(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("keptNodesPanel"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    // The window's own filter field has these names: the panel's are told apart from it.
    m_labelFilter->lineEdit()->setObjectName(QStringLiteral("keptLabelFilter"));
    if (auto* c = m_labelFilter->findChild<QLabel*>(QStringLiteral("filterCount")))
        c->setObjectName(QStringLiteral("keptLabelFilterCount"));
    if (auto* e = m_labelFilter->findChild<QLabel*>(QStringLiteral("filterError")))
        e->setObjectName(QStringLiteral("keptLabelFilterError"));
    m_labelFilter->lineEdit()->setMinimumWidth(200);
    m_textFilter->setObjectName(QStringLiteral("keptTextFilter"));
    m_textFilter->setClearButtonEnabled(true);
    m_textFilter->setPlaceholderText(tr("Node, pod, code or message contains\u2026"));
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_labelFilter, 3);
    auto* find = new QLabel(tr("&Find:"), this); // Alt+F: the text filter from the keyboard
    find->setBuddy(m_textFilter);
    filters->addWidget(find);
    filters->addWidget(m_textFilter, 2);
    column->addLayout(filters);

    m_view->setObjectName(QStringLiteral("consolidateKept"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true); // no per-row size query: 20,000 rows scroll as 10
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder); // the model's order until a header is clicked
    m_view->setSortingEnabled(true);
    column->addWidget(m_view, 1);

    auto* bottom = new QHBoxLayout;
    m_summary->setObjectName(QStringLiteral("keptSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bottom->addWidget(m_summary, 1);
    auto* exportButton = new QPushButton(tr("&Export\u2026"), this);
    exportButton->setObjectName(QStringLiteral("keptExport"));
    exportButton->setAutoDefault(false); // Return in a filter field never exports
    bottom->addWidget(exportButton);
    column->addLayout(bottom);

    m_copy = new QAction(tr("&Copy"), this);
    m_copy->setObjectName(QStringLiteral("keptCopy"));
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copy, &QAction::triggered, this, &KeptNodesPanel::copySelection);
    m_export = new QAction(tr("&Export\u2026"), this);
    m_export->setObjectName(QStringLiteral("keptExportAction"));
    connect(m_export, &QAction::triggered, this, &KeptNodesPanel::chooseExportFile);
    connect(exportButton, &QPushButton::clicked, m_export, &QAction::trigger);
    m_view->addAction(m_copy);
    m_view->addAction(m_export);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    connect(m_labelFilter, &FilterField::maskChanged, this, [this](std::shared_ptr<const std::vector<std::uint8_t>> mask) {
        m_model->setNodeMask(std::move(mask));
        expandSmallResult();
        updateSummary();
    });
    m_textDebounce->setSingleShot(true);
    m_textDebounce->setInterval(250);
    connect(m_textFilter, &QLineEdit::textChanged, m_textDebounce, qOverload<>(&QTimer::start));
    // Return in either field filters and goes no further: a line edit passes the key on to its
    // dialog, which would press its default button (Close).
    m_textFilter->installEventFilter(this);
    m_labelFilter->lineEdit()->installEventFilter(this);
    connect(m_textDebounce, &QTimer::timeout, this, &KeptNodesPanel::applyTextFilter);
    auto activate = [this](const QModelIndex& index) {
        const QString node = index.siblingAtColumn(0).data(KeptNodesModel::kNodeNameRole).toString();
        if (!node.isEmpty())
            emit nodeActivated(node);
    };
    connect(m_view, &QTreeView::clicked, this, activate);
    connect(m_view, &QTreeView::activated, this, activate);
    updateSummary();
}

void KeptNodesPanel::setKept(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const std::vector<model::KeptNode>> kept)
{
    const std::uint64_t generation = ++m_generation;
    m_labelFilter->setStore(store); // re-evaluates a typed selector on the new store
    m_model->setIndex(nullptr);
    if (!store || !kept) {
        updateSummary();
        emit keptShown();
        return;
    }
    m_summary->setText(tr("Grouping %1 nodes that stay\u2026").arg(count(kept->size())));
    // The index (groups, pod keys, search texts, sort ranks) takes about 0.3 s at 80,000
    // entries: built on a worker, shown when ready unless a newer result came meanwhile.
    auto* watcher = new QFutureWatcher<std::shared_ptr<const KeptNodesIndex>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<const KeptNodesIndex>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_model->setIndex(watcher->result());
        expandSmallResult();
        for (int c = 0; c < KeptNodesModel::DescriptionColumn; ++c)
            m_view->resizeColumnToContents(c); // the groups (and a few open rows): cheap
        updateSummary();
        emit keptShown();
    });
    watcher->setFuture(
        QtConcurrent::run([store = std::move(store), kept = std::move(kept)] { return KeptNodesIndex::build(store, kept); }));
}

bool KeptNodesPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            if (watched == m_textFilter) {
                applyTextFilter();
                return true;
            }
            if (watched == m_labelFilter->lineEdit()) {
                const NodeFilterResult r = m_labelFilter->apply();
                if (r.errorPosition >= 0)
                    m_labelFilter->lineEdit()->setCursorPosition(r.errorPosition); // as the map's filter does on Enter
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void KeptNodesPanel::applyTextFilter()
{
    m_textDebounce->stop();
    if (m_textFilter->text().trimmed() == m_model->textFilter())
        return;
    m_model->setTextFilter(m_textFilter->text());
    expandSmallResult();
    updateSummary();
}

void KeptNodesPanel::expandSmallResult()
{
    if (m_model->shownEntryCount() <= kExpandAtMost
        && (!m_model->textFilter().isEmpty() || !m_labelFilter->lineEdit()->text().trimmed().isEmpty()))
        m_view->expandAll();
}

void KeptNodesPanel::updateSummary()
{
    const std::size_t all = m_model->entryCount(), shown = m_model->shownEntryCount();
    const QString groups = m_model->rowCount() == 1 ? tr("1 group") : tr("%1 groups").arg(m_model->rowCount());
    QString text = tr("%1 nodes stay, in %2").arg(count(all), groups);
    if (shown != all)
        text = tr("%1 of %2 nodes shown, in %3").arg(count(shown), count(all), groups);
    m_summary->setText(text);
}

QString KeptNodesPanel::summaryText() const
{
    return m_summary->text();
}

QString KeptNodesPanel::selectedText() const
{
    return m_model->rowsText(m_view->selectionModel()->selectedRows(0));
}

void KeptNodesPanel::copySelection()
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

QFuture<QString> KeptNodesPanel::exportTo(const QString& path)
{
    const bool json = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
    // A snapshot of what is shown: the result and store are immutable and shared.
    QFuture<QString> future = QtConcurrent::run([store = m_model->store(), kept = m_model->kept(), rows = m_model->shownEntries(),
                                                    target = path.toStdString(), json]() -> QString {
        if (!store || !kept)
            return QStringLiteral("nothing to export: no consolidation result is shown");
        try {
            importers::writeOutputFile(
                target, json ? importers::keptNodesJson(*store, *kept, rows) : importers::keptNodesCsv(*store, *kept, rows));
            return {};
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    });
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        emit exportFinished(path, watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(future);
    return future;
}

void KeptNodesPanel::chooseExportFile()
{
    if (m_model->entryCount() == 0)
        return;
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Nodes That Stay"),
        QDir(m_lastDir.isEmpty() ? QDir::homePath() : m_lastDir).filePath(QStringLiteral("nodes-that-stay.csv")),
        tr("CSV (*.csv);;JSON, as plan consolidate --format json (*.json)"), &filter);
    if (path.isEmpty())
        return;
    m_lastDir = QFileInfo(path).absolutePath();
    QString target = path;
    if (QFileInfo(path).suffix().isEmpty())
        target += filter.contains(QStringLiteral("*.json")) ? QStringLiteral(".json") : QStringLiteral(".csv");
    const std::size_t rows = m_model->shownEntryCount();
    auto* once = new QObject(this); // this export's reply only
    connect(this, &KeptNodesPanel::exportFinished, once, [this, once, target, rows](const QString& done, const QString& error) {
        if (done != target)
            return;
        once->deleteLater();
        if (error.isEmpty())
            m_summary->setText(tr("Exported %1 nodes to %2").arg(count(rows), QDir::toNativeSeparators(target)));
        else
            QMessageBox::warning(this, tr("Export Failed"), error);
    });
    exportTo(target);
}

} // namespace fleet::views
