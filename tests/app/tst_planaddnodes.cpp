// SPDX-License-Identifier: Apache-2.0
// Plan > Add Nodes in the window, under xvfb-run: the dialog opens from the menu with
// the selected node's type and domain, adds N nodes as one add-node action (one undo step, undo
// removes them all), answers "how many nodes of this type would the pending pods take" on a
// worker with the plan's own rules, and refuses a domain the cluster lacks.

#include "planwindowfixture.h"

#include "app/controllers/workerpool.h"
#include "app/dialogs/addnodesdialog.h"
#include "app/window/explorepanels.h"
#include "app/startup/surfaceformat.h"
#include "model/plan/addnodetemplate.h"
#include "model/domainpath.h"
#include "views/panels/searchfield.h"
#include "model/search/nodesneeded.h"

#include "common/eventloop.h"
#include "common/guitestmain.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
#include <QScopeGuard>

#include <QLabel>
#include <QApplication>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QRadioButton>
#include <QDialogButtonBox>
#include <QSemaphore>
#include <QThreadPool>
#include <QSignalSpy>
#include <QUndoStack>

#include <map>

using namespace fleet;
using namespace planwindow;

class TestPlanAddNodes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void addsNodesAsOneUndoStep();
    void answersHowManyNodes();
    void answerClearedWhenTheQuestionChanges();
    void howManyAndAddShowProgressAndCancel();
    void defaultTypeServesThePendingPods();
    void namesATemplateOfEachNodeGroup();
    void capacityRowShowsThePriceOfTheCopiedNode();
    void closingTheDialogGivesTheMapTheFocus();
    void controlsStayPutWhateverTheNotesSay();

private:
    /// The first node with 8 GPUs: the largest GPU node type of the simulated fleet, which its
    /// pending pods (mostly GPU pods) want.
    static model::NodeId firstEightGpuNode(const model::ClusterStore& store)
    {
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
            if (store.nodeGpuCount(model::NodeId(i)) == 8)
                return model::NodeId(i);
        return {};
    }
    app::AddNodesDialog* openDialog(model::NodeId selected)
    {
        m_window->mapView()->setSelectedNode(selected);
        QAction* action = m_window->findChild<QAction*>(QStringLiteral("actionAddNodes"));
        if (!action)
            return nullptr;
        action->trigger();
        auto* dialog = m_window->findChild<app::AddNodesDialog*>();
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanAddNodes::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
}

void TestPlanAddNodes::cleanupTestCase() { m_window.reset(); }

void TestPlanAddNodes::addsNodesAsOneUndoStep()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::Topology& topology = *m_window->planController()->topology();
    const model::NodeId like(11);
    const std::string type(store.nodeInstanceType(like));
    QVERIFY(!type.empty());
    app::AddNodesDialog* dialog = openDialog(like);
    QVERIFY(dialog);
    // Defaults: the selection's type and innermost domain.
    QCOMPARE(dialog->domainPath(), QString::fromStdString(model::domainPathText(topology, topology.nodeDomain(like))));
    dialog->setCount(4);
    dialog->setPlacePods(false); // the nodes alone, empty
    QVERIFY(dialog->addNodes());
    QVERIFY(!dialog->isVisible());
    QCOMPARE(engine->applied().size(), std::size_t(1));
    const model::AppliedAction& a = engine->applied()[0];
    QCOMPARE(a.action.type, model::ActionType::AddNode);
    QCOMPARE(a.action.instanceType, type);
    QCOMPARE(a.action.count, 4);
    QCOMPARE(a.action.domain, model::domainPathText(topology, topology.nodeDomain(like)));
    QCOMPARE(a.nodesAdded.size(), std::size_t(4));
    QCOMPARE(m_window->undoStack()->count(), 1);
    QCOMPARE(engine->state().nodeCount(), store.nodeCount() + 4);
    for (const model::NodeId n : a.nodesAdded)
        QCOMPARE(store.nodeInstanceType(engine->state().nodeTemplate(n)), type);
    m_window->mapView()->resetView();
    saveScreenshot(m_window.get(), QStringLiteral("add-nodes-dialog-added"));

    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    QCOMPARE(engine->state().nodeCount(), store.nodeCount());

    // A domain the cluster lacks: refused, nothing added, the dialog stays with why.
    dialog = openDialog(like);
    QVERIFY(dialog);
    dialog->setDomainPath(QStringLiteral("topology.kubernetes.io/zone=nowhere-1z"));
    QVERIFY(!dialog->addNodes());
    QVERIFY(dialog->isVisible());
    QVERIFY(engine->applied().empty());
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text().isEmpty());
    dialog->reject();
}

