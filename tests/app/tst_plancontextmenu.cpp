// SPDX-License-Identifier: Apache-2.0
// The map's context menu in the what-if, under xvfb-run with real events: a right
// click (QContextMenuEvent) on a node opens the menu, and its Drain and Fail actions put one
// action each in the plan (one undo step). Then the window shows the plan's state, not the
// loaded one: the drained or failed node's zoomed cell has no pod strips left (podAt and its
// pixels), the node inspector lists no pods and says the node is gone, the tooltip text says so,
// and a re-placed pod is drawn and listed on its new node; undo brings the loaded state back.

#include "planwindowfixture.h"

#include "app/window/explorepanels.h"
#include "app/controllers/importcontroller.h"
#include "app/startup/surfaceformat.h"
#include "model/metrics/metric.h"
#include "views/inspectors/nodeinspector.h"
#include "views/panels/filterfield.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/nodetooltip.h"

#include "common/guitestmain.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QUndoStack>

#include <algorithm>

using namespace fleet;
using namespace planwindow;

class TestPlanContextMenu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void drainFromTheContextMenu();
    void failFromTheContextMenu();
    void drainFilteredNodes();
    void drainOfADrainedNodeIsRefused();
    void drainOfANodeWhoseDrainDoesNotHoldIsRefused();

private:
    /// Right-clicks node n's cell; whether the menu had action `name`, and its enabled state and tooltip.
    /// The menu's action `name` on node n: enabled, its text and status tip, and whether the menu
    /// shows tooltips (which cover the items below the one hovered).
    bool menuAction(model::NodeId n, const QString& name, bool& enabled, QString& text, QString& statusTip, bool& toolTipsShown);
    /// Plan > Drain Selected Node (Ctrl+D) on node n.
    void drainSelected(model::NodeId n)
    {
        map()->setSelectedNode(n);
        m_window->findChild<QAction*>(QStringLiteral("actionDrainSelectedNode"))->trigger();
    }
    /// Right-clicks node n's cell and triggers the menu's action `name`; false when the menu
    /// did not show or had no such action.
    bool runMenuAction(model::NodeId n, const QString& name);
    /// A node with at least two movable pods and no GPU whose drain holds (tried on a scratch
    /// engine: the fleet takes its pods and no budget stops it).
    model::NodeId busyNode(model::NodeId other = {}) const;
    /// A non-DaemonSet pod of node n drawn on the zoomed map, and a pixel of its strip.
    model::PodId podShownOn(model::NodeId n, QPoint& pixel) const
    {
        const model::ClusterStore& store = m_window->planController()->engine()->state().store();
        for (model::PodId p : store.nodePods(n))
            if (store.podOwnerKind(p) != model::OwnerKind::DaemonSet && !(pixel = podPixel(map(), n, p)).isNull())
                return p;
        return {};
    }
    /// Checks that node n shows empty and that the pods the last action re-placed show on their new nodes.
    void checkShownUnderThePlan(model::NodeId n, model::PodId pod, const QPoint& podAtBefore, QColor podColour);
    views::FleetMapView* map() const { return m_window->mapView(); }
    views::NodeInspector* inspector() const { return m_window->explorePanels()->nodeInspector(); }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanContextMenu::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
}

void TestPlanContextMenu::cleanupTestCase() { m_window.reset(); }

bool TestPlanContextMenu::runMenuAction(model::NodeId n, const QString& name)
{
    map()->zoomToNode(n);
    map()->grabImage();
    const QPoint at = map()->cellCenter(n);
    if (at.isNull())
        return false;
    bool found = false;
    QStringList seen;
    whenShown([&](QWidget* w) {
        auto* menu = qobject_cast<QMenu*>(w);
        if (!menu)
            return;
        for (QAction* a : menu->actions())
            seen << a->objectName();
        if (QAction* a = menu->findChild<QAction*>(name)) {
            found = true;
            a->trigger();
        }
        menu->close();
    });
    QWidget* gl = glOf(map());
    QContextMenuEvent e(QContextMenuEvent::Mouse, at - gl->pos(), gl->mapToGlobal(at - gl->pos()));
    QApplication::sendEvent(gl, &e); // the controller's QMenu::exec returns once the hook closed it
    if (!found)
        qWarning("menu actions: %s", qPrintable(seen.join(QLatin1Char(','))));
    return found;
}

