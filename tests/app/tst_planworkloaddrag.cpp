// SPDX-License-Identifier: Apache-2.0
// Two drags of the what-if under xvfb-run with real events: Alt+drag of a pod strip
// on the zoomed map carries the pod's whole workload, and a drop on a node places every pod of
// it inside that node's domain, all or nothing (a domain that cannot take them all changes
// nothing); and a pod dragged from the node inspector's pod table (its model's mime data, in
// drag-enter / drag-move / drop events on the map) onto a node moves it there, where the map's
// node detail and the inspector then show it.

#include "planwindowfixture.h"

#include "app/window/explorepanels.h"
#include "app/controllers/importcontroller.h"
#include "app/startup/surfaceformat.h"
#include "model/domainpath.h"
#include "model/scheduling/filters.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/nodepodsmodel.h"

#include "common/guitestmain.h"

#include <QDropEvent>
#include <QMimeData>
#include <QUndoStack>

using namespace fleet;
using namespace planwindow;

class TestPlanWorkloadDrag : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void altDragPlacesTheWholeWorkloadInADomain();
    void altDropOnADomainTooSmallChangesNothing();
    void altDropOnADomainLabel();
    void podDraggedFromTheInspectorMovesThere();

private:
    struct WorkloadDrag {
        model::PodId pod;
        model::NodeId from, target;
        QPoint press;
    };
    /// A pod of a draggable workload of 2+ pods, drawn on the zoomed map, and a visible node of
    /// another domain whose PlaceWorkload `holds` (tried on a scratch engine) as asked.
    bool findWorkloadDrag(WorkloadDrag& out, bool holds);
    void altDrag(const WorkloadDrag& drag);
    views::FleetMapView* map() const { return m_window->mapView(); }
    const model::Topology& topology() const { return *m_window->cluster()->topology; }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanWorkloadDrag::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
}

void TestPlanWorkloadDrag::cleanupTestCase() { m_window.reset(); }

bool TestPlanWorkloadDrag::findWorkloadDrag(WorkloadDrag& out, bool holds)
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    std::vector<std::uint32_t> podsOf(store.workloadCount(), 0);
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        if (const model::WorkloadId w = store.podWorkload(model::PodId(i)); w.isValid() && store.podIsCounted(model::PodId(i)))
            ++podsOf[w.index()];
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        const model::WorkloadId w = store.podWorkload(p);
        if (!w.isValid() || podsOf[w.index()] < 2 || !store.podIsCounted(p))
            continue;
        const model::OwnerKind kind = store.workloadKind(w);
        if (kind != model::OwnerKind::ReplicaSet && kind != model::OwnerKind::Deployment && kind != model::OwnerKind::StatefulSet
            && kind != model::OwnerKind::Job)
            continue;
        const model::NodeId from = store.podNode(p);
        const QPoint press = podPixel(map(), from, p);
        if (press.isNull())
            continue;
        for (std::uint32_t j = 0; j < store.nodeCount(); ++j) {
            const model::NodeId t(j);
            if (map()->cellCenter(t).isNull() || topology().nodeDomain(t) == topology().nodeDomain(from))
                continue;
            model::PlanEngine probe(store, topology());
            model::PlanAction a;
            a.type = model::ActionType::PlaceWorkload;
            a.workloadNamespace = std::string(store.workloadNamespace(w));
            a.workloadName = std::string(store.workloadName(w));
            a.workloadKind = std::string(model::ownerKindName(kind));
            a.domain = model::domainPathText(topology(), topology().nodeDomain(t));
            const std::size_t applied = probe.apply(a).holds ? probe.applied().size() : 0;
            if ((applied == 1) == holds) {
                out = { p, from, t, press };
                return true;
            }
        }
    }
    return false;
}

void TestPlanWorkloadDrag::altDrag(const WorkloadDrag& drag)
{
    const QPoint target = map()->cellCenter(drag.target);
    sendMouse(map(), QEvent::MouseButtonPress, drag.press, Qt::LeftButton, Qt::AltModifier);
    sendMouse(map(), QEvent::MouseMove, drag.press + QPoint(12, 0), Qt::LeftButton, Qt::AltModifier);
    QVERIFY(map()->isDraggingPod());
    sendMouse(map(), QEvent::MouseMove, target, Qt::LeftButton, Qt::AltModifier);
    sendMouse(map(), QEvent::MouseButtonRelease, target, Qt::NoButton, Qt::AltModifier);
    QVERIFY(!map()->isDraggingPod());
}

