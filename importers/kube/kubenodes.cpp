// SPDX-License-Identifier: Apache-2.0
// kubenodes.cpp: the mapping of a Kubernetes Node (taints, capacity and allocatable, and the
// labels that name its GPUs and instance type) onto NodeRecord, a part of KubeObjectMapper
// (kubeobjectmapper_p.h; the item's metadata, spec and status dispatch, conditions and commit
// are in kubeobjects.cpp). Quantities are read in kubevalues.cpp, JSON values through
// JsonWindowReader (kubejsonreader_p.h).
#include "kubeobjectmapper_p.h"

#include "importers/terminaltext.h"
#include "model/wellknownlabels.h"

#include <charconv>
#include <initializer_list>
#include <span>
#include <stdexcept>

namespace fleet::importers::kubejson_detail {

namespace {

// The spellings of the core/v1 taint effects that are imported; the error for any other
// spelling lists these. Source:
// https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/node-v1/ (Taint).
constexpr NamedValue<TaintEffect> kTaintEffects[] = {
    { "NoSchedule", TaintEffect::NoSchedule },
    { "PreferNoSchedule", TaintEffect::PreferNoSchedule },
    { "NoExecute", TaintEffect::NoExecute },
};

/// The value of the first of `keys` (in that order of preference) that `labels` holds, or null.
const std::string* firstLabelValue(const std::vector<StringPair>& labels, std::span<const std::string_view> keys)
{
    for (std::string_view key : keys) {
        auto it = std::find_if(labels.begin(), labels.end(), [&](const StringPair& l) { return l.first == key; });
        if (it != labels.end())
            return &it->second;
    }
    return nullptr;
}

const std::string* firstLabelValue(const std::vector<StringPair>& labels, std::initializer_list<std::string_view> keys)
{
    return firstLabelValue(labels, std::span<const std::string_view>(keys.begin(), keys.size()));
}

} // namespace

void KubeObjectMapper::parseTaints(od::value v)
{
    m_json.forEachObject(v, "an array of taints", "an object (taint)", [&](od::value& element, od::object o) {
        auto& taint = m_taintSlots.slot(m_node.taints);
        std::get<0>(taint).clear();
        std::get<1>(taint).clear();
        bool hasEffect = false;
        const char* start = element.raw_json_token().data();
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "key", [&] { std::get<0>(taint).assign(m_json.stringValue(f.value(), "a string")); })
                || m_json.onKey(k, "value", [&] { std::get<1>(taint).assign(m_json.stringValue(f.value(), "a string")); })
                || m_json.onKey(k, "effect", [&] {
                       std::get<2>(taint) = m_json.enumValue(f.value(), kTaintEffects, "taint effect");
                       hasEffect = true;
                   });
        });
        if (!hasEffect)
            m_json.fail(start, "a taint without an effect");
    });
}

void KubeObjectMapper::parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts)
{
    forEachResource(
        v, [&](CoreResource r, QuantityScale scale, od::value& q) { into.setCore(r, quantityValue(q, scale)); },
        [&](const ResourceEntry& entry, od::value& q) {
            const std::int64_t amount = quantityValue(q, entry.scale, &entry);
            into.set(entry.key, amount);
            if (gpuCounts != nullptr && entry.gpuCountSource >= 0)
                gpuCounts[entry.gpuCountSource] = entry.scale == QuantityScale::ThousandUnits ? amount / 1000 : amount;
        });
}

void KubeObjectMapper::commitNode(const char* itemStart)
{
    m_taintSlots.trim(m_node.taints);
    m_conditionSlots.trim(m_node.conditions);
    if (m_itemName.empty())
        failAtName(itemStart, "a node without a name (metadata.name is missing or empty)");
    checkName(itemStart, KubeNameRule::Dns1123Subdomain, "the node name");
    m_node.name.assign(m_itemName);
    // GPU model and instance type from the well-known labels, in their order of preference.
    if (const std::string* model = firstLabelValue(m_node.labels, model::kGpuModelLabelKeys))
        m_node.gpuModel.assign(*model);
    if (const std::string* type = firstLabelValue(m_node.labels, model::kInstanceTypeLabelKeys))
        m_node.instanceType.assign(*type);
    for (int i = 0; i < 3; ++i) {
        const std::int64_t n = m_capacityGpus[i] >= 0 ? m_capacityGpus[i] : m_allocatableGpus[i];
        if (n >= 0) {
            m_node.gpuCount = static_cast<std::int32_t>(std::min<std::int64_t>(n, std::numeric_limits<std::int32_t>::max()));
            break;
        }
    }
    // A node whose GPUs are all cut into MIG slices (mixed strategy) offers no
    // nvidia.com/gpu: GPU feature discovery's count label says how many GPUs it has.
    if (m_node.gpuCount == 0)
        if (const std::string* count = firstLabelValue(m_node.labels, { "nvidia.com/gpu.count" })) {
            std::int32_t n = 0;
            const auto [end, ec] = std::from_chars(count->data(), count->data() + count->size(), n);
            if (ec == std::errc() && end == count->data() + count->size() && n > 0)
                m_node.gpuCount = n;
        }
    try {
        m_store.addNode(m_node);
    } catch (const std::invalid_argument& e) {
        failAtName(itemStart, terminalLine(e.what()) + ": a node name appears twice (in this file or an earlier one)", true);
    }
    ++m_nodes;
}

} // namespace fleet::importers::kubejson_detail