bool TestPlanContextMenu::menuAction(model::NodeId n, const QString& name, bool& enabled, QString& text, QString& statusTip, bool& toolTipsShown)
{
    map()->zoomToNode(n);
    map()->grabImage();
    const QPoint at = map()->cellCenter(n);
    if (at.isNull())
        return false;
    bool found = false;
    whenShown([&](QWidget* w) {
        auto* menu = qobject_cast<QMenu*>(w);
        if (!menu)
            return;
        toolTipsShown = menu->toolTipsVisible();
        if (QAction* a = menu->findChild<QAction*>(name)) {
            found = true;
            enabled = a->isEnabled();
            text = a->text();
            statusTip = a->statusTip();
        }
        menu->close();
    });
    QWidget* gl = glOf(map());
    QContextMenuEvent e(QContextMenuEvent::Mouse, at - gl->pos(), gl->mapToGlobal(at - gl->pos()));
    QApplication::sendEvent(gl, &e);
    return found;
}

model::NodeId TestPlanContextMenu::busyNode(model::NodeId other) const
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        if (n == other || store.nodeAllocatable(n)[model::CoreResource::Gpu] > 0)
            continue;
        int movable = 0;
        for (model::PodId p : store.nodePods(n))
            movable += store.podIsCounted(p) && store.podOwnerKind(p) != model::OwnerKind::DaemonSet && !store.podIsMirror(p) ? 1 : 0;
        if (movable < 2)
            continue;
        model::PlanEngine probe(store, *m_window->cluster()->topology);
        model::PlanAction drain;
        drain.type = model::ActionType::DrainNode;
        drain.node = std::string(store.nodeName(n));
        if (const model::AppliedAction& r = probe.apply(drain); r.holds && !r.nodesRemoved.empty())
            return n;
    }
    return {};
}

void TestPlanContextMenu::checkShownUnderThePlan(model::NodeId n, model::PodId pod, const QPoint& podAtBefore, QColor podColour)
{
    const auto engine = m_window->planController()->engine();
    const model::AppliedAction& last = engine->applied().back();
    // The map's node detail: no strip of any pod in n's cell, and the pixel that showed `pod` does not any more.
    map()->zoomToNode(n);
    const QImage image = map()->grabImage();
    const QRectF cell = map()->cellRect(n);
    for (int y = static_cast<int>(cell.top()); y < cell.bottom(); y += 2)
        for (int x = static_cast<int>(cell.left()); x < cell.right(); x += 2)
            QVERIFY2(!map()->podAt(QPoint(x, y)).isValid(), "a pod strip is still drawn on a node the plan emptied");
    const qreal dpr = image.devicePixelRatio();
    QVERIFY(!near(image.pixelColor(QPoint(qRound(podAtBefore.x() * dpr), qRound(podAtBefore.y() * dpr))), podColour, 6));
    // The inspector and the tooltip.
    map()->setSelectedNode(n);
    QCOMPARE(inspector()->node(), n);
    QCOMPARE(inspector()->podsModel()->rowCount(), 0);
    QVERIFY2(inspector()->headerText().contains(QStringLiteral("gone under the plan")), qPrintable(inspector()->headerText()));
    const model::MetricContext context(engine->state().store());
    const QString tip = views::nodeToolTip(context, n, map()->currentMetric(), nullptr, m_window->planController()->planState().get());
    QVERIFY2(tip.contains(QStringLiteral("gone under the plan")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("<td nowrap>Pods</td><td>0 /")), qPrintable(tip));
    // A re-placed pod is on its new node: drawn there and listed there.
    for (const auto& change : last.changes) {
        if (!change.to.isValid() || change.to.index() >= engine->state().store().nodeCount())
            continue;
        QVERIFY(!podPixel(map(), change.to, change.pod).isNull());
        map()->setSelectedNode(change.to);
        bool listed = false;
        for (int row = 0; row < inspector()->podsModel()->rowCount(); ++row)
            listed = listed || inspector()->podsModel()->podAt(row) == change.pod;
        QVERIFY(listed);
        break;
    }
    (void)pod;
}

