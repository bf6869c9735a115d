// SPDX-License-Identifier: Apache-2.0
// The FGD data folder: trace loading and the reference results (fgdtrace.h).
#include "fgdtrace.h"

#include "alibabacsv.h"
#include "importers/importreport.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fleet::importers {

namespace {
namespace fs = std::filesystem;
constexpr std::string_view kPodPrefix = "openb_pod_list_";

std::string nodeList(const std::string& dataDir)
{
    const fs::path p = fs::path(dataDir) / "csv" / "openb_node_list_gpu_node.csv";
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        throw std::invalid_argument(dataDir + ": not the FGD trace folder (alibaba-gpu-v2023-openb): it has no csv/openb_node_list_gpu_node.csv");
    return p.string();
}

std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, ','))
        out.push_back(field);
    if (!line.empty() && line.back() == ',')
        out.emplace_back();
    return out;
}
} // namespace

std::vector<std::string> fgdTraceNames(const std::string& dataDir)
{
    (void)nodeList(dataDir);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(fs::path(dataDir) / "csv")) {
        const std::string f = e.path().filename().string();
        if (f.starts_with(kPodPrefix) && f.ends_with(".csv"))
            names.push_back(f.substr(kPodPrefix.size(), f.size() - kPodPrefix.size() - 4));
    }
    std::sort(names.begin(), names.end());
    return names;
}

model::ClusterStore loadFgdTrace(const std::string& dataDir, const std::string& trace)
{
    const std::string nodes = nodeList(dataDir);
    const std::vector<std::string> known = fgdTraceNames(dataDir);
    if (std::find(known.begin(), known.end(), trace) == known.end()) {
        std::string list;
        for (const std::string& k : known)
            list += (list.empty() ? "" : ", ") + k;
        throw std::invalid_argument("unknown trace \"" + trace + "\": " + dataDir + "/csv has no " + std::string(kPodPrefix) + trace
            + ".csv (known: " + list + ")");
    }
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(nodes, store, report);
    importAlibabaCsvFile((fs::path(dataDir) / "csv" / (std::string(kPodPrefix) + trace + ".csv")).string(), store, report);
    store.finalize();
    return store;
}

FgdReference loadFgdReference(const std::string& dataDir)
{
    FgdReference ref;
    const fs::path path = fs::path(dataDir) / "expected_results" / "analysis_allo_discrete.csv";
    std::ifstream in(path);
    if (!in)
        return ref;
    // The simulator's policy directories (SOURCE.md) and our policy names (placementPolicyNames()).
    const std::map<std::string, std::string> names { { "01-Random", "Random" }, { "02-DotProd", "DotProduct" },
        { "03-GpuClustering", "GpuClustering" }, { "04-GpuPacking", "GpuPacking" }, { "05-BestFit", "BestFit" }, { "06-FGD", "FGD" } };
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = splitCsv(line);
    const auto col = std::find(header.begin(), header.end(), "100");
    if (header.size() < 5 || header[0] != "workload" || col == header.end())
        throw ImportError(path.string(), 1, "", "expected the header workload,sc_policy,tune,seed,total_gpus,0..130");
    const std::size_t c100 = static_cast<std::size_t>(col - header.begin());
    std::size_t lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty())
            continue;
        const std::vector<std::string> f = splitCsv(line);
        if (f.size() <= c100)
            throw ImportError(path.string(), lineNo, "", "expected " + std::to_string(header.size()) + " columns, found " + std::to_string(f.size()));
        if (f[2] != "1.3")
            continue;
        const auto policy = names.find(f[1]);
        if (policy == names.end())
            continue;
        try {
            const std::string workload = f[0].starts_with(kPodPrefix) ? f[0].substr(kPodPrefix.size()) : f[0];
            ref[workload][policy->second][std::stoull(f[3])] = 100.0 - std::stod(f[c100]);
        } catch (const std::exception&) {
            throw ImportError(path.string(), lineNo, "", "expected a seed and a number in column 100, found \"" + f[3] + "\", \"" + f[c100] + "\"");
        }
    }
    return ref;
}

} // namespace fleet::importers
