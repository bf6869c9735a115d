// SPDX-License-Identifier: Apache-2.0
// The what-if in the main window, under xvfb-run, on a simulated cluster: a GUI
// drag with mouse events (press on a pod strip of the zoomed map, move, release on a node)
// puts the move in the plan and recolours both nodes; Edit > Undo and Redo restore and
// re-apply the colours; a drop on a node that cannot take the pod is refused with its reasons;
// a drain is one undo step; the plan panel's model under QAbstractItemModelTester.

#include "app/window/mainwindow.h"
#include "app/controllers/plancontroller.h"
#include "app/startup/surfaceformat.h"
#include "app/window/statusfield.h"
#include "app/window/windowstatusbar.h"
#include "model/scheduling/filters.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"

#include "common/mapviewprobe.h"
#include "common/eventloop.h"
#include "common/pixelchecks.h"

#include "common/guitestmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFontMetrics>
#include <QMouseEvent>
#include "views/vtk/vtkopenglwidget.h"
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>

using namespace fleet;

namespace {

using fleet::testing::near;

void sendMouse(QWidget* gl, QEvent::Type type, const QPoint& pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = {})
{
    QMouseEvent e(type, QPointF(pos), QPointF(gl->mapToGlobal(pos)), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
        buttons, mods);
    QApplication::sendEvent(gl, &e);
}

} // namespace

class TestPlanWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void dragMovesThePodAndUndoRestores();
    void infeasibleDropIsRefusedWithReasons();
    void refusalKeepsItsCodeWhole_data();
    void refusalKeepsItsCodeWhole();
    void drainIsOneUndoStep();
    void drainThatDoesNotHoldSaysSo();

private:
    /// A counted pod, movable, whose node and a visible neighbour that can take it are on
    /// screen once the map zooms to its node; false when none is found.
    bool findMove(model::PodId& pod, model::NodeId& from, model::NodeId& to, QPoint& press, bool feasible);
    views::FleetMapView* map() const { return m_window->mapView(); }
    QWidget* gl() const { return map()->findChild<fleet::views::VtkOpenGLWidget*>(); }
    std::unique_ptr<app::MainWindow> m_window;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestPlanWindow::initTestCase()
{
    m_window = std::make_unique<app::MainWindow>();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy shown(m_window.get(), &app::MainWindow::clusterShown);
    m_window->openSimulated(240, 3);
    QVERIFY(shown.wait(30000));
    QSignalSpy ready(m_window->planController(), &app::PlanController::engineReady);
    QVERIFY(m_window->planController()->engine() || ready.wait(30000));
    QVERIFY(m_window->setMetric(QStringLiteral("cpu")));
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_window->planController()->panel()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestPlanWindow::cleanupTestCase()
{
    m_tester.reset();
    m_window.reset();
}

bool TestPlanWindow::findMove(model::PodId& pod, model::NodeId& from, model::NodeId& to, QPoint& press, bool feasible)
{
    // The window settles first: the Plan dock an earlier test's drop opened takes its room in
    // the next turn of the event loop, which narrows the map under positions read before it.
    QCoreApplication::processEvents();
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        from = model::NodeId(i);
        map()->zoomToNode(from);
        map()->grabImage();
        const QRectF cell = map()->cellRect(from);
        for (model::PodId p : store.nodePods(from)) {
            if (store.podOwnerKind(p) == model::OwnerKind::DaemonSet || store.podIsMirror(p))
                continue;
            const model::PodFeasibility f(engine->state(), p);
            if (f.immovable())
                continue;
            // A pixel of its strip.
            QPoint at;
            for (int y = static_cast<int>(cell.center().y()); y < cell.bottom() && at.isNull(); ++y)
                for (int x = static_cast<int>(cell.left()) + 4; x < cell.right() - 4 && at.isNull(); x += 2)
                    if (map()->podAt(QPoint(x, y)) == p)
                        at = QPoint(x, y);
            if (at.isNull())
                continue;
            for (std::uint32_t j = 0; j < store.nodeCount(); ++j) {
                const model::NodeId n(j);
                if (n == from || map()->cellCenter(n).isNull() || f.feasible(n) != feasible)
                    continue;
                pod = p;
                to = n;
                press = at;
                return true;
            }
        }
    }
    return false;
}

