// SPDX-License-Identifier: Apache-2.0
#include "explorepanels.h"
#include "app/controllers/workerpool.h"
#include "app/controllers/storereaders.h"

#include "model/figures.h"
#include "views/heatmaps/heatmappanel.h"
#include "views/inspectors/domaininspector.h"
#include "views/inspectors/nodeinspector.h"
#include "views/map/fleetmapview.h"
#include "views/map/maplegend.h"
#include "views/panels/filterfield.h"
#include "views/panels/pendingpanel.h"
#include "views/panels/problemspanel.h"
#include "views/panels/searchfield.h"
#include "model/searchindex.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QAction>
#include <QChildEvent>
#include <QDockWidget>
#include <QTimer>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QTabBar>
#include <QPointer>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace fleet::app {

namespace {

QDockWidget* makeDock(QMainWindow* window, const QString& title, const QString& name, QWidget* content, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(content);
    dock->setAllowedAreas(Qt::AllDockWidgetAreas);
    window->addDockWidget(area, dock);
    return dock;
}

QString count(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

} // namespace

ExplorePanels::ExplorePanels(QMainWindow* window, views::FleetMapView* map, std::shared_ptr<StoreReaders> readers)
    : QObject(window)
    , m_window(window)
    , m_map(map)
    , m_readers(std::move(readers))
{
    m_window->installEventFilter(this); // the tab bars of stacked docks (eventFilter())
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    connect(m_refreshTimer, &QTimer::timeout, this, &ExplorePanels::scheduleRefresh);
    m_indexTimer = new QTimer(this);
    m_indexTimer->setSingleShot(true);
    connect(m_indexTimer, &QTimer::timeout, this, [this] {
        if (!m_namesAgain)
            return;
        m_analysisAgain = true;
        scheduleRefresh();
    });
    m_nodeInspector = new views::NodeInspector(window);
    m_domainInspector = new views::DomainInspector(window);
    m_problems = new views::ProblemsPanel(window);
    m_pending = new views::PendingPanel(window);
    m_heatmap = new views::HeatmapPanel(window);
    m_heatmap->followLegend(map->findChild<views::MapLegend*>()); // the chosen metric's column

    // What-if: pods are dragged from the inspector's table onto the map (podmime.h).
    if (auto* pods = m_nodeInspector->findChild<QAbstractItemView*>(QStringLiteral("nodeInspectorPods"))) {
        pods->setDragEnabled(true);
        pods->setDragDropMode(QAbstractItemView::DragOnly);
        pods->setDefaultDropAction(Qt::MoveAction);
    }

    m_nodeDock = makeDock(window, tr("Node"), QStringLiteral("nodeInspectorDock"), m_nodeInspector, Qt::RightDockWidgetArea);
    m_domainDock
        = makeDock(window, tr("Domain"), QStringLiteral("domainInspectorDock"), m_domainInspector, Qt::RightDockWidgetArea);
    window->tabifyDockWidget(m_nodeDock, m_domainDock);
    m_problemsDock = makeDock(window, tr("Problems"), QStringLiteral("problemsDock"), m_problems, Qt::BottomDockWidgetArea);
    m_pendingDock = makeDock(window, tr("Pending"), QStringLiteral("pendingDock"), m_pending, Qt::BottomDockWidgetArea);
    m_heatmapDock = makeDock(window, tr("Heatmap"), QStringLiteral("heatmapDock"), m_heatmap, Qt::BottomDockWidgetArea);
    window->tabifyDockWidget(m_problemsDock, m_pendingDock);
    window->tabifyDockWidget(m_pendingDock, m_heatmapDock);
    // The inspectors' dock is there from the start ("No node selected"): a click on a node
    // fills it and never resizes the map, which would relayout it and move the clicked node
    // away from the pointer. The toolbar's toggles (which carry the counts) open the others.
    window->resizeDocks({ m_nodeDock }, { 420 }, Qt::Horizontal);
    window->resizeDocks({ m_problemsDock }, { 220 }, Qt::Vertical);
    for (QDockWidget* dock : { m_domainDock, m_problemsDock, m_pendingDock, m_heatmapDock })
        dock->hide();
    m_nodeDock->raise();

    m_toolbar = window->addToolBar(tr("Find and filter"));
    m_toolbar->setObjectName(QStringLiteral("exploreToolBar"));
    m_toolbar->setMovable(false);
    m_search = new views::SearchField(m_toolbar);
    m_filter = new views::FilterField(m_toolbar);
    m_toolbar->addWidget(m_search);
    m_toolbar->addSeparator();
    m_toolbar->addWidget(m_filter);
    m_toolbar->addSeparator();
    for (QDockWidget* dock : { m_problemsDock, m_pendingDock, m_heatmapDock }) {
        QAction* toggle = dock->toggleViewAction(); // its text follows the dock's title and count
        toggle->setObjectName(dock->objectName() + QStringLiteral("Toggle"));
        m_toolbar->addAction(toggle);
        // Raised once the layout has put it back in its tab group (raise() at once, while the
        // dock is still being shown, leaves the group's current tab in front).
        connect(toggle, &QAction::toggled, dock, [this, dock](bool on) {
            if (on)
                QTimer::singleShot(0, dock, [this, dock] {
                    dock->raise();
                    shareWidthWithPlan(dock);
                });
        });
    }

    // A click selects the node and opens it; selectionChanged (also from other callers of
    // setSelectedNode) opens it too, which showNode() makes idempotent.
    connect(m_map, &views::FleetMapView::nodeActivated, this, [this](model::NodeId n) {
        m_map->setSelectedNode(n);
        showNode(n);
    });
    // Ctrl+F finds, Ctrl+L filters (as a browser's address bar), wherever the focus is.
    auto* find = new QAction(tr("Find Node or Pod"), window);
    find->setObjectName(QStringLiteral("actionFind"));
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, [this] {
        m_search->lineEdit()->setFocus(Qt::ShortcutFocusReason);
        m_search->lineEdit()->selectAll();
    });
    window->addAction(find);
    auto* filter = new QAction(tr("Filter Nodes"), window);
    filter->setObjectName(QStringLiteral("actionFilter"));
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    filter->setShortcutContext(Qt::WindowShortcut);
    connect(filter, &QAction::triggered, this, [this] {
        m_filter->lineEdit()->setFocus(Qt::ShortcutFocusReason);
        m_filter->lineEdit()->selectAll();
    });
    window->addAction(filter);
    m_search->lineEdit()->setToolTip(
        tr("Find a node, or a pod by namespace/name or name (%1)").arg(find->shortcut().toString(QKeySequence::NativeText)));

