// SPDX-License-Identifier: Apache-2.0
// A pod that the eviction rules keep from moving alone (one member of a gang) dragged by itself:
// no node may look as if it could take it (the drop would be refused), each node says why
// (`gang-member`), and the tooltip says how to move the whole workload (Ctrl) or override (Shift).

#include "planwindowfixture.h"

#include "app/startup/surfaceformat.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/filters.h"

#include "common/guitestmain.h"

#include <QToolTip>
#include <QUndoStack>

using namespace planwindow;

class TestPlanGangDrag : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_window.reset(); }
    void gangMemberDraggedAloneFitsNowhere();
    void shiftDropMovesItAsAViolation();
    void gangMemberDroppedOnAFullNodeLeadsWithGangMember();

private:
    views::FleetMapView* map() const { return m_window->mapView(); }
    /// A bound gang pod and a node whose filters would take it (the verdict without the eviction rules).
    bool findGangMove(model::PodId& pod, model::NodeId& to) const;
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanGangDrag::initTestCase()
{
    // The four-region 240-node fleet: its many small zones leave a training node group with
    // idle nodes beside running gangs (a gang pod with a node to go to, a domain whose failure
    // strands a gang); the one-region fleet of this size keeps its few training groups busy.
    m_window = openWindow(240, 3, 4);
    QVERIFY(m_window);
}

bool TestPlanGangDrag::findGangMove(model::PodId& pod, model::NodeId& to) const
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (!store.podIsCounted(p) || !engine->state().podNode(p).isValid() || !model::isGangPod(store, p))
            continue;
        const model::PodFeasibility f(engine->state(), p);
        for (std::uint32_t j = 0; j < store.nodeCount(); ++j)
            if (model::NodeId(j) != engine->state().podNode(p) && f.feasible(model::NodeId(j))) {
                pod = p;
                to = model::NodeId(j);
                return true;
            }
    }
    return false;
}

void TestPlanGangDrag::gangMemberDraggedAloneFitsNowhere()
{
    model::PodId pod;
    model::NodeId to;
    QVERIFY2(findGangMove(pod, to), "the simulated cluster has no gang pod that the filters would let move");
    const auto engine = m_window->planController()->engine();
    const QPoint global = map()->mapToGlobal(map()->rect().center());
    emit map()->podDragStarted(pod, Qt::NoModifier);
    emit map()->podDragMoved(to, {}, global, Qt::NoModifier);
    const QString tip = QToolTip::text();
    QVERIFY2(tip.contains(QStringLiteral("cannot take")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("gang-member")), qPrintable(tip));
    // Ctrl, not Alt: most X11 window managers take Alt+drag to move the window.
    QVERIFY2(tip.contains(QStringLiteral("Hold Ctrl when you start the drag")) && !tip.contains(QStringLiteral("Alt")), qPrintable(tip));
    emit map()->podDropped(to, {}, global, Qt::NoModifier);
    QVERIFY(engine->applied().empty());
    QVERIFY2(m_window->planController()->lastMessage().contains(QStringLiteral("gang-member")),
        qPrintable(m_window->planController()->lastMessage()));
}

void TestPlanGangDrag::shiftDropMovesItAsAViolation()
{
    model::PodId pod;
    model::NodeId to;
    QVERIFY(findGangMove(pod, to));
    const auto engine = m_window->planController()->engine();
    const QPoint global = map()->mapToGlobal(map()->rect().center());
    emit map()->podDragStarted(pod, Qt::NoModifier);
    emit map()->podDragMoved(to, {}, global, Qt::ShiftModifier);
    emit map()->podDropped(to, {}, global, Qt::ShiftModifier);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QVERIFY(engine->applied()[0].action.override);
    QCOMPARE(engine->state().podNode(pod), to);
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

// A gang member dropped alone on a node that could not take it either: the refusal leads with
// gang-member, as the drag's tooltip does, and says how to move the whole workload; the
// capacity reasons follow.
void TestPlanGangDrag::gangMemberDroppedOnAFullNodeLeadsWithGangMember()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    model::PodId pod;
    model::NodeId to;
    for (std::uint32_t i = 0; i < store.podCount() && !to.isValid(); ++i) {
        const model::PodId p(i);
        if (!store.podIsCounted(p) || !engine->state().podNode(p).isValid() || !model::isGangPod(store, p))
            continue;
        const model::PodFeasibility f(engine->state(), p);
        for (std::uint32_t j = 0; j < store.nodeCount() && !to.isValid(); ++j)
            if (model::NodeId(j) != engine->state().podNode(p) && !f.feasible(model::NodeId(j))) {
                pod = p;
                to = model::NodeId(j);
            }
    }
    QVERIFY2(to.isValid(), "no node of the simulated cluster refuses a gang pod");
    const QPoint global = map()->mapToGlobal(map()->rect().center());
    emit map()->podDragStarted(pod, Qt::NoModifier);
    emit map()->podDragMoved(to, {}, global, Qt::NoModifier);
    emit map()->podDropped(to, {}, global, Qt::NoModifier);
    QVERIFY(engine->applied().empty());
    const QString message = m_window->planController()->lastMessage();
    // The reasons, one a clause ending in its code: gang-member's first, the node's after it.
    const QStringList reasons = message.section(QStringLiteral(": "), 1).split(QStringLiteral("; "));
    QVERIFY2(reasons.size() >= 2 && reasons.front().endsWith(QStringLiteral("(gang-member)")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Ctrl")), qPrintable(message));
}

FLEET_GUI_TEST_MAIN(TestPlanGangDrag, fleet::app::setDefaultSurfaceFormat)

#include "tst_plangangdrag.moc"
