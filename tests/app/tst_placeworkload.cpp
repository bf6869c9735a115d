// SPDX-License-Identifier: Apache-2.0
// Plan > Place Workload, under xvfb-run: the dialog places a gang on the simulated fleet
// (a worker over a clone of the store with the template pod), the plan gets one place-pods action
// with every pod inside one domain of the level, the plan panel lists the placed pods (under
// QAbstractItemModelTester), the map's cells of the nodes that got pods change colour; one Undo
// removes them all. A gang that fits nowhere shows, per level, the closest domain and what it
// lacks; bad fields are named; "Place Workload Here…" on a domain label places inside it.

#include "planwindowfixture.h"

#include "app/dialogs/placeworkloaddialog.h"
#include "app/window/explorepanels.h"
#include "views/panels/pendingpanel.h"
#include "views/inspectors/domaininspector.h"
#include "views/heatmaps/domainaggregates.h"
#include "app/controllers/storereaders.h"
#include "app/startup/surfaceformat.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/topology.h"
#include "views/plan/placedpodsmodel.h"
#include "views/plan/planpanel.h"

#include "common/mapviewprobe.h"

#include "common/guitestmain.h"

#include "common/eventloop.h"

#include <QAbstractItemModelTester>
#include <QContextMenuEvent>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

#include <set>

using namespace fleet;
using namespace planwindow;

namespace {

const QString kL1 = QStringLiteral("topology.k8s.aws/network-node-layer-1");
const QString kL3 = QStringLiteral("topology.k8s.aws/network-node-layer-3");

/// The path of node n's domain at `levelKey` (its ancestor's path: a prefix of its own path).
bool nodeInDomain(const model::Topology& topology, model::NodeId n, const std::string& domainPath)
{
    const std::string path = model::domainPathText(topology, topology.nodeDomain(n));
    return path == domainPath || path.starts_with(domainPath + "/");
}

} // namespace

class TestPlaceWorkload : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void levelsAreTheClusters();
    void placesAGangInOneUndoStep();
    void gangThatFitsNowhereExplainsPerLevel();
    void badFieldsAreNamed();
    void cancelLeavesThePlanAsItWas();
    void copiesThePlanInSlices();
    void placeWorkloadHereOnADomainLabel();
    void placeStaysTheDefaultButton();
    void buttonsStayPutWhenTheResultShows();
    void windowShortcutsActWhileItHasTheKeyboard();
    void pendingDockFollowsAPlanOverThePlacementsCopy();
    void placeHereThatFitsNowhereNamesTheDomain();

private:
    bool runPlace();
    app::PlaceWorkloadDialog* dialog() const { return m_window->findChild<app::PlaceWorkloadDialog*>(); }
    views::FleetMapView* map() const { return m_window->mapView(); }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlaceWorkload::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
    QVERIFY(dialog());
}

void TestPlaceWorkload::cleanupTestCase() { m_window.reset(); }

bool TestPlaceWorkload::runPlace()
{
    QSignalSpy finished(dialog(), &app::PlaceWorkloadDialog::finished);
    if (!dialog()->place())
        return false;
    return finished.count() > 0 || finished.wait(60000);
}

void TestPlaceWorkload::levelsAreTheClusters()
{
    m_window->findChild<QAction*>(QStringLiteral("actionPlaceWorkload"))->trigger();
    QVERIFY(dialog()->isVisible());
    const QStringList levels = dialog()->levels();
    QVERIFY2(levels.contains(kL1) && levels.contains(kL3), qPrintable(levels.join(QLatin1Char(','))));
    QCOMPARE(levels.first(), QStringLiteral("topology.kubernetes.io/region"));
}