void TestPlanAddNodes::answersHowManyNodes()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId gpuNode = firstEightGpuNode(store);
    QVERIFY(gpuNode.isValid());
    app::AddNodesDialog* dialog = openDialog(gpuNode);
    QVERIFY(dialog);
    dialog->setDomainPath({}); // the whole cluster
    QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    QCOMPARE(computed.at(0).at(0).toBool(), true);
    const model::NodesNeededAnswer& answer = dialog->lastAnswer();

    // The same question over an engine of the test's own: the same answer (the window's engine
    // is untouched by the dialog's worker).
    QVERIFY(engine->applied().empty());
    model::PlanEngine own(store, *m_window->planController()->topology(), m_window->planController()->nodePrices());
    model::NodesNeededQuestion q;
    q.addNode.type = model::ActionType::AddNode;
    q.addNode.instanceType = std::string(store.nodeInstanceType(gpuNode));
    q.pods = model::pendingPods(own);
    // As `plan add-nodes --fit-pending` asks it: a copy of a node of each node group the pods need.
    model::PlanEngine scratch(store, *m_window->planController()->topology(), m_window->planController()->nodePrices());
    const model::NodesNeededAnswer expected = model::fitPendingPerNodeGroup(scratch, q.addNode, q.maxNodes).answer;
    QCOMPARE(answer.pods, expected.pods);
    QCOMPARE(answer.nodes, expected.nodes);
    QCOMPARE(answer.podsPlaced, expected.podsPlaced);
    QCOMPARE(answer.unplaced.size(), expected.unplaced.size());
    QVERIFY(answer.pods > 0);
    QCOMPARE(answer.podsPlaced + static_cast<std::int32_t>(answer.unplaced.size()), answer.pods);
    if (answer.nodes > 0)
        QCOMPARE(dialog->count(), answer.nodes);
    const QString text = dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text();
    QVERIFY2(text.contains(QString::number(answer.podsPlaced)) && text.contains(QString::number(answer.pods)), qPrintable(text));
    // Which node the copies copy, by name and node group.
    QVERIFY2(text.contains(QStringLiteral(" node added copies ")) || text.contains(QStringLiteral(" nodes added copy a node of each node group")),
        qPrintable(text));
    for (const model::TemplateCopies& c : dialog->lastCopies())
        QVERIFY2(text.contains(QString::fromStdString(std::string(store.nodeName(c.templateNode)))), qPrintable(text));
    for (const auto& [pod, reasons] : answer.unplaced)
        QVERIFY(!reasons.empty());
    if (!answer.unplaced.empty()) // the first pod left is listed with its reason codes
        QVERIFY2(text.contains(QString::fromStdString(answer.unplaced.front().second.front().code())), qPrintable(text));
    saveScreenshot(m_window.get(), QStringLiteral("add-nodes-dialog-answer"));

    // Adding what it computed adds the nodes and places the pods it counted on them, as the
    // same question's addNodesAndPlace() on the test's own engine: one undo step.
    QVERIFY(dialog->placePods()); // the default
    const int nodes = std::max(1, answer.nodes); // this fleet's pending pods may fit without any
    dialog->setCount(nodes);
    const bool perNodeGroup = dialog->lastCopies().size() > 1 && nodes == answer.nodes;
    const int placed = perNodeGroup ? model::fitPendingPerNodeGroup(own, q.addNode, nodes).answer.podsPlaced : model::addNodesAndPlace(own, q, nodes);
    if (nodes == answer.nodes)
        QCOMPARE(placed, answer.podsPlaced);
    QVERIFY2(placed > 0, qPrintable(QStringLiteral("%1 nodes placed no pod").arg(nodes)));
    QSignalSpy added(dialog, &app::AddNodesDialog::nodesAdded);
    QVERIFY(dialog->addNodes());
    QVERIFY(added.wait(60000));
    QCOMPARE(added.at(0).at(0).toBool(), true);
    QVERIFY(!dialog->isVisible());
    const auto planned = m_window->planController()->engine(); // the worker's engine, adopted
    QCOMPARE(planned->applied().size(), own.applied().size());
    QCOMPARE(planned->applied()[0].action.type, model::ActionType::AddNode);
    std::size_t addNodes = 0, addedNodes = 0;
    for (std::size_t i = 0; i < planned->applied().size(); ++i) {
        QVERIFY(planned->applied()[i].action == own.applied()[i].action);
        const model::ActionType t = planned->applied()[i].action.type;
        QVERIFY(t == model::ActionType::AddNode || t == model::ActionType::MovePod);
        addNodes += t == model::ActionType::AddNode ? 1 : 0;
        addedNodes += planned->applied()[i].nodesAdded.size();
    }
    QCOMPARE(addedNodes, static_cast<std::size_t>(nodes));
    QCOMPARE(addNodes + static_cast<std::size_t>(placed), planned->applied().size());
    QCOMPARE(model::pendingPods(*planned).size(), model::pendingPods(*engine).size() - static_cast<std::size_t>(placed));
    QCOMPARE(m_window->undoStack()->count(), 1);
    m_window->undoStack()->undo();
    QVERIFY(m_window->planController()->engine()->applied().empty());
}

