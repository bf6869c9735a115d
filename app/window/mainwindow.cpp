// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"



#include "app/controllers/workerpool.h"
#include "app/window/applog.h"
#include "app/window/clusteropener.h"
#include "app/window/editactions.h"
#include "app/window/explorepanels.h"
#include "app/dialogs/addnodesdialog.h"
#include "app/controllers/consolidatecontroller.h"
#include "app/dialogs/placeworkloaddialog.h"
#include "app/controllers/livecontroller.h"
#include "app/controllers/livesession.h"
#include "app/controllers/storereaders.h"
#include "app/controllers/usagecontroller.h"
#include "app/window/clustertotals.h"
#include "app/window/connectionpanel.h"
#include "app/window/statusfield.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/plannodeactions.h"
#include "app/controllers/reportexporter.h"
#include "app/controllers/comparecontroller.h"
#include "app/window/markersmenu.h"
#include "app/window/metricselection.h"
#include "app/window/planautosave.h"
#include "app/window/plandocument.h"
#include "app/window/planspanel.h"
#include "app/window/windowbanners.h"
#include "app/window/windowdocument.h"
#include "app/controllers/planopener.h"

#include "importers/live/kubewatchfeed.h"
#include "views/map/maplegend.h"
#include "views/panels/filterfield.h"
#include "views/panels/searchfield.h"
#include "views/plan/planpanel.h"
#include "views/inspectors/nodeinspector.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QApplication>
#include <QCloseEvent>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace fleet::app {

namespace {

/// Set while a saved window layout is applied at start (MainWindow::rememberSession()).
const QString kRestoringLayoutKey = QStringLiteral("window/restoring");
/// How long a started window runs before its restored layout counts as applied without harm.
constexpr int kLayoutSettledMs = 10000;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_storeReaders(std::make_shared<StoreReaders>())
    , m_imports(new ImportController(this))
{
    setWindowTitle(tr("Fleetscope"));

    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);

    m_banners = new WindowBanners(this, central, column, [this] { return m_cluster; });
    connect(m_banners, &WindowBanners::dialogClosed, this, &MainWindow::restoreMapFocus);

    m_map = new views::FleetMapView(central);
    m_map->setObjectName(QStringLiteral("fleetMap"));
    column->addWidget(m_map, 1);
    setCentralWidget(central);
    // The map would ask for its legend's full height (about 260 px) and a banner for its
    // wrapped text: explicit minimums let the window be as small as kMinimumSize; the legend
    // hides while the map is too small for it (updateLegendVisibility()).
    m_map->setMinimumSize(1, 1);
    central->setMinimumSize(1, 1);
    m_legend = m_map->findChild<views::MapLegend*>();
    m_map->installEventFilter(this);

    m_plan = new PlanController(this, m_map, m_storeReaders);
    longWorkPool(); // made here, on the GUI thread, as the application's child (workerpool.h)
    m_undoStack = m_plan->undoStack(); // the plan's engine host owns it with the engine its commands act on
    m_status = new WindowStatusBar(this, m_imports);
    connect(m_status, &WindowStatusBar::cancelRequested, this, &MainWindow::cancelImport);
    createMenus();
    m_explore = new ExplorePanels(this, m_map, m_storeReaders);
    createLivePanel();
    m_plansPanel = new PlansPanel(this, m_document);
    connect(m_explore->filterField(), &views::FilterField::maskChanged, m_plan, &PlanController::setNodeMask);
    connect(m_explore->filterField(), &views::FilterField::maskChanged, findChild<PlanNodeActions*>(), &PlanNodeActions::setNodeMask);
    connect(m_plan, &PlanController::planChanged, this, [this] {
        m_metrics->applyMetric();
        m_explore->nodeInspector()->setPlanState(m_plan->planState());
        m_explore->searchField()->setPlanState(m_plan->planState());
        // After a placement the engine reads a copy of the shown store (the same ids): the
        // Pending panel counts the listed pods under it as under the shown store.
        m_explore->setPlanState(m_plan->planState(), m_plan->shownStore());
        m_planDocument->setActionsEnabled(m_plan->hasPlan());
        m_liveSession->updateHold();
    });
    connect(m_plan, &PlanController::engineReady, this, [this] { m_explore->nodeInspector()->setPrices(m_plan->nodePrices()); });
    connect(m_plan, &PlanController::messageShown, m_status, &WindowStatusBar::showPlanMessage);
    m_editActions->addPlanPanelActions();

