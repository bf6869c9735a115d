// SPDX-License-Identifier: Apache-2.0
#pragma once
// The FGD paper's data folder (../shared/data/alibaba-gpu-v2023-openb: csv/ and
// expected_results/, see its SOURCE.md and PROTOCOL.md): the trace loaded for a replay
// (model/search/tracereplay.h) and the reference results of the paper's simulator.
//
// Errors: std::invalid_argument naming the folder or file and what is missing (a bad
// folder, an unknown trace name); a bad CSV row is alibabacsv.h's ImportError.
// Thread: any; no shared state.

#include "model/clusterstore.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fleet::importers {

/// Trace names in `dataDir`: the suffixes of csv/openb_pod_list_<name>.csv, sorted ("cpu050",
/// "default", ...). Throws std::invalid_argument when `dataDir` has no
/// csv/openb_node_list_gpu_node.csv.
[[nodiscard]] std::vector<std::string> fgdTraceNames(const std::string& dataDir);

/// The 1,213 GPU nodes (csv/openb_node_list_gpu_node.csv) and the pods of
/// csv/openb_pod_list_<trace>.csv, as importAlibabaCsvFile() reads them, finalized. Throws
/// std::invalid_argument for a folder without the node list or an unknown trace (naming the
/// known ones), ImportError for a bad file.
[[nodiscard]] model::ClusterStore loadFgdTrace(const std::string& dataDir, const std::string& trace);

/// The paper's results: per trace name, per policy (FGD, BestFit,
/// GpuPacking, GpuClustering, DotProduct, Random), per seed, the unallocated GPU percent at
/// 100% arrived, 100 - column "100" of expected_results/analysis_allo_discrete.csv
/// (PROTOCOL.md section 5). Empty when the file is missing; ImportError for a malformed row.
using FgdReference = std::map<std::string, std::map<std::string, std::map<std::uint64_t, double>>>;
[[nodiscard]] FgdReference loadFgdReference(const std::string& dataDir);

} // namespace fleet::importers