    connect(m_map, &views::FleetMapView::selectionChanged, this, &ExplorePanels::showNode);
    connect(m_map, &views::FleetMapView::domainActivated, this, &ExplorePanels::showDomain);
    connect(m_problems, &views::ProblemsPanel::nodeActivated, this, &ExplorePanels::selectAndZoom);
    connect(m_domainInspector, &views::DomainInspector::nodeActivated, this, &ExplorePanels::selectAndZoom);
    connect(m_heatmap, &views::HeatmapPanel::domainActivated, this, [this](model::DomainId d) {
        m_map->zoomToDomain(d);
        showDomain(d);
    });
    // A search that found its node hands the keyboard to the map (as a click on it would), so
    // the map's keys (Menu, Z, the arrows) act on the node found; the field kept it, and typed
    // keys went on editing the search. A search that finds nothing leaves it in the field.
    connect(m_search, &views::SearchField::nodeFound, this, [this](model::NodeId n, const QString&) {
        selectAndZoom(n);
        // Only from the field: a scan's late answer never takes the keyboard from another widget.
        if (QWidget* focus = QApplication::focusWidget(); focus && m_search->isAncestorOf(focus))
            m_map->setFocus(Qt::OtherFocusReason);
    });
    // A search that finds a pod without a node clears the selection: Plan > Drain Selected Node
    // and the inspector never act on another node as that pod's (one that finds nothing keeps
    // it). A selection made meanwhile by other means (a click, a panel's row) wins over the
    // answer of a scan still running.
    connect(m_search, &views::SearchField::selectionCleared, this, [this] { m_map->setSelectedNode({}); });
    connect(m_map, &views::FleetMapView::selectionChanged, m_search, &views::SearchField::cancelPending);
    // A pod found: its node is shown (nodeFound came first) with the pod's row selected.
    connect(m_search, &views::SearchField::podFound, this, [this](model::PodId p) { m_nodeInspector->selectPod(p); });
    connect(m_filter, &views::FilterField::maskChanged, m_map, &views::FleetMapView::setNodeMask);
    // The label filter scopes the panels too, and each says so (Pending: it cannot).
    connect(m_filter, &views::FilterField::maskChanged, this, [this](std::shared_ptr<const std::vector<std::uint8_t>> mask) {
        m_filterMask = mask;
        m_problems->setNodeMask(mask);
        m_pending->setNodeMask(mask);
        m_heatmap->setNodeMask(mask);
        updateProblemsTitle();
    });
}

