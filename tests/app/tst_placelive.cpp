// SPDX-License-Identifier: Apache-2.0
// A placement under a live feed (docs/live.md, held batches), under xvfb-run: Plan > Place Workload places
// new pods, then batches posted from another thread through the sink a watch uses (held while
// the plan is open) re-check them on their nodes: a pod bound to a placed pod's node that takes
// the room it needed, a taint it does not tolerate, the node deleted or NotReady each mark the
// place-pods action stale naming the placed pod and why; a batch that leaves the placed pods'
// nodes as they were (a pod elsewhere, a taint the pods tolerate) does not.

#include "manualfeed.h"
#include "planwindowfixture.h"

#include "common/records.h"
#include "common/units.h"

#include "app/controllers/livecontroller.h"
#include "app/dialogs/placeworkloaddialog.h"
#include "importers/simulated/simulatedlivefeed.h"
#include "model/clusterchange.h"

#include <QtTest>

#include <memory>


using namespace fleet;

namespace {

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

/// A window with 6 new pods of 6 cpu / 24Gi placed (one place-pods action), its live feed
/// started; `node` the store node of the first placed pod. Null when it did not get there.
struct Placed {
    std::unique_ptr<app::MainWindow> window;
    fleettest::ManualFeed* feed = nullptr;
    model::NodeId node;
    model::NodeId other; // a store node no placed pod is on
    QString podName;     // the first placed pod, namespace/name
    /// Held batches announced (LiveController::batchHeld, on the GUI thread): the plan checked
    /// each one in that signal's slot (PlanController::checkStale) before the count moved.
    std::shared_ptr<std::size_t> announced = std::make_shared<std::size_t>(0);
};

Placed placeSix()
{
    Placed out;
    auto window = planwindow::openWindow();
    if (!window)
        return out;
    auto* dialog = window->findChild<app::PlaceWorkloadDialog*>();
    dialog->openFor();
    dialog->setPods(6);
    dialog->setShape(QStringLiteral("6"), QStringLiteral("24Gi"));
    dialog->setName(QStringLiteral("train"));
    dialog->setPreferredLevel(QStringLiteral("topology.k8s.aws/network-node-layer-3"));
    QSignalSpy finished(dialog, &app::PlaceWorkloadDialog::finished);
    if (!dialog->place() || !(finished.count() > 0 || finished.wait(60000)) || !dialog->lastOutcome().placed)
        return out;
    const auto engine = window->planController()->engine();
    const model::AppliedAction& a = engine->applied().back();
    if (a.action.type != model::ActionType::PlacePods || a.podsAdded.empty())
        return out;
    const model::PlanLedger& state = engine->state();
    out.node = state.podNode(a.podsAdded.front());
    out.podName = QStringLiteral("default/") + qstr(state.podName(a.podsAdded.front()));
    for (std::uint32_t i = 0; i < window->cluster()->store->nodeCount() && !out.other.isValid(); ++i) {
        bool used = false;
        for (const model::PodId p : a.podsAdded)
            used = used || state.podNode(p) == model::NodeId(i);
        if (!used && window->cluster()->store->nodeReadiness(model::NodeId(i)) == model::Readiness::True)
            out.other = model::NodeId(i);
    }
    auto feed = std::make_unique<fleettest::ManualFeed>();
    out.feed = feed.get();
    if (!window->startLiveFeed(std::move(feed)))
        return out;
    QObject::connect(window->liveController(), &app::LiveController::batchHeld, window.get(),
        [announced = out.announced] { ++*announced; });
    out.window = std::move(window);
    return out;
}

/// A running pod `name` bound to `node`, asking for `cpuMilli` of cpu.
model::ClusterChangeBatch podOn(const model::ClusterStore& store, model::NodeId node, const char* name, std::int64_t cpuMilli)
{
    model::ClusterChangeBatch b;
    b.upserted.addPod(testing::podRecord("default", name, std::string(store.nodeName(node)), cpuMilli, testing::kGi, model::PodPhase::Running));
    b.events = 1;
    return b;
}

/// Node `n` as the store has it, with one more taint.
model::ClusterChangeBatch tainted(const model::ClusterStore& store, model::NodeId n, const char* key, model::TaintEffect effect)
{
    model::ClusterChangeBatch b;
    model::NodeRecord r = store.nodeRecord(n);
    r.taints.emplace_back(key, "", effect);
    b.upserted.addNode(r, store);
    b.events = 1;
    return b;
}

/// The stale mark of the plan's last action, once the held batch was checked ("" when none).
QString lastStale(const Placed& p)
{
    const std::vector<QString>& stale = p.window->planController()->staleReasons();
    return stale.empty() ? QString() : stale.back();
}

/// Waits until the window holds `batches` batches and has announced them (LiveController posts
/// batchHeld() to the GUI thread: the plan checks each there); false after 30 s.
bool held(const Placed& p, std::size_t batches)
{
    return QTest::qWaitFor(
        [&] { return p.window->liveController()->batchesWaiting() >= batches && *p.announced >= batches; }, 30000);
}

} // namespace

