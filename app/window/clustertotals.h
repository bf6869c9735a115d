// SPDX-License-Identifier: Apache-2.0
#pragma once
// The totals the main window's status bar shows for one cluster.

#include "importers/importreport.h"
#include "model/clusterstore.h"
#include "model/clustertotals.h"

#include <QString>

#include <cstdint>

namespace fleet::app {

/// The status bar's figures: the model's totals (model/clustertotals.h, the same computation
/// as `summary`'s) and the import's warning count. Computed once per import on the worker.
struct ClusterTotals : model::ClusterTotals {
    std::size_t warnings = 0;
};

/// model::computeClusterTotals() of a finalized store with the warning count of `report`.
/// Thread: any (reads only).
[[nodiscard]] ClusterTotals computeTotals(const model::ClusterStore& store, const importers::ImportReport& report);

/// "1 warning", "12 warnings".
[[nodiscard]] QString formatWarningCount(std::size_t warnings);

/// One line for the status bar, e.g. "Nodes 2 (2 ready, 0 NotReady, 0 cordoned) | Pods 11 (11 counted,
/// 0 pending) | GPUs 0 / 0 | CPU 0.45 / 15.8 cores | Memory 200 MiB / 59.4 GiB | 0 warnings".
/// Counts are exact with thousands separators; ", N on unknown nodes" follows "pending" when
/// N > 0. GPUs are physical GPUs (model/accelerators.h), followed by "(MIG slices r / a)"
/// where the cluster has MIG slices, then ", Neuron r / a devices (r / a cores)" where it
/// has Neuron devices (in this longest form; the shorter variants and their GPUs part keep
/// "GPUs r / a", and clusterTotalsDetails() lists MIG slices and Neuron devices in full). Resources are "requested / allocatable", each figure by the one rule of
/// model/figures.h (formatGpus, formatCores, formatBytes), so that the status bar, `summary`
/// and the map's tooltip write the same amount the same way.
[[nodiscard]] QString formatTotals(const ClusterTotals& totals);
/// formatTotals() without the warning count ("Nodes ... | Memory 200 MiB / 59.4 GiB").
[[nodiscard]] QString formatClusterTotals(const ClusterTotals& totals);
/// formatClusterTotals() and shorter forms of it, longest first, for a StatusField. The most
/// basic figures are the last to go: without the node and pod breakdowns ("Nodes 100,000 |
/// Pods 2,000,000 | GPUs ... | CPU ... | Memory ..."), then without memory, without CPU
/// ("Nodes 100,000 | Pods 2,000,000 | GPUs 322,935 / 360,464"), without GPUs ("Nodes 100,000 |
/// Pods 2,000,000") and last "Nodes 100,000".
[[nodiscard]] QStringList clusterTotalsVariants(const ClusterTotals& totals);
/// Every figure in full, one per line (the status bar's tooltip): breakdowns of nodes and
/// pods (", N on unknown nodes" when N > 0), and the resources exact (GPUs and cores to the
/// milli, memory in bytes), with thousands separators.
[[nodiscard]] QString clusterTotalsDetails(const ClusterTotals& totals);

} // namespace fleet::app