void TestPlanContextMenu::drainFromTheContextMenu()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId n = busyNode();
    QVERIFY(n.isValid());
    QPoint pixel;
    const model::PodId pod = podShownOn(n, pixel);
    QVERIFY(pod.isValid());
    const QImage before = map()->grabImage();
    const QColor colour = views::NodeDetailLayer::workloadColor(store.podWorkload(pod));
    QVERIFY(near(before.pixelColor(QPoint(qRound(pixel.x() * before.devicePixelRatio()), qRound(pixel.y() * before.devicePixelRatio()))), colour, 6));
    map()->setSelectedNode(n);
    const int podsBefore = inspector()->podsModel()->rowCount();
    QVERIFY(podsBefore >= 2);

    QVERIFY(runMenuAction(n, QStringLiteral("actionDrainNode")));
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(engine->applied()[0].action.type, model::ActionType::DrainNode);
    QCOMPARE(engine->applied()[0].action.node, std::string(store.nodeName(n)));
    QCOMPARE(m_window->undoStack()->count(), 1);
    QVERIFY2(engine->applied()[0].holds, engine->applied()[0].reasons.empty() ? "" : engine->applied()[0].reasons.front().message.c_str());
    QVERIFY(!engine->state().nodePresent(n));
    QVERIFY(engine->state().nodeUnschedulable(n));
    checkShownUnderThePlan(n, pod, pixel, colour);

    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    map()->setSelectedNode({});
    map()->setSelectedNode(n);
    QCOMPARE(inspector()->podsModel()->rowCount(), podsBefore);
    QVERIFY(!podPixel(map(), n, pod).isNull());
}

void TestPlanContextMenu::failFromTheContextMenu()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId n = busyNode(busyNode());
    QVERIFY(n.isValid());
    QPoint pixel;
    const model::PodId pod = podShownOn(n, pixel);
    QVERIFY(pod.isValid());
    const model::PlanTotals totals = engine->state().totals();
    QVERIFY(runMenuAction(n, QStringLiteral("actionFailNode")));
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(engine->applied()[0].action.type, model::ActionType::FailNode);
    QCOMPARE(engine->applied()[0].nodesRemoved, std::vector<model::NodeId> { n });
    QVERIFY(!engine->state().nodePresent(n));
    QCOMPARE(engine->state().totals().nodes, totals.nodes - 1);
    QVERIFY(m_window->planController()->lastMessage().startsWith(QStringLiteral("Failed ")));
    checkShownUnderThePlan(n, pod, pixel, views::NodeDetailLayer::workloadColor(store.podWorkload(pod)));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    QCOMPARE(engine->state().totals(), totals);
}

// Ctrl+L's filter, then the menu's "Drain the N Filtered Nodes": a DrainNode for each node the
// filter keeps, in one undo step.
void TestPlanContextMenu::drainFilteredNodes()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId a = busyNode(), b = busyNode(a);
    QVERIFY(a.isValid() && b.isValid());
    views::FilterField* filter = m_window->explorePanels()->filterField();
    filter->lineEdit()->setText(QStringLiteral("kubernetes.io/hostname in (%1,%2)")
                                    .arg(QString::fromStdString(std::string(store.nodeName(a))), QString::fromStdString(std::string(store.nodeName(b)))));
    const views::NodeFilterResult filtered = filter->apply();
    QVERIFY2(filtered.mask, qPrintable(filter->errorText()));
    QCOMPARE(filtered.matching, std::size_t(2));
    QVERIFY(runMenuAction(a, QStringLiteral("actionDrainFilteredNodes")));
    QCOMPARE(m_window->undoStack()->count(), 1);
    QCOMPARE(engine->applied().size(), std::size_t(2));
    std::vector<std::string> drained;
    for (const model::AppliedAction& applied : engine->applied()) {
        QCOMPARE(applied.action.type, model::ActionType::DrainNode);
        drained.push_back(applied.action.node);
    }
    std::sort(drained.begin(), drained.end());
    std::vector<std::string> expected { std::string(store.nodeName(a)), std::string(store.nodeName(b)) };
    std::sort(expected.begin(), expected.end());
    QCOMPARE(drained, expected);
    QVERIFY(engine->state().nodeUnschedulable(a) && engine->state().nodeUnschedulable(b));
    m_window->undoStack()->undo(); // one step undoes both
    QVERIFY(engine->applied().empty());
    QVERIFY(!engine->state().nodeUnschedulable(a) && !engine->state().nodeUnschedulable(b));
    filter->lineEdit()->clear();
    filter->apply();
}

