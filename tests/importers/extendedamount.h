// SPDX-License-Identifier: Apache-2.0
#pragma once
// A helper shared by the importer tests: reading one extended resource out of a store's lists.

#include "model/clusterstore.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

namespace fleet::testing {

/// The amount of the extended resource `name` (e.g. "alibabacloud.com/gpu-count") in `list`,
/// the (key, amount) pairs of a node's or pod's extended resources in `store`; 0 when the
/// list does not hold it or the store never registered the name.
inline std::int64_t extended(
    const model::ClusterStore& store, std::span<const std::pair<model::ResourceKey, std::int64_t>> list, std::string_view name)
{
    const int key = store.resources().find(name);
    for (const auto& [k, v] : list)
        if (static_cast<int>(k) == key)
            return v;
    return 0;
}

} // namespace fleet::testing
