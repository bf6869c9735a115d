// SPDX-License-Identifier: Apache-2.0
#pragma once
// Importer for the Alibaba GPU cluster trace v2023 ("openb", the trace of the FGD paper:
// Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
// Gradient Descent", USENIX ATC '23; github.com/alibaba/clusterdata, cluster-trace-gpu-v2023).
//
// Three CSV shapes, recognised by their header line (exactly these columns in this order):
//   node list       sn,cpu_milli,memory_mib,gpu,model
//   pod list        name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
//                   creation_time,deletion_time,scheduled_time
//   short pod list  name,cpu_milli,memory_mib,num_gpu,gpu_milli      (the multigpu* files)
//
// Nodes become store nodes the way the FGD simulator's node YAML
// (node_yaml/openb_node_list_gpu_node.yaml) describes them: allocatable = capacity =
// cpu_milli millicores, memory_mib x 1,048,576 bytes, gpu x 1000 milli-GPU, pods 1001, and on
// GPU nodes the extended resource alibabacloud.com/gpu-count = gpu; labels
// alibabacloud.com/gpu-card-model = model (GPU nodes), kubernetes.io/hostname,
// kubernetes.io/os and beta.kubernetes.io/os = linux; Ready; GPU model and count kept exactly.
//
// Pods are demand: the trace records no placement, so no pod gets a nodeName. Each pod is put
// in namespace "default": the trace has no namespaces, and "default" is where Kubernetes puts
// an object created without one (https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/).
// Request: cpu_milli millicores, memory_mib MiB in bytes, num_gpu x gpu_milli milli-GPU (a
// GPU-sharing pod asks for gpu_milli < 1000 of one GPU), and alibabacloud.com/gpu-count =
// num_gpu when num_gpu > 0. A gpu_spec ("T4|P100", the allowed GPU models) becomes one
// required node affinity term alibabacloud.com/gpu-card-model In [models, as listed]. Phase
// comes from pod_phase; the short pod list has none and its pods are Pending. qos and the
// three times are checked (qos not empty; times empty or non-negative integers) but not kept.
//
// Errors: this importer refuses a file with any bad row: it reads every row, then throws one
// ImportError at the first bad value naming the file, the line, the column (number and name)
// and what was expected, whose message lists every bad value of the file (file:line: column:
// message, the first 20 and then "and N more"; importers/badvalues.h, as the kubectl JSON
// importer lists invalid quantities). It never skips a row and never leaves part of a file in
// the store (rows are checked before anything is added). A CSV syntax error (an unclosed
// quote) stops reading at once with its own error. Bad values:
// a wrong column count, an empty or non-integer number, a negative value, a value too large
// for the model's int64 units, gpu_milli outside 1..1000 on a GPU pod, gpu_milli other than
// 1000 on a multi-GPU pod or other than 0 on a CPU pod, an unknown pod_phase, an empty
// model in a gpu_spec, a duplicate name, a field that is not valid UTF-8 (the trace is UTF-8;
// a field holding other bytes is named by line and column, like any bad field); an unknown
// header says which headers are supported; a binary file (a NUL byte in the first 4 KiB, or
// the magic number of ELF, PNG, zip, gzip, xz or zstd) or UTF-16 text is named as such, at
// line 0. Input quoted in a message goes through quotedText() (importers/quotedtext.h):
// control bytes and invalid UTF-8 as \xNN, at most about 60 characters.
// A GPU node without a model, or a model on a node without GPUs, is kept and warned about.

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <string>
#include <string_view>

namespace fleet::importers {

/// The shape of an Alibaba trace CSV, told by its header.
enum class AlibabaCsvKind { Unknown, NodeList, PodList, ShortPodList };

/// The kind of the header line `firstLine` (a trailing CR and a leading UTF-8 BOM are
/// ignored). Pure; thread-safe.
[[nodiscard]] AlibabaCsvKind alibabaCsvKind(std::string_view firstLine) noexcept;

/// True when `firstLine` is the header of an Alibaba GPU trace node list or pod list.
[[nodiscard]] bool isAlibabaCsvHeader(std::string_view firstLine) noexcept;

/// Reads one trace CSV file and appends its nodes or pods to `store` (no finalize()).
/// Progress is reported in bytes of the file. Throws ImportError (file cannot be read, bad
/// header or row; see the file comment) or ImportCancelled; in both cases `store` is
/// unchanged. Thread: any one thread that owns `store`.
void importAlibabaCsvFile(
    const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress = nullptr);

/// Same as importAlibabaCsvFile() for text already in memory; `sourceName` names it in errors.
void importAlibabaCsvText(std::string_view text, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress = nullptr);

} // namespace fleet::importers