void TestPlanAddNodes::answerClearedWhenTheQuestionChanges()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    model::NodeId gpuNode, otherType;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        if (!gpuNode.isValid() && store.nodeGpuCount(n) == 8)
            gpuNode = n;
    }
    QVERIFY(gpuNode.isValid());
    for (std::uint32_t i = 0; i < store.nodeCount() && !otherType.isValid(); ++i)
        if (!store.nodeInstanceType(model::NodeId(i)).empty() && store.nodeInstanceType(model::NodeId(i)) != store.nodeInstanceType(gpuNode))
            otherType = model::NodeId(i);
    QVERIFY(otherType.isValid());
    app::AddNodesDialog* dialog = openDialog(gpuNode);
    QVERIFY(dialog);
    dialog->setDomainPath({});
    QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    QVERIFY(dialog->lastAnswer().pods > 0);
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text().isEmpty());
    // Another instance type: the answer was for the other nodes, so it is gone.
    QVERIFY(dialog->setInstanceType(QString::fromUtf8(store.nodeInstanceType(otherType).data(),
        static_cast<qsizetype>(store.nodeInstanceType(otherType).size()))));
    QCOMPARE(dialog->lastAnswer().pods, 0);
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text().isEmpty());
    // An answer still computing when the type changes is dropped, not shown for the new type.
    QVERIFY(dialog->setInstanceType(QString::fromUtf8(store.nodeInstanceType(gpuNode).data(), static_cast<qsizetype>(store.nodeInstanceType(gpuNode).size()))));
    QVERIFY(dialog->computeCount());
    QVERIFY(dialog->setInstanceType(QString::fromUtf8(store.nodeInstanceType(otherType).data(),
        static_cast<qsizetype>(store.nodeInstanceType(otherType).size()))));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->findChild<QPushButton*>(QStringLiteral("addNodesCompute"))->isEnabled(), 60000);
    QCOMPARE(dialog->lastAnswer().pods, 0);
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text().isEmpty());
    dialog->reject();
}

namespace {

/// Queues one waiting task per thread of the window's long-work pool (app::longWorkPool(), where
/// the dialog's worker runs) until destroyed: a worker queued after them (the pool runs its
/// queue in order) starts only once they end, so a cancel made meanwhile is the first thing it
/// sees, whatever the machine's speed. The GUI thread never waits for the pool here.
class HeldThreadPool {
public:
    HeldThreadPool()
        : m_threads(app::longWorkPool()->maxThreadCount())
        , m_release(std::make_shared<QSemaphore>())
    {
        for (int i = 0; i < m_threads; ++i)
            app::longWorkPool()->start([release = m_release] { release->acquire(); });
    }
    ~HeldThreadPool() { m_release->release(m_threads); }

private:
    int m_threads;
    std::shared_ptr<QSemaphore> m_release;
};

} // namespace