void TestPlaceWorkload::placesAGangInOneUndoStep()
{
    app::PlanController* plan = m_window->planController();
    const model::Topology& topology = *m_window->cluster()->topology;
    // The plan dock opens with the first action and narrows the map: open it first, so that
    // before and after compare the same cells.
    plan->dock()->show();
    QVERIFY(testing::deliverPostedEvents()); // the main window's layout request: the map is narrowed
    const QImage before = map()->grabImage();
    const std::size_t storePods = m_window->cluster()->store->podCount();

    dialog()->openFor();
    dialog()->setPods(6);
    dialog()->setShape(QStringLiteral("6"), QStringLiteral("24Gi"));
    dialog()->setName(QStringLiteral("train"));
    QVERIFY(dialog()->setPreferredLevel(kL3));
    QVERIFY(dialog()->setRequiredLevel({}));
    QVERIFY(runPlace());
    const app::PlaceWorkloadOutcome& o = dialog()->lastOutcome();
    QVERIFY2(o.placed, qPrintable(dialog()->messageText()));
    QCOMPARE(o.podsPlaced, 6);
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Placed 6 of 6 pods like default/train at level ")), qPrintable(dialog()->messageText()));
    // The sentence is the user's: no worker or window timings in it (they are lastOutcome()'s).
    QVERIFY2(!dialog()->messageText().contains(QStringLiteral(" ms")), qPrintable(dialog()->messageText()));
    QVERIFY(o.workerMs > 0);
    saveScreenshot(m_window.get(), QStringLiteral("place-workload"));
    if (const QString dir = qEnvironmentVariable("FLEET_SCREENSHOT_DIR"); !dir.isEmpty())
        dialog()->grab().save(dir + QStringLiteral("/place-workload-dialog.png"));

    // The plan: one place-pods action, one undo step, its pods on nodes inside one domain.
    const auto engine = plan->engine();
    QCOMPARE(engine->applied().size(), std::size_t(1));
    const model::AppliedAction& a = engine->applied().front();
    QCOMPARE(a.action.type, model::ActionType::PlacePods);
    QCOMPARE(a.action.count, 6);
    QCOMPARE(a.action.pod.name, std::string("train"));
    QCOMPARE(a.podsAdded.size(), std::size_t(6));
    QCOMPARE(m_window->undoStack()->count(), 1);
    QCOMPARE(a.topologyDomains.size(), std::size_t(1));
    std::set<std::uint32_t> nodes;
    for (model::PodId p : a.podsAdded) {
        const model::NodeId n = engine->state().podNode(p);
        QVERIFY(n.isValid());
        QVERIFY2(nodeInDomain(topology, n, a.topologyDomains.front()), a.topologyDomains.front().c_str());
        nodes.insert(n.value);
    }
    // The shown store is untouched: the template pod lives in the engine's copy.
    QCOMPARE(m_window->cluster()->store->podCount(), storePods);
    QCOMPARE(engine->state().store().podCount(), storePods + 1);

    // The plan panel lists the placed pods.
    views::PlanPanel* panel = plan->panel();
    QAbstractItemModelTester tester(panel->placedPods(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(panel->placedPods()->rowCount(), 6);
    QVERIFY(!panel->placedTable()->isHidden());
    const QString first = panel->placedPods()->index(0, views::PlacedPodsModel::PodColumn).data().toString();
    QVERIFY2(first.startsWith(QStringLiteral("default/train-")), qPrintable(first));
    const QString node = panel->placedPods()->index(0, views::PlacedPodsModel::NodeColumn).data().toString();
    QCOMPARE(node, QString::fromUtf8(engine->state().nodeName(engine->state().podNode(a.podsAdded.front()))));

    // The map: each node that got pods has another colour under the plan (cpu requested).
    const QImage after = map()->grabImage();
    for (std::uint32_t n : nodes)
        QVERIFY2(!near(testing::swatchColor(*map(), after, model::NodeId(n)), testing::swatchColor(*map(), before, model::NodeId(n)), 2),
            "a node that got pods kept its colour");

    // One Undo removes every placed pod; the map is as before.
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    QCOMPARE(plan->engine()->state().podCount(), storePods + 1);
    QCOMPARE(panel->placedPods()->rowCount(), 0);
    const QImage undone = map()->grabImage();
    for (std::uint32_t n : nodes)
        QVERIFY(near(testing::swatchColor(*map(), undone, model::NodeId(n)), testing::swatchColor(*map(), before, model::NodeId(n)), 2));
    // Redo puts them back; the same workload placed again reuses the template (no second copy).
    m_window->undoStack()->redo();
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    QCOMPARE(plan->engine()->applied().front().podsAdded.size(), std::size_t(6));
    QVERIFY(runPlace());
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    QCOMPARE(dialog()->lastOutcome().copyMs, 0.0);
    QCOMPARE(plan->engine()->applied().size(), std::size_t(2));
    QCOMPARE(plan->engine()->state().store().podCount(), storePods + 1);
    QCOMPARE(panel->placedPods()->rowCount(), 12);
    m_window->undoStack()->undo();
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    // Undone to nothing, the same workload placed again reuses its template too: the template
    // pod stays in the store that placement made, and its name was refused as taken.
    QVERIFY(runPlace());
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    QCOMPARE(dialog()->lastOutcome().copyMs, 0.0);
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    QCOMPARE(plan->engine()->state().store().podCount(), storePods + 1);
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
}

void TestPlaceWorkload::gangThatFitsNowhereExplainsPerLevel()
{
    app::PlanController* plan = m_window->planController();
    const int commands = m_window->undoStack()->count();
    dialog()->openFor();
    dialog()->setPods(4000);
    dialog()->setShape(QStringLiteral("4"), QStringLiteral("16Gi"));
    dialog()->setName({});
    QVERIFY(dialog()->setPreferredLevel({}));
    QVERIFY(dialog()->setRequiredLevel(kL1));
    QVERIFY(runPlace());
    const app::PlaceWorkloadOutcome& o = dialog()->lastOutcome();
    QVERIFY(!o.placed);
    QVERIFY(o.error.isEmpty());
    QCOMPARE(o.podsPlaced, 0);
    QVERIFY(!o.reasons.empty());
    const QString text = dialog()->messageText();
    QVERIFY2(text.contains(QStringLiteral("do not fit (a gang: all or nothing; nothing placed)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("topology-domain:") + kL1), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("the closest")) && text.contains(QStringLiteral("lacks")), qPrintable(text));
    QCOMPARE(m_window->undoStack()->count(), commands);
    QVERIFY(plan->engine()->applied().empty());
    if (const QString dir = qEnvironmentVariable("FLEET_SCREENSHOT_DIR"); !dir.isEmpty())
        dialog()->grab().save(dir + QStringLiteral("/place-workload-nofit.png"));
}

void TestPlaceWorkload::badFieldsAreNamed()
{
    dialog()->openFor();
    dialog()->setPods(4);
    dialog()->setShape(QStringLiteral("1"), QString());
    QVERIFY(!dialog()->place());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Memory: ")), qPrintable(dialog()->messageText()));
    QVERIFY(!dialog()->fieldWidget(app::PlaceField::Memory)->styleSheet().isEmpty());

    dialog()->setShape(QStringLiteral("1"), QStringLiteral("1Gi"));
    QVERIFY(dialog()->setSlices(3, kL3));
    QVERIFY(!dialog()->place());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Slices: the slice size 3 does not divide the 4 pods")),
        qPrintable(dialog()->messageText()));
    QVERIFY(dialog()->fieldWidget(app::PlaceField::Memory)->styleSheet().isEmpty()); // the old mark is gone
    QVERIFY(dialog()->setSlices(0, {}));

    QVERIFY(dialog()->setRequiredLevel(kL1));
    QVERIFY(dialog()->setPreferredLevel(kL3));
    QVERIFY(!dialog()->place());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Required level: ")), qPrintable(dialog()->messageText()));
    QVERIFY(dialog()->setPreferredLevel({}));

    dialog()->setDomainPath(QStringLiteral("topology.kubernetes.io/region=nowhere-1"));
    QVERIFY(!dialog()->place());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Within domain: ")), qPrintable(dialog()->messageText()));
    dialog()->setDomainPath({});

    dialog()->setPodTemplate(QStringLiteral("/nonexistent/pod.yaml"));
    QVERIFY(!dialog()->place());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Pod template: /nonexistent/pod.yaml: does not exist")),
        qPrintable(dialog()->messageText()));

    // A template file naming a pod of the cluster, no Name given: refused at once (it once looped
    // on the worker, trying placed, placed2, ... while the file's name stayed the same).
    const model::ClusterStore& store = *m_window->cluster()->store;
    const QString ns = QString::fromUtf8(store.podNamespace(model::PodId(0)));
    const QString name = QString::fromUtf8(store.podName(model::PodId(0)));
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("pod.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"%1","name":"%2"},)"
                              R"("spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}})")
                   .arg(ns, name)
                   .toUtf8());
    file.close();
    dialog()->setPodTemplate(file.fileName());
    dialog()->setName({});
    QVERIFY(runPlace());
    QVERIFY2(dialog()->messageText().startsWith(QStringLiteral("Pod template: the template's pod %1/%2 is in the cluster already").arg(ns, name)),
        qPrintable(dialog()->messageText()));
    QVERIFY(!dialog()->lastOutcome().placed);
    dialog()->setPodTemplate({});
    QVERIFY(m_window->planController()->engine()->applied().empty());
}

