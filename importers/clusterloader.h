// SPDX-License-Identifier: Apache-2.0
#pragma once
// One entry point for every offline source: detects each file's format, imports all of
// them into one new store, binds pods to nodes and builds the topology.

#include "importers/importreport.h"
#include "importers/simulated/simulatedcluster.h"
#include "model/clusterstore.h"
#include "model/topology.h"
#include "model/usage.h"

#include <memory>
#include <string>
#include <vector>

namespace fleet::importers {

namespace kube {
struct ResolvedKubeconfig;
}

/// A cluster ready to show: the store (finalized), its topology, and what the import said.
struct LoadedCluster {
    std::shared_ptr<model::ClusterStore> store;
    std::shared_ptr<model::Topology> topology;
    ImportReport report;
    /// Short description of the source for titles ("nodes.json + pods.json", "simulated 100000 nodes, seed 1").
    std::string sourceLabel;
    /// What nodes and pods use (model/usage.h), where the source has it: the simulated
    /// cluster's own (simulatedusage.h); null for files and live lists (usage comes from a
    /// separate source, e.g. Prometheus).
    std::shared_ptr<const model::ClusterUsage> usage;
    /// A live cluster (loadLiveCluster) only: the API server URL and the resourceVersion of the
    /// pod list, which a plan made on it names as its source (resources/schemas/plan-v1.md).
    std::string server;
    std::string resourceVersion;
    /// A live cluster only: the node list's resourceVersion and the resolved kubeconfig it was
    /// listed with, from which the window's WATCH starts (importers/live/kubewatchfeed.h).
    std::string nodesResourceVersion;
    std::shared_ptr<const kube::ResolvedKubeconfig> kubeconfig;
    /// A live cluster only: "" when its pods were listed cluster-wide; else what the list saw
    /// ("pods of 1 of 2 namespaces (not listed: cache)": the cluster-wide list was refused,
    /// kube::LiveListResult::partialView), for the window's partial-view notice.
    std::string partialView;
};

/// The formats loadClusterFiles() recognises.
enum class FileFormat { KubectlJson, AlibabaCsv };

/// Detects the format of `path` from its first bytes (at most 64 KiB are read): an Alibaba
/// trace CSV header, else kubectl JSON (whose importer gives the precise error for anything
/// else). Throws ImportError when the file cannot be read or its head shows a binary file
/// (binaryFileMessage()). Thread: any.
[[nodiscard]] FileFormat detectFileFormat(const std::string& path);

/// Imports every file into one new store (kubectl JSON: nodes, pods, PersistentVolume,
/// PodDisruptionBudget and Namespace lists may come in any order, and pods' claims are bound
/// to PersistentVolumes once every file is read; Alibaba CSV node and pod lists), then
/// finalize() and Topology::build().
/// All or nothing: throws ImportError naming the file and place, or ImportCancelled; never
/// returns a partial or silently empty cluster (an input with no nodes and no pods is an error).
/// Thread: any; the caller owns the result. `progress` sees bytes over all files.
[[nodiscard]] LoadedCluster loadClusterFiles(const std::vector<std::string>& paths, ImportProgress* progress = nullptr,
                                             const model::TopologySpec& topologySpec = model::TopologySpec::defaults());

/// Generates the simulated cluster (see simulatedcluster.h), finalized, with its topology.
/// Throws ImportCancelled when `progress` asks to stop, and ImportError when the result holds
/// no nodes and no pods (spec.nodeCount 0). `progress` sees nodes generated. Thread: any.
[[nodiscard]] LoadedCluster loadSimulatedCluster(const SimulationSpec& spec, ImportProgress* progress = nullptr,
                                                 const model::TopologySpec& topologySpec = model::TopologySpec::defaults());

namespace kube {
struct ResolvedKubeconfig;
}

/// Lists a live cluster once (importers/kube/kubelist.h: nodes, pods, and the optional lists the
/// what-if reads; no WATCH) with the kubeconfig's server and credentials, then finalize() and
/// Topology::build(). sourceLabel is "CONTEXT (SERVER)"; `server` and `resourceVersion` are the
/// cluster's and the pod list's. Throws kube::KubeApiError, ImportError or ImportCancelled; all or nothing
/// as loadClusterFiles(). Thread: any (it blocks on the network).
[[nodiscard]] LoadedCluster loadLiveCluster(const kube::ResolvedKubeconfig& config, ImportProgress* progress = nullptr,
                                            const model::TopologySpec& topologySpec = model::TopologySpec::defaults());

} // namespace fleet::importers
