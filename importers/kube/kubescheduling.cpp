// SPDX-License-Identifier: Apache-2.0
// kubescheduling.cpp: the what-if half of KubeObjectMapper (see kubeobjectmapper_p.h and
// the file comment of kubejson.h): a pod's required pod affinity and
// anti-affinity, topology spread constraints, host ports, volumes, resource claims and the
// annotations that stop an eviction; and the optional kinds PersistentVolume,
// PodDisruptionBudget and Namespace. Validation follows the API server's
// (pkg/apis/core/validation/validation.go, pkg/apis/policy/validation/validation.go): what it
// rejects is an error here too, with file, line and JSON path.
#include "kubeobjectmapper_p.h"
#include "importers/terminaltext.h"

#include <charconv>
#include <unordered_map>

namespace fleet::importers::kubejson_detail {

using model::IntOrPercent;
using model::MatchOperator;
using model::NodeInclusionPolicy;
using model::PortProtocol;
using model::WhenUnsatisfiable;

namespace {

constexpr NamedValue<MatchOperator> kMatchOperators[] = {
    { "In", MatchOperator::In },
    { "NotIn", MatchOperator::NotIn },
    { "Exists", MatchOperator::Exists },
    { "DoesNotExist", MatchOperator::DoesNotExist },
};
constexpr NamedValue<WhenUnsatisfiable> kWhenUnsatisfiable[] = {
    { "DoNotSchedule", WhenUnsatisfiable::DoNotSchedule },
    { "ScheduleAnyway", WhenUnsatisfiable::ScheduleAnyway },
};
constexpr NamedValue<NodeInclusionPolicy> kInclusionPolicies[] = {
    { "Honor", NodeInclusionPolicy::Honor },
    { "Ignore", NodeInclusionPolicy::Ignore },
};
constexpr NamedValue<PortProtocol> kProtocols[] = {
    { "TCP", PortProtocol::TCP },
    { "UDP", PortProtocol::UDP },
    { "SCTP", PortProtocol::SCTP },
};

/// The labels that make a pod a member of a gang (Kueue pod groups, the scheduler-plugins
/// coscheduling plugin in its old and new spelling).
constexpr std::string_view kPodGroupLabels[] = {
    "kueue.x-k8s.io/pod-group-name",
    "scheduling.x-k8s.io/pod-group",
    "pod-group.scheduling.sigs.k8s.io",
};

/// The PV labels the VolumeZone plugin reads. Source: pkg/scheduler/framework/plugins/volumezone/volume_zone.go.
constexpr std::string_view kVolumeZoneLabels[] = {
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
};

template <class T> T& nextSlot(std::vector<T>& v, std::size_t& used)
{
    if (used == v.size())
        v.emplace_back();
    return v[used++];
}

const std::string* labelValue(const std::vector<StringPair>& labels, std::string_view key)
{
    for (const StringPair& l : labels)
        if (l.first == key)
            return &l.second;
    return nullptr;
}

} // namespace

void KubeObjectMapper::beginSchedulingItem()
{
    m_sawItemFields = false;
    m_affinityUsed = m_antiAffinityUsed = m_spreadUsed = m_portsUsed = m_claimsUsed = 0;
    m_budgetSelector.clear();
    m_budget.minAvailable = {};
    m_budget.maxUnavailable = {};
    m_budget.disruptionsAllowed = -1;
    m_claimRefNamespace.clear();
    m_claimRefName.clear();
}

// ---- values ---------------------------------------------------------------------------------

std::int32_t KubeObjectMapper::int32Value(od::value& v, const char* what, std::int64_t min, std::int64_t max)
{
    const char* where = v.raw_json_token().data();
    std::int64_t n = 0;
    if (v.get_int64().get(n) != simdjson::SUCCESS)
        m_json.failType(v, what);
    if (n < min || n > max)
        m_json.fail(where, std::string("expected ") + what + ", found " + std::to_string(n));
    return static_cast<std::int32_t>(n);
}

IntOrPercent KubeObjectMapper::intOrPercentValue(od::value& v)
{
    // intstr.IntOrString: a non-negative integer, or a string "N%" with N from 0 to 100
    // (ValidatePositiveIntOrPercent and IsNotMoreThan100Percent in the policy validation).
    IntOrPercent r;
    if (m_json.isNull(v))
        return r;
    const char* where = v.raw_json_token().data();
    if (v.raw_json_token().front() == '"') {
        const std::string_view text = m_json.stringValue(v, "a string");
        std::int32_t n = -1;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, n);
        if (ec != std::errc() || stop == text.data() || stop + 1 != end || *stop != '%' || n < 0 || n > 100)
            m_json.fail(where, "expected a count or a percentage from \"0%\" to \"100%\", found " + quotedText(text));
        r.set = true;
        r.percent = true;
        r.value = n;
        return r;
    }
    r.value = int32Value(v, "a non-negative integer or a percentage such as \"50%\"", 0, std::numeric_limits<std::int32_t>::max());
    r.set = true;
    return r;
}

