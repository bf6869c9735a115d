// SPDX-License-Identifier: Apache-2.0
// Pod templates for new workloads (podtemplate.h): shapes written as Pod JSON, YAML read by
// yaml-cpp and written as JSON, JSON files checked by simdjson, and the pod read into the store
// by the kubectl JSON importer (no second copy of its pod reading).
#include "podtemplate.h"

#include "jsontext.h"

#include "importers/importreport.h"
#include "importers/jsonerrorplace.h"
#include "importers/kube/kubejson.h"
#include "importers/optionfile.h"
#include "importers/yamlinput.h"

#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace fleet::importers {

namespace {

// A plain YAML scalar as JSON: null, booleans and numbers keep their type (YAML 1.2 core
// schema); quoted scalars stay strings.
void writeScalar(JsonWriter& w, const YAML::Node& n)
{
    const std::string& s = n.Scalar();
    if (n.Tag() == "!") {
        w.value(s);
        return;
    }
    if (s == "null" || s == "~" || s.empty()) {
        w.null();
        return;
    }
    if (s == "true" || s == "false") {
        w.value(s == "true");
        return;
    }
    std::size_t used = 0;
    try {
        const long long v = std::stoll(s, &used);
        if (used == s.size()) {
            w.value(std::int64_t { v });
            return;
        }
        const double d = std::stod(s, &used);
        if (used == s.size()) {
            w.value(d);
            return;
        }
    } catch (const std::exception&) {
    }
    w.value(s);
}

void writeYaml(JsonWriter& w, const YAML::Node& n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map:
        w.beginObject();
        for (const auto& kv : n) {
            w.key(kv.first.as<std::string>());
            writeYaml(w, kv.second);
        }
        w.endObject();
        break;
    case YAML::NodeType::Sequence:
        w.beginArray();
        for (const auto& item : n)
            writeYaml(w, item);
        w.endArray();
        break;
    case YAML::NodeType::Scalar:
        writeScalar(w, n);
        break;
    default:
        w.null();
    }
}

std::string minified(const std::string& json, const std::string& where)
{
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(simdjson::padded_string(json)).get(root) != simdjson::SUCCESS)
        throw std::runtime_error(where + ": could not be written as JSON");
    return simdjson::minify(root);
}

} // namespace

std::string podTemplateFromShape(const PodShapeSpec& shape)
{
    if (shape.cpu.empty() || shape.memory.empty())
        throw std::invalid_argument("a pod shape needs both cpu and memory");
    if (shape.gpus < 0)
        throw std::invalid_argument("the GPU count must be 0 or more, got " + std::to_string(shape.gpus));
    JsonWriter w;
    w.beginObject();
    w.key("apiVersion").value("v1");
    w.key("kind").value("Pod");
    w.key("metadata").beginObject().key("namespace").value(shape.namespaceName).key("name").value(shape.name).endObject();
    w.key("spec").beginObject();
    w.key("containers").beginArray().beginObject();
    w.key("name").value("main");
    w.key("resources").beginObject().key("requests").beginObject();
    w.key("cpu").value(shape.cpu);
    w.key("memory").value(shape.memory);
    if (shape.gpus > 0)
        w.key(shape.gpuResource).value(std::to_string(shape.gpus));
    w.endObject();
    if (shape.gpus > 0)
        w.key("limits").beginObject().key(shape.gpuResource).value(std::to_string(shape.gpus)).endObject();
    w.endObject();
    w.endObject().endArray();
    if (shape.gpus > 0) {
        w.key("tolerations").beginArray().beginObject();
        w.key("key").value(shape.gpuResource).key("operator").value("Exists").key("effect").value("NoSchedule");
        w.endObject().endArray();
    }
    if (!shape.gpuModel.empty()) {
        w.key("affinity").beginObject().key("nodeAffinity").beginObject();
        w.key("requiredDuringSchedulingIgnoredDuringExecution").beginObject().key("nodeSelectorTerms").beginArray();
        w.beginObject().key("matchExpressions").beginArray().beginObject();
        w.key("key").value(shape.gpuModelLabel).key("operator").value("In");
        w.key("values").beginArray().value(shape.gpuModel).endArray();
        w.endObject().endArray().endObject();
        w.endArray().endObject().endObject().endObject();
    }
    w.endObject();
    w.endObject();
    return minified(w.text(), "the pod shape");
}

std::string podTemplateFromFile(const std::string& path, const std::string& defaultName)
{
    std::string text;
    try {
        text = readOptionFile(path, OptionFileKind::PodTemplate);
    } catch (const OptionFileError& e) {
        throw std::runtime_error(e.what());
    }
    YAML::Node doc;
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        // JSON: checked by simdjson (its error, not YAML's), then read as YAML (a superset).
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        if (const auto err = parser.parse(simdjson::padded_string(text)).get(root); err != simdjson::SUCCESS)
        {
            const std::string place = jsonErrorPlace(text);
            throw std::runtime_error(path + ": not valid JSON " + (place.empty() ? std::string() : place + " ") + "("
                + std::string(simdjson::error_message(err)) + ")");
        }
    }
    try {
        doc = loadBoundedYaml(text);
    } catch (const YamlInputError& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    if (!doc.IsMap())
        throw std::runtime_error(path + ": expected a Pod object (a mapping with metadata and spec)");
    if (doc["kind"] && doc["kind"].IsScalar() && doc["kind"].Scalar() != "Pod")
        throw std::runtime_error(path + ": expected kind Pod, got " + doc["kind"].Scalar());
    doc["kind"] = "Pod";
    if (!doc["apiVersion"])
        doc["apiVersion"] = "v1";
    YAML::Node meta = doc["metadata"];
    if (!meta.IsMap()) {
        doc["metadata"] = YAML::Node(YAML::NodeType::Map);
        meta = doc["metadata"];
    }
    if (!meta["namespace"])
        meta["namespace"] = "default";
    if (!meta["name"])
        meta["name"] = defaultName;
    if (!doc["spec"] || !doc["spec"].IsMap())
        throw std::runtime_error(path + ": the pod has no spec");
    doc["spec"].remove("nodeName");
    JsonWriter w;
    writeYaml(w, doc);
    return minified(w.text(), path);
}

model::PodId addTemplatePod(model::ClusterStore& store, const std::string& podJson, const std::string& sourceName)
{
    // Its name first: a clash must leave the store as it was.
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    std::string_view ns, name;
    if (parser.parse(simdjson::padded_string(podJson)).get(root) != simdjson::SUCCESS || root["metadata"]["namespace"].get(ns) != simdjson::SUCCESS
        || root["metadata"]["name"].get(name) != simdjson::SUCCESS)
        throw std::runtime_error(sourceName + ": expected a Pod object with metadata.namespace and metadata.name");
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        if (store.podName(model::PodId(i)) == name && store.podNamespace(model::PodId(i)) == ns)
            throw std::runtime_error(sourceName + ": a pod " + std::string(ns) + "/" + std::string(name)
                + " is in the cluster already; name the template another way");
    const std::size_t before = store.podCount();
    ImportReport report;
    KubectlJsonOptions options;
    options.podFlags = model::PodFlagTemplate; // no pod of the cluster: only its copies count
    try {
        importKubectlJsonText(podJson, sourceName, store, report, nullptr, options);
    } catch (const ImportError& e) {
        throw std::runtime_error(e.what());
    }
    if (store.podCount() != before + 1)
        throw std::runtime_error(sourceName + ": expected one Pod object");
    store.finalize();
    return model::PodId(static_cast<std::uint32_t>(before));
}

} // namespace fleet::importers
