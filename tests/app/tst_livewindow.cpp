// SPDX-License-Identifier: Apache-2.0
// The window with a live feed, under xvfb-run: a batch posted from another thread
// through the sink changes a node's state and its cell's colour on the map, once per batch;
// the simulated feed streams into the window and the connection panel shows it; a plan action
// becomes stale when a batch deletes its pod (the batch waits until the plan is cleared).

#include "manualfeed.h"
#include "planwindowfixture.h"

#include "app/window/connectionpanel.h"
#include "app/window/explorepanels.h"
#include "app/window/statusfield.h"
#include "model/figures.h"
#include "model/nodeproblems.h"
#include "views/heatmaps/domainheatmap.h"
#include "views/heatmaps/heatmappanel.h"
#include "views/map/maplegend.h"
#include "views/panels/problemspanel.h"

#include <QDockWidget>
#include <algorithm>
#include "app/controllers/livecontroller.h"
#include "app/controllers/storereaders.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"
#include "importers/simulated/simulatedlivefeed.h"
#include "model/clusterchange.h"

#include <QUndoStack>
#include <QtTest>


using namespace fleet;
using fleet::testing::describe;
using planwindow::near;

namespace {

/// A batch that sets node `n` of `store` to Ready or not.
model::ClusterChangeBatch readiness(const model::ClusterStore& store, model::NodeId n, bool ready)
{
    model::ClusterChangeBatch b;
    model::NodeRecord r = store.nodeRecord(n);
    r.ready = ready ? model::Readiness::True : model::Readiness::False;
    for (auto& c : r.conditions)
        if (c.type == "Ready")
            c.status = r.ready;
    b.upserted.addNode(r, store);
    b.events = 1;
    return b;
}

QColor pixelOf(views::FleetMapView* map, model::NodeId n)
{
    const QImage image = map->grabImage();
    const QPoint c = map->cellCenter(n);
    const qreal dpr = image.devicePixelRatio();
    return image.pixelColor(QPoint(static_cast<int>(c.x() * dpr), static_cast<int>(c.y() * dpr)));
}

} // namespace

class TestLiveWindow : public QObject {
    Q_OBJECT
private slots:
    void nodeStateRecoloursItsCellOncePerBatch()
    {
        auto window = planwindow::openWindow();
        QVERIFY(window);
        QVERIFY(window->setMetric(QStringLiteral("state")));
        const model::ClusterStore& store = *window->cluster()->store;
        model::NodeId node;
        for (std::uint32_t i = 0; i < store.nodeCount() && !node.isValid(); ++i)
            if (store.nodeReadiness(model::NodeId(i)) == model::Readiness::True && !store.nodeUnschedulable(model::NodeId(i))
                && !window->mapView()->cellCenter(model::NodeId(i)).isNull())
                node = model::NodeId(i);
        QVERIFY(node.isValid());
        const QColor before = pixelOf(window->mapView(), node);

        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        QSignalSpy shown(window.get(), &app::MainWindow::liveDiffShown);
        manual->push(readiness(store, node, false));
        QVERIFY(shown.wait(10000));
        QCOMPARE(store.nodeReadiness(node), model::Readiness::False);
        const QColor notReady = pixelOf(window->mapView(), node);
        QVERIFY2(!near(before, notReady, 8), qPrintable(describe(before) + " stayed " + describe(notReady)));
        QVERIFY2(notReady.red() > notReady.green() + 60, qPrintable(describe(notReady))); // NotReady is red
        QCOMPARE(shown.count(), 1);
        QCOMPARE(window->liveController()->batchesApplied(), std::uint64_t(1));

        manual->push(readiness(store, node, true));
        QVERIFY(shown.wait(10000));
        QCOMPARE(shown.count(), 2);
        QVERIFY(near(pixelOf(window->mapView(), node), before, 8));
        QTRY_COMPARE_WITH_TIMEOUT(window->cluster()->totals.nodesReady, store.counts().nodesReady, 5000); // once a second
        window->stopLiveFeed();
    }

