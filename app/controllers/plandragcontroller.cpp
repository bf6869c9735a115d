// SPDX-License-Identifier: Apache-2.0
#include "plandragcontroller.h"

#include "app/controllers/planenginehost.h"
#include "app/controllers/plancontroller.h"
#include "model/plan/evictionrules.h"
#include "views/map/fleetmapview.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QToolTip>

#include <algorithm>

namespace fleet::app {

namespace {

QString s(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

// Reason lines for a tooltip: one per reason, at most a dozen.
QString reasonLines(const std::vector<model::Reason>& reasons)
{
    QStringList lines;
    for (const model::Reason& r : reasons) {
        if (lines.size() == 12) {
            lines << QObject::tr("\u2026 and %1 more").arg(reasons.size() - 12);
            break;
        }
        lines << QStringLiteral("\u2022 %1 <code>%2</code>").arg(s(r.message).toHtmlEscaped(), s(r.code()).toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

PlanDragController::PlanDragController(views::FleetMapView* map, PlanEngineHost* host, PlanController* plan)
    : QObject(plan)
    , m_map(map)
    , m_host(host)
    , m_plan(plan)
{
    connect(m_map, &views::FleetMapView::podDragStarted, this, &PlanDragController::onDragStarted);
    connect(m_map, &views::FleetMapView::podDragMoved, this, &PlanDragController::onDragMoved);
    connect(m_map, &views::FleetMapView::podDropped, this, &PlanDragController::onDropped);
    connect(m_map, &views::FleetMapView::podDragCancelled, this, &PlanDragController::onDragCancelled);
}

PlanDragController::~PlanDragController() = default;

bool PlanDragController::workloadDraggable(model::WorkloadId w) const
{
    const auto& store = *m_host->store();
    if (!w.isValid() || w.index() >= store.workloadCount())
        return false;
    switch (store.workloadKind(w)) {
    case model::OwnerKind::Deployment:
    case model::OwnerKind::ReplicaSet:
    case model::OwnerKind::StatefulSet:
    case model::OwnerKind::Job:
    case model::OwnerKind::JobSet:
    case model::OwnerKind::LeaderWorkerSet:
    case model::OwnerKind::TrainingJob:
    case model::OwnerKind::VolcanoJob:
        return true;
    default:
        return false;
    }
}

void PlanDragController::onDragStarted(model::PodId pod, Qt::KeyboardModifiers modifiers)
{
    endDrag();
    const auto store = m_host->store();
    if (!store || pod.index() >= store->podCount())
        return;
    const auto& engine = m_host->engine();
    if (!engine) {
        m_plan->showMessage(m_plan->notReadyText());
        return;
    }
    QElapsedTimer timer;
    timer.start();
    m_dragPod = pod;
    // Ctrl or Alt held as the drag starts: many X11 window managers (openbox, Xfce, GNOME's
    // default) take Alt+drag to move the window itself, so Ctrl must work alone and is the one
    // the tooltips and docs name; Alt is kept where no window manager takes it.
    if (modifiers & (Qt::ControlModifier | Qt::AltModifier)) {
        const model::WorkloadId w = store->podWorkload(pod);
        if (workloadDraggable(w))
            m_dragWorkload = w;
    }
    m_feasibility = std::make_unique<model::PodFeasibility>(engine->state(), pod);
    m_feasible = std::make_shared<std::vector<std::uint8_t>>();
    m_feasibility->feasibleNodes(*m_feasible); // store nodes, then added ones (their squares)
    // A bound pod that the eviction rules keep from moving alone (one member of a gang, no
    // controller, do-not-disrupt) is refused at the drop whatever the node: no node may look
    // as if it could take it, and each says why (onDragMoved).
    if (!m_dragWorkload.isValid() && engine->state().podNode(pod).isValid()) {
        m_dragBlockers = model::checkEviction(*store, pod).blockers;
        if (!m_dragBlockers.empty())
            std::fill(m_feasible->begin(), m_feasible->end(), std::uint8_t { 0 });
    }
    m_lastFeasibilityMs = timer.nsecsElapsed() / 1e6;
    m_map->setDragShading(m_feasible);
}

void PlanDragController::onDragMoved(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers)
{
    if (!m_feasibility)
        return;
    if (m_dragWorkload.isValid()) {
        const auto& store = *m_host->store();
        const model::DomainId target = label.isValid() ? label : m_host->domainOfNode(node);
        m_map->setDragTarget(node, true, target);
        if (target.isValid())
            QToolTip::showText(globalPos,
                tr("Drop to place %1 %2/%3 (every pod) in %4")
                    .arg(s(model::ownerKindName(store.workloadKind(m_dragWorkload))), s(store.workloadNamespace(m_dragWorkload)),
                        s(store.workloadName(m_dragWorkload)), m_host->domainText(target).toHtmlEscaped()),
                m_map);
        return;
    }
    const bool feasible = node.isValid() && m_dragBlockers.empty() && m_feasibility->feasible(node);
    m_map->setDragTarget(node, feasible, label);
    if (!node.isValid()) {
        QToolTip::hideText();
        return;
    }
    const QString nodeName = m_host->nodeText(node).toHtmlEscaped();
    const QString podName = m_host->podText(m_dragPod).toHtmlEscaped();
    if (!m_dragBlockers.empty()) {
        const bool gang = std::any_of(m_dragBlockers.begin(), m_dragBlockers.end(),
            [](const model::Reason& r) { return r.kind == model::ReasonKind::GangMember; });
        QString hint = gang ? tr("Hold Ctrl when you start the drag to move the whole workload (every pod of the gang) into a domain.")
                            : QString();
        hint += (hint.isEmpty() ? QString() : QStringLiteral("<br>")) + tr("Shift+drop moves it anyway, as a violation.");
        QToolTip::showText(globalPos, tr("<b>%1</b> cannot take %2:<br>%3<br>%4").arg(nodeName, podName, reasonLines(m_dragBlockers), hint),
            m_map);
        return;
    }
    if (feasible) {
        QToolTip::showText(globalPos, tr("<b>%1</b> can take %2").arg(nodeName, podName), m_map);
        return;
    }
    const model::Verdict v = m_feasibility->verdict(node);
    QToolTip::showText(globalPos, tr("<b>%1</b> cannot take %2:<br>%3").arg(nodeName, podName, reasonLines(v.reasons)), m_map);
}

void PlanDragController::onDropped(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers)
{
    const model::PodId pod = m_dragPod;
    const model::WorkloadId workload = m_dragWorkload;
    const bool dragging = m_feasibility != nullptr;
    endDrag();
    if (!dragging)
        return;
    QToolTip::hideText();
    if (workload.isValid()) {
        const model::DomainId target = label.isValid() ? label : m_host->domainOfNode(node);
        if (target.isValid())
            m_plan->placeWorkload(workload, target);
        return;
    }
    if (!node.isValid())
        return;
    if (!m_plan->movePod(pod, node, modifiers & Qt::ShiftModifier) && !m_plan->lastMessage().isEmpty())
        m_plan->showMessage(m_plan->lastMessage(), globalPos);
}

void PlanDragController::onDragCancelled()
{
    endDrag();
    QToolTip::hideText();
}

void PlanDragController::endDrag()
{
    const bool was = m_feasibility != nullptr;
    m_feasibility.reset();
    m_feasible.reset();
    m_dragPod = {};
    m_dragWorkload = {};
    m_dragBlockers.clear();
    if (was)
        m_map->setDragShading(nullptr);
}

} // namespace fleet::app