void TestPlanWindow::dragMovesThePodAndUndoRestores()
{
    model::PodId pod;
    model::NodeId from, to;
    QPoint press;
    QVERIFY(findMove(pod, from, to, press, true));
    const auto engine = m_window->planController()->engine();
    // The target's colour with the map zoomed to it (the Plan dock closed, as after the undo):
    // the undone check reads it the same way, whatever the dock's closing did to the view.
    map()->zoomToNode(to);
    const QColor toZoomedBefore = testing::swatchColor(*map(), map()->grabImage(), to);
    map()->zoomToNode(from); // the view findMove() found the press in
    const QImage before = map()->grabImage();
    const QColor fromBefore = testing::swatchColor(*map(), before, from);
    const QColor toBefore = testing::swatchColor(*map(), before, to);
    const QPoint target = map()->cellCenter(to);
    QWidget* g = gl();
    const QPoint o = g->pos();
    sendMouse(g, QEvent::MouseButtonPress, press - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseMove, press - o + QPoint(12, 0), Qt::LeftButton);
    QVERIFY(map()->isDraggingPod());
    sendMouse(g, QEvent::MouseMove, target - o, Qt::LeftButton);
    const QImage during = map()->grabImage();
    QDir().mkpath(QStringLiteral("shots"));
    during.save(QStringLiteral("shots/tst_planwindow-drag.png"));
    sendMouse(g, QEvent::MouseButtonRelease, target - o, Qt::NoButton);

    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(engine->applied()[0].action.type, model::ActionType::MovePod);
    QCOMPARE(engine->state().podNode(pod), to);
    QCOMPARE(m_window->undoStack()->count(), 1);
    const QImage after = map()->grabImage();
    after.save(QStringLiteral("shots/tst_planwindow-after.png"));
    const QColor fromAfter = testing::swatchColor(*map(), after, from);
    const QColor toAfter = testing::swatchColor(*map(), after, to);
    QVERIFY(!near(fromAfter, fromBefore, 2));
    QVERIFY(!near(toAfter, toBefore, 2));
    QCOMPARE(m_window->planController()->panel()->model()->rowCount(), 1);
    QVERIFY(!m_window->planStatusText().isEmpty());
    m_window->grab().save(QStringLiteral("shots/tst_planwindow-window.png"));

    QAction* undo = m_window->findChild<QAction*>(QStringLiteral("actionUndo"));
    QAction* redo = m_window->findChild<QAction*>(QStringLiteral("actionRedo"));
    QVERIFY(undo && redo);
    QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
    QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    undo->trigger();
    QCOMPARE(engine->applied().size(), std::size_t(0));
    QCOMPARE(engine->state().podNode(pod), from);
    QVERIFY(testing::deliverPostedEvents()); // the Plan dock's closing relayout
    const QImage undone = map()->grabImage();
    QVERIFY(near(testing::swatchColor(*map(), undone, from), fromBefore, 2));
    // With the last action undone the Plan dock closes and the map is laid out again around the
    // node at its centre with the zoom kept, which can leave the target node out of view: read
    // its colour zoomed to it, as toZoomedBefore was, then go back to the drag's view.
    map()->zoomToNode(to);
    QVERIFY(!map()->cellCenter(to).isNull());
    const QColor toUndone = testing::swatchColor(*map(), map()->grabImage(), to);
    QVERIFY2(near(toUndone, toZoomedBefore, 2),
        qPrintable(testing::describe(toUndone) + QStringLiteral(" != ") + testing::describe(toZoomedBefore)));
    map()->zoomToNode(from);
    QCOMPARE(m_window->planController()->panel()->model()->rowCount(), 0);
    redo->trigger();
    QCOMPARE(engine->state().podNode(pod), to);
    const QImage redone = map()->grabImage();
    QVERIFY(near(testing::swatchColor(*map(), redone, from), fromAfter, 2));
    QVERIFY(near(testing::swatchColor(*map(), redone, to), toAfter, 2));
    m_window->undoStack()->undo();
    QCOMPARE(engine->applied().size(), std::size_t(0));
}

