#include "plannodeview.h"

namespace fleet::views {

std::vector<model::PodId> PlanNodeView::nodePods(model::NodeId n) const
{
    if (!plan) {
        const auto pods = store->nodePods(n);
        return { pods.begin(), pods.end() };
    }
    if (!plan->nodePresent(n))
        return {};
    // The views read pods from the store: pods a plan added (place-pods) are not listed yet.
    std::vector<model::PodId> pods = plan->nodePods(n);
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
    for (const model::Taint& t : store->nodeTaints(n)) {
        const std::string_view key = store->str(t.key);
        cordonTaint = cordonTaint || key == kCordonTaint;
        out.emplace_back(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())),
            QString::fromStdString(std::string(store->str(t.value)) + ':' + std::string(model::taintEffectName(t.effect))));
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
    return {};
}

} // namespace fleet::views