void KubeObjectMapper::parseStringList(od::value v, std::vector<std::string>& into)
{
    into.clear();
    m_json.forEachElement(v, "an array of strings", [&](od::value& e) { into.emplace_back(m_json.stringValue(e, "a string")); });
}

void KubeObjectMapper::parseLabelSelector(od::value v, RawSelector& into)
{
    into.clear();
    if (m_json.isNull(v))
        return;
    into.present = true;
    m_json.forEachField(v, "an object (label selector)", [&](od::field& f, const char* k) {
        m_json.onKey(k, "matchLabels", [&] {
            m_json.forEachField(f.value(), "an object of label keys to values", [&](od::field& g, const char* gk) {
                m_json.path().pushRawKey(gk);
                into.matchLabels.emplace_back(m_json.keyText(g), m_json.stringValue(g.value(), "a string (label value)"));
                m_json.path().pop();
            });
        })
            || m_json.onKey(k, "matchExpressions", [&] {
                   m_json.forEachObject(f.value(), "an array of label selector requirements", "an object (label selector requirement)",
                       [&](od::value& element, od::object o) {
                           const char* start = element.raw_json_token().data();
                           // Named references, not a structured binding: clang 14 (the fuzz build) cannot
                           // capture a binding in a lambda.
                           auto& requirement = into.matchExpressions.emplace_back();
                           auto& key = std::get<0>(requirement);
                           auto& op = std::get<1>(requirement);
                           auto& values = std::get<2>(requirement);
                           bool sawOperator = false;
                           m_json.forEachField(o, [&](od::field& g, const char* gk) {
                               m_json.onKey(gk, "key", [&] { key.assign(m_json.stringValue(g.value(), "a string")); })
                                   || m_json.onKey(gk, "operator", [&] {
                                          op = m_json.enumValue(g.value(), kMatchOperators, "label selector operator");
                                          sawOperator = true;
                                      })
                                   || m_json.onKey(gk, "values", [&] { parseStringList(g.value(), values); });
                           });
                           if (key.empty())
                               m_json.fail(start, "a label selector requirement without a key");
                           if (!sawOperator)
                               m_json.fail(start, "a label selector requirement without an operator");
                           const bool set = op == MatchOperator::In || op == MatchOperator::NotIn;
                           if (set && values.empty())
                               m_json.fail(start, "a label selector requirement with operator In or NotIn needs values");
                           if (!set && !values.empty())
                               m_json.fail(start, "a label selector requirement with operator Exists or DoesNotExist takes no values");
                       });
               });
    });
}

// ---- pod fields -----------------------------------------------------------------------------

void KubeObjectMapper::parseAnnotation(od::field& f, const char* k)
{
    // Source: https://karpenter.sh/docs/concepts/disruption/#pod-level-controls and the
    // cluster-autoscaler FAQ ("What types of pods can prevent CA from removing a node?").
    if (keyIs(k, "karpenter.sh/do-not-disrupt")) {
        m_json.path().pushRawKey(k);
        if (m_json.stringValue(f.value(), "a string") == "true")
            m_pod.flags |= model::PodFlagDoNotDisrupt;
        m_json.path().pop();
    } else if (keyIs(k, "cluster-autoscaler.kubernetes.io/safe-to-evict")) {
        m_json.path().pushRawKey(k);
        if (m_json.stringValue(f.value(), "a string") == "false")
            m_pod.flags |= model::PodFlagDoNotDisrupt;
        m_json.path().pop();
    }
}