// How Many? and Add report progress up to 100 and stop on the progress dialog's Cancel: no
// answer, no nodes, the plan as it was, the dialog still open saying so.
// With no node selected, the dialog opens on the type that serves the most pending demand (GPUs
// first): the first of the list, a CPU-only type here, answered "no node would help" for pods
// waiting for GPUs.
void TestPlanAddNodes::defaultTypeServesThePendingPods()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    app::AddNodesDialog* dialog = openDialog(model::NodeId {});
    QVERIFY(dialog);
    auto* type = dialog->findChild<QComboBox*>(QStringLiteral("addNodesType"));
    QVERIFY(type && type->count() > 1);
    const QString chosen = type->currentData().toString();
    QCOMPARE(chosen.toStdString(), model::instanceTypeForPending(store, model::storePendingPods(store)));
    QVERIFY2(type->currentIndex() != 0, qPrintable(chosen)); // not merely the first of the list
    // It helps: How Many? places pods with it where the first type of the list places fewer.
    dialog->setDomainPath({});
    QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    const model::NodesNeededAnswer withChosen = dialog->lastAnswer();
    type->setCurrentIndex(0);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    QVERIFY2(withChosen.podsPlaced > dialog->lastAnswer().podsPlaced,
        qPrintable(QStringLiteral("%1 placed %2, %3 placed %4").arg(chosen).arg(withChosen.podsPlaced)
                       .arg(type->currentData().toString()).arg(dialog->lastAnswer().podsPlaced)));
    dialog->reject();
}

// Pending pods of two node groups (tests/data/plan/p5-groups-*.json: three select ng-gpu, one
// ng-gpu2): How Many? names the node each group's copies copy, with its node group, as `plan
// add-nodes --fit-pending` copies them, and Add adds both.
void TestPlanAddNodes::namesATemplateOfEachNodeGroup()
{
    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &app::MainWindow::clusterShown);
    window.openFiles({ QStringLiteral(FLEET_TEST_DATA_DIR "/plan/p5-groups-nodes.json"), QStringLiteral(FLEET_TEST_DATA_DIR "/plan/p5-groups-pods.json") });
    QVERIFY(shown.wait(30000));
    QSignalSpy ready(window.planController(), &app::PlanController::engineReady);
    QVERIFY(window.planController()->engine() || ready.wait(30000));
    QAction* action = window.findChild<QAction*>(QStringLiteral("actionAddNodes"));
    QVERIFY(action);
    action->trigger();
    auto* dialog = window.findChild<app::AddNodesDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(dialog->setInstanceType(QStringLiteral("p5.48xlarge")));
    dialog->setDomainPath({});
    QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    QCOMPARE(computed.at(0).at(0).toBool(), true);
    QCOMPARE(dialog->lastAnswer().nodes, 4);
    QCOMPARE(dialog->lastAnswer().podsPlaced, 4);
    QCOMPARE(dialog->lastCopies().size(), std::size_t(2));
    const QString text = dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text();
    QVERIFY2(text.contains(QStringLiteral("3 copy d-p5-good (node group ng-gpu)")) && text.contains(QStringLiteral("1 copy e-p5-good2 (node group ng-gpu2)")),
        qPrintable(text));
    QCOMPARE(dialog->count(), 4);
    QSignalSpy added(dialog, &app::AddNodesDialog::nodesAdded);
    QVERIFY(dialog->addNodes());
    QVERIFY(added.wait(60000));
    QCOMPARE(added.at(0).at(0).toBool(), true);
    std::size_t addNodes = 0;
    for (const model::AppliedAction& a : window.planController()->engine()->applied())
        addNodes += a.action.type == model::ActionType::AddNode ? 1 : 0;
    QCOMPARE(addNodes, std::size_t(2));
    QVERIFY(model::pendingPods(*window.planController()->engine()).empty());
}