void TestPlanWorkloadDrag::altDragPlacesTheWholeWorkloadInADomain()
{
    WorkloadDrag drag;
    QVERIFY(findWorkloadDrag(drag, true));
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    altDrag(drag);
    QVERIFY2(engine->applied().size() == 1, qPrintable(m_window->planController()->lastMessage()));
    const model::AppliedAction& a = engine->applied().back();
    QCOMPARE(a.action.type, model::ActionType::PlaceWorkload);
    const model::WorkloadId w = store.podWorkload(drag.pod);
    QCOMPARE(a.action.workloadName, std::string(store.workloadName(w)));
    const model::DomainId domain = topology().nodeDomain(drag.target);
    std::size_t pods = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (store.podWorkload(p) != w || !store.podIsCounted(p))
            continue;
        ++pods;
        const model::NodeId at = engine->state().podNode(p);
        QVERIFY(at.isValid());
        QCOMPARE(topology().nodeDomain(at), domain); // the innermost domain of the node dropped on
    }
    QCOMPARE(a.changes.size(), pods);
    QCOMPARE(m_window->undoStack()->count(), 1);
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    QCOMPARE(engine->state().podNode(drag.pod), drag.from);
}

void TestPlanWorkloadDrag::altDropOnADomainTooSmallChangesNothing()
{
    WorkloadDrag drag;
    QVERIFY2(findWorkloadDrag(drag, false), "no visible domain of the simulated fleet is too small for a draggable workload");
    const auto engine = m_window->planController()->engine();
    const model::PlanTotals totals = engine->state().totals();
    altDrag(drag);
    QVERIFY(engine->applied().empty());
    QVERIFY(!m_window->undoStack()->canUndo());
    QCOMPARE(engine->state().totals(), totals);
    QCOMPARE(engine->state().podNode(drag.pod), drag.from);
    QVERIFY2(m_window->planController()->lastMessage().contains(QStringLiteral("all or nothing")),
        qPrintable(m_window->planController()->lastMessage()));
}

// A workload dropped on a domain label (not on a node): every pod of it inside that domain, which
// may be an outer one (a zone, not only a node's innermost network layer).
void TestPlanWorkloadDrag::altDropOnADomainLabel()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    std::vector<std::uint32_t> podsOf(store.workloadCount(), 0);
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        if (const model::WorkloadId w = store.podWorkload(model::PodId(i)); w.isValid() && store.podIsCounted(model::PodId(i)))
            ++podsOf[w.index()];
    model::PodId pod;
    model::DomainId domain;
    QPoint press, label;
    for (std::uint32_t i = 0; i < store.podCount() && !domain.isValid(); ++i) {
        const model::PodId p(i);
        const model::WorkloadId w = store.podWorkload(p);
        if (!w.isValid() || podsOf[w.index()] < 2 || !store.podIsCounted(p))
            continue;
        const model::OwnerKind kind = store.workloadKind(w);
        if (kind != model::OwnerKind::ReplicaSet && kind != model::OwnerKind::Deployment && kind != model::OwnerKind::StatefulSet)
            continue;
        const QPoint at = podPixel(map(), store.podNode(p), p);
        if (at.isNull())
            continue;
        // A domain whose label is drawn at this zoom, not holding the pod's node, that takes the workload.
        for (std::uint32_t d = 0; d < topology().domainCount() && !domain.isValid(); ++d) {
            const model::DomainId candidate(d);
            const QRect r = map()->domainLabelRect(candidate);
            if (r.isNull() || candidate == topology().root() || map()->domainLabelAt(r.center()) != candidate)
                continue;
            bool holdsFrom = false;
            for (model::DomainId up = topology().nodeDomain(store.podNode(p)); up.isValid(); up = topology().domainParent(up))
                holdsFrom = holdsFrom || up == candidate;
            if (holdsFrom)
                continue;
            model::PlanEngine probe(store, topology());
            model::PlanAction a;
            a.type = model::ActionType::PlaceWorkload;
            a.workloadNamespace = std::string(store.workloadNamespace(w));
            a.workloadName = std::string(store.workloadName(w));
            a.workloadKind = std::string(model::ownerKindName(kind));
            a.domain = model::domainPathText(topology(), candidate);
            if (probe.apply(a).holds) {
                pod = p;
                domain = candidate;
                press = at;
                label = r.center();
            }
        }
    }
    QVERIFY2(domain.isValid(), "no domain label beside a draggable pod takes its workload at this zoom");
    // Ctrl as well as Alt: many window managers (openbox, GNOME, Xfce) take Alt+drag to move
    // the window, so the press never reaches the program.
    for (const Qt::KeyboardModifier modifier : { Qt::AltModifier, Qt::ControlModifier }) {
        sendMouse(map(), QEvent::MouseButtonPress, press, Qt::LeftButton, modifier);
        sendMouse(map(), QEvent::MouseMove, press + QPoint(12, 0), Qt::LeftButton, modifier);
        QVERIFY(map()->isDraggingPod());
        sendMouse(map(), QEvent::MouseMove, label, Qt::LeftButton, modifier);
        sendMouse(map(), QEvent::MouseButtonRelease, label, Qt::NoButton, modifier);
        QVERIFY(!map()->isDraggingPod());
        QVERIFY2(engine->applied().size() == 1, qPrintable(m_window->planController()->lastMessage()));
        const model::AppliedAction& a = engine->applied().back();
        QCOMPARE(a.action.type, model::ActionType::PlaceWorkload);
        QCOMPARE(a.action.domain, model::domainPathText(topology(), domain));
        const model::WorkloadId w = store.podWorkload(pod);
        std::size_t pods = 0;
        for (std::uint32_t i = 0; i < store.podCount(); ++i) {
            const model::PodId p(i);
            if (store.podWorkload(p) != w || !store.podIsCounted(p))
                continue;
            ++pods;
            bool inside = false;
            for (model::DomainId up = topology().nodeDomain(engine->state().podNode(p)); up.isValid(); up = topology().domainParent(up))
                inside = inside || up == domain;
            QVERIFY2(inside, "a pod of the workload is outside the domain dropped on");
        }
        QVERIFY(pods >= 2 && !a.changes.empty());
        m_window->undoStack()->undo();
        QVERIFY(engine->applied().empty());
    }
}