ExplorePanels::~ExplorePanels() = default;

bool ExplorePanels::eventFilter(QObject* watched, QEvent* event)
{
    // QMainWindow makes a tab bar per group of stacked docks, as its own child, when the group
    // forms; polished, it is a whole QTabBar (at ChildAdded it is not yet).
    if (watched == m_window && event->type() == QEvent::ChildPolished)
        if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child())) {
            bar->setElideMode(Qt::ElideMiddle);
            bar->setUsesScrollButtons(false);
        }
    return QObject::eventFilter(watched, event);
}

void ExplorePanels::updateProblemsTitle()
{
    if (m_pendingGeneration != 0)
        return; // still analysing: "Problems (…)"
    const auto shown = static_cast<std::size_t>(m_problems->problemCount());
    const auto all = static_cast<std::size_t>(m_problems->totalProblemCount());
    m_problemsDock->setWindowTitle(!m_filterMask ? tr("Problems (%1)").arg(count(all))
                                                                                : tr("Problems (%1 of %2, filtered)").arg(count(shown), count(all)));
}

void ExplorePanels::selectAndZoom(model::NodeId node)
{
    if (!node.isValid())
        return;
    m_map->setSelectedNode(node);
    m_map->zoomToNode(node);
    showNode(node); // also when the map's selection was this node already
}

QString nodeTitleName(const QString& name)
{
    // A DNS name: a host label with a letter (not an IP), then labels that each begin with a
    // letter (us-west-2.compute.internal). A node the plan added, named after its instance
    // type (fleetscope-p5.48xlarge-3), is no DNS name: "48xlarge-3" begins with a digit.
    const QString host = name.section(QLatin1Char('.'), 0, 0);
    if (host.size() >= name.size() || !std::any_of(host.begin(), host.end(), [](QChar c) { return c.isLetter(); }))
        return name;
    const QStringList domain = name.mid(host.size() + 1).split(QLatin1Char('.'));
    const bool dns = std::all_of(domain.begin(), domain.end(), [](const QString& label) { return !label.isEmpty() && label.front().isLetter(); });
    return dns ? host : name;
}

void ExplorePanels::showNode(model::NodeId node)
{
    if (node != m_nodeInspector->node() || !node.isValid())
        m_nodeInspector->setNode(m_store, m_topology, node);
    if (node.isValid()) {
        // The inspector's title: a node the plan added has no store name. A DNS-style name
        // (ip-10-1-2-3.us-west-2.compute.internal) by its host part, which tells nodes apart:
        // whole, it filled the dock's tab bar and was cut where the nodes differ (the header
        // below has the full name). A name whose first label has no letter (an IP) stays whole.
        m_nodeDock->setWindowTitle(tr("Node %1").arg(nodeTitleName(m_nodeInspector->headerText().section(QLatin1Char('\n'), 0, 0))));
        m_nodeDock->show();
        m_nodeDock->raise();
    } else {
        m_nodeDock->setWindowTitle(tr("Node"));
    }
}

