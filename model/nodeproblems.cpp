#include "nodeproblems.h"

// Contract stub: the problem finder lands with the model work of issue 5.
namespace fleet::model {

std::string_view nodeProblemKindName(NodeProblemKind kind) noexcept
{
    switch (kind) {
    case NodeProblemKind::NotReady: return "NotReady";
    case NodeProblemKind::Condition: return "Condition";
    case NodeProblemKind::UnhealthyDevices: return "Unhealthy devices";
    case NodeProblemKind::OverCommitted: return "Over-committed";
    case NodeProblemKind::Cordoned: return "Cordoned";
    case NodeProblemKind::PodOnUnknownNode: return "Pod on unknown node";
    }
    return "";
}

std::vector<NodeProblem> findNodeProblems(const ClusterStore&)
{
    return {};
}

} // namespace fleet::model
