// SPDX-License-Identifier: Apache-2.0
#include "plannodeview.h"

namespace fleet::views {

namespace {

QString qs(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

} // namespace

QString PlanNodeView::nodeName(model::NodeId n) const
{
    return qs(added(n) ? plan->nodeName(n) : store->nodeName(n));
}

std::vector<std::pair<QString, QString>> PlanNodeView::labels(model::NodeId n) const
{
    std::vector<std::pair<QString, QString>> out;
    if (added(n)) {
        for (const model::Label& l : plan->nodeLabels(n))
            out.emplace_back(qs(plan->str(l.key)), qs(plan->str(l.value)));
        return out;
    }
    for (const model::Label& l : store->nodeLabels(n))
        out.emplace_back(qs(store->str(l.key)), qs(store->str(l.value)));
    return out;
}

std::vector<model::PodId> PlanNodeView::nodePods(model::NodeId n, bool withAddedPods) const
{
    if (!plan) {
        const auto pods = store->nodePods(n);
        return { pods.begin(), pods.end() };
    }
    if (!plan->nodePresent(n))
        return {};
    std::vector<model::PodId> pods = plan->nodePods(n);
    if (!withAddedPods)
        std::erase_if(pods, [&](model::PodId p) { return plan->podAdded(p); });
    return pods;
}

const model::ResourceVector& PlanNodeView::nodeRequested(model::NodeId n) const noexcept
{
    static const model::ResourceVector kNothing {};
    if (!plan)
        return store->nodeRequested(n);
    return plan->nodePresent(n) ? plan->nodeRequested(n) : kNothing;
}

std::int64_t PlanNodeView::nodeExtendedRequested(model::NodeId n, model::ResourceKey key) const noexcept
{
    if (!plan)
        return store->nodeExtendedRequested(n, key);
    return plan->nodePresent(n) ? plan->nodeExtendedRequested(n, key) : 0;
}

std::vector<std::pair<QString, QString>> PlanNodeView::taints(model::NodeId n) const
{
    constexpr std::string_view kCordonTaint = "node.kubernetes.io/unschedulable";
    std::vector<std::pair<QString, QString>> out;
    bool cordonTaint = false;
    for (const model::Taint& t : added(n) ? plan->nodeTaints(n) : store->nodeTaints(n)) {
        const std::string_view key = store->str(t.key);
        cordonTaint = cordonTaint || key == kCordonTaint;
        out.emplace_back(qs(key), QString::fromStdString(std::string(store->str(t.value)) + ':' + std::string(model::taintEffectName(t.effect))));
    }
    if (plan && plan->nodeCordonedByPlan(n) && !cordonTaint)
        out.emplace_back(QString::fromUtf8(kCordonTaint.data(), static_cast<qsizetype>(kCordonTaint.size())),
            QStringLiteral(":NoSchedule (the plan's cordon)"));
    return out;
}

QString PlanNodeView::planStateText(model::NodeId n) const
{
    if (!plan)
        return {};
    if (!plan->nodePresent(n))
        return QStringLiteral("gone under the plan (drained or failed)");
    if (plan->nodeCordonedByPlan(n))
        return QStringLiteral("cordoned by the plan (a drain left pods on it)");
    if (added(n))
        return QStringLiteral("added by the plan, like %1").arg(qs(store->nodeName(plan->nodeTemplate(n))));
    return {};
}

} // namespace fleet::views
