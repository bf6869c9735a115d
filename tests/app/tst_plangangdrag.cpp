// SPDX-License-Identifier: Apache-2.0
// A pod that the eviction rules keep from moving alone (one member of a gang) dragged by itself:
// no node may look as if it could take it (the drop would be refused), each node says why
// (`gang-member`), and the tooltip says how to move the whole workload (Alt) or override (Shift).

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
    QVERIFY2(tip.contains(QStringLiteral("Alt")), qPrintable(tip));
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

FLEET_GUI_TEST_MAIN(TestPlanGangDrag, fleet::app::setDefaultSurfaceFormat)

#include "tst_plangangdrag.moc"