    connect(m_imports, &ImportController::importStarted, this, &MainWindow::onImportStarted);
    connect(m_imports, &ImportController::progressChanged, this, &MainWindow::onProgress);
    connect(m_imports, &ImportController::importWaiting, m_status, &WindowStatusBar::setImportWaiting);
    connect(m_imports, &ImportController::importFinished, this, &MainWindow::onImportFinished);
    connect(m_imports, &ImportController::importFailed, this, &MainWindow::onImportFailed);
    connect(m_imports, &ImportController::importCancelled, this, &MainWindow::onImportCancelled);
    connect(m_map, &views::FleetMapView::nodeHovered, this, &MainWindow::onNodeHovered);

    setMinimumSize(kMinimumSize); // explicit, so the contents' minimums never enlarge the window
    resize(1280, 860);
}

MainWindow::~MainWindow()
{
    stopLiveFeed(); // joins the feed's thread before the views it updates go
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_planDocument = new PlanDocument(this, m_plan);
    m_document = new WindowDocument(this, m_plan, m_planDocument);
    m_opener = new ClusterOpener(this, m_imports, m_planDocument);
    QAction* open = file->addAction(tr("&Open\u2026"), m_opener, &ClusterOpener::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("actionOpen"));
    m_document->addRecentMenu(file);
    QAction* simulate = file->addAction(tr("Open Si&mulated Cluster\u2026"), m_opener, &ClusterOpener::showSimulateDialog);
    simulate->setObjectName(QStringLiteral("actionSimulate"));
    QAction* connectAction = file->addAction(tr("&Connect to Cluster\u2026"), m_opener, &ClusterOpener::showConnectDialog);
    connectAction->setObjectName(QStringLiteral("actionConnect"));
    file->addSeparator();
    m_document->addFileActions(file);
    file->addSeparator();
    m_planDocument->addOpenAction(file);
    m_planDocument->addSaveActions(file);
    new ReportExporter(this, file); // File > Export Report
    file->addSeparator();
    auto* compare = new CompareController(this, file); // File > Compare With, Export Changes
    m_editActions = new EditActions(this, m_plan, m_map);
    m_editActions->addEditMenu(menuBar()->addMenu(tr("&Edit")));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* metric = menuBar()->addMenu(tr("&Metric"));
    m_metrics = new MetricSelection(this, metric, m_map, m_plan, [this] { return m_cluster; });
    compare->addMetricAction(metric);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* reset = view->addAction(tr("&Reset Zoom"), this, [this] { m_map->resetView(); });
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addAction(m_plan->dock()->toggleViewAction());
    // Every dock, whichever part of the window made it (the comparison's and the live
    // connection's come and go): listed afresh each time the menu opens.
    QMenu* panels = view->addMenu(tr("&Panels"));
    panels->setObjectName(QStringLiteral("panelsMenu"));
    connect(panels, &QMenu::aboutToShow, this, [this, panels] {
        panels->clear();
        QList<QDockWidget*> docks = findChildren<QDockWidget*>();
        std::sort(docks.begin(), docks.end(), [](const QDockWidget* a, const QDockWidget* b) {
            return QString::localeAwareCompare(a->windowTitle(), b->windowTitle()) < 0;
        });
        for (QDockWidget* dock : docks)
            panels->addAction(dock->toggleViewAction());
    });
    addMarkersMenu(view, m_map);
    // After a plan dialog closes, the map has the keyboard focus again, not the text field that
    // had it before: the map's keys (Home, Z) act, and Ctrl+Z undoes the plan, not the field.
    auto* consolidate = new ConsolidateController(this, m_plan); // Plan > Consolidate
    connect(consolidate, &ConsolidateController::resultClosed, this, &MainWindow::restoreMapFocus);
    auto* addNodes = new AddNodesDialog(this, m_plan, m_map); // Plan > Add Nodes
    connect(addNodes, &QDialog::finished, this, &MainWindow::restoreMapFocus);
    auto* placeWorkload = new PlaceWorkloadDialog(this, m_plan); // Plan > Place Workload
    connect(placeWorkload, &QDialog::finished, this, &MainWindow::restoreMapFocus);
    new PlanNodeActions(this, m_plan, m_map); // Plan > Drain / Fail Selected Node, Fail Domain...

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Fleetscope"), this, [this] {
        QMessageBox::about(this, tr("About Fleetscope"),
            tr("<b>Fleetscope %1</b><p>Sees a whole cluster at once: every node a cell, coloured by "
               "the requested share of its GPUs (CPU where a node has none).</p>")
                .arg(QApplication::applicationVersion()));
        restoreMapFocus();
    });
}