void ExplorePanels::showDomain(model::DomainId domain)
{
    m_domainInspector->setDomain(m_store, m_topology, domain);
    m_domainDock->show();
    m_domainDock->raise();
}

void ExplorePanels::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology)
{
    m_store = std::move(store);
    m_topology = std::move(topology);
    const std::uint64_t generation = ++m_generation;
    m_nodeInspector->setNode(m_store, m_topology, {});
    // Not the root: sorting its 100,000-row node table would cost the GUI thread ~0.5 s.
    m_domainInspector->setDomain(m_store, m_topology, {});
    m_heatmap->setCluster(m_store, m_topology);
    m_filter->setStore(m_store);
    if (m_store)
        m_search->setIndex(nullptr); // "Indexing names…" until the analysis brings the index
    else
        m_search->setNoCluster(); // none will come
    m_problems->setProblems(nullptr, nullptr, {});
    m_pending->setShapes(nullptr, {});
    m_problemsDock->setWindowTitle(tr("Problems (\u2026)"));
    m_pendingDock->setWindowTitle(tr("Pending (\u2026)"));
    m_map->setProblemNodes({});
    if (!m_store) {
        m_pendingGeneration = 0;
        return;
    }
    // O(nodes + pods) each and a sort of every name: on a worker over the immutable store.
    m_pendingGeneration = generation;
    m_analysisAgain = m_namesAgain = false;
    m_refreshTimer->stop();
    m_indexTimer->stop();
    m_liveCopy.reset(); // a live cluster copies the new one at its next batch
    m_liveBatches.clear();
    startAnalysis(true, false);
}

void ExplorePanels::setTotalsFunction(std::function<ClusterTotals(const model::ClusterStore&)> totals)
{
    m_totals = std::move(totals);
}

void ExplorePanels::refreshAnalysis(bool names, const model::ClusterChangeBatch& batch)
{
    if (!m_store)
        return;
    // The analysis' copy of the store follows the shown one batch by batch (applied on the
    // next worker); a copy taken after this batch (none yet) holds it already, and the start
    // of such a copy clears the list.
    model::ClusterChangeBatch copy;
    copy.upserted = batch.upserted.clone();
    copy.deletedNodes = batch.deletedNodes;
    copy.deletedPods = batch.deletedPods;
    copy.replacesAll = batch.replacesAll;
    copy.resourceVersion = batch.resourceVersion;
    copy.events = batch.events;
    m_liveBatches.push_back(std::move(copy));
    m_analysisAgain = true;
    m_namesAgain = m_namesAgain || names;
    scheduleRefresh();
}

void ExplorePanels::followLiveStore()
{
    if (!m_store || m_liveCopy)
        return;
    m_analysisAgain = true;
    scheduleRefresh();
}

void ExplorePanels::scheduleRefresh()
{
    if (!m_analysisAgain || !m_store || m_analysisRunning || m_refreshTimer->isActive())
        return;
    // At most one start a kLiveRefreshIntervalMs: a feed of 20 batches a second would
    // otherwise keep a core analysing without pause.
    const qint64 since = m_lastAnalysisStart.isValid() ? m_lastAnalysisStart.elapsed() : kLiveRefreshIntervalMs;
    if (since < kLiveRefreshIntervalMs) {
        m_refreshTimer->start(static_cast<int>(kLiveRefreshIntervalMs - since));
        return;
    }
    // The names are sorted again at most once a kLiveIndexIntervalMs (two cores for seconds at
    // 100,000 nodes, while the GUI thread applies the batches); a later refresh, or the index
    // timer when the feed went quiet, sorts the names left.
    bool names = m_namesAgain;
    if (names && m_lastIndexStart.isValid() && m_lastIndexStart.elapsed() < kLiveIndexIntervalMs) {
        names = false;
        if (!m_indexTimer->isActive())
            m_indexTimer->start(static_cast<int>(kLiveIndexIntervalMs - m_lastIndexStart.elapsed()));
    }
    m_analysisAgain = false;
    m_namesAgain = m_namesAgain && !names;
    startAnalysis(names, true);
}