void KubeObjectMapper::parsePodAffinity(od::value v, std::vector<RawAffinityTerm>& into, std::size_t& used)
{
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        m_json.onKey(k, "requiredDuringSchedulingIgnoredDuringExecution", [&] {
            m_json.forEachObject(f.value(), "an array of pod affinity terms", "an object (pod affinity term)",
                [&](od::value& element, od::object o) {
                    const char* start = element.raw_json_token().data();
                    RawAffinityTerm& term = nextSlot(into, used);
                    term.clear();
                    parseAffinityTerm(o, term);
                    if (term.topologyKey.empty())
                        m_json.fail(start, "a pod affinity term without a topologyKey (an empty topologyKey is not allowed)");
                    if (!term.selector.present && (!term.matchLabelKeys.empty() || !term.mismatchLabelKeys.empty()))
                        m_json.fail(start, "matchLabelKeys and mismatchLabelKeys need a labelSelector");
                });
        });
    });
}

void KubeObjectMapper::parseAffinityTerm(od::object o, RawAffinityTerm& term)
{
    m_json.forEachField(o, [&](od::field& f, const char* k) {
        m_json.onKey(k, "labelSelector", [&] { parseLabelSelector(f.value(), term.selector); })
            || m_json.onKey(k, "namespaces", [&] { parseStringList(f.value(), term.namespaces); })
            || m_json.onKey(k, "namespaceSelector", [&] { parseLabelSelector(f.value(), term.namespaceSelector); })
            || m_json.onKey(k, "topologyKey", [&] { term.topologyKey.assign(m_json.stringValue(f.value(), "a string")); })
            || m_json.onKey(k, "matchLabelKeys", [&] { parseStringList(f.value(), term.matchLabelKeys); })
            || m_json.onKey(k, "mismatchLabelKeys", [&] { parseStringList(f.value(), term.mismatchLabelKeys); });
    });
}

void KubeObjectMapper::parseSpreadConstraints(od::value v)
{
    m_json.forEachObject(v, "an array of topology spread constraints", "an object (topology spread constraint)",
        [&](od::value& element, od::object o) {
            const char* start = element.raw_json_token().data();
            RawSpreadConstraint& c = nextSlot(m_spread, m_spreadUsed);
            c.value = {};
            c.topologyKey.clear();
            c.selector.clear();
            c.matchLabelKeys.clear();
            bool sawSkew = false, sawWhen = false, sawMinDomains = false;
            m_json.forEachField(o, [&](od::field& f, const char* k) {
                m_json.onKey(k, "maxSkew", [&] {
                    c.value.maxSkew = int32Value(f.value(), "an integer of at least 1", 1, std::numeric_limits<std::int32_t>::max());
                    sawSkew = true;
                }) || m_json.onKey(k, "topologyKey", [&] { c.topologyKey.assign(m_json.stringValue(f.value(), "a string")); })
                    || m_json.onKey(k, "whenUnsatisfiable", [&] {
                           c.value.whenUnsatisfiable = m_json.enumValue(f.value(), kWhenUnsatisfiable, "whenUnsatisfiable");
                           sawWhen = true;
                       })
                    || m_json.onKey(k, "labelSelector", [&] { parseLabelSelector(f.value(), c.selector); })
                    || m_json.onKey(k, "matchLabelKeys", [&] { parseStringList(f.value(), c.matchLabelKeys); })
                    || m_json.onKey(k, "minDomains", [&] {
                           if (m_json.isNull(f.value()))
                               return;
                           c.value.minDomains
                               = int32Value(f.value(), "an integer of at least 1", 1, std::numeric_limits<std::int32_t>::max());
                           sawMinDomains = true;
                       })
                    || m_json.onKey(k, "nodeAffinityPolicy", [&] {
                           if (!m_json.isNull(f.value()))
                               c.value.nodeAffinityPolicy = m_json.enumValue(f.value(), kInclusionPolicies, "node inclusion policy");
                       })
                    || m_json.onKey(k, "nodeTaintsPolicy", [&] {
                           if (!m_json.isNull(f.value()))
                               c.value.nodeTaintsPolicy = m_json.enumValue(f.value(), kInclusionPolicies, "node inclusion policy");
                       });
            });
            if (!sawSkew)
                m_json.fail(start, "a topology spread constraint without maxSkew");
            if (c.topologyKey.empty())
                m_json.fail(start, "a topology spread constraint without a topologyKey");
            if (!sawWhen)
                m_json.fail(start, "a topology spread constraint without whenUnsatisfiable");
            if (sawMinDomains && c.value.whenUnsatisfiable != WhenUnsatisfiable::DoNotSchedule)
                m_json.fail(start, "minDomains can only be set with whenUnsatisfiable DoNotSchedule");
        });
}