void TestPlaceWorkload::cancelLeavesThePlanAsItWas()
{
    app::PlanController* plan = m_window->planController();
    const int commands = m_window->undoStack()->count();
    dialog()->openFor();
    dialog()->setPods(6);
    dialog()->setShape(QStringLiteral("6"), QStringLiteral("24Gi"));
    dialog()->setName(QStringLiteral("cancelled"));
    QVERIFY(dialog()->setPreferredLevel(kL3));
    QVERIFY(dialog()->setRequiredLevel({}));
    QSignalSpy finished(dialog(), &app::PlaceWorkloadDialog::finished);
    QVERIFY(dialog()->place());
    QVERIFY(dialog()->isRunning());
    auto* progress = dialog()->findChild<QProgressBar*>(QStringLiteral("placeProgress"));
    QVERIFY(progress && progress->isVisible());
    QVERIFY(!dialog()->progressText().isEmpty());
    dialog()->cancel();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished[0][0].toBool(), false);
    QVERIFY(!dialog()->isRunning());
    QVERIFY(!progress->isVisible());
    QVERIFY(dialog()->lastOutcome().cancelled);
    // The worker ends (at its next stage, or with a result that is dropped): nothing applied.
    QTRY_COMPARE_WITH_TIMEOUT(m_window->storeReaders()->running(), 0, 60000); // its StoreReadGuard is gone
    QVERIFY(testing::deliverPostedEvents()); // a result the worker posted before that has arrived
    QCOMPARE(finished.count(), 1);
    QVERIFY(plan->engine()->applied().empty());
    QCOMPARE(m_window->undoStack()->count(), commands);
    QCOMPARE(dialog()->messageText(), QStringLiteral("Placement cancelled; the plan is unchanged."));
    // The dialog places again afterwards.
    QVERIFY(runPlace());
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
}