void MainWindow::setMetric(views::MapMetric metric)
{
    m_metrics->setMetric(metric);
}

bool MainWindow::setMetric(const QString& id)
{
    return m_metrics->setMetric(id);
}

importers::PlanSource MainWindow::planSource() const
{
    return m_opener->planSource();
}

std::function<importers::PlanSource()> MainWindow::planSourceOnWorker() const
{
    return m_opener->planSourceOnWorker();
}

QStringList MainWindow::shownFiles() const
{
    return m_opener->shownFiles();
}

bool MainWindow::isPlanModified() const
{
    return m_planDocument->isModified();
}

bool MainWindow::openPlanFile(const QString& path)
{
    return m_planDocument->open(path);
}

PlanOpener* MainWindow::planOpener() const
{
    return m_planDocument->opener();
}

QString MainWindow::planPath() const
{
    return m_planDocument->path();
}

QString MainWindow::savePlanTo(const QString& path)
{
    return m_planDocument->saveTo(path);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_document->confirmClose()) {
        event->ignore();
        return;
    }
    if (m_rememberSession) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
        settings.remove(kRestoringLayoutKey);
    }
    if (m_autosave)
        m_autosave->closedCleanly();
    QMainWindow::closeEvent(event);
}

void MainWindow::rememberSession()
{
    m_rememberSession = true;
    QSettings settings;
    // A saved layout that crashes Qt while it is applied would crash every start after it. The
    // mark set while one is applied goes once the window has run kLayoutSettledMs (or closes);
    // found at a start, the previous start ended before that, and the saved layout is dropped
    // for the default one, once, with a word in the status bar.
    if (settings.value(kRestoringLayoutKey).toBool()) {
        settings.remove(QStringLiteral("window/geometry"));
        settings.remove(QStringLiteral("window/state"));
        settings.remove(kRestoringLayoutKey);
        settings.sync();
        qCWarning(lcApp) << "the saved window layout was dropped: the last start ended while it was applied";
        QTimer::singleShot(0, this, [this] {
            statusBar()->showMessage(tr("The default window layout: the last start ended while the saved one was applied."), kMessageMs);
        });
    }
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
    if (!geometry.isEmpty() || !state.isEmpty()) {
        settings.setValue(kRestoringLayoutKey, true);
        settings.sync();
        QTimer::singleShot(kLayoutSettledMs, this, [] { QSettings().remove(kRestoringLayoutKey); });
    }
    // The docks before the geometry. Restored into a window that restoreGeometry() has made
    // maximized, and not yet shown, Qt 6.4 keeps the dock layout to apply once the window
    // reaches its full size, and that deferred apply crashed (QLayout::activate() at the first
    // show) on a layout with stacked docks saved from a maximized window; restored first, the
    // docks are laid out at once and the window then grows to its saved geometry.
    if (!state.isEmpty())
        restoreState(state);
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    // The Connection dock belongs to a live run (startLiveFeed() shows it): a layout saved at
    // the close of one does not bring it back in a run on a file.
    if (!m_liveSession->isRunning())
        m_connectionDock->hide();
    fitToScreen();
}

void MainWindow::fitToScreen()
{
    // The default 1280x860 (or a geometry saved on a larger screen) on a laptop's 1280x800 put
    // the status bar below the screen's edge. The window manager's title bar and borders are not
    // known before the window is shown: leave them kFrameAllowance pixels.
    constexpr int kFrameAllowance = 48;
    const QScreen* s = screen();
    if (!s || isMaximized() || isFullScreen())
        return;
    const QRect free = s->availableGeometry();
    const QSize fits(free.width(), std::max(free.height() - kFrameAllowance, minimumHeight()));
    if (size().width() > fits.width() || size().height() > fits.height())
        resize(size().boundedTo(fits));
    if (!free.contains(frameGeometry().topLeft()) || !free.contains(geometry().bottomRight()))
        move(free.topLeft());
}