void KubeObjectMapper::parseContainerPorts(od::value v, bool)
{
    m_json.forEachObject(v, "an array of container ports", "an object (container port)", [&](od::value&, od::object o) {
        std::int32_t hostPort = 0;
        PortProtocol protocol = PortProtocol::TCP;
        std::string_view hostIP;
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "hostPort", [&] {
                if (!m_json.isNull(f.value()))
                    hostPort = int32Value(f.value(), "a port number from 0 to 65535", 0, 65535);
            }) || m_json.onKey(k, "protocol", [&] {
                if (!m_json.isNull(f.value()))
                    protocol = m_json.enumValue(f.value(), kProtocols, "protocol");
            }) || m_json.onKey(k, "hostIP", [&] {
                if (!m_json.isNull(f.value()))
                    hostIP = m_json.stringValue(f.value(), "a string");
            });
        });
        if (hostPort == 0)
            return; // no host port: nothing on the node is taken
        RawHostPort& p = nextSlot(m_ports, m_portsUsed);
        p.port = static_cast<std::uint16_t>(hostPort);
        p.protocol = protocol;
        p.hostIP.assign(hostIP == "0.0.0.0" ? std::string_view {} : hostIP);
    });
}

void KubeObjectMapper::parseVolumes(od::value v)
{
    m_json.forEachObject(v, "an array of volumes", "an object (volume)", [&](od::value& element, od::object o) {
        const char* start = element.raw_json_token().data();
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "emptyDir", [&] {
                if (!m_json.isNull(f.value()))
                    m_pod.flags |= model::PodFlagLocalStorage;
            }) || m_json.onKey(k, "persistentVolumeClaim", [&] {
                if (m_json.isNull(f.value()))
                    return;
                std::string& claim = nextSlot(m_claims, m_claimsUsed);
                claim.clear();
                m_json.forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                    m_json.onKey(gk, "claimName", [&] { claim.assign(m_json.stringValue(g.value(), "a string")); });
                });
                if (claim.empty())
                    m_json.fail(start, "a persistentVolumeClaim volume without a claimName");
            });
        });
    });
}

void KubeObjectMapper::parseResourceClaims(od::value v)
{
    m_json.forEachElement(v, "an array of resource claims", [&](od::value&) { m_pod.flags |= model::PodFlagResourceClaims; });
}

// ---- the extra kinds ------------------------------------------------------------------------

void KubeObjectMapper::parseExtraSpec(od::value v)
{
    const ItemKind kind = effectiveItemKind();
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        if (kind == ItemKind::PersistentVolume) {
            m_json.onKey(k, "claimRef", [&] {
                m_json.forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                    m_json.onKey(gk, "namespace", [&] { m_json.optionalString(g.value(), m_claimRefNamespace); })
                        || m_json.onKey(gk, "name", [&] { m_json.optionalString(g.value(), m_claimRefName); });
                });
            }) || m_json.onKey(k, "nodeAffinity", [&] {
                m_json.forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                    m_json.onKey(gk, "required", [&] {
                        m_json.forEachField(g.value(), "an object", [&](od::field& h, const char* hk) {
                            m_json.onKey(hk, "nodeSelectorTerms", [&] { parseSelectorTerms(h.value()); });
                        });
                    });
                });
            });
        } else if (kind == ItemKind::PodDisruptionBudget) {
            m_json.onKey(k, "selector", [&] { parseLabelSelector(f.value(), m_budgetSelector); })
                || m_json.onKey(k, "minAvailable", [&] { m_budget.minAvailable = intOrPercentValue(f.value()); })
                || m_json.onKey(k, "maxUnavailable", [&] { m_budget.maxUnavailable = intOrPercentValue(f.value()); });
        }
    });
}

void KubeObjectMapper::parseExtraStatus(od::value v)
{
    if (effectiveItemKind() != ItemKind::PodDisruptionBudget)
        return;
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        m_json.onKey(k, "disruptionsAllowed", [&] {
            if (!m_json.isNull(f.value()))
                m_budget.disruptionsAllowed
                    = int32Value(f.value(), "a non-negative integer", 0, std::numeric_limits<std::int32_t>::max());
        });
    });
}