// The worker replays the plan: its actions are copied a slice at a time from the event loop, not
// all in place()'s turn (199,262 actions held the GUI thread about 300 ms). A change of the plan
// while they are copied starts the copy again, and the placement lands on the changed plan.
void TestPlaceWorkload::copiesThePlanInSlices()
{
    app::PlanController* plan = m_window->planController();
    QVERIFY(plan->engine()->applied().empty());
    std::vector<model::NodeId> nodes;
    for (std::uint32_t i = 0; i < 12; ++i)
        nodes.push_back(model::NodeId(i * 20)); // spread: the small fleet keeps room for the pods
    QVERIFY(plan->drainNodes(nodes, {}));
    const std::size_t actions = plan->engine()->applied().size();
    QVERIFY2(actions >= 8, "drains to copy");
    const std::vector<model::PlanAction> drains = [&] {
        std::vector<model::PlanAction> v;
        for (const model::AppliedAction& a : plan->engine()->applied())
            v.push_back(a.action);
        return v;
    }();
    dialog()->openFor();
    dialog()->setPods(2);
    dialog()->setShape(QStringLiteral("100m"), QStringLiteral("128Mi"));
    dialog()->setName(QStringLiteral("sliced"));
    QVERIFY(dialog()->setPreferredLevel(kL3));
    QVERIFY(dialog()->setRequiredLevel({}));
    dialog()->setMaxCopyPerSlice(3);
    QSignalSpy copied(dialog(), &app::PlaceWorkloadDialog::planCopyProgressed);
    QSignalSpy finished(dialog(), &app::PlaceWorkloadDialog::finished);

    // Unchanged meanwhile: slices of 3, then the placement on the whole plan.
    QVERIFY(dialog()->place());
    QCOMPARE(copied.count(), 1); // place()'s own turn copies one slice
    QCOMPARE(copied.at(0).at(0).toInt(), 3);
    QCOMPARE(copied.at(0).at(1).toInt(), static_cast<int>(actions));
    QVERIFY(finished.wait(60000));
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    QCOMPARE(copied.count(), static_cast<int>((actions + 2) / 3));
    QCOMPARE(copied.last().at(0).toInt(), static_cast<int>(actions));
    QCOMPARE(plan->engine()->applied().size(), actions + 1);
    for (std::size_t i = 0; i < actions; ++i)
        QVERIFY(plan->engine()->applied()[i].action == drains[i]);
    QCOMPARE(plan->engine()->applied().back().action.type, model::ActionType::PlacePods);
    m_window->undoStack()->undo();
    QCOMPARE(plan->engine()->applied().size(), actions);

    // The drains undone while the copy runs: the copy starts again on the plan without them.
    copied.clear();
    finished.clear();
    dialog()->setName(QStringLiteral("sliced-again")); // the undone placement's template stays in the engine's store
    QVERIFY(dialog()->place());
    QCOMPARE(copied.count(), 1);
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    QVERIFY(finished.wait(60000));
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    QCOMPARE(copied.last().at(1).toInt(), 0);
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    QCOMPARE(plan->engine()->applied().front().action.type, model::ActionType::PlacePods);
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    dialog()->setMaxCopyPerSlice(0);
}

