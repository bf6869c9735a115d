// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope summary`: the imported cluster as figures, in JSON (for scripts) or text.

#include "importers/importreport.h"
#include "model/clusterstore.h"
#include "model/usage.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace fleet::importers {

/// The parts of the summary JSON to write (`summary --only`); warnings are always written.
struct SummaryParts {
    bool nodes = true;
    bool pods = true;
    bool totals = true;
};

/// Writes the summary JSON (the parts in `parts`; a part left out is left out as a key):
///   {"nodes": [{"name", "ready": "True"|"False"|"Unknown", "cordoned": bool, "allocatable": R, "requested": R}],
///    "pods": [{"namespace", "name", "node": name or null, "phase", "terminating": true (only for a pod
///              with metadata.deletionTimestamp, whose phase is still Running), "counted": bool, "request": R}],
///    "totals": {"nodes", "ready_nodes", "cordoned_nodes", "pods", "counted_pods", "pending_pods",
///               "allocatable": R, "requested": R, "pending": R,
///               "accelerators": {"gpus", "gpus_requested" (physical GPUs, a MIG-partitioned GPU
///                   once; numbers, exact to 1/1000), "mig_partitioned_gpus", "mig_slices",
///                   "mig_slices_requested", "neuron_devices", "neuron_devices_requested",
///                   "neuron_cores", "neuron_cores_requested"} (model/accelerators.h),
///               "fragmented_gpus": number or null (FGD's expected fragmented GPUs, whole GPUs
///                   exact to 1/1000: model::loadedFragmentedGpus(); null without a GPU workload),
///               "idle_allocated_gpus": int or null (whole GPUs allocated but idle by the usage
///                   rule, model::idleAllocatedGpus(); null without measured usage)},
///    "warnings": [string]}
/// where R = {"cpu_millicores": int, "memory_bytes": int, "gpu": number (whole GPUs, exact to 1/1000),
///            "pods": int, "ephemeral-storage": int (bytes), "<other resource name>": number, ...}; extended resources appear
///            (for a node: where it has allocatable or capacity of them).
/// `store` must be finalized; `usage` (may be null) is the cluster's measured usage. Streams:
/// memory stays flat for 2M pods. At 100k nodes and 1.7M pods the whole document is ~490 MB;
/// totals alone are a few hundred bytes (their FGD is O(nodes x typical pods)). Thread: any.
void writeSummaryJson(const model::ClusterStore& store, const ImportReport& report, std::ostream& out,
                      const SummaryParts& parts = {}, const model::ClusterUsage* usage = nullptr);

/// Writes a short human-readable summary (totals, by-resource figures, warnings).
/// `store` must be finalized. Thread: any.
void writeSummaryText(const model::ClusterStore& store, const ImportReport& report, std::ostream& out);

/// Formats milli-units as an exact decimal number ("0.46", "8", "-1.5"). Thread: any.
[[nodiscard]] std::string formatMilliDecimal(std::int64_t milli);

} // namespace fleet::importers
