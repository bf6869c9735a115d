#include "pendingdemand.h"

// Contract stub: the grouping lands with the model work of issue 5.
namespace fleet::model {

std::vector<PendingShape> groupPendingPods(const ClusterStore&)
{
    return {};
}

} // namespace fleet::model