void TestPlaceWorkload::placeWorkloadHereOnADomainLabel()
{
    const model::Topology& topology = *m_window->cluster()->topology;
    model::DomainId domain;
    const int levels = static_cast<int>(topology.levelKeys().size());
    for (std::uint32_t i = 0; i < topology.domainCount() && !domain.isValid(); ++i)
        if (const int level = topology.domainLevel(model::DomainId(i)); level >= 1 && level <= levels
            && model::levelUserKey(topology, level) == kL3.toStdString()
            && topology.domainNodes(model::DomainId(i)).size() >= 4)
            domain = model::DomainId(i);
    QVERIFY(domain.isValid());
    dialog()->hide();
    QVERIFY(triggerLabelMenuAction(map(), domain, QStringLiteral("actionPlaceWorkloadHere")));
    QVERIFY(dialog()->isVisible());
    const std::string path = model::domainPathText(topology, domain);
    QCOMPARE(dialog()->domainPath(), QString::fromStdString(path));
    QCOMPARE(dialog()->requiredLevel(), kL3);

    dialog()->setPods(2);
    dialog()->setShape(QStringLiteral("1"), QStringLiteral("2Gi"));
    dialog()->setName(QStringLiteral("here"));
    QVERIFY(runPlace());
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    const auto engine = m_window->planController()->engine();
    const model::AppliedAction& a = engine->applied().back();
    QCOMPARE(a.topologyDomains, std::vector<std::string> { path });
    for (model::PodId p : a.podsAdded)
        QVERIFY(nodeInDomain(topology, engine->state().podNode(p), path));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

// Place is the default button on every use: after a placement (Place disabled while it ran,
// the focus passed to the other buttons), Enter places again, also with the focus on Close,
// and never closes the dialog.
void TestPlaceWorkload::placeStaysTheDefaultButton()
{
    app::PlanController* plan = m_window->planController();
    dialog()->openFor();
    dialog()->setPods(2);
    dialog()->setShape(QStringLiteral("1"), QStringLiteral("1Gi"));
    dialog()->setName(QStringLiteral("enter"));
    QVERIFY(dialog()->setPreferredLevel(kL3));
    QVERIFY(dialog()->setRequiredLevel({}));
    dialog()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dialog()));
    auto* place = dialog()->findChild<QPushButton*>(QStringLiteral("placePlace"));
    QVERIFY(place);
    auto defaults = [this] {
        QStringList names;
        for (QPushButton* b : dialog()->findChildren<QPushButton*>())
            if (b->isDefault())
                names << b->text();
        return names;
    };
    const std::size_t before = plan->engine()->applied().size();
    for (int use = 1; use <= 2; ++use) {
        QSignalSpy finished(dialog(), &app::PlaceWorkloadDialog::finished);
        dialog()->setName(QStringLiteral("enter-%1").arg(use));
        if (use == 1) {
            QTest::mouseClick(place, Qt::LeftButton);
        } else {
            // The focus on another button (where Place's disabling or a Tab left it): Enter
            // still places.
            QPushButton* other = nullptr;
            for (QPushButton* b : dialog()->findChildren<QPushButton*>())
                if (b != place && b->isEnabled() && b->isVisible() && b->text().contains(QStringLiteral("Close")))
                    other = b;
            QVERIFY(other);
            other->setFocus();
            QTest::keyClick(other, Qt::Key_Return);
        }
        QVERIFY2(finished.count() > 0 || finished.wait(60000), qPrintable(QStringLiteral("use %1: no placement").arg(use)));
        QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
        QVERIFY(dialog()->isVisible());
        QCOMPARE(defaults(), QStringList { place->text() });
    }
    QCOMPARE(plan->engine()->applied().size(), before + 2);
    m_window->undoStack()->undo();
    m_window->undoStack()->undo();
    QCOMPARE(plan->engine()->applied().size(), before);
    dialog()->close();
}