class TestPlaceLive : public QObject {
    Q_OBJECT
private slots:
    void podTakingTheRoomMarksThePlacementStale()
    {
        const Placed p = placeSix();
        QVERIFY(p.window && p.node.isValid() && p.other.isValid());
        const model::ClusterStore& store = *p.window->cluster()->store;
        // Elsewhere, a pod changes nothing for the placed pods.
        p.feed->push(podOn(store, p.other, "elsewhere", 100));
        QVERIFY(held(p, 1));
        QCOMPARE(lastStale(p), QString());
        // On the placed pod's node, one that takes all its cpu: the placed pods lost their room.
        p.feed->push(podOn(store, p.node, "intruder", store.nodeAllocatable(p.node)[model::CoreResource::Cpu]));
        QVERIFY(held(p, 2));
        QTRY_VERIFY_WITH_TIMEOUT(!lastStale(p).isEmpty(), 10000);
        const QString why = lastStale(p);
        QVERIFY2(why.contains(QStringLiteral("lost the room")) && why.contains(QStringLiteral("cpu"))
                && why.contains(qstr(store.nodeName(p.node))) && why.startsWith(QStringLiteral("placed pod default/train-")),
            qPrintable(why));
        // Held, not applied: the intruder waits until the plan is cleared.
        QVERIFY(!store.findPod("default", "intruder").isValid());
        p.window->stopLiveFeed();
    }

    void taintItDoesNotTolerateMarksThePlacementStale()
    {
        const Placed p = placeSix();
        QVERIFY(p.window && p.node.isValid());
        const model::ClusterStore& store = *p.window->cluster()->store;
        // PreferNoSchedule does not keep pods off: not stale.
        p.feed->push(tainted(store, p.node, "fleetscope.test/soft", model::TaintEffect::PreferNoSchedule));
        QVERIFY(held(p, 1));
        QCOMPARE(lastStale(p), QString());
        p.feed->push(tainted(store, p.node, "fleetscope.test/broken", model::TaintEffect::NoSchedule));
        QVERIFY(held(p, 2));
        QTRY_VERIFY_WITH_TIMEOUT(!lastStale(p).isEmpty(), 10000);
        const QString why = lastStale(p);
        QVERIFY2(why.contains(QStringLiteral("was tainted fleetscope.test/broken:NoSchedule, which it does not tolerate"))
                && why.startsWith(QStringLiteral("placed pod default/train-")),
            qPrintable(why));
        p.window->stopLiveFeed();
    }

    void nodeDeletedMarksThePlacementStale()
    {
        const Placed p = placeSix();
        QVERIFY(p.window && p.node.isValid());
        const model::ClusterStore& store = *p.window->cluster()->store;
        model::ClusterChangeBatch b;
        b.deletedNodes.emplace_back(store.nodeName(p.node));
        b.events = 1;
        p.feed->push(std::move(b));
        QTRY_VERIFY_WITH_TIMEOUT(!lastStale(p).isEmpty(), 10000);
        const QString why = lastStale(p);
        QVERIFY2(why.startsWith(QStringLiteral("placed pod default/train-")) && why.endsWith(QStringLiteral(" was deleted")), qPrintable(why));
        p.window->stopLiveFeed();
    }
};

QTEST_MAIN(TestPlaceLive)
#include "tst_placelive.moc"