void MainWindow::startAutosave(int intervalMs)
{
    if (!m_autosave)
        m_autosave = new PlanAutosave(this, m_plan, m_document);
    m_autosave->start(intervalMs);
}

QString MainWindow::planStatusText() const
{
    return m_status->planStatusText();
}

bool MainWindow::setPriceOverrideFile(const QString& overrideFile, QString& error)
{
    return m_metrics->setPriceOverrideFile(overrideFile, error);
}

std::shared_ptr<const model::PriceTable> MainWindow::prices() const noexcept
{
    return m_metrics ? m_metrics->prices() : nullptr;
}

QString MainWindow::metricId() const
{
    return m_metrics->metricId();
}

void MainWindow::openFiles(const QStringList& paths, ImportController::Usage usage)
{
    m_opener->openFiles(paths, std::move(usage));
}

void MainWindow::openSimulated(std::size_t nodeCount, std::uint64_t seed, ImportController::Usage usage, std::size_t regions)
{
    m_opener->openSimulated(nodeCount, seed, std::move(usage), regions);
}

void MainWindow::openLive(const QString& kubeconfig, const QString& context, ImportController::Usage usage,
                          importers::kube::KubeconfigInput input, std::chrono::milliseconds requestTimeout)
{
    m_opener->openLive(kubeconfig, context, std::move(usage), input, requestTimeout);
}

void MainWindow::openSource(const ClusterSource& source)
{
    m_opener->openSource(source);
}

void MainWindow::cancelImport()
{
    m_imports->cancel();
}

void MainWindow::onImportStarted(const QString& label)
{
    m_pendingLabel = label;
    m_status->importStarted(label);
}

void MainWindow::onProgress(int permille)
{
    m_status->setProgress(permille);
}

QString MainWindow::importStatusText() const
{
    return m_status->importStatusText();
}

QString MainWindow::hoverText() const
{
    return m_status->hoverText();
}

void MainWindow::onImportFinished(std::shared_ptr<const ImportedCluster> cluster)
{
    stopLiveFeed(); // its batches are the previous cluster's
    m_status->importEnded();
    m_cluster = std::move(cluster);
    // The node under the pointer was the previous cluster's: the view reports the next one.
    m_status->setHover(QString());
    // The plan first: its metrics read the old plan's ledger, which must not meet the new store.
    m_opener->requestedShown();
    m_plan->setCluster(m_cluster->store, m_cluster->topology, m_metrics->prices());
    QElapsedTimer clock;
    clock.start();
    m_map->setCluster(m_cluster->store, m_cluster->topology);
    m_lastSetClusterMs = clock.elapsed();
    m_metrics->updateUsageMenu(); // a usage metric over this cluster's usage, or GPU requested when it has none
    m_liveSession->resetTotals(); // the import's totals stand until a live diff
    m_explore->setCluster(m_cluster->store, m_cluster->topology);
    m_explore->nodeInspector()->setUsage(m_cluster->usage); // after the store: the usage's ids are its

    showTotals();
    m_status->setWarningCount(m_cluster->totals.warnings);
    m_document->setCluster(m_cluster, m_opener->shownFiles()); // the title, the plans, Open Recent
    m_banners->showImported(*m_cluster);
    showListedView();
    if (m_liveSession->watchesListedClusters() && m_cluster->kubeconfig)
        startKubeWatch();
    emit clusterShown();
}

void MainWindow::onImportFailed(const QString& message)
{
    m_status->importEnded();
    // A document is named by its file now (a Save As renames it; the cluster's label keeps the
    // name it was opened under): "FILE.fleet (what it was saved from)", as an opened one reads.
    QString previous = m_cluster ? m_cluster->sourceLabel : QString();
    if (m_cluster && !m_document->path().isEmpty()) {
        const QString from = m_cluster->document ? QString::fromStdString(m_cluster->document->sourceLabel) : m_cluster->sourceLabel;
        previous = QFileInfo(m_document->path()).fileName() + (from.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(from));
    }
    const QString error = m_banners->showImportFailed(message, previous);
    if (m_logImportErrors)
        qCWarning(lcApp).noquote() << error;
    emit importFailed(message);
}