// The buttons stay where they are when the result and the progress show: they moved down
// under the text that appeared, so a click meant for Close landed on Place (a second placement).
void TestPlaceWorkload::buttonsStayPutWhenTheResultShows()
{
    dialog()->openFor();
    dialog()->setPods(4000);
    dialog()->setShape(QStringLiteral("4"), QStringLiteral("16Gi"));
    dialog()->setName({});
    QVERIFY(dialog()->setPreferredLevel({}));
    QVERIFY(dialog()->setRequiredLevel(kL1));
    QVERIFY(testing::deliverPostedEvents());
    QVERIFY(dialog()->messageText().isEmpty());
    auto* place = dialog()->findChild<QPushButton*>(QStringLiteral("placePlace"));
    auto* box = dialog()->findChild<QDialogButtonBox*>();
    QVERIFY(place && box && box->button(QDialogButtonBox::Close));
    QPushButton* close = box->button(QDialogButtonBox::Close);
    const QPoint placeAt = place->mapTo(dialog(), QPoint(0, 0));
    const QPoint closeAt = close->mapTo(dialog(), QPoint(0, 0));
    const QSize size = dialog()->size();
    QVERIFY(runPlace()); // a refusal that explains itself per level, over several lines
    const QString text = dialog()->messageText();
    QVERIFY2(text.size() > 200, qPrintable(text));
    QVERIFY(testing::deliverPostedEvents()); // the layout's request
    const auto where = [&] {
        return QStringLiteral("Place at (%1,%2), was (%3,%4); Close at (%5,%6), was (%7,%8); dialog %9x%10, was %11x%12")
            .arg(place->mapTo(dialog(), QPoint(0, 0)).x()).arg(place->mapTo(dialog(), QPoint(0, 0)).y())
            .arg(placeAt.x()).arg(placeAt.y())
            .arg(close->mapTo(dialog(), QPoint(0, 0)).x()).arg(close->mapTo(dialog(), QPoint(0, 0)).y())
            .arg(closeAt.x()).arg(closeAt.y())
            .arg(dialog()->width()).arg(dialog()->height()).arg(size.width()).arg(size.height());
    };
    QVERIFY2(place->mapTo(dialog(), QPoint(0, 0)) == placeAt && close->mapTo(dialog(), QPoint(0, 0)) == closeAt, qPrintable(where()));
    QVERIFY2(dialog()->size() == size, qPrintable(where()));
    // The whole text is there to read: the label is as tall as its wrapped lines (it scrolls).
    auto* message = dialog()->findChild<QLabel*>(QStringLiteral("placeMessage"));
    QVERIFY(message);
    QVERIFY(message->height() >= message->heightForWidth(message->width()));
    dialog()->close();
}

