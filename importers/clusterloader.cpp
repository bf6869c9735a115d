// SPDX-License-Identifier: Apache-2.0
#include "clusterloader.h"

#include "importers/document/fleetdocument.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubejson.h"
#include "importers/kube/kubelist.h"
#include "importers/kube/metricsapi.h"
#include "importers/live/livefeed.h"
#include "importers/quotedtext.h"
#include "importers/terminaltext.h"
#include "importers/simulated/simulatedusage.h"
#include "importers/traces/alibabacsv.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <stdexcept>

namespace fleet::importers {
namespace {

// Maps one file's progress into the progress over all files (by bytes).
class MultiFileProgress final : public ImportProgress {
public:
    MultiFileProgress(ImportProgress* outer, std::size_t totalBytes) : m_outer(outer), m_total(totalBytes) {}
    void startFile(std::size_t offset) { m_offset = offset; }
    void progress(std::size_t done, std::size_t /*total*/) override
    {
        if (m_outer)
            m_outer->progress(m_offset + done, m_total);
    }
    bool isCancelled() const override { return m_outer && m_outer->isCancelled(); }

private:
    ImportProgress* m_outer;
    std::size_t m_total;
    std::size_t m_offset = 0;
};

std::string baseName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

// `beside`, when given, runs on a worker while the topology is built, once the store is final
// (it may read the store, and must not change it or `result`).
void finish(LoadedCluster& result, const model::TopologySpec& topologySpec, const std::string& what, const std::function<void()>& beside = {})
{
    model::ClusterStore& store = *result.store;
    if (store.nodeCount() == 0 && store.podCount() == 0)
        throw ImportError(what, 0, "", "the input holds no nodes and no pods (a PodDisruptionBudget, PersistentVolume or Namespace list, or an "
                                       "empty list, describes no cluster by itself): load the node and pod lists too "
                                       "(kubectl get nodes -o json; kubectl get pods -A -o json)");
    if (const auto [dup, first] = store.findDuplicatePod(); dup.isValid())
        throw ImportError(what, 0, "",
                          "pod " + escapedText(store.podNamespace(dup), 253) + "/" + escapedText(store.podName(dup), 253)
                              + " appears twice (pod " + std::to_string(first.value + 1) + " and pod " + std::to_string(dup.value + 1)
                              + " of the input): namespace/name must be unique; was a file loaded twice, or two pod lists of one trace?");
    std::size_t unknown = 0;
    try {
        unknown = store.finalize();
    } catch (const std::overflow_error& e) {
        throw ImportError(what, 0, "", terminalLine(e.what())); // a model error may quote a name
    }
    if (unknown > 0) {
        // Name what it is about: the first few pods with the node they name, then a count.
        constexpr std::size_t kNamed = 3;
        constexpr std::size_t kNameChars = 253; // a DNS subdomain name, the longest Kubernetes name
        std::string named;
        std::size_t listed = 0;
        std::vector<std::string_view> missingNodes;
        for (std::uint32_t i = 0; i < store.podCount(); ++i) {
            const model::PodId p(i);
            if (store.podNodeName(p).empty() || store.podNode(p).isValid())
                continue;
            if (std::find(missingNodes.begin(), missingNodes.end(), store.podNodeName(p)) == missingNodes.end())
                missingNodes.push_back(store.podNodeName(p));
            if (listed < kNamed) {
                // Names come from the input: escaped, so that a control sequence in one never
                // reaches the operator's terminal or splits the warning's line.
                named += (listed ? ", " : "") + escapedText(store.podNamespace(p), kNameChars) + "/"
                    + escapedText(store.podName(p), kNameChars) + " on " + escapedText(store.podNodeName(p), kNameChars);
                ++listed;
            }
        }
        if (unknown > listed)
            named += ", and " + std::to_string(unknown - listed) + " more";
        result.report.warn(std::to_string(unknown) + (unknown == 1 ? " pod names a node that is" : " pods name nodes that are")
                           + " not in the input (spec.nodeName): " + named + " (" + std::to_string(missingNodes.size())
                           + (missingNodes.size() == 1 ? " node" : " nodes")
                           + " missing); they count on no node. Load the nodes file together with the pods file.");
    }
    if (store.nodeCount() == 0)
        result.report.warn("the input holds pods but no nodes: load the node list too "
                           "(`kubectl get nodes -o json`, or the trace's node list CSV)");
    std::future<void> besideDone;
    if (beside)
        besideDone = std::async(std::launch::async, beside);
    try {
        result.topology = std::make_shared<model::Topology>(model::Topology::build(store, topologySpec));
    } catch (...) {
        if (besideDone.valid())
            besideDone.wait(); // it reads the store: never left running past it
        throw;
    }
    if (besideDone.valid())
        besideDone.get();
}

} // namespace

namespace {

// How much of a file's head detectFileFormat() reads: far more than any trace CSV header.
constexpr std::size_t kFormatSniffBytes = 64 * 1024;

} // namespace

FileFormat detectFileFormat(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ImportError(path, 0, "", std::string("cannot open the file: ") + std::strerror(errno));
    // Only the head is read: a header line is short, and a large binary file (a 3 GB disk
    // image) is refused from its first bytes rather than read whole looking for a newline.
    std::string head(kFormatSniffBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (auto binary = binaryFileMessage(head))
        throw ImportError(path, 0, "", *binary);
    std::string firstLine = head.substr(0, head.find('\n'));
    if (firstLine.starts_with("\xEF\xBB\xBF"))
        firstLine.erase(0, 3);
    if (!firstLine.empty() && firstLine.back() == '\r')
        firstLine.pop_back();
    if (isAlibabaCsvHeader(firstLine))
        return FileFormat::AlibabaCsv;
    // A header-like first line (comma-separated names, no JSON or markup) goes to the CSV
    // importer, whose error lists the headers it supports, rather than "not JSON".
    const bool headerLike = firstLine.find(',') != std::string::npos
        && std::all_of(firstLine.begin(), firstLine.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ',' || c == ' ' || c == '-' || c == '"';
           });
    if (headerLike)
        return FileFormat::AlibabaCsv;
    return FileFormat::KubectlJson;
}

LoadedCluster loadClusterFiles(const std::vector<std::string>& paths, ImportProgress* progress,
                               const model::TopologySpec& topologySpec)
{
    if (paths.empty())
        throw ImportError("(no file)", 0, "", "no input file given");
    // A .fleet document (told by its SQLite header and application_id, whatever its name) is a
    // whole cluster state: it is opened alone, with its own topology keys unless others are asked.
    for (const auto& path : paths)
        if (isFleetDocumentFile(path)) {
            if (paths.size() != 1)
                throw ImportError(path, 0, "", "is a .fleet document, a whole cluster state: open it alone, not with other files");
            const bool defaults = topologySpec.levelKeys == model::TopologySpec::defaults().levelKeys;
            FleetDocument doc = openFleetDocument(path, defaults ? nullptr : &topologySpec);
            doc.cluster.sourceLabel = baseName(path) + (doc.cluster.sourceLabel.empty() ? "" : " (" + doc.cluster.sourceLabel + ")");
            if (progress)
                progress->progress(1, 1);
            return std::move(doc.cluster);
        }
    LoadedCluster result;
    result.store = std::make_shared<model::ClusterStore>();

    std::size_t totalBytes = 0;
    std::vector<std::size_t> sizes;
    for (const auto& path : paths) {
        std::error_code ec;
        const auto status = std::filesystem::status(path, ec);
        if (ec)
            throw ImportError(path, 0, "", "cannot read the file: " + ec.message());
        if (std::filesystem::is_directory(status))
            throw ImportError(path, 0, "", "is a folder; give the files inside it (kubectl JSON or trace CSV)");
        if (!std::filesystem::is_regular_file(status))
            throw ImportError(path, 0, "", "is not a regular file (pipes, devices and standard input are not read); "
                                           "save the output to a file first, e.g. kubectl get pods -A -o json > pods.json");
        const auto size = std::filesystem::file_size(path, ec);
        if (ec)
            throw ImportError(path, 0, "", "cannot read the file: " + ec.message());
        sizes.push_back(static_cast<std::size_t>(size));
        totalBytes += static_cast<std::size_t>(size);
    }
    MultiFileProgress multi(progress, totalBytes);
    std::size_t offset = 0;
    std::string firstJson, firstCsv; // a file of each format, for the mixing warning
    KubectlJsonSession session;      // PersistentVolumes and claims, matched once every file is read
    for (std::size_t i = 0; i < paths.size(); ++i) {
        multi.startFile(offset);
        switch (detectFileFormat(paths[i])) {
        case FileFormat::AlibabaCsv:
            importAlibabaCsvFile(paths[i], *result.store, result.report, &multi);
            if (firstCsv.empty())
                firstCsv = baseName(paths[i]);
            break;
        case FileFormat::KubectlJson:
            importKubectlJsonFile(paths[i], *result.store, result.report, &multi, KubectlJsonOptions {}, session);
            if (firstJson.empty())
                firstJson = baseName(paths[i]);
            break;
        }
        offset += sizes[i];
        if (!result.sourceLabel.empty())
            result.sourceLabel += " + ";
        result.sourceLabel += baseName(paths[i]);
    }
    // Two sources in one cluster is rarely meant: a kubectl node list and a trace's node list
    // describe different clusters, and their nodes end up side by side.
    if (!firstJson.empty() && !firstCsv.empty())
        result.report.warn("mixing formats: " + firstJson + " is kubectl JSON and " + firstCsv
                           + " is an Alibaba trace CSV; their nodes and pods are loaded as one cluster. Load one source at a time "
                             "unless that is what you mean.");
    resolvePersistentVolumeClaims(session, *result.store, result.report);
    result.report.bytesRead = totalBytes;
    finish(result, topologySpec, paths.size() == 1 ? paths.front() : result.sourceLabel);
    if (progress)
        progress->progress(totalBytes, totalBytes);
    return result;
}

LoadedCluster loadSimulatedCluster(const SimulationSpec& spec, ImportProgress* progress, const model::TopologySpec& topologySpec)
{
    LoadedCluster result;
    result.store = std::make_shared<model::ClusterStore>();
    generateSimulatedCluster(spec, *result.store, result.report, progress);
    result.sourceLabel = "simulated " + std::to_string(spec.nodeCount) + " nodes, seed " + std::to_string(spec.seed);
    if (spec.regionCount > 1)
        result.sourceLabel += ", " + std::to_string(spec.regionCount) + " regions";
    // The usage (about 0.1 s at 100,000 nodes) is made on a worker while the topology is
    // built: both read the final store only.
    std::shared_ptr<const model::ClusterUsage> usage;
    finish(result, topologySpec, result.sourceLabel,
        [&] { usage = std::make_shared<const model::ClusterUsage>(simulatedUsage(*result.store, spec.seed, 0.0)); });
    result.usage = std::move(usage);
    return result;
}

LoadedCluster loadLiveCluster(const kube::ResolvedKubeconfig& config, ImportProgress* progress, const model::TopologySpec& topologySpec)
{
    LoadedCluster result;
    result.store = std::make_shared<model::ClusterStore>();
    kube::KubeApiClient client(config);
    // A caller that can say what a slow request waits for (the CLI on stderr) implements both.
    client.setObserver(dynamic_cast<kube::RequestObserver*>(progress));
    const kube::LiveListResult listed = kube::listCluster(client, *result.store, result.report, progress);
    try { // usage is a bonus: a failing metrics-server never fails the list
        if (auto usage = kube::queryMetricsServer(client, *result.store, result.report))
            result.usage = std::make_shared<const model::ClusterUsage>(std::move(*usage));
    } catch (const ImportError& e) {
        result.report.warn(std::string("no usage from metrics-server: ") + e.what());
    }
    result.server = config.cluster.server;
    result.resourceVersion = listed.resourceVersion;
    result.nodesResourceVersion = listed.nodesResourceVersion;
    result.kubeconfig = std::make_shared<const kube::ResolvedKubeconfig>(config);
    if (listed.partialView)
        result.partialView = live::partialViewWords(listed.podNamespaces.size(), listed.podNamespacesRefused);
    result.sourceLabel = config.contextName + " (" + config.cluster.server + ")";
    finish(result, topologySpec, config.cluster.server);
    return result;
}

} // namespace fleet::importers
