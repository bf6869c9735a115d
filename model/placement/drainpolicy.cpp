// SPDX-License-Identifier: Apache-2.0
#include "drainpolicy.h"

#include "placementpolicy.h"
#include "typicalpods.h"

#include <algorithm>
#include <stdexcept>

namespace fleet::model {

const std::vector<std::string>& drainPolicyNames()
{
    static const std::vector<std::string> names { "default", "LeastAllocated", "MostAllocated", "BestFit", "GpuPacking", "GpuClustering", "DotProduct" };
    return names;
}

bool isDrainPolicy(std::string_view name)
{
    const std::vector<std::string>& names = drainPolicyNames();
    return name.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

std::string knownDrainPolicies()
{
    std::string known;
    for (const std::string& n : drainPolicyNames())
        known += (known.empty() ? "" : ", ") + n;
    return known;
}

std::unique_ptr<PlacementPolicy> makeDrainPolicy(std::string_view name)
{
    if (!isDrainPolicy(name))
        throw std::invalid_argument("unknown drain policy \"" + std::string(name) + "\" (known: " + knownDrainPolicies() + ")");
    if (name.empty() || name == "default")
        return nullptr;
    return makePlacementPolicy(name, {}, 0);
}

} // namespace fleet::model
