// SPDX-License-Identifier: Apache-2.0
#include "placerequest.h"

#include "importers/kubenames.h"
#include "importers/plan/podtemplate.h"
#include "importers/quotedtext.h"
#include "model/quantity.h"
#include "model/wellknownlabels.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace fleet::app {

const char* placeFieldFlag(PlaceField f) noexcept
{
    switch (f) {
    case PlaceField::Pods:
        return "--pods";
    case PlaceField::Shape:
    case PlaceField::Cpu:
        return "--cpu";
    case PlaceField::Memory:
        return "--memory";
    case PlaceField::Gpu:
        return "--gpu";
    case PlaceField::GpuModel:
        return "--gpu-model";
    case PlaceField::PodTemplate:
        return "--pod-template";
    case PlaceField::Namespace:
        return "--namespace";
    case PlaceField::Name:
        return "--name";
    case PlaceField::Levels:
        return "--required-level";
    case PlaceField::SliceSize:
        return "--slice-size";
    case PlaceField::SliceLevel:
        return "--slice-level";
    case PlaceField::Domain:
        return "domain";
    }
    return "";
}

std::string gpuModelLabelOf(const model::ClusterStore& store)
{
    for (std::string_view key : model::kGpuModelLabelKeys)
        if (store.strings().find(key).isValid())
            return std::string(key);
    return std::string(model::kGpuModelLabelKeys[0]);
}

model::PlanAction placePodsAction(const PlaceRequestInput& in, const std::string& gpuModelLabel)
{
    auto fail = [](PlaceField f, const std::string& what) { throw PlaceRequestError(f, what); };
    if (in.pods < 1)
        fail(PlaceField::Pods, "--pods N is needed, N a whole number of at least 1");
    if (in.gpus < 0)
        fail(PlaceField::Gpu, "--gpu: expected a whole number of GPUs");
    if (in.sliceSize < 0)
        fail(PlaceField::SliceSize, "--slice-size: expected a whole number of pods");
    const bool shape = !in.cpu.empty() || !in.memory.empty();
    const bool templ = !in.podTemplatePath.empty();
    if (shape == templ)
        fail(templ ? PlaceField::PodTemplate : PlaceField::Shape,
            "give either --cpu Q --memory Q [--gpu N] [--gpu-model M] or --pod-template POD.json|POD.yaml");
    if (shape && in.cpu.empty())
        fail(PlaceField::Cpu, "a pod shape needs both --cpu and --memory");
    if (shape && in.memory.empty())
        fail(PlaceField::Memory, "a pod shape needs both --cpu and --memory");
    // The shape's quantities are checked here, where the option is known: read later from the
    // template made of them, an error could only name "the pod template".
    auto quantity = [&](PlaceField f, const std::string& text, bool milli, const char* example) {
        if (text.empty())
            return;
        std::string problem;
        try {
            if ((milli ? model::parseQuantityMilli(text) : model::parseQuantity(text)) < 0)
                problem = "a request cannot be negative";
        } catch (const std::exception& e) {
            problem = e.what();
        }
        if (!problem.empty())
            fail(f, std::string(placeFieldFlag(f)) + ": expected a Kubernetes quantity such as " + example + ", got "
                    + importers::quotedText(text) + " (" + problem + ")");
    };
    quantity(PlaceField::Cpu, in.cpu, true, "8 or 500m");
    quantity(PlaceField::Memory, in.memory, false, "64Gi or 512Mi");
    if (templ && (in.gpusGiven || !in.gpuModel.empty()))
        fail(in.gpusGiven ? PlaceField::Gpu : PlaceField::GpuModel, "--gpu and --gpu-model describe a shape; with --pod-template the template says it");
    if (!in.requiredLevel.empty() && !in.preferredLevel.empty())
        fail(PlaceField::Levels, "give --required-level or --preferred-level, not both");
    // Given, it must be a label key (as plan consolidate's --keep-within); whether it is a level
    // of the topology is the engine's to say, once the cluster is read.
    if (!in.keepWithinLevel.empty())
        if (const std::string problem = importers::labelKeyProblem(in.keepWithinLevel); !problem.empty())
            fail(PlaceField::Levels, "--keep-within: " + problem + "; give a topology level's label key, e.g. topology.kubernetes.io/region");
    if ((in.sliceSize > 0) != !in.sliceLevel.empty())
        fail(in.sliceSize > 0 ? PlaceField::SliceLevel : PlaceField::SliceSize, "--slice-size and --slice-level go together");
    if (in.sliceSize > 0 && in.pods % in.sliceSize != 0) // the engine's rule (topologyplacement.h), said before the cluster is read
        fail(PlaceField::SliceSize, "the slice size " + std::to_string(in.sliceSize) + " does not divide the " + std::to_string(in.pods) + " pods");

    model::PlanAction action;
    action.type = model::ActionType::PlacePods;
    action.count = in.pods;
    action.requiredLevel = in.requiredLevel;
    action.preferredLevel = in.preferredLevel;
    action.sliceSize = in.sliceSize;
    action.sliceLevel = in.sliceLevel;
    action.keepWithinLevel = in.keepWithinLevel;
    action.gang = in.gang;
    const std::string name = in.name.empty() ? "placed" : in.name;
    try {
        if (shape) {
            importers::PodShapeSpec spec;
            spec.namespaceName = in.namespaceName.empty() ? "default" : in.namespaceName;
            spec.name = name;
            spec.cpu = in.cpu;
            spec.memory = in.memory;
            spec.gpus = in.gpus;
            spec.gpuModel = in.gpuModel;
            spec.gpuModelLabel = gpuModelLabel;
            action.podTemplate = importers::podTemplateFromShape(spec);
        } else {
            action.podTemplate = importers::podTemplateFromFile(in.podTemplatePath, name);
        }
    } catch (const std::exception& e) {
        fail(shape ? PlaceField::Shape : PlaceField::PodTemplate, e.what());
    }
    if (!in.withinDomain.empty()) {
        // The domain's labels join the template's nodeSelector (a label it selects otherwise
        // is replaced: the domain is what was asked for).
        QJsonObject pod = QJsonDocument::fromJson(QByteArray::fromStdString(action.podTemplate)).object();
        QJsonObject spec = pod.value(QStringLiteral("spec")).toObject();
        QJsonObject selector = spec.value(QStringLiteral("nodeSelector")).toObject();
        for (const auto& [key, value] : in.withinDomain)
            selector.insert(QString::fromStdString(key), QString::fromStdString(value));
        spec.insert(QStringLiteral("nodeSelector"), selector);
        pod.insert(QStringLiteral("spec"), spec);
        action.podTemplate = QJsonDocument(pod).toJson(QJsonDocument::Compact).toStdString();
    }
    return action;
}

model::PodId addPlaceTemplatePod(model::ClusterStore& store, model::PlanAction& action, const std::string& namespaceGiven)
{
    model::PodId p;
    try {
        p = importers::addTemplatePod(store, action.podTemplate, "the pod template");
    } catch (const std::exception& e) {
        const std::string what = e.what();
        throw PlaceRequestError(what.find("is in the cluster already") != std::string::npos ? PlaceField::Name : PlaceField::PodTemplate, what);
    }
    action.pod.namespaceName = std::string(store.podNamespace(p));
    action.pod.name = std::string(store.podName(p));
    action.pod.uid.clear();
    if (!namespaceGiven.empty() && action.pod.namespaceName != namespaceGiven)
        throw PlaceRequestError(PlaceField::Namespace,
            "--namespace " + namespaceGiven + " differs from the template's namespace " + action.pod.namespaceName);
    return p;
}

} // namespace fleet::app