void TestPlanWindow::infeasibleDropIsRefusedWithReasons()
{
    model::PodId pod;
    model::NodeId from, to;
    QPoint press;
    QVERIFY2(findMove(pod, from, to, press, false), "no pod of the simulated fleet has an infeasible neighbour in view");
    const auto engine = m_window->planController()->engine();
    const model::Verdict verdict = model::checkMove(engine->state(), pod, to);
    QVERIFY(!verdict.feasible && !verdict.reasons.empty());
    const QPoint target = map()->cellCenter(to);
    QWidget* g = gl();
    const QPoint o = g->pos();
    sendMouse(g, QEvent::MouseButtonPress, press - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseMove, target - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseButtonRelease, target - o, Qt::NoButton);
    QCOMPARE(engine->applied().size(), std::size_t(0));
    QVERIFY(!m_window->undoStack()->canUndo());
    const QString message = m_window->planController()->lastMessage();
    QVERIFY2(message.contains(QString::fromStdString(verdict.reasons.front().code())), qPrintable(message));
    // The status bar keeps the reason codes when it shortens the sentence (it used to keep
    // "Cannot move a to b" alone).
    QCOMPARE(m_window->planStatusText(), message);
    const QFontMetrics fm(m_window->font());
    const QString code = QString::fromStdString(verdict.reasons.front().code());
    const QStringList variants = app::planMessageVariants(message);
    QVERIFY2(variants.size() >= 2 && variants.last().contains(code), qPrintable(variants.join(QStringLiteral(" | "))));
    const int shortWidth = fm.horizontalAdvance(variants.last()) + 4;
    QVERIFY(shortWidth < fm.horizontalAdvance(message));
    QVERIFY2(app::StatusField::fitText(variants, fm, shortWidth).contains(code), qPrintable(app::StatusField::fitText(variants, fm, shortWidth)));
    // While the refusal shows, the totals keep half the bar: their node and pod
    // counts are whole (a trial saw them cut to "Nod…"), and shortened they give their whole
    // text as a tooltip.
    QCoreApplication::processEvents();
    auto* totals = m_window->findChild<QWidget*>(QStringLiteral("totalsLabel"));
    QVERIFY(totals);
    QVERIFY2(totals->width() >= 0.45 * m_window->statusBar()->width(),
        qPrintable(QStringLiteral("totals %1 px of %2").arg(totals->width()).arg(m_window->statusBar()->width())));
    const QString shownTotals = m_window->displayedTotalsText();
    QVERIFY2(shownTotals.startsWith(m_window->totalsText().section(QStringLiteral(" | "), 0, 1).section(QStringLiteral(" ("), 0, 0)),
        qPrintable(shownTotals));
    if (shownTotals.contains(QChar(0x2026)))
        QVERIFY2(m_window->totalsToolTip().startsWith(m_window->totalsText().section(QStringLiteral(" | "), 0, 0)), qPrintable(m_window->totalsToolTip()));
    // Shift+drop applies it as a violation.
    sendMouse(g, QEvent::MouseButtonPress, press - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseMove, target - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseButtonRelease, target - o, Qt::NoButton, Qt::ShiftModifier);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QVERIFY(engine->applied()[0].action.override);
    QCOMPARE(m_window->planController()->panel()->model()->index(0, views::PlanActionsModel::HoldsColumn).data().toString(),
        QStringLiteral("violation"));
    m_window->undoStack()->undo();
    QCOMPARE(engine->applied().size(), std::size_t(0));
}

void TestPlanWindow::refusalKeepsItsCodeWhole_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("code");
    const QString pod = QStringLiteral("training/llama-70b-finetune-worker-0042-7f9c8d6b5-x2k4q");
    const QString node = QStringLiteral("ip-10-42-173-201.us-east-2.compute.internal");
    QTest::newRow("a taint with a value") << QStringLiteral("Cannot move %1 to %2: %2 has the taint nvidia.com/gpu=present:NoSchedule, which the pod does not "
                                                            "tolerate (untolerated-taint:nvidia.com/gpu=present:NoSchedule). Shift+drop applies it anyway, as a violation.")
                                                 .arg(pod, node)
                                          << QStringLiteral("untolerated-taint:nvidia.com/gpu=present:NoSchedule");
    QTest::newRow("a taint without a value") << QStringLiteral("Cannot move %1 to %2: %2 has the taint dedicated:NoExecute, which the pod does not tolerate "
                                                               "(untolerated-taint:dedicated:NoExecute).")
                                                    .arg(pod, node)
                                             << QStringLiteral("untolerated-taint:dedicated:NoExecute");
}

