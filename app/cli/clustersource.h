// SPDX-License-Identifier: Apache-2.0
#pragma once
// The "which cluster" part of the command line, shared by the GUI and the subcommands.

#include "importers/clusterloader.h"
#include "importers/kube/kubeconfig.h"
#include "importers/prometheus/usagequery.h"
#include "importers/plan/planfile.h"

#include <QCommandLineOption>
#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdint>
#include <optional>

class QCommandLineParser;

namespace fleet::app {

/// Files to import, a simulated cluster (`--simulate NODES`, `--seed N`), or a live cluster
/// (`--kubeconfig FILE`, `--context NAME`: one LIST, importers/kube/kubelist.h).
struct ClusterSource {
    QStringList files;
    bool simulate = false;
    std::size_t simulatedNodes = 100000;
    std::uint64_t seed = 1;
    /// --regions N: the regions the simulated nodes span (importers::SimulationSpec::regionCount);
    /// 1, one regional cluster, unless given.
    std::size_t simulatedRegions = 1;
    bool live = false;
    QString kubeconfig; ///< --kubeconfig (empty: KUBECONFIG or ~/.kube/config, as kubectl)
    QString context;    ///< --context (empty: the current-context)
    /// --request-timeout: the longest one request to the API server, or one query to the
    /// Prometheus, may take, retries included (0: no bound but 60 s per step);
    /// kube::kDefaultRequestTimeout when not given.
    std::chrono::milliseconds requestTimeout { 60'000 };
    /// Where kubeconfig, context and request timeout were given, which errors name: the flags
    /// above, or the fields of a dialog of the window (File > Compare With Live Cluster).
    importers::kube::KubeconfigInput kubeconfigInput = importers::kube::KubeconfigInput::CommandLine;
    /// --prometheus URL [--prometheus-token-file FILE] [--prometheus-ca FILE] [--usage-time T],
    /// or --usage-config FILE [--usage-time T] (importers/prometheus/usageconfig.h): the usage of the loaded cluster from Prometheus (importers/prometheus/usagequery.h);
    /// for the simulated cluster it replaces the simulated usage. Unset: none (files, live)
    /// or the simulated usage.
    std::optional<importers::prometheus::UsageSource> usage;
};

/// Adds --simulate NODES, --seed N, --regions N, --kubeconfig FILE, --context NAME, --request-timeout D, the usage options
/// (--prometheus URL, --prometheus-token-file FILE, --prometheus-ca FILE, --usage-config FILE,
/// --usage-time T) to
/// `parser`, and the FILE... positional argument.
/// `simulateByDefault` must be what readClusterSource() is given: the help of --simulate says
/// that 100000 nodes are simulated when no FILE is given only where that is true.
void addClusterSourceOptions(QCommandLineParser& parser, bool simulateByDefault);

/// Imports the cluster a command line names (files, --simulate, or a live cluster's one LIST
/// with the kubeconfig's credentials; a request that waits past kube::kRequestWaitReportAfter is
/// said on stderr, "fleetscope: waiting for SERVER PATH: ..."), then its usage when source.usage is set (a Prometheus
/// that fails is a warning in the report, not a failed import). Throws what the importers throw (ImportError names the
/// file and place; kube::KubeconfigError, kube::KubeApiError). Thread: any (it blocks).
[[nodiscard]] importers::LoadedCluster loadClusterSource(const ClusterSource& source);

/// loadClusterSource() without the usage. Thread: any (it blocks).
[[nodiscard]] importers::LoadedCluster loadClusterOnly(const ClusterSource& source);
/// The source a plan made on `loaded` names (resources/schemas/plan-v1.md): the files with their
/// SHA-256 digests, the simulation, or the live cluster's server and resourceVersion
/// (LoadedCluster). Throws importers::PlanFileError when a file cannot be read. Thread: any.
[[nodiscard]] importers::PlanSource clusterPlanSource(const ClusterSource& source, const importers::LoadedCluster& loaded);

/// A label for messages: the files, the simulation, or "kubeconfig context NAME".
[[nodiscard]] QString clusterSourceLabel(const ClusterSource& source);

/// Reads the options added by addClusterSourceOptions(). With no file and no --simulate,
/// `simulateByDefault` decides (the GUI opens the simulated cluster; summary refuses); with
/// `simulateByDefault`, --simulate also takes one plan file (looksLikePlanFile()), left in
/// `files` for the window to open on the simulated cluster.
/// Returns false and sets `error` for a bad number or a missing source, a --prometheus URL or
/// --prometheus-token-file that cannot be used (the message never holds the URL's secrets or
/// the token), or a --request-timeout that is not a duration.
bool readClusterSource(const QCommandLineParser& parser, bool simulateByDefault, ClusterSource& source, QString& error);

/// kubectl's --request-timeout syntax: whole seconds ("30"), or a Go duration ("1m30s",
/// "500ms", "1.5s"; units ns, us, ms, s, m, h), from 0 ("no timeout") to 30 days. nullopt for
/// anything else (a negative, a unit missing after a fraction, overflow). Thread: any.
[[nodiscard]] std::optional<std::chrono::milliseconds> parseRequestTimeout(const QString& text);

} // namespace fleet::app
