// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pod a new workload is made of (`plan place`, the place-pods plan action): a Pod object
// as JSON text, from a shape (cpu, memory, GPUs, GPU model) or a pod template file (JSON or
// YAML), and its way into a ClusterStore as a pending template pod, read by the kubectl JSON
// importer (importers/kube/kubejson.h), so that the template's requests, tolerations, node
// selector and affinity are read exactly as a `kubectl get pods -o json` pod's are.
//
// Thread: any (pure functions; addTemplatePod on the store's thread).

#include "model/clusterstore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fleet::importers {

/// A pod by shape. Quantities as Kubernetes writes them ("8", "500m", "64Gi").
struct PodShapeSpec {
    std::string namespaceName = "default";
    std::string name = "placed";
    std::string cpu, memory;
    std::int32_t gpus = 0;
    std::string gpuModel;                            // "" = any
    std::string gpuResource = "nvidia.com/gpu";      // the extended resource the GPUs are
    std::string gpuModelLabel = "nvidia.com/gpu.product"; // the node label that names the model
};

/// The Pod object of a shape: one container requesting cpu, memory and `gpus` of gpuResource;
/// with GPUs, a toleration of the gpuResource taint (key Exists, NoSchedule), as Kubernetes'
/// ExtendedResourceToleration admission plugin adds for a pod requesting an extended resource
/// (plugin/pkg/admission/extendedresourcetoleration); with a GPU model, a required node
/// affinity term gpuModelLabel In (gpuModel). Minified JSON. Throws std::invalid_argument when
/// cpu or memory is empty or gpus < 0.
[[nodiscard]] std::string podTemplateFromShape(const PodShapeSpec& shape);

/// A pod template file: JSON (a Pod object) or YAML (a Pod document; `kind: Pod` or a bare
/// `spec`/`metadata` mapping), as minified JSON, with metadata.namespace defaulted to
/// "default", metadata.name to `defaultName` when absent, and spec.nodeName removed (the template
/// is pending). Throws std::runtime_error "FILE: what" for an unreadable file, invalid JSON or
/// YAML, or a document that is not a mapping.
[[nodiscard]] std::string podTemplateFromFile(const std::string& path, const std::string& defaultName);

/// Adds the Pod object `podJson` to `store` as a pending pod (the kubectl JSON importer reads
/// it; `sourceName` names it in errors), then finalize(). Returns its id. Throws
/// std::runtime_error when the text is not one Pod, its namespace/name is a pod's already, or
/// the importer refuses it (its message: source, JSON path, what).
model::PodId addTemplatePod(model::ClusterStore& store, const std::string& podJson, const std::string& sourceName);

} // namespace fleet::importers
