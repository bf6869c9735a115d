#pragma once
// `fleetscope summary`: the imported cluster as figures, in JSON (for scripts) or text.

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace fleet::importers {

/// Writes the summary JSON:
///   {"nodes": [{"name", "ready": "True"|"False"|"Unknown", "cordoned": bool, "allocatable": R, "requested": R}],
///    "pods": [{"namespace", "name", "node": name or null, "phase", "counted": bool, "request": R}],
///    "totals": {"nodes", "ready_nodes", "cordoned_nodes", "pods", "counted_pods", "pending_pods",
///               "allocatable": R, "requested": R, "pending": R},
///    "warnings": [string]}
/// where R = {"cpu_millicores": int, "memory_bytes": int, "gpu": number (whole GPUs, exact to 1/1000),
///            "pods": int, "ephemeral-storage": int (bytes), "<other resource name>": number, ...}; extended resources appear
///            (for a node: where it has allocatable or capacity of them).
/// `store` must be finalized. Streams: memory stays flat for 2M pods. Thread: any.
void writeSummaryJson(const model::ClusterStore& store, const ImportReport& report, std::ostream& out);

/// Writes a short human-readable summary (totals, by-resource figures, warnings).
/// `store` must be finalized. Thread: any.
void writeSummaryText(const model::ClusterStore& store, const ImportReport& report, std::ostream& out);

/// Formats milli-units as an exact decimal number ("0.46", "8", "-1.5"). Thread: any.
[[nodiscard]] std::string formatMilliDecimal(std::int64_t milli);

} // namespace fleet::importers