void MainWindow::onImportCancelled()
{
    m_status->setBusy(false);
    m_status->showImportMessage({ tr("Import of %1 cancelled.").arg(m_pendingLabel), tr("Import cancelled."), tr("Cancelled.") });
}

void MainWindow::onNodeHovered(model::NodeId node)
{
    if (!m_cluster || !node.isValid() || node.index() >= m_cluster->store->nodeCount()) {
        m_status->setHover(QString());
        return;
    }
    m_status->setHover(QString::fromUtf8(m_cluster->store->nodeName(node).data(), qsizetype(m_cluster->store->nodeName(node).size())));
}

QString MainWindow::totalsText() const
{
    return m_status->totalsText();
}

QString MainWindow::totalsToolTip() const
{
    return m_status->totalsToolTip();
}

QString MainWindow::displayedTotalsText() const
{
    return m_status->displayedTotalsText();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // A layout request: the legend's minimum height changed (its plan key needs more room).
    if (watched == m_map && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
        updateLegendVisibility();
        m_status->fitHoverField();
    }
    if (watched == m_map && event->type() == QEvent::Leave)
        m_status->setHover(QString()); // the pointer left the map: no node under it

    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::restoreMapFocus()
{
    activateWindow();
    raise();
    m_map->setFocus(Qt::OtherFocusReason);
}

void MainWindow::updateLegendVisibility()
{
    if (!m_legend)
        return;
    // The legend needs its minimum height, and the map itself at least as much width as it.
    const QSize legend = m_legend->minimumSizeHint();
    m_legend->setVisible(m_map->height() >= legend.height() && m_map->width() >= 2 * legend.width());
}

QString MainWindow::errorText() const
{
    return m_banners->errorText();
}

QString MainWindow::warningText() const
{
    return m_banners->warningText();
}

void MainWindow::showTotals()
{
    if (!m_cluster)
        return;
    m_status->setTotals(m_cluster->totals);
    m_status->setTotalsToolTip(
        tr("%1: imported in %2 ms, laid out in %3 ms.%5\n%4\nGPUs, CPU and memory: requested by counted "
           "pods / allocatable. Counted pods: bound to a node and not Succeeded/Failed. Pending: no node yet. On "
           "unknown nodes: bound to a node that is not in the input.")
            .arg(m_cluster->sourceLabel)
            .arg(m_cluster->loadMs)
            .arg(m_lastSetClusterMs)
            .arg(clusterTotalsDetails(m_cluster->totals))
            .arg(m_liveSession && m_liveSession->isRunning() ? tr(" Live: the figures below are the cluster's now.") : QString()));
}

// ---- live --------------------------------------------------------------------------------
// A LiveFeed's batches are applied to the shown store by the LiveSession's controller, one
// transaction each; the session makes the map, the panels and the plan follow each diff and
// hands the window the new versions of its cluster (livesession.h). Here: the wiring.

void MainWindow::createLivePanel()
{
    m_liveSession = new LiveSession({ m_map, m_explore, m_plan }, m_storeReaders, [this] { return m_cluster; }, this);
    m_usage = new UsageController(this);
    m_connectionPanel = new ConnectionPanel(m_liveSession->controller(), this);
    m_connectionPanel->setObjectName(QStringLiteral("connectionPanel"));
    m_connectionDock = new QDockWidget(tr("Connection"), this);
    m_connectionDock->setObjectName(QStringLiteral("connectionDock"));
    m_connectionDock->setWidget(m_connectionPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_connectionDock);
    m_connectionDock->hide();
    connect(m_liveSession, &LiveSession::topologyRebuilt, this, [this](std::shared_ptr<const ImportedCluster> cluster) {
        m_cluster = std::move(cluster);
        m_map->setCluster(m_cluster->store, m_cluster->topology);
        m_explore->setCluster(m_cluster->store, m_cluster->topology); // a worker: the next batches wait
    });
    connect(m_liveSession, &LiveSession::totalsUpdated, this, [this](std::shared_ptr<const ImportedCluster> cluster) {
        m_cluster = std::move(cluster);
        showTotals();
    });
    connect(m_liveSession, &LiveSession::diffShown, this, &MainWindow::liveDiffShown);
    connect(m_liveSession, &LiveSession::message, m_status, &WindowStatusBar::showPlanMessage);
    connect(m_liveSession->controller(), &LiveController::liveStatusChanged, this, &MainWindow::updatePartialView);
    m_liveSession->addPauseAction(planMenu(this));
    connect(m_usage, &UsageController::usageJoined, this, &MainWindow::showUsage);
    connect(m_usage, &UsageController::refreshed, this, &MainWindow::usageRefreshed);
}

LiveController* MainWindow::liveController() const
{
    return m_liveSession->controller();
}

void MainWindow::setWatchLiveClusters(bool on)
{
    m_liveSession->setWatchListedClusters(on);
}

std::uint64_t MainWindow::liveDiffsShown() const noexcept
{
    return m_liveSession->diffsShown();
}

bool MainWindow::startLiveFeed(std::unique_ptr<importers::live::LiveFeed> feed)
{
    if (!m_cluster || !m_cluster->store || !feed)
        return false;
    // The importer made the store (non-const) and shared it as const with every view; from
    // here on the live controller is its one writer, on this thread, between frames.
    auto store = std::const_pointer_cast<model::ClusterStore>(m_cluster->store);
    m_connectionDock->show();
    m_explore->followLiveStore();
    m_liveSession->start(std::move(feed), std::move(store));
    return true;
}

void MainWindow::startKubeWatch()
{
    try {
        if (startLiveFeed(importers::live::makeKubeWatchFeed(*m_cluster->kubeconfig, m_cluster->nodesResourceVersion.toStdString(),
                                                             m_cluster->resourceVersion.toStdString()))
            && m_cluster->usageSource)
            m_usage->start(*m_cluster->usageSource, m_cluster->store);
    } catch (const std::exception& e) { // a setting the client refuses: the LIST worked, so this is rare
        m_banners->showWarning(tr("The cluster is shown as listed, but cannot be watched: %1").arg(QString::fromStdString(e.what())));
    }
}

void MainWindow::stopLiveFeed()
{
    if (m_usage)
        m_usage->stop();
    if (m_liveSession)
        m_liveSession->stop();
}

void MainWindow::updatePartialView()
{
    const QString partial = m_connectionPanel->partialView();
    // The whole words, then shorter ones down to "Partial view" as the status bar narrows.
    const QString counts = partial.section(QStringLiteral(" ("), 0, 0); // "pods of 1 of 2 namespaces"
    m_status->setPartialView(partial.isEmpty() ? QStringList()
                                               : QStringList { tr("Partial view: %1").arg(partial),
                                                     tr("Partial view: %1").arg(counts), tr("Partial view") },
        partial.isEmpty() ? QString()
                          : tr("Partial view: %1. The cluster-wide pod list was refused; the totals and the map count the pods of these "
                               "namespaces only.").arg(partial));
}

void MainWindow::showListedView()
{
    m_connectionPanel->setListedView(m_cluster ? m_cluster->partialView : QString());
    updatePartialView();
}

QString MainWindow::partialViewNotice() const
{
    return m_status->partialViewText();
}

// ---- usage -------------------------------------------------------------------------------
// The Metric menu's usage section, enabled for a cluster with usage; a watched live cluster's
// usage refreshed from its Prometheus by the UsageController.

void MainWindow::setUsageRefreshInterval(int ms) noexcept
{
    m_usage->setRefreshInterval(ms);
}

std::uint64_t MainWindow::usageRefreshes() const noexcept
{
    return m_usage->refreshes();
}

void MainWindow::showUsage(std::shared_ptr<const model::ClusterUsage> usage)
{
    auto cluster = std::make_shared<ImportedCluster>(*m_cluster);
    cluster->usage = std::move(usage);
    m_cluster = std::move(cluster);
    m_explore->nodeInspector()->setUsage(m_cluster->usage);
    m_metrics->updateUsageMenu(); // recolours the map when a usage metric is shown
}

} // namespace fleet::app
