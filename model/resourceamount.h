// SPDX-License-Identifier: Apache-2.0
#pragma once
// An amount of a core resource as the reasons write it (figures.h's number formats): shared by
// the NodeResourcesFit filter, node problems, the drain's refusals and plan staleness.

#include "model/resources.h"

#include <cstdint>
#include <string>

namespace fleet::model {

/// `v` of resource `r` in its unit's number part, for "requested of allocatable" texts: cpu
/// formatCores() (millicores in), memory and ephemeral-storage formatBytes() (bytes), GPUs
/// formatGpus() (milli-GPU), pods formatCount(). Thread: any.
[[nodiscard]] std::string formatAmount(CoreResource r, std::int64_t v);

} // namespace fleet::model