void TestPlanWorkloadDrag::podDraggedFromTheInspectorMovesThere()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    views::NodeInspector* inspector = m_window->explorePanels()->nodeInspector();
    // A movable pod listed by the inspector, and a visible node that can take it.
    model::PodId pod;
    model::NodeId from, to;
    int row = -1;
    for (std::uint32_t i = 0; i < store.nodeCount() && !to.isValid(); ++i) {
        from = model::NodeId(i);
        map()->setSelectedNode(from);
        map()->zoomToNode(from);
        map()->grabImage();
        for (int r = 0; r < inspector->podsModel()->rowCount() && !to.isValid(); ++r) {
            const model::PodId p = inspector->podsModel()->podAt(r);
            if (!store.podIsCounted(p))
                continue;
            const model::PodFeasibility f(engine->state(), p);
            for (std::uint32_t j = 0; j < store.nodeCount() && !to.isValid(); ++j)
                if (model::NodeId(j) != from && !map()->cellCenter(model::NodeId(j)).isNull() && f.feasible(model::NodeId(j))) {
                    pod = p;
                    to = model::NodeId(j);
                    row = r;
                }
        }
    }
    QVERIFY(to.isValid());
    std::unique_ptr<QMimeData> mime(inspector->podsModel()->mimeData({ inspector->podsModel()->index(row, 0) }));
    QVERIFY(mime);
    QWidget* gl = glOf(map());
    const QPoint enter = map()->cellCenter(from) - gl->pos(), over = map()->cellCenter(to) - gl->pos();
    QDragEnterEvent entered(enter, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(gl, &entered);
    QVERIFY(entered.isAccepted());
    QVERIFY(map()->isDraggingPod());
    QDragMoveEvent moved(over, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(gl, &moved);
    QDropEvent dropped(QPointF(over), Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(gl, &dropped);
    QVERIFY(!map()->isDraggingPod());
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(engine->applied()[0].action.type, model::ActionType::MovePod);
    QCOMPARE(engine->state().podNode(pod), to);
    // Shown under the plan: drawn on its new node, not on its old one; listed there, not here.
    QVERIFY(!podPixel(map(), to, pod).isNull());
    QVERIFY(podPixel(map(), from, pod).isNull());
    QCOMPARE(inspector->node(), from);
    for (int r = 0; r < inspector->podsModel()->rowCount(); ++r)
        QVERIFY(inspector->podsModel()->podAt(r) != pod);
    map()->setSelectedNode(to);
    bool listed = false;
    for (int r = 0; r < inspector->podsModel()->rowCount(); ++r)
        listed = listed || inspector->podsModel()->podAt(r) == pod;
    QVERIFY(listed);
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    QVERIFY(!podPixel(map(), from, pod).isNull());
}

FLEET_GUI_TEST_MAIN(TestPlanWorkloadDrag, fleet::app::setDefaultSurfaceFormat)

#include "tst_planworkloaddrag.moc"