// Place Workload is non-modal and keeps the keyboard while open: the main window's shortcuts
// still act (they did nothing until a click on the map).
void TestPlaceWorkload::windowShortcutsActWhileItHasTheKeyboard()
{
    map()->setSelectedNode({}); // Ctrl+D then says there is no node to drain
    dialog()->openFor();
    dialog()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dialog()));
    auto* pods = dialog()->findChild<QSpinBox*>(QStringLiteral("placePods"));
    QVERIFY(pods);
    pods->setFocus();
    QTRY_COMPARE(QApplication::focusWidget() ? QApplication::focusWidget()->window() : nullptr, static_cast<QWidget*>(dialog()));
    for (const char* name : { "actionFind", "actionDrainSelectedNode" }) {
        QAction* action = m_window->findChild<QAction*>(QLatin1String(name));
        QVERIFY2(action, name);
        QSignalSpy triggered(action, &QAction::triggered);
        const QKeyCombination keys = action->shortcut()[0];
        QTest::keyClick(QApplication::focusWidget(), keys.key(), keys.keyboardModifiers());
        QVERIFY2(triggered.count() == 1, name);
        dialog()->activateWindow(); // Find took the keyboard to the main window's field
        QVERIFY(QTest::qWaitForWindowActive(dialog()));
        pods->setFocus();
    }
    // Its own fields still take their editing keys: Ctrl+Z in a field undoes the field's edit,
    // not the plan.
    const int commands = m_window->undoStack()->index();
    auto* name = dialog()->findChild<QLineEdit*>(QStringLiteral("placeName"));
    QVERIFY(name);
    name->setFocus();
    name->clear();
    QTest::keyClicks(name, QStringLiteral("abc"));
    QTest::keyClick(name, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(name->text() != QStringLiteral("abc"));
    QCOMPARE(m_window->undoStack()->index(), commands);
    dialog()->close();
}

// After a placement the plan's engine reads a copy of the store (the same ids, the template pod
// added): the Pending dock still counts the listed pods the plan places, through every later
// step, its undo and its redo.
void TestPlaceWorkload::pendingDockFollowsAPlanOverThePlacementsCopy()
{
    app::PlanController* plan = m_window->planController();
    app::ExplorePanels* explore = m_window->explorePanels();
    views::PendingPanel* pending = explore->pendingPanel();
    QDockWidget* dock = explore->pendingDock();
    QTRY_VERIFY_WITH_TIMEOUT(pending->pendingPodCount() > 0, 30000); // the analysis lists them
    const std::size_t listed = pending->pendingPodCount();
    const QString listedText = QString::fromStdString(model::formatCount(static_cast<std::int64_t>(listed)));
    while (!plan->engine()->applied().empty())
        m_window->undoStack()->undo();

    dialog()->openFor();
    dialog()->setPods(2);
    dialog()->setShape(QStringLiteral("1"), QStringLiteral("1Gi"));
    dialog()->setName(QStringLiteral("beside-pending"));
    QVERIFY(dialog()->setPreferredLevel({}));
    QVERIFY(dialog()->setRequiredLevel({}));
    QVERIFY(runPlace());
    QVERIFY2(dialog()->lastOutcome().placed, qPrintable(dialog()->messageText()));
    dialog()->close();
    QVERIFY(&plan->engine()->state().store() != m_window->cluster()->store.get()); // the copy
    QCOMPARE(pending->placedByPlan(), std::size_t(0));
    QCOMPARE(dock->windowTitle(), QStringLiteral("Pending (%1 pods, %1 left by the plan)").arg(listedText));
    // The Domain inspector shows a domain under that plan too.
    const model::AppliedAction& placed = plan->engine()->applied().back();
    const model::DomainId where = m_window->cluster()->topology->nodeDomain(plan->engine()->state().podNode(placed.podsAdded.front()));
    explore->domainInspector()->setDomain(m_window->cluster()->store, m_window->cluster()->topology, where);
    std::size_t inside = 0;
    for (const model::PodId p : placed.podsAdded)
        inside += m_window->cluster()->topology->nodeDomain(plan->engine()->state().podNode(p)) == where ? 1 : 0;
    const views::DomainAggregates loaded
        = views::DomainAggregates::compute(*m_window->cluster()->store, *m_window->cluster()->topology, where, nullptr, nullptr);
    QCOMPARE(explore->domainInspector()->aggregates().pods, loaded.pods + inside);

    // A listed pending pod the plan places next.
    const model::ClusterStore& store = *m_window->cluster()->store;
    model::PodId pod;
    model::NodeId to;
    for (std::uint32_t i = 0; i < store.podCount() && !pod.isValid(); ++i) {
        if (!store.podIsPending(model::PodId(i)))
            continue;
        const model::PodFeasibility f(plan->engine()->state(), model::PodId(i));
        for (std::uint32_t j = 0; j < store.nodeCount(); ++j)
            if (f.feasible(model::NodeId(j))) {
                pod = model::PodId(i);
                to = model::NodeId(j);
                break;
            }
    }
    QVERIFY(pod.isValid());
    QVERIFY2(plan->movePod(pod, to, false), qPrintable(plan->lastMessage()));
    const QString oneLeft = QStringLiteral("Pending (%1 pods, %2 left by the plan)")
                                .arg(listedText, QString::fromStdString(model::formatCount(static_cast<std::int64_t>(listed - 1))));
    QCOMPARE(pending->placedByPlan(), std::size_t(1));
    QCOMPARE(dock->windowTitle(), oneLeft);
    m_window->undoStack()->undo();
    QCOMPARE(pending->placedByPlan(), std::size_t(0));
    QCOMPARE(dock->windowTitle(), QStringLiteral("Pending (%1 pods, %1 left by the plan)").arg(listedText));
    m_window->undoStack()->redo();
    QCOMPARE(pending->placedByPlan(), std::size_t(1));
    QCOMPARE(dock->windowTitle(), oneLeft);
    m_window->undoStack()->undo();
    m_window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    QCOMPARE(dock->windowTitle(), QStringLiteral("Pending (%1 pods)").arg(listedText));
}