// The capacity type's row shows the price of the node the nodes added copy: for "any", the
// engine's template (of the node group the most pending pods can use, inside the domain when it
// has one), not the first healthy node of the type (a trial read $98.32/h and got $44.24/h
// copies). Checked for every instance type, over the whole cluster and in a node's domain, on
// the 2,000-node fleet of that trial, whose p5.48xlarge groups differ in capacity type.
void TestPlanAddNodes::capacityRowShowsThePriceOfTheCopiedNode()
{
    std::unique_ptr<app::MainWindow> fleet = openWindow(2000, 1);
    QVERIFY(fleet);
    std::swap(m_window, fleet); // openDialog() drives m_window
    const auto restore = qScopeGuard([&] { std::swap(m_window, fleet); });
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::Topology& topology = *m_window->planController()->topology();
    const std::vector<double>& prices = m_window->planController()->nodePrices();
    std::map<std::string, model::NodeId> types;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        types.emplace(std::string(store.nodeInstanceType(model::NodeId(i))), model::NodeId(i));
    types.erase(std::string());
    int checked = 0;
    for (const auto& [type, like] : types) {
        for (const bool inDomain : { false, true }) {
            app::AddNodesDialog* dialog = openDialog(like);
            QVERIFY(dialog);
            const QString domain = inDomain ? QString::fromStdString(model::domainPathText(topology, topology.nodeDomain(like))) : QString();
            dialog->setDomainPath(domain);
            QVERIFY(dialog->setInstanceType(QString::fromStdString(type)));
            QVERIFY(dialog->setCapacityType(QString()));
            auto* capacity = dialog->findChild<QComboBox*>(QStringLiteral("addNodesCapacityType"));
            QVERIFY(capacity);
            const QString row = capacity->currentText();
            dialog->reject();
            const model::DomainId d = inDomain ? topology.nodeDomain(like) : topology.root();
            QVERIFY(m_window->planController()->addNodes(QString::fromStdString(type), QString(), d, 1));
            const model::NodeId copied = engine->state().nodeTemplate(engine->applied().back().nodesAdded.at(0));
            m_window->undoStack()->undo();
            QVERIFY(engine->applied().empty());
            if (copied.index() >= prices.size() || prices[copied.index()] <= 0)
                continue;
            QVERIFY2(row.contains(QStringLiteral("$%1/h").arg(prices[copied.index()], 0, 'f', 2)),
                qPrintable(QStringLiteral("%1 in %2: the row says \"%3\", the copies are of %4 at $%5/h")
                               .arg(QString::fromStdString(type), domain.isEmpty() ? QStringLiteral("the cluster") : domain, row,
                                   QString::fromStdString(std::string(store.nodeName(copied))))
                               .arg(prices[copied.index()], 0, 'f', 2)));
            ++checked;
        }
    }
    QVERIFY(checked > 0);
}

// After a plan dialog closes, the map has the keyboard focus, not the text field that had it
// before: the map's keys (Home, Z) work, and Edit > Undo's Ctrl+Z undoes the plan, not the
// field's text (a trial's Ctrl+Z after a dialog silently undid nothing on the plan).
void TestPlanAddNodes::closingTheDialogGivesTheMapTheFocus()
{
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QLineEdit* field = m_window->explorePanels()->searchField()->findChild<QLineEdit*>();
    if (!field)
        field = qobject_cast<QLineEdit*>(m_window->explorePanels()->searchField());
    QVERIFY(field);
    field->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(field->hasFocus());
    app::AddNodesDialog* dialog = openDialog(model::NodeId(11));
    QVERIFY(dialog);
    dialog->reject();
    QTRY_VERIFY2(m_window->mapView()->hasFocus() || m_window->mapView()->isAncestorOf(QApplication::focusWidget()),
        qPrintable(QStringLiteral("focus on %1").arg(QApplication::focusWidget() ? QApplication::focusWidget()->objectName() : QStringLiteral("nothing"))));
}

void TestPlanAddNodes::howManyAndAddShowProgressAndCancel()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId gpuNode = firstEightGpuNode(store);
    QVERIFY(gpuNode.isValid());
    app::AddNodesDialog* dialog = openDialog(gpuNode);
    QVERIFY(dialog);
    dialog->setDomainPath({});
    QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
    QSignalSpy progressed(dialog, &app::AddNodesDialog::progressed);
    QVERIFY(dialog->computeCount());
    QVERIFY(computed.wait(60000));
    QCOMPARE(computed.takeFirst().at(0).toBool(), true);
    QVERIFY(!progressed.isEmpty());
    QCOMPARE(progressed.last().at(0).toInt(), 100);
    QVERIFY(dialog->progressDialog());
    auto* cancelButton = dialog->progressDialog()->findChild<QPushButton*>();
    QVERIFY(cancelButton);
    auto* answerLabel = dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"));
    const int stackCount = m_window->undoStack()->count(), stackIndex = m_window->undoStack()->index();

    {
        HeldThreadPool held;
        QVERIFY(dialog->computeCount());
        QVERIFY(dialog->isRunning());
        cancelButton->click(); // the progress dialog's Cancel
    }
    QVERIFY(computed.wait(60000));
    QCOMPARE(computed.takeFirst().at(0).toBool(), false);
    QVERIFY2(answerLabel->text().startsWith(QStringLiteral("Cancelled")), qPrintable(answerLabel->text()));
    QCOMPARE(dialog->lastAnswer().pods, 0);
    QVERIFY(!dialog->isRunning());

    QSignalSpy added(dialog, &app::AddNodesDialog::nodesAdded);
    dialog->setCount(2);
    {
        HeldThreadPool held;
        QVERIFY(dialog->addNodes());
        QVERIFY(dialog->isRunning());
        cancelButton->click();
    }
    QVERIFY(added.wait(60000));
    QCOMPARE(added.at(0).at(0).toBool(), false);
    QVERIFY2(answerLabel->text().contains(QStringLiteral("cancelled")), qPrintable(answerLabel->text()));
    QVERIFY(dialog->isVisible());
    QVERIFY(m_window->planController()->engine()->applied().empty());
    QCOMPARE(m_window->undoStack()->count(), stackCount);
    QCOMPARE(m_window->undoStack()->index(), stackIndex);
    dialog->reject();
}

