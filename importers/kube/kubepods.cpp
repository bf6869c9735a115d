// SPDX-License-Identifier: Apache-2.0
// kubepods.cpp: the mapping of a Kubernetes Pod (containers and their resources, scheduling
// gates, tolerations, node affinity; pod affinity, spread, ports and volumes are in
// kubescheduling.cpp) onto PodRecord, a part of KubeObjectMapper (kubeobjectmapper_p.h; the
// item's metadata, spec and status dispatch, conditions and commit are in kubeobjects.cpp).
// Quantities are read in kubevalues.cpp, JSON values through JsonWindowReader
// (kubejsonreader_p.h).
#include "kubeobjectmapper_p.h"

namespace fleet::importers::kubejson_detail {

namespace {

// The spellings of the core/v1 enums that are imported; the error for any other spelling
// lists these. Source: https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/
// (Toleration, NodeSelectorRequirement).
// A toleration's empty effect tolerates every effect.
constexpr NamedValue<TaintEffect> kTolerationEffects[] = {
    { "NoSchedule", TaintEffect::NoSchedule },
    { "PreferNoSchedule", TaintEffect::PreferNoSchedule },
    { "NoExecute", TaintEffect::NoExecute },
    { "", TaintEffect::Any },
};
constexpr NamedValue<TolerationOperator> kTolerationOperators[] = {
    { "Equal", TolerationOperator::Equal },
    { "Exists", TolerationOperator::Exists },
};
constexpr NamedValue<SelectorOperator> kSelectorOperators[] = {
    { "In", SelectorOperator::In },
    { "NotIn", SelectorOperator::NotIn },
    { "Exists", SelectorOperator::Exists },
    { "DoesNotExist", SelectorOperator::DoesNotExist },
    { "Gt", SelectorOperator::Gt },
    { "Lt", SelectorOperator::Lt },
};

} // namespace

void KubeObjectMapper::parseSchedulingGates(od::value v)
{
    // spec.schedulingGates[].name (KEP-3521, Pod scheduling readiness).
    m_json.forEachObject(v, "an array of scheduling gates", "an object (scheduling gate)", [&](od::value&, od::object o) {
        std::string& gate = m_gateSlots.slot(m_pod.schedulingGates);
        gate.clear();
        m_json.forEachField(o, [&](od::field& f, const char* k) { m_json.onKey(k, "name", [&] { gate.assign(m_json.stringValue(f.value(), "a string")); }); });
    });
}

void KubeObjectMapper::parseContainers(
    od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init)
{
    m_json.forEachObject(v, "an array of containers", "an object (container)", [&](od::value&, od::object o) {
        model::ContainerResources& container = slots.slot(into);
        container.clear();
        // Host ports of app containers and sidecars (restartable init containers) are held
        // while the pod runs; a plain init container's are dropped once its restartPolicy is
        // known (it may come after the ports).
        const std::size_t portsBefore = m_portsUsed;
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            if (k[0] == 'p') {
                m_json.onKey(k, "ports", [&] { parseContainerPorts(f.value(), true); });
                return;
            }
            if (k[0] != 'r')
                return;
            m_json.onKey(k, "resources", [&] { parseContainerResources(f.value(), container.requests, container.limits); })
                // A restartable init container is a sidecar (KEP-753).
                || (init && m_json.onKey(k, "restartPolicy", [&] {
                       if (!m_json.isNull(f.value()))
                           container.restartable = m_json.stringValue(f.value(), "a string") == "Always";
                   }));
        });
        if (init && !container.restartable)
            m_portsUsed = portsBefore;
    });
}

void KubeObjectMapper::parseContainerResources(od::value v, model::ExactResourceList& requests, model::ExactResourceList& limits)
{
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        m_json.onKey(k, "requests", [&] { parseExactResourceList(f.value(), requests); })
            || m_json.onKey(k, "limits", [&] { parseExactResourceList(f.value(), limits); });
    });
}

void KubeObjectMapper::parseExactResourceList(od::value v, model::ExactResourceList& into)
{
    // Exact amounts: a pod's request is summed over its containers and rounded once
    // (podrequest.h), as Kubernetes sums Quantities.
    forEachResource(
        v, [&](CoreResource r, QuantityScale scale, od::value& q) { into.setCore(r, exactQuantityValue(q, scale)); },
        [&](const ResourceEntry& entry, od::value& q) { into.set(entry.key, exactQuantityValue(q, entry.scale, &entry)); });
}