void KubeObjectMapper::commitExtraItem(ItemKind kind, const char* itemStart)
{
    m_labelSlots.trim(m_node.labels);
    m_termSlots.trim(m_pod.requiredAffinityTerms);
    const char* what = kind == ItemKind::PersistentVolume ? "a PersistentVolume"
        : kind == ItemKind::PodDisruptionBudget          ? "a PodDisruptionBudget"
                                                         : "a Namespace";
    if (m_itemName.empty())
        failAtName(itemStart, std::string(what) + " without a name (metadata.name is missing or empty)");
    switch (kind) {
    case ItemKind::PersistentVolume: {
        KubectlJsonSession::Volume& pv = m_session.volumes.emplace_back();
        pv.name = m_itemName;
        pv.claimNamespace = m_claimRefNamespace;
        pv.claimName = m_claimRefName;
        pv.labels = m_node.labels;
        pv.nodeAffinity = m_pod.requiredAffinityTerms;
        m_session.sawVolumeList = true;
        ++m_volumesRead;
        break;
    }
    case ItemKind::PodDisruptionBudget: {
        if (m_pod.namespaceName.empty())
            failAtName(itemStart, "a PodDisruptionBudget without a namespace (metadata.namespace is missing or empty)");
        checkNamespace(itemStart);
        if (m_budget.minAvailable.set && m_budget.maxUnavailable.set) {
            m_json.path().push("spec");
            m_json.fail(itemStart, "a PodDisruptionBudget with both minAvailable and maxUnavailable (the API allows one)");
        }
        m_budget.namespaceName = m_pod.namespaceName;
        m_budget.name = m_itemName;
        m_budget.selectorNull = !m_budgetSelector.present;
        m_budget.matchLabels = m_budgetSelector.matchLabels;
        m_budget.matchExpressions = m_budgetSelector.matchExpressions;
        try {
            m_store.addDisruptionBudget(m_budget);
        } catch (const std::invalid_argument& e) {
            failAtName(itemStart, terminalLine(e.what()) + " (in this file or an earlier one)", true);
        }
        ++m_budgetsRead;
        break;
    }
    case ItemKind::Namespace:
        checkName(itemStart, KubeNameRule::Dns1123Label, "the namespace name");
        m_store.setNamespaceLabels(m_itemName, m_node.labels);
        ++m_namespacesRead;
        break;
    default:
        break;
    }
}

// ---- committing a pod's constraints ---------------------------------------------------------

void KubeObjectMapper::foldLabelKeys(
    model::InternedSelector& s, const std::vector<std::string>& keys, MatchOperator op, const std::vector<StringPair>& labels)
{
    // KEP-3633 / KEP-3243: each key the pod has becomes `key In (value)` (matchLabelKeys) or
    // `key NotIn (value)` (mismatchLabelKeys); keys the pod lacks are ignored.
    for (const std::string& key : keys)
        if (const std::string* value = labelValue(labels, key))
            s.requirements.push_back({ m_store.strings().intern(key), op, { m_store.strings().intern(*value) } });
}

void KubeObjectMapper::commitPodScheduling(const std::vector<StringPair>& labels)
{
    model::StringPool& strings = m_store.strings();
    auto terms = [&](const std::vector<RawAffinityTerm>& raw, std::size_t used, std::vector<model::PodAffinityTerm>& out) {
        out.clear();
        for (std::size_t i = 0; i < used; ++i) {
            const RawAffinityTerm& r = raw[i];
            model::PodAffinityTerm& t = out.emplace_back();
            t.selector = m_store.internSelector(!r.selector.present, r.selector.matchLabels, r.selector.matchExpressions);
            foldLabelKeys(t.selector, r.matchLabelKeys, MatchOperator::In, labels);
            foldLabelKeys(t.selector, r.mismatchLabelKeys, MatchOperator::NotIn, labels);
            for (const std::string& ns : r.namespaces)
                t.namespaces.push_back(strings.intern(ns));
            std::sort(t.namespaces.begin(), t.namespaces.end());
            t.namespaces.erase(std::unique(t.namespaces.begin(), t.namespaces.end()), t.namespaces.end());
            t.hasNamespaceSelector = r.namespaceSelector.present;
            if (t.hasNamespaceSelector)
                t.namespaceSelector = m_store.internSelector(
                    false, r.namespaceSelector.matchLabels, r.namespaceSelector.matchExpressions);
            t.topologyKey = strings.intern(r.topologyKey);
        }
    };
    terms(m_affinityTerms, m_affinityUsed, m_pod.podAffinity);
    terms(m_antiAffinityTerms, m_antiAffinityUsed, m_pod.podAntiAffinity);
    m_pod.spreadConstraints.clear();
    for (std::size_t i = 0; i < m_spreadUsed; ++i) {
        const RawSpreadConstraint& r = m_spread[i];
        model::TopologySpreadConstraint& c = m_pod.spreadConstraints.emplace_back(r.value);
        c.topologyKey = strings.intern(r.topologyKey);
        c.selector = m_store.internSelector(!r.selector.present, r.selector.matchLabels, r.selector.matchExpressions);
        foldLabelKeys(c.selector, r.matchLabelKeys, MatchOperator::In, labels);
    }
    m_pod.hostPorts.clear();
    for (std::size_t i = 0; i < m_portsUsed; ++i)
        m_pod.hostPorts.push_back({ m_ports[i].port, m_ports[i].protocol, strings.intern(m_ports[i].hostIP) });
    m_pod.volumes.clear(); // set once PersistentVolumes are matched (resolvePersistentVolumeClaims)
    for (std::string_view key : kPodGroupLabels)
        if (labelValue(labels, key) != nullptr)
            m_pod.flags |= model::PodFlagPodGroup;
}

} // namespace fleet::importers::kubejson_detail