void ExplorePanels::startAnalysis(bool index, bool onLiveCopy)
{
    m_analysisRunning = true;
    m_lastAnalysisStart.start();
    if (index)
        m_lastIndexStart.start();
    const std::uint64_t generation = m_generation;
    auto* watcher = new QFutureWatcher<Analysis>(this);
    connect(watcher, &QFutureWatcher<Analysis>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_analysisRunning = false;
        auto analysis = std::make_shared<Analysis>(watcher->result());
        if (analysis->generation == m_generation) { // else a newer cluster replaced this one
            m_liveCopy = std::move(analysis->liveCopy);
            if (analysis->copyFailed) // a batch the copy refused: copy the store again
                m_analysisAgain = true;
            else
                applyAnalysis(std::move(analysis));
        }
        scheduleRefresh(); // batches came while it ran: the last state is shown too
    });
    // Every figure of an analysis is of one state of the store. At a new cluster (not live
    // yet) the worker reads the store itself under a StoreReadGuard (batches wait for it). Live,
    // it reads its own copy: taken once under the guard (the batches wait for the copy, a
    // memory copy of O(nodes + pods)), then brought up to date by each worker with the batches
    // applied to the shown store since, without the guard, so that no batch waits for an
    // analysis or the sort of every name. The copy costs the store's memory again.
    std::shared_ptr<StoreReadGuard> reading;
    std::shared_ptr<model::ClusterStore> liveCopy;
    std::vector<model::ClusterChangeBatch> batches;
    if (onLiveCopy && m_liveCopy) {
        liveCopy = std::move(m_liveCopy);
        batches = std::move(m_liveBatches);
    } else {
        reading = std::make_shared<StoreReadGuard>(m_readers, m_store);
    }
    m_liveBatches.clear();
    auto work = [store = m_store, generation, index, onLiveCopy, totals = m_totals, reading = std::move(reading),
                    liveCopy = std::move(liveCopy), batches = std::move(batches)]() mutable {
        Analysis a;
        a.generation = generation;
        if (onLiveCopy) {
            if (!liveCopy) {
                liveCopy = std::make_shared<model::ClusterStore>(store->clone());
                reading.reset();
            }
            try {
                for (const model::ClusterChangeBatch& batch : batches)
                    (void)model::applyChanges(*liveCopy, batch);
            } catch (const std::exception&) { // the shown store took it: never expected
                a.copyFailed = true;
                return a;
            }
        }
        const model::ClusterStore& state = onLiveCopy ? *liveCopy : *store;
        a.problems = model::findNodeProblems(state);
        a.shapes = model::groupPendingPods(state);
        if (index) // ids and names of the copy are the shown store's: the index reads the shown one
            a.index = model::SearchIndex::build(state, store);
        if (totals)
            a.totals = std::make_shared<const ClusterTotals>(totals(state));
        a.liveCopy = std::move(liveCopy);
        return a;
    };
    watcher->setFuture(QtConcurrent::run(longWorkPool(), std::move(work)));
}

