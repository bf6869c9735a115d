// SPDX-License-Identifier: Apache-2.0
#include "resourceamount.h"

#include "figures.h"

namespace fleet::model {

std::string formatAmount(CoreResource r, std::int64_t v)
{
    switch (r) {
    case CoreResource::Cpu: return formatCores(v);
    case CoreResource::Memory:
    case CoreResource::EphemeralStorage: return formatBytes(v);
    case CoreResource::Gpu: return formatGpus(v);
    case CoreResource::Pods: return formatCount(v);
    }
    return formatCount(v);
}

} // namespace fleet::model