// Place Workload Here… with a shape no node takes: the failure names the chosen domain (its
// label is the template's nodeSelector), with why its own nodes take none, not another
// domain whose nodes the selector rules out.
void TestPlaceWorkload::placeHereThatFitsNowhereNamesTheDomain()
{
    const model::Topology& topology = *m_window->cluster()->topology;
    model::DomainId domain; // the last domain of layer 3: not the first of any order
    const int levels = static_cast<int>(topology.levelKeys().size());
    for (std::uint32_t i = 0; i < topology.domainCount(); ++i)
        if (const int level = topology.domainLevel(model::DomainId(i)); level >= 1 && level <= levels
            && model::levelUserKey(topology, level) == kL3.toStdString() && topology.domainNodes(model::DomainId(i)).size() >= 2)
            domain = model::DomainId(i);
    QVERIFY(domain.isValid());
    const int commands = m_window->undoStack()->count();
    dialog()->hide();
    QVERIFY(triggerLabelMenuAction(map(), domain, QStringLiteral("actionPlaceWorkloadHere")));
    const std::string path = model::domainPathText(topology, domain);
    QCOMPARE(dialog()->domainPath(), QString::fromStdString(path));
    dialog()->setPods(1);
    dialog()->setShape(QStringLiteral("100000"), QStringLiteral("1Gi")); // more cpu than any node has
    dialog()->setName(QStringLiteral("too-big"));
    QVERIFY(runPlace());
    const app::PlaceWorkloadOutcome& o = dialog()->lastOutcome();
    QVERIFY(!o.placed);
    QVERIFY(o.error.isEmpty());
    const QString text = dialog()->messageText();
    QVERIFY2(text.contains(QStringLiteral("the closest, ") + QString::fromStdString(path) + QLatin1Char(',')), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("insufficient-cpu")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("node-selector-mismatch")), qPrintable(text));
    QCOMPARE(m_window->undoStack()->count(), commands);
    dialog()->close();
}

FLEET_GUI_TEST_MAIN(TestPlaceWorkload, fleet::app::setDefaultSurfaceFormat)
#include "tst_placeworkload.moc"