void KubeObjectMapper::parseTolerations(od::value v)
{
    m_json.forEachObject(v, "an array of tolerations", "an object (toleration)", [&](od::value&, od::object o) {
        auto& toleration = m_tolerationSlots.slot(m_pod.tolerations);
        std::get<0>(toleration).clear();
        std::get<1>(toleration) = TolerationOperator::Equal;
        std::get<2>(toleration).clear();
        std::get<3>(toleration) = TaintEffect::Any;
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "key", [&] { std::get<0>(toleration).assign(m_json.stringValue(f.value(), "a string")); })
                || m_json.onKey(k, "operator",
                    [&] {
                        const char* where = nullptr;
                        const std::string_view op = m_json.stringValue(f.value(), "a string", &where);
                        // An empty operator is Equal (core/v1 Toleration), but not one to suggest.
                        std::get<1>(toleration) = op.empty() ? TolerationOperator::Equal
                                                             : m_json.enumValue(op, where, kTolerationOperators, "toleration operator");
                    })
                || m_json.onKey(k, "value", [&] { std::get<2>(toleration).assign(m_json.stringValue(f.value(), "a string")); })
                || m_json.onKey(k, "effect",
                    [&] { std::get<3>(toleration) = m_json.enumValue(f.value(), kTolerationEffects, "toleration effect"); });
        });
    });
}

void KubeObjectMapper::parseAffinity(od::value v)
{
    // Only the required terms are kept (nodeAffinity, podAffinity and podAntiAffinity's
    // requiredDuringSchedulingIgnoredDuringExecution): preferred terms only score.
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        m_json.onKey(k, "podAffinity", [&] { parsePodAffinity(f.value(), m_affinityTerms, m_affinityUsed); })
            || m_json.onKey(k, "podAntiAffinity", [&] { parsePodAffinity(f.value(), m_antiAffinityTerms, m_antiAffinityUsed); })
            || m_json.onKey(k, "nodeAffinity", [&] {
            m_json.forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                m_json.onKey(gk, "requiredDuringSchedulingIgnoredDuringExecution", [&] {
                    m_json.forEachField(g.value(), "an object", [&](od::field& h, const char* hk) {
                        m_json.onKey(hk, "nodeSelectorTerms", [&] { parseSelectorTerms(h.value()); });
                    });
                });
            });
        });
    });
}

void KubeObjectMapper::parseSelectorTerms(od::value v)
{
    m_json.forEachObject(v, "an array of node selector terms", "an object (node selector term)", [&](od::value&, od::object o) {
        auto& term = m_termSlots.slot(m_pod.requiredAffinityTerms);
        m_requirementSlots.begin();
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "matchExpressions", [&] { parseRequirements(f.value(), term, false); })
                || m_json.onKey(k, "matchFields", [&] { parseRequirements(f.value(), term, true); });
        });
        m_requirementSlots.trim(term);
    });
}

void KubeObjectMapper::parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField)
{
    m_json.forEachObject(
        v, "an array of node selector requirements", "an object (node selector requirement)", [&](od::value&, od::object o) {
            PodRecord::Requirement& req = m_requirementSlots.slot(into);
            req.key.clear();
            req.op = SelectorOperator::In;
            req.matchField = matchField;
            m_valueSlots.begin();
            m_json.forEachField(o, [&](od::field& f, const char* k) {
                m_json.onKey(k, "key", [&] { req.key.assign(m_json.stringValue(f.value(), "a string")); })
                    || m_json.onKey(k, "operator", [&] { req.op = m_json.enumValue(f.value(), kSelectorOperators, "node selector operator"); })
                    || m_json.onKey(k, "values", [&] {
                           m_json.forEachElement(f.value(), "an array of strings",
                               [&](od::value& value) { m_valueSlots.slot(req.values).assign(m_json.stringValue(value, "a string")); });
                       });
            });
            m_valueSlots.trim(req.values);
        });
}

void KubeObjectMapper::commitPod(const char* itemStart)
{
    m_tolerationSlots.trim(m_pod.tolerations);
    m_selectorSlots.trim(m_pod.nodeSelector);
    m_termSlots.trim(m_pod.requiredAffinityTerms);
    m_containerSlots.trim(m_spec.containers);
    m_initContainerSlots.trim(m_spec.initContainers);
    if (m_itemName.empty())
        failAtName(itemStart, "a pod without a name (metadata.name is missing or empty)");
    if (m_pod.namespaceName.empty())
        failAtName(itemStart, "a pod without a namespace (metadata.namespace is missing or empty)");
    checkName(itemStart, KubeNameRule::Dns1123Subdomain, "the pod name");
    checkNamespace(itemStart);
    m_gateSlots.trim(m_pod.schedulingGates);
    m_pod.name.assign(m_itemName);
    m_pod.flags |= m_extraPodFlags;
    m_pod.request = model::effectivePodRequest(m_spec, m_store.resources());
    // metadata.labels were read into the node record (the kind may be known only at the
    // end); lend them to the pod without a copy.
    commitPodScheduling(m_node.labels);
    m_pod.labels.swap(m_node.labels);
    model::PodId added;
    try {
        added = m_store.addPod(m_pod);
    } catch (...) {
        m_pod.labels.swap(m_node.labels);
        throw;
    }
    m_pod.labels.swap(m_node.labels);
    for (std::size_t i = 0; i < m_claimsUsed; ++i)
        m_session.claims.push_back({ added, m_claims[i], m_name });
    ++m_pods;
}

} // namespace fleet::importers::kubejson_detail