// How Many?, the radio buttons above it and the dialog's buttons stay where they are whatever
// the template's note and the answer say: a note that grew with another instance type moved How
// Many? down, and a click meant for it chose the Workload radio button.
void TestPlanAddNodes::controlsStayPutWhateverTheNotesSay()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::Topology& topology = *m_window->planController()->topology();
    const model::NodeId gpuNode = firstEightGpuNode(store);
    QVERIFY(gpuNode.isValid());
    app::AddNodesDialog* dialog = openDialog(gpuNode);
    QVERIFY(dialog);
    auto* types = dialog->findChild<QComboBox*>(QStringLiteral("addNodesType"));
    auto* compute = dialog->findChild<QPushButton*>(QStringLiteral("addNodesCompute"));
    auto* box = dialog->findChild<QDialogButtonBox*>();
    QVERIFY(types && compute && box);
    const QList<QRadioButton*> radios = dialog->findChildren<QRadioButton*>();
    QVERIFY(radios.size() >= 2);
    const auto positions = [&] {
        QList<QRect> at { compute->geometry().translated(compute->parentWidget()->mapTo(dialog, QPoint(0, 0))),
            box->geometry().translated(box->parentWidget()->mapTo(dialog, QPoint(0, 0))) };
        for (QRadioButton* r : radios)
            at << r->geometry().translated(r->parentWidget()->mapTo(dialog, QPoint(0, 0)));
        return at;
    };
    // A zone: some instance types have no node there, whose note says so at length.
    const model::DomainId zone = topology.domainChildren(topology.domainChildren(topology.root()).front()).front();
    const QString zonePath = QString::fromStdString(model::domainPathText(topology, zone));
    dialog->setDomainPath({});
    dialog->setInstanceType(types->itemData(0).toString());
    QVERIFY(testing::deliverPostedEvents());
    const QList<QRect> first = positions();
    const QSize size = dialog->size();
    int notes = 0;
    for (const QString& domain : { QString(), zonePath })
        for (int t = 0; t < types->count(); ++t) {
            dialog->setDomainPath(domain);
            QVERIFY(dialog->setInstanceType(types->itemData(t).toString()));
            const QString note = dialog->findChild<QLabel*>(QStringLiteral("addNodesTemplate"))->text();
            notes = std::max(notes, static_cast<int>(note.size()));
            if (t < 2) { // an answer too (a worker's: two types are enough)
                QSignalSpy computed(dialog, &app::AddNodesDialog::countComputed);
                QVERIFY(dialog->computeCount());
                QVERIFY(computed.wait(60000));
                QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("addNodesAnswer"))->text().isEmpty());
            }
            QVERIFY(testing::deliverPostedEvents());
            QVERIFY2(positions() == first && dialog->size() == size,
                qPrintable(QStringLiteral("%1 in \"%2\": How Many? at y %3, was %4; dialog %5 px high, was %6; note: %7")
                               .arg(types->itemText(t), domain)
                               .arg(positions().front().y())
                               .arg(first.front().y())
                               .arg(dialog->height())
                               .arg(size.height())
                               .arg(note)));
        }
    QVERIFY2(notes > 120, "no long template note was seen"); // the case that moved the buttons
    dialog->reject();
}

FLEET_GUI_TEST_MAIN(TestPlanAddNodes, fleet::app::setDefaultSurfaceFormat)
#include "tst_planaddnodes.moc"