namespace fleet::importers {

void resolvePersistentVolumeClaims(KubectlJsonSession& session, model::ClusterStore& store, ImportReport& report)
{
    if (session.claims.empty()) {
        session = {};
        return;
    }
    if (!session.sawVolumeList) {
        // No PersistentVolume list given: volumes constrain nothing (the common case of a
        // nodes + pods load; not worth a warning on every load).
        session = {};
        return;
    }
    // claimRef (namespace/name) -> the PV's constraint, built once per PV.
    std::unordered_map<std::string, std::size_t> byClaim;
    for (std::size_t i = 0; i < session.volumes.size(); ++i) {
        const auto& pv = session.volumes[i];
        if (!pv.claimName.empty())
            byClaim.emplace(pv.claimNamespace + '/' + pv.claimName, i);
    }
    model::StringPool& strings = store.strings();
    auto constraintOf = [&](const KubectlJsonSession::Volume& pv) {
        model::VolumeConstraint c;
        c.volume = strings.intern(pv.name);
        for (const auto& [key, value] : pv.labels) {
            if (std::find(std::begin(kubejson_detail::kVolumeZoneLabels), std::end(kubejson_detail::kVolumeZoneLabels), key)
                == std::end(kubejson_detail::kVolumeZoneLabels))
                continue;
            // A multi-zone volume lists its zones joined by "__" (volumehelpers.LabelZonesToSet).
            std::vector<model::StringId> values;
            std::size_t at = 0;
            while (true) {
                const std::size_t sep = value.find("__", at);
                const std::string part = value.substr(at, sep == std::string::npos ? std::string::npos : sep - at);
                if (!part.empty())
                    values.push_back(strings.intern(part));
                if (sep == std::string::npos)
                    break;
                at = sep + 2;
            }
            c.zoneLabels.emplace_back(strings.intern(key), std::move(values));
        }
        for (const auto& term : pv.nodeAffinity) {
            model::NodeSelectorTerm& t = c.nodeAffinity.emplace_back();
            for (const auto& req : term) {
                model::NodeSelectorRequirement& q = t.requirements.emplace_back();
                q.key = strings.intern(req.key);
                q.op = req.op;
                q.matchField = req.matchField;
                for (const auto& v : req.values)
                    q.values.push_back(strings.intern(v));
            }
        }
        return c;
    };
    std::vector<model::VolumeConstraint> volumes;
    std::size_t unbound = 0;
    std::string firstUnbound;
    for (std::size_t i = 0; i < session.claims.size();) {
        const model::PodId pod = session.claims[i].pod;
        volumes.clear();
        for (; i < session.claims.size() && session.claims[i].pod == pod; ++i) {
            const auto& claim = session.claims[i];
            const std::string key = std::string(store.podNamespace(pod)) + '/' + claim.claimName;
            const auto it = byClaim.find(key);
            if (it == byClaim.end()) {
                if (unbound++ == 0)
                    firstUnbound = claim.file + ": pod " + std::string(store.podNamespace(pod)) + "/" + std::string(store.podName(pod))
                        + " claim " + claim.claimName;
                continue;
            }
            model::VolumeConstraint c = constraintOf(session.volumes[it->second]);
            if (!c.zoneLabels.empty() || !c.nodeAffinity.empty())
                volumes.push_back(std::move(c));
        }
        if (!volumes.empty())
            store.setPodVolumes(pod, volumes);
    }
    if (unbound > 0)
        report.warn(std::to_string(unbound)
            + " PersistentVolumeClaim(s) of pods are bound to no PersistentVolume in the input (first: " + firstUnbound
            + "); they constrain no node");
    session = {};
}

} // namespace fleet::importers
