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