    // Every figure of the same thing comes from one state and follows every batch: the
    // The analysis (problems, pending, totals) reads its own copy of the store: once the copy
    // is made, batches apply while an analysis runs and none waits for it (each waited for one
    // before), and the last analysis is of the last state.
    void batchesDoNotWaitForTheAnalysis()
    {
        // Enough nodes that an analysis outlasts the GUI thread's turn (at 240 it ended first).
        auto window = planwindow::openWindow(20000);
        QVERIFY(window);
        const model::ClusterStore& store = *window->cluster()->store;
        app::ExplorePanels* explore = window->explorePanels();
        QTRY_VERIFY_WITH_TIMEOUT(!explore->isIndexing(), 30000);
        std::vector<model::NodeId> ready;
        for (std::uint32_t i = 0; i < store.nodeCount() && ready.size() < 6; ++i)
            if (store.nodeReadiness(model::NodeId(i)) == model::Readiness::True)
                ready.push_back(model::NodeId(i));
        QCOMPARE(ready.size(), std::size_t(6));
        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        app::LiveController* live = window->liveController();
        // The feed's start copies the store for the analysis and indexes pod names (readers):
        // the first batch may wait for them.
        QSignalSpy analysed(explore, &app::ExplorePanels::analysisApplied);
        manual->push(readiness(store, ready[0], false));
        QTRY_COMPARE_WITH_TIMEOUT(live->batchesApplied(), std::uint64_t(1), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(analysed.count() >= 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(window->storeReaders()->running(store), 0, 20000);
        const std::uint64_t waits = live->readerWaits();
        // Five batches at once: the first one's diff starts an analysis (it used to hold the
        // other four until it ended).
        for (std::size_t i = 1; i < ready.size(); ++i)
            manual->push(readiness(store, ready[i], false));
        QTRY_COMPARE_WITH_TIMEOUT(live->batchesApplied(), std::uint64_t(ready.size()), 10000);
        QCOMPARE(live->readerWaits(), waits);
        QTRY_VERIFY_WITH_TIMEOUT(explore->analysedTotals() && explore->analysedTotals()->nodesReady == store.counts().nodesReady, 20000);
        QCOMPARE(live->readerWaits(), waits);
        window->stopLiveFeed();
    }

    // Problems title and list, the map's markers with the legend's key, the status bar's totals
    // (a user trial read NotReady 122 / 109 / 119 and markers that stopped updating).
    void countsAgreeAfterEveryBatch()
    {
        auto window = planwindow::openWindow();
        QVERIFY(window);
        const model::ClusterStore& store = *window->cluster()->store;
        app::ExplorePanels* explore = window->explorePanels();
        QTRY_VERIFY_WITH_TIMEOUT(!explore->isIndexing(), 30000);
        std::vector<model::NodeId> ready;
        for (std::uint32_t i = 0; i < store.nodeCount() && ready.size() < 3; ++i)
            if (store.nodeReadiness(model::NodeId(i)) == model::Readiness::True)
                ready.push_back(model::NodeId(i));
        QCOMPARE(ready.size(), std::size_t(3));
        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        auto* legend = window->mapView()->findChild<views::MapLegend*>();
        QVERIFY(legend);
        for (const model::NodeId n : ready) {
            QSignalSpy analysed(explore, &app::ExplorePanels::analysisApplied);
            manual->push(readiness(store, n, false));
            QVERIFY(analysed.wait(10000));
            QTRY_COMPARE_WITH_TIMEOUT(store.nodeReadiness(n), model::Readiness::False, 5000);
            // The last analysis is of the state now (no batch came after it).
            QTRY_VERIFY_WITH_TIMEOUT(explore->analysedTotals() && explore->analysedTotals()->nodesReady == store.counts().nodesReady, 10000);
            const std::vector<model::NodeProblem> problems = model::findNodeProblems(store);
            const auto notReady = std::count_if(problems.begin(), problems.end(), [](const model::NodeProblem& p) { return p.kind == model::NodeProblemKind::NotReady; });
            QCOMPARE(explore->problemsPanel()->problemCount(), static_cast<int>(problems.size()));
            QVERIFY2(explore->problemsDock()->windowTitle().contains(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(problems.size())))),
                qPrintable(explore->problemsDock()->windowTitle()));
            // The window's totals follow within a few turns (the live session's totals timer).
            QTRY_COMPARE_WITH_TIMEOUT(window->cluster()->totals.nodesReady, store.counts().nodesReady, 5000);
            QTRY_COMPARE_WITH_TIMEOUT(window->cluster()->totals.nodesNotReady, static_cast<std::size_t>(notReady), 5000);
            const QString key = QStringLiteral("NotReady: ") + QString::fromStdString(model::formatCount(static_cast<std::int64_t>(notReady)));
            QVERIFY2(legend->entries().contains(key), qPrintable(legend->entries().join(QStringLiteral(" | ")) + QStringLiteral(" lacks ") + key));
        }
        window->stopLiveFeed();
    }