// A second drain of a node the plan drained already would be a duplicate DrainNode: Plan > Drain
// Selected Node refuses it with a sentence that says so, the context menu shows its Drain
// disabled with that reason, and Drain the Filtered Nodes leaves that node out.
void TestPlanContextMenu::drainOfADrainedNodeIsRefused()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId a = busyNode(), b = busyNode(a);
    QVERIFY(a.isValid() && b.isValid());
    drainSelected(a);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QVERIFY(!engine->state().nodePresent(a));
    drainSelected(a); // Ctrl+D again on the same node
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(m_window->undoStack()->count(), 1);
    const QString message = m_window->planController()->lastMessage();
    QVERIFY2(message.contains(QStringLiteral("is drained by the plan already")), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(std::string(store.nodeName(a)))), qPrintable(message));

    // The disabled Drain says why in its text and its status tip (the status bar), never in a
    // tooltip: one over the menu covered the items below it.
    bool enabled = true;
    bool toolTipsShown = true;
    QString text, statusTip;
    QVERIFY(menuAction(a, QStringLiteral("actionDrainNode"), enabled, text, statusTip, toolTipsShown));
    QVERIFY(!enabled);
    QVERIFY(!toolTipsShown);
    QVERIFY2(text.contains(QStringLiteral("drained by the plan already")), qPrintable(text));
    QVERIFY2(statusTip.contains(QStringLiteral("is drained by the plan already")), qPrintable(statusTip));
    QVERIFY(menuAction(b, QStringLiteral("actionDrainNode"), enabled, text, statusTip, toolTipsShown));
    QVERIFY(enabled);
    QVERIFY(!toolTipsShown);

    // The filter keeps both: only b is drained.
    views::FilterField* filter = m_window->explorePanels()->filterField();
    filter->lineEdit()->setText(QStringLiteral("kubernetes.io/hostname in (%1,%2)")
                                    .arg(QString::fromStdString(std::string(store.nodeName(a))), QString::fromStdString(std::string(store.nodeName(b)))));
    QVERIFY(filter->apply().mask);
    map()->setSelectedNode(b);
    m_window->findChild<QAction*>(QStringLiteral("actionDrainFilteredNodes"))->trigger();
    QCOMPARE(engine->applied().size(), std::size_t(2));
    QCOMPARE(engine->applied()[1].action.node, std::string(store.nodeName(b)));
    QCOMPARE(m_window->undoStack()->count(), 2);
    filter->lineEdit()->clear();
    filter->apply();
    m_window->undoStack()->undo();
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    drainSelected(a); // drainable again once the drain is undone
    QCOMPARE(engine->applied().size(), std::size_t(1));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

// A drain that does not hold (a pod cannot move) leaves the node cordoned with its pods: a
// second drain is refused too, and says that the first does not hold.
void TestPlanContextMenu::drainOfANodeWhoseDrainDoesNotHoldIsRefused()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    model::NodeId stuck;
    {
        model::PlanEngine probe(store, *m_window->cluster()->topology);
        for (std::uint32_t i = 0; i < store.nodeCount() && !stuck.isValid(); ++i) {
            model::PlanAction drain;
            drain.type = model::ActionType::DrainNode;
            drain.node = std::string(store.nodeName(model::NodeId(i)));
            const std::size_t before = probe.applied().size();
            if (const model::AppliedAction& r = probe.apply(drain); !r.holds && probe.state().nodePresent(model::NodeId(i)))
                stuck = model::NodeId(i);
            if (probe.applied().size() > before)
                probe.undo();
        }
    }
    QVERIFY2(stuck.isValid(), "no node of the fixture has a drain that does not hold");
    drainSelected(stuck);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QVERIFY(!engine->applied()[0].holds);
    drainSelected(stuck);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(m_window->undoStack()->count(), 1);
    const QString message = m_window->planController()->lastMessage();
    QVERIFY2(message.contains(QStringLiteral("that drain does not hold")), qPrintable(message));
    bool enabled = true;
    bool toolTipsShown = true;
    QString text, statusTip;
    QVERIFY(menuAction(stuck, QStringLiteral("actionDrainNode"), enabled, text, statusTip, toolTipsShown));
    QVERIFY(!enabled);
    QVERIFY2(text.contains(QStringLiteral("the drain does not hold")), qPrintable(text));
    QVERIFY2(statusTip.contains(QStringLiteral("that drain does not hold")), qPrintable(statusTip));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

FLEET_GUI_TEST_MAIN(TestPlanContextMenu, fleet::app::setDefaultSurfaceFormat)

#include "tst_plancontextmenu.moc"