void ExplorePanels::applyAnalysis(std::shared_ptr<const Analysis> analysis, int stage)
{
    if (analysis->generation != m_generation)
        return; // a newer cluster replaced the one analysed: its own analysis follows
    switch (stage) {
    case 0:
        m_pendingGeneration = 0;
        m_analysedTotals = analysis->totals;
        m_problems->setProblems(m_store, m_topology, analysis->problems);
        updateProblemsTitle();
        break;
    case 1:
        m_map->setProblemNodes(model::problemNodes(analysis->problems));
        break;
    case 2:
        m_pending->setShapes(m_store, analysis->shapes);
        if (analysis->index && m_pending->unboundInput()) { // a new input's all-empty map: its banner says why and what to do
            m_pendingDock->show();
            m_pendingDock->raise();
        }
        updatePendingTitle();
        break;
    default:
        if (analysis->index)
            m_search->setIndex(analysis->index);
        emit analysisApplied();
        return;
    }
    // The next part in a turn of its own: a 1 ms timer, not a posted call, which the event loop
    // runs before the timers it found due (two parts would be one stall). The stages of one
    // analysis run in order, before those of a later one (its worker takes far longer).
    QTimer::singleShot(1, Qt::PreciseTimer, this,
        [this, analysis = std::move(analysis), stage]() mutable { applyAnalysis(std::move(analysis), stage + 1); });
}

void ExplorePanels::setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom)
{
    m_domainInspector->setPlanState(plan, copiedFrom);
    m_pending->setPlanState(std::move(plan), std::move(copiedFrom));
    updatePendingTitle();
}

void ExplorePanels::shareWidthWithPlan(QDockWidget* dock)
{
    auto* plan = m_window->findChild<QDockWidget*>(QStringLiteral("planDock"), Qt::FindDirectChildrenOnly);
    if (!plan || !plan->isVisible() || !dock->isVisible() || plan->isFloating() || dock->isFloating()
        || m_window->dockWidgetArea(plan) != m_window->dockWidgetArea(dock) || m_window->tabifiedDockWidgets(plan).contains(dock))
        return;
    // Side by side: one row of the area, not one above the other.
    const QRect a = plan->geometry(), b = dock->geometry();
    if (std::abs(a.top() - b.top()) > 4 || a.intersects(b))
        return;
    const int total = a.width() + b.width();
    if (a.width() >= total / 3)
        return; // the user's own split, or room enough
    m_window->resizeDocks({ plan, dock }, { total / 2, total - total / 2 }, Qt::Horizontal);
}

void ExplorePanels::updatePendingTitle()
{
    const std::size_t listed = m_pending->pendingPodCount();
    if (m_pending->planText().isEmpty())
        m_pendingDock->setWindowTitle(tr("Pending (%1 pods)").arg(count(listed)));
    else
        m_pendingDock->setWindowTitle(tr("Pending (%1 pods, %2 left by the plan)").arg(count(listed), count(listed - m_pending->placedByPlan())));
}

QStringList screenshotPanelNames()
{
    return { QStringLiteral("problems"), QStringLiteral("pending"), QStringLiteral("heatmap") };
}

std::unique_ptr<QWidget> createScreenshotPanel(const QString& name, std::shared_ptr<const model::ClusterStore> store,
    std::shared_ptr<const model::Topology> topology, QSize size)
{
    if (!store)
        return nullptr;
    std::unique_ptr<QWidget> panel;
    if (name == QLatin1String("problems")) {
        auto* p = new views::ProblemsPanel;
        p->setProblems(store, topology, model::findNodeProblems(*store));
        panel.reset(p);
    } else if (name == QLatin1String("pending")) {
        auto* p = new views::PendingPanel;
        p->setShapes(store, model::groupPendingPods(*store));
        panel.reset(p);
    } else if (name == QLatin1String("heatmap")) {
        if (!topology)
            return nullptr;
        auto* p = new views::HeatmapPanel;
        p->setCluster(store, topology);
        panel.reset(p);
    } else {
        return nullptr;
    }
    panel->setAttribute(Qt::WA_DontShowOnScreen);
    panel->resize(size);
    panel->show(); // lays out the children (not on screen)
    panel->hide();
    panel->resize(size);
    return panel;
}

} // namespace fleet::app