    // The Heatmap's amount columns (unallocated GPUs and the rest) were computed once per
    // fleet: on a live cluster the GPU share moved while they stood still.
    void heatmapAmountsFollowTheLiveCluster()
    {
        auto window = planwindow::openWindow();
        QVERIFY(window);
        const model::ClusterStore& store = *window->cluster()->store;
        app::ExplorePanels* explore = window->explorePanels();
        QTRY_VERIFY_WITH_TIMEOUT(!explore->isIndexing(), 30000);
        // A running pod with whole GPUs on a Ready node: deleting it frees them.
        model::PodId gpuPod;
        for (std::uint32_t i = 0; i < store.podCount() && !gpuPod.isValid(); ++i) {
            const model::PodId p(i);
            const std::int64_t milli = store.podRequest(p)[model::CoreResource::Gpu];
            if (store.podIsCounted(p) && milli >= 1000 && milli % 1000 == 0
                && store.nodeReadiness(store.podNode(p)) == model::Readiness::True)
                gpuPod = p;
        }
        QVERIFY2(gpuPod.isValid(), "the simulated fleet has no running whole-GPU pod on a Ready node");
        explore->heatmapDock()->show();
        views::DomainHeatmap* heatmap = explore->heatmapPanel()->heatmap();
        const int column = heatmap->columnOf(QStringLiteral("gpu-unallocated"));
        QVERIFY(column >= 0);
        auto unallocated = [&] {
            double sum = 0;
            for (int r = 0; r < heatmap->rowCount(); ++r)
                if (const double v = heatmap->cellValue(r, column); !std::isnan(v))
                    sum += v;
            return sum;
        };
        const double before = unallocated();
        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        model::ClusterChangeBatch b;
        b.deletedPods.emplace_back(std::string(store.podNamespace(gpuPod)), std::string(store.podName(gpuPod)));
        b.events = 1;
        manual->push(std::move(b));
        QTRY_VERIFY_WITH_TIMEOUT(!store.podIsCounted(gpuPod), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(unallocated() > before, qPrintable(QStringLiteral("unallocated GPUs stayed at %1").arg(before)), 10000);
        window->stopLiveFeed();
    }

    void simulatedFeedStreamsIntoTheWindow()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        const model::ClusterCounts before = window->cluster()->store->counts();
        QVERIFY(window->startLiveFeed(std::make_unique<importers::SimulatedLiveFeed>(
            importers::SimulationSpec { 240, 3 }, 400.0, std::chrono::milliseconds(50))));
        QSignalSpy shown(window.get(), &app::MainWindow::liveDiffShown);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 5, 30000);
        const app::LiveController* live = window->liveController();
        QVERIFY(live->eventsApplied() > 0);
        QCOMPARE(window->liveDiffsShown(), live->batchesApplied());
        const model::ClusterCounts after = window->cluster()->store->counts();
        QVERIFY(after.pods != before.pods || after.podsCounted != before.podsCounted || after.nodesReady != before.nodesReady
            || after.podsTerminal != before.podsTerminal);
        QTRY_COMPARE_WITH_TIMEOUT(window->connectionPanel()->fieldText(QStringLiteral("state")), QStringLiteral("Watching"), 5000);
        QCOMPARE(window->connectionPanel()->fieldText(QStringLiteral("server")), QStringLiteral("simulated"));
        // The feed's store and the window's are the same cluster (same batches, same transaction).
        window->stopLiveFeed();
        QCOMPARE(window->connectionPanel()->fieldText(QStringLiteral("state")), QStringLiteral("Stopped"));
    }

    // A feed that never pauses kept the what-if "being prepared" forever (it is built once the
    // cluster is quiet for 3 s). Plan > Pause Live Updates holds the changes and builds it on the
    // state held; a plan then keeps them held; resumed with no plan, they apply.
    void pauseLiveUpdatesLetsOnePlanOnAStreamingCluster()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        QAction* pause = window->findChild<QAction*>(QStringLiteral("actionPauseLiveUpdates"));
        QVERIFY(pause);
        QVERIFY(!pause->isEnabled()); // no live feed yet
        QVERIFY(window->startLiveFeed(std::make_unique<importers::SimulatedLiveFeed>(
            importers::SimulationSpec { 240, 3 }, 2000.0, std::chrono::milliseconds(50))));
        QVERIFY(pause->isEnabled());
        const app::LiveController* live = window->liveController();
        QTRY_VERIFY_WITH_TIMEOUT(live->batchesApplied() >= 3, 30000);
        app::PlanController* plan = window->planController();
        // Streaming: no what-if, and the message says what to do.
        QVERIFY(!plan->engine());
        QVERIFY2(plan->notReadyText().contains(QStringLiteral("Pause Live Updates")), qPrintable(plan->notReadyText()));
        // It does not promise what a streaming cluster never gives (a pause of its own).
        QVERIFY2(!plan->notReadyText().contains(QStringLiteral("try again")), qPrintable(plan->notReadyText()));
        // Plan > Consolidate says so too (it did nothing at all).
        QAction* consolidate = window->findChild<QAction*>(QStringLiteral("actionConsolidate"));
        QVERIFY(consolidate);
        consolidate->trigger();
        QVERIFY2(window->planStatusText().contains(QStringLiteral("Pause Live Updates")) || window->planStatusText().contains(QStringLiteral("being prepared")),
            qPrintable(window->planStatusText()));

        pause->trigger();
        QVERIFY(pause->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(plan->engine() != nullptr, 30000);
        const std::uint64_t appliedAtPause = live->batchesApplied();
        QTRY_VERIFY_WITH_TIMEOUT(live->batchesWaiting() >= 3, 30000);
        QCOMPARE(live->batchesApplied(), appliedAtPause);
        QTRY_VERIFY2_WITH_TIMEOUT(live->waitingReason().contains(QStringLiteral("paused")), qPrintable(live->waitingReason()), 10000);

        // A plan on the held state; resuming keeps the changes waiting while it has actions.
        const model::ClusterStore& store = *window->cluster()->store;
        model::NodeId node;
        for (std::uint32_t i = 0; i < store.nodeCount() && !node.isValid(); ++i)
            if (store.nodeReadiness(model::NodeId(i)) == model::Readiness::True && !store.nodePods(model::NodeId(i)).empty())
                node = model::NodeId(i);
        QVERIFY(node.isValid());
        plan->drainNodes({ node });
        QTRY_VERIFY_WITH_TIMEOUT(plan->hasPlan(), 10000);
        pause->trigger();
        QVERIFY(!pause->isChecked());
        QVERIFY(live->batchesWaiting() > 0);
        QCOMPARE(live->batchesApplied(), appliedAtPause);
        QTRY_VERIFY2_WITH_TIMEOUT(live->waitingReason().contains(QStringLiteral("a plan is open")), qPrintable(live->waitingReason()), 10000);
        QVERIFY2(window->planStatusText().contains(QStringLiteral("still wait while the plan has actions")), qPrintable(window->planStatusText()));
        // Too long for a narrow window's status bar: cut at its end, read from its start.
        {
            const auto* field = window->findChild<app::StatusField*>(QStringLiteral("planStatus"));
            QVERIFY(field);
            const QSize size = window->size();
            window->resize(640, size.height());
            QTRY_VERIFY_WITH_TIMEOUT(field->displayedText() != field->text(), 10000);
            const QString shown = field->displayedText();
            QVERIFY2(shown.endsWith(QChar(0x2026)) && field->text().startsWith(shown.chopped(1)), qPrintable(shown));
            window->resize(size);
        }

        // The plan undone: Redo can bring the drain back, so the batches still wait (applying one
        // drops the engine the stack acts on, and with it the stack: the user's work).
        plan->undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!plan->hasPlan(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(live->waitingReason().contains(QStringLiteral("Redo")), qPrintable(live->waitingReason()), 10000);
        const std::size_t waitingAfterUndo = live->batchesWaiting();
        QTRY_VERIFY_WITH_TIMEOUT(live->batchesWaiting() > waitingAfterUndo, 30000); // more came, none applied
        QCOMPARE(live->batchesApplied(), appliedAtPause);
        QVERIFY(plan->undoStack()->canRedo());
        plan->undoStack()->redo();
        QTRY_VERIFY_WITH_TIMEOUT(plan->hasPlan(), 10000);
        QCOMPARE(live->batchesApplied(), appliedAtPause);
        plan->undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!plan->hasPlan(), 10000);
        QAction* applyWaiting = window->findChild<QAction*>(QStringLiteral("actionApplyWaitingLiveUpdates"));
        QVERIFY(applyWaiting);
        QTRY_VERIFY(applyWaiting->isEnabled());
        QCOMPARE(live->batchesApplied(), appliedAtPause);

        // The user lets them in: Redo's history goes, they apply; the message that they wait for
        // the plan gives way to one that says so.
        applyWaiting->trigger();
        QVERIFY(!plan->undoStack()->canRedo());
        QTRY_VERIFY2_WITH_TIMEOUT(window->planStatusText().contains(QStringLiteral("The plan is empty: live updates apply again")),
            qPrintable(window->planStatusText()), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(live->batchesApplied() > appliedAtPause, 30000);
        window->stopLiveFeed();
        QVERIFY(!pause->isEnabled());
    }

    // The status bar's tooltip gives its figures in full; live, it followed the bar only at load.
    void totalsToolTipFollowsTheLiveCluster()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        const std::size_t podsAtLoad = window->cluster()->totals.pods;
        auto podsLine = [](std::size_t pods) { return QStringLiteral("Pods %1:").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(pods)))); };
        QVERIFY2(window->totalsToolTip().contains(podsLine(podsAtLoad)), qPrintable(window->totalsToolTip()));
        QVERIFY(window->startLiveFeed(std::make_unique<importers::SimulatedLiveFeed>(
            importers::SimulationSpec { 240, 3 }, 2000.0, std::chrono::milliseconds(50))));
        QTRY_VERIFY_WITH_TIMEOUT(window->cluster()->totals.pods != podsAtLoad, 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(window->totalsToolTip().contains(podsLine(window->cluster()->totals.pods)),
            qPrintable(window->totalsToolTip()), 10000);
        QVERIFY2(window->totalsToolTip().contains(QStringLiteral("Live: the figures below are the cluster's now")), qPrintable(window->totalsToolTip()));
        window->stopLiveFeed();
    }

    void slowRequestIsShownInTheConnectionPanel()
    {
        // A watch whose server is slow to answer: the Connection dock says what it waits for
        // (LiveFeedStatus::slowRequest, from kube::RequestWait), and "none" once it is over.
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        importers::live::LiveFeedStatus status;
        status.state = importers::live::LiveFeedStatus::State::Connecting;
        status.server = "https://10.0.0.1:6443";
        status.slowRequest
            = "waiting for https://10.0.0.1:6443 /api/v1/pods?REDACTED: no answer yet, 3 s so far (gives up at 60 s, "
              "--request-timeout)";
        manual->pushStatus(status);
        QTRY_COMPARE_WITH_TIMEOUT(
            window->connectionPanel()->fieldText(QStringLiteral("request")), QString::fromStdString(status.slowRequest), 5000);
        status.slowRequest.clear();
        status.state = importers::live::LiveFeedStatus::State::Watching;
        manual->pushStatus(status);
        QTRY_COMPARE_WITH_TIMEOUT(window->connectionPanel()->fieldText(QStringLiteral("request")), QStringLiteral("none"), 5000);
        window->stopLiveFeed();
    }

    void planActionStaleWhenItsPodIsDeleted()
    {
        auto window = planwindow::openWindow();
        QVERIFY(window);
        const model::ClusterStore& store = *window->cluster()->store;
        // A movable pod and another node.
        model::PodId pod;
        for (std::uint32_t i = 0; i < store.podCount() && !pod.isValid(); ++i) {
            const model::PodId p(i);
            if (store.podIsCounted(p) && store.podOwnerKind(p) == model::OwnerKind::Deployment)
                pod = p;
        }
        QVERIFY(pod.isValid());
        const model::NodeId to(store.podNode(pod).value == 0 ? 1 : 0);
        QVERIFY(window->planController()->movePod(pod, to, true));
        QVERIFY(window->planController()->hasPlan());

        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        QVERIFY(window->startLiveFeed(std::move(feed)));
        model::ClusterChangeBatch b;
        b.deletedPods.emplace_back(store.podNamespace(pod), store.podName(pod));
        b.events = 1;
        manual->push(std::move(b));
        QTRY_VERIFY_WITH_TIMEOUT(!window->planController()->staleReasons().empty()
                && !window->planController()->staleReasons().front().isEmpty(), 10000);
        const QString why = window->planController()->staleReasons().front();
        QVERIFY2(why.contains(QStringLiteral("was deleted")) && why.contains(QString::fromUtf8(store.podName(pod).data(),
                     static_cast<int>(store.podName(pod).size()))), qPrintable(why));
        // Held while the plan is open: the pod is still there, the panel says why it waits.
        QVERIFY(!store.podIsDeleted(pod));
        QCOMPARE(window->liveController()->batchesWaiting(), std::size_t(1));
        QVERIFY(window->connectionPanel()->fieldText(QStringLiteral("waiting")).contains(QStringLiteral("plan")));
        // The plan panel shows the mark.
        const QAbstractItemModel* model = window->planController()->panel()->model();
        QVERIFY(model);
        QVERIFY(model->data(model->index(0, 1)).toString().contains(QStringLiteral("stale")));
        // The plan undone: Redo can bring the move back, so the batch waits.
        window->undoStack()->undo();
        QVERIFY(!window->planController()->hasPlan());
        QTRY_VERIFY2_WITH_TIMEOUT(window->liveController()->waitingReason().contains(QStringLiteral("Redo")),
            qPrintable(window->liveController()->waitingReason()), 10000);
        QVERIFY(!store.podIsDeleted(pod)); // a batch let in applies at once (LiveController::setHeld())
        QCOMPARE(window->liveController()->batchesWaiting(), std::size_t(1));
        QVERIFY(window->undoStack()->canRedo());
        // The Connection dock and the message once they apply count the same batches, in words
        // a person writes ("1 batch", never "1 batch(es)").
        const QString waiting = window->connectionPanel()->fieldText(QStringLiteral("waiting"));
        QVERIFY2(waiting.startsWith(QStringLiteral("1 batch: ")), qPrintable(waiting));
        // Cleared plan (nothing to redo): the batch applies.
        window->undoStack()->clear();
        QTRY_VERIFY_WITH_TIMEOUT(store.podIsDeleted(pod), 10000);
        QCOMPARE(window->liveController()->batchesWaiting(), std::size_t(0));
        QTRY_VERIFY2_WITH_TIMEOUT(window->planStatusText().startsWith(QStringLiteral("The plan is empty")), qPrintable(window->planStatusText()), 10000);
        QCOMPARE(window->planStatusText(), QStringLiteral("The plan is empty: live updates apply again (1 batch of changes waited)."));
        window->stopLiveFeed();
    }
};

QTEST_MAIN(TestLiveWindow)
#include "tst_livewindow.moc"