// A refusal shown in a narrow status bar keeps its reason code whole: the taint's code (with
// '=' and ':') was not recognised as a code, and the whole sentence was elided in its middle,
// through the code.
void TestPlanWindow::refusalKeepsItsCodeWhole()
{
    QFETCH(QString, message);
    QFETCH(QString, code);
    const QStringList variants = app::planMessageVariants(message);
    QVERIFY2(variants.size() >= 2, qPrintable(variants.join(QStringLiteral(" | "))));
    QCOMPARE(variants.first(), message);
    for (const QString& v : variants.mid(1))
        QVERIFY2(v.contains(code), qPrintable(v));
    const QFontMetrics fm(m_window->font());
    // The width of the code and its verb: the sentence does not fit, the code shows whole.
    const int width = fm.horizontalAdvance(QStringLiteral("Cannot move: ") + code) + 4;
    QVERIFY(width < fm.horizontalAdvance(message));
    const QString shown = app::StatusField::fitText(variants, fm, width);
    QVERIFY2(shown.contains(code), qPrintable(shown));
}

void TestPlanWindow::drainIsOneUndoStep()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    std::vector<model::NodeId> nodes;
    for (std::uint32_t i = 0; i < store.nodeCount() && nodes.size() < 2; ++i)
        if (!store.nodePods(model::NodeId(i)).empty())
            nodes.push_back(model::NodeId(i));
    QCOMPARE(nodes.size(), std::size_t(2));
    const model::PlanTotals totals = engine->state().totals();
    QVERIFY(m_window->planController()->drainNodes(nodes));
    QCOMPARE(engine->applied().size(), std::size_t(2));
    QCOMPARE(m_window->undoStack()->count(), 1);
    QCOMPARE(m_window->planController()->panel()->model()->rowCount(), 2);
    QVERIFY(m_window->planController()->panel()->summaryText().contains(QStringLiteral("Nodes in use")));
    map()->resetView();
    map()->grabImage().save(QStringLiteral("shots/tst_planwindow-drain.png"));
    m_window->undoStack()->undo();
    QCOMPARE(engine->applied().size(), std::size_t(0));
    QCOMPARE(engine->state().totals(), totals);
}

void TestPlanWindow::drainThatDoesNotHoldSaysSo()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    // A node whose drain leaves a pod behind, found on an engine of the test's own.
    model::PlanEngine own(store, *m_window->planController()->topology(), m_window->planController()->nodePrices());
    model::NodeId stuck;
    std::vector<model::Reason> why;
    for (std::uint32_t i = 0; i < store.nodeCount() && !stuck.isValid(); ++i) {
        if (store.nodePods(model::NodeId(i)).empty())
            continue;
        model::PlanAction drain;
        drain.type = model::ActionType::DrainNode;
        drain.node = std::string(store.nodeName(model::NodeId(i)));
        const model::AppliedAction& r = own.apply(drain);
        if (!r.holds && !r.unplaced.empty()) {
            stuck = model::NodeId(i);
            why = r.unplaced.front().second;
        }
        own.undo();
    }
    QVERIFY2(stuck.isValid(), "no drain of the simulated fleet leaves a pod behind");
    QVERIFY(!why.empty());
    QVERIFY(m_window->planController()->drainNodes({ stuck }));
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QVERIFY(!engine->applied()[0].holds);
    const QString message = m_window->planController()->lastMessage();
    QVERIFY2(!message.contains(QStringLiteral("Drained 1 of 1")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("does not hold")) && message.contains(QString::fromStdString(why.front().code())), qPrintable(message));
    m_window->undoStack()->undo();
    QCOMPARE(engine->applied().size(), std::size_t(0));
}

FLEET_GUI_TEST_MAIN(TestPlanWindow, fleet::app::setDefaultSurfaceFormat)

#include "tst_planwindow.moc"
