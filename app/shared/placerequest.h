// SPDX-License-Identifier: Apache-2.0
#pragma once
// A new workload's placement request as the user gives it, turned into the place-pods plan
// action (model/plan/plan.h) by one piece of code that both `fleetscope plan place` (its flags)
// and Plan > Place Workload (its dialog's fields) use ("Placement of a new workload").
//
// Thread: any (pure functions; addPlaceTemplatePod() on the thread that owns the store).

#include "model/plan/plan.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fleet::app {

/// The fields of a request; each names the CLI flag and the dialog field it comes from.
enum class PlaceField : std::uint8_t {
    Pods, Shape, Cpu, Memory, Gpu, GpuModel, PodTemplate, Namespace, Name, Levels, SliceSize, SliceLevel, Domain
};
/// The CLI's flag for a field ("--pods", ...; Shape: "--cpu"). Thread: any.
[[nodiscard]] const char* placeFieldFlag(PlaceField f) noexcept;

/// A bad request: what is wrong (a sentence naming the flag, as the CLI prints it) and the field.
class PlaceRequestError : public std::invalid_argument {
public:
    PlaceRequestError(PlaceField field, const std::string& what)
        : std::invalid_argument(what)
        , m_field(field)
    {
    }
    [[nodiscard]] PlaceField field() const noexcept { return m_field; }

private:
    PlaceField m_field;
};

/// What the user asked for. A shape (cpu and memory given, GPUs optional) or a template file,
/// never both.
struct PlaceRequestInput {
    std::int32_t pods = 0;           // N >= 1
    std::string cpu, memory;         // Kubernetes quantities ("8", "500m", "64Gi"); "" = not given
    std::int32_t gpus = 0;           // nvidia.com/gpu per pod (>= 0)
    bool gpusGiven = false;
    std::string gpuModel;            // "" = any
    std::string podTemplatePath;     // a Pod object, JSON or YAML; "" = a shape
    std::string namespaceName;       // "" = the template's, else "default"
    std::string name;                // "" = "placed": the template pod's name, the pods NAME-0...
    std::string requiredLevel, preferredLevel; // label keys; at most one
    std::string keepWithinLevel;     // --keep-within: a label key the pods never spread over; "" = none (a Levels error)
    std::int32_t sliceSize = 0;      // 0 = no slices; else divides pods, with sliceLevel
    std::string sliceLevel;
    bool gang = true;
    /// A domain the pods must lie in (Place Workload Here… on a domain label): its path's
    /// label=value steps (model/domainpath.h), added to the template's nodeSelector, so that
    /// only that domain's nodes take the pods (Kubernetes nodeSelector semantics: every label).
    std::vector<std::pair<std::string, std::string>> withinDomain;
};

/// The place-pods action of a request: count, levels, slices, gang and the template pod's JSON
/// (importers/plan/podtemplate.h: a shape's Pod object, or the file read as JSON or YAML, with
/// the domain's labels in spec.nodeSelector). action.pod is left empty: addPlaceTemplatePod()
/// fills it. `gpuModelLabel`: the node label that names GPU models (gpuModelLabelOf()).
/// Throws PlaceRequestError naming the field: pods < 1, a shape and a template both or
/// neither, cpu without memory, GPUs or a GPU model with a template, both levels, a slice size
/// without a slice level or one that does not divide the pods, a keep-within level that is
/// not a label key, an unreadable template file.
[[nodiscard]] model::PlanAction placePodsAction(const PlaceRequestInput& input, const std::string& gpuModelLabel);

/// The node label a store names GPU models by (nvidia.com/gpu.product, the Alibaba trace's
/// alibabacloud.com/gpu-card-model, or k8s.amazonaws.com/accelerator; the first a node has).
[[nodiscard]] std::string gpuModelLabelOf(const model::ClusterStore& store);

/// Adds action's template pod to `store` (importers::addTemplatePod: the kubectl JSON
/// importer, then finalize(): O(nodes + pods), never on a GUI thread for a big store) and sets
/// action.pod to it. Throws PlaceRequestError (Name: the pod exists already, or a template whose
/// namespace differs from `namespaceGiven`; PodTemplate: the importer refuses it).
model::PodId addPlaceTemplatePod(model::ClusterStore& store, model::PlanAction& action, const std::string& namespaceGiven);

} // namespace fleet::app
