// SPDX-License-Identifier: Apache-2.0
// kubeobjects.cpp: the mapping half of KubectlJsonImporter (see kubejsonimporter_p.h):
// mapping the fields of a Kubernetes Node or Pod object (metadata, spec, status, taints,
// containers, tolerations, affinity) onto NodeRecord/PodRecord, then committing the item to
// the ClusterStore. The value readers (strings, quantities, objects, arrays) are in
// kubevalues.cpp.
// Separate from kubejsonwindow.cpp, which only finds the items and reports errors, so that
// the Kubernetes rules can be read and changed without the windowing.
#include "kubejsonimporter_p.h"
#include "importers/kubenames.h"
#include "importers/terminaltext.h"
#include "model/wellknownlabels.h"

#include <charconv>
#include <initializer_list>
#include <span>
#include <stdexcept>

namespace fleet::importers::kubejson_detail {

namespace {

// The spellings of the core/v1 enums that are imported; the error for any other spelling
// lists these. Source: https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/node-v1/
// (Taint), .../workload-resources/pod-v1/ (Toleration, NodeSelectorRequirement).
constexpr NamedValue<TaintEffect> kTaintEffects[] = {
    { "NoSchedule", TaintEffect::NoSchedule },
    { "PreferNoSchedule", TaintEffect::PreferNoSchedule },
    { "NoExecute", TaintEffect::NoExecute },
};
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

/// Parses an RFC 3339 time ("2024-05-01T10:20:30Z", "2024-05-01T10:20:30.123456+02:00", as
/// metav1.Time writes it) to Unix seconds (fractions dropped). False when `t` is not one.
/// Source: RFC 3339 section 5.6; days from the civil date by the proleptic Gregorian
/// calendar (era of 400 years, 146,097 days).
bool parseRfc3339(std::string_view t, std::int64_t& unixSeconds) noexcept
{
    auto digits = [&](std::size_t at, std::size_t n, int& out) {
        if (at + n > t.size())
            return false;
        out = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9')
                return false;
            out = out * 10 + (t[i] - '0');
        }
        return true;
    };
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(0, 4, year) || t.size() < 20 || t[4] != '-' || !digits(5, 2, month) || t[7] != '-' || !digits(8, 2, day)
        || (t[10] != 'T' && t[10] != 't' && t[10] != ' ') || !digits(11, 2, hour) || t[13] != ':' || !digits(14, 2, minute)
        || t[16] != ':' || !digits(17, 2, second))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return false;
    std::size_t at = 19;
    if (at < t.size() && t[at] == '.') {
        ++at;
        const std::size_t first = at;
        while (at < t.size() && t[at] >= '0' && t[at] <= '9')
            ++at;
        if (at == first)
            return false;
    }
    std::int64_t offsetSeconds = 0;
    if (at < t.size() && (t[at] == 'Z' || t[at] == 'z')) {
        ++at;
    } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
        int oh = 0, om = 0;
        if (!digits(at + 1, 2, oh) || at + 3 >= t.size() || t[at + 3] != ':' || !digits(at + 4, 2, om) || oh > 23 || om > 59)
            return false;
        offsetSeconds = (t[at] == '+' ? 1 : -1) * (std::int64_t{oh} * 3600 + om * 60);
        at += 6;
    } else {
        return false;
    }
    if (at != t.size())
        return false;
    // Days since 1970-01-01 of the civil date, years counted from March so that the leap
    // day is the last day of a year.
    const std::int64_t y = year - (month <= 2 ? 1 : 0);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yearOfEra = y - era * 400;
    const std::int64_t monthFromMarch = month > 2 ? month - 3 : month + 9;
    const std::int64_t dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1;
    const std::int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    const std::int64_t days = era * 146097 + dayOfEra - 719468;
    unixSeconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
    return true;
}

} // namespace

// ---- items ----------------------------------------------------------------------------------

void KubectlJsonImporter::recordBadValue(const char* where, std::string message)
{
    m_itemBadValues.push_back({offsetOf(where), m_path.format(), std::move(message)});
}

void KubectlJsonImporter::beginItem()
{
    m_itemBadValues.clear();
    m_unknownPhasesBeforeItem = m_unknownPhases;
    m_itemKind = ItemKind::Unknown;
    m_itemKindName.clear();
    m_sawNodeFields = false;
    m_sawPodFields = false;
    m_itemName.clear();
    m_nameWhere = nullptr;
    // NodeRecord and PodRecord: scalars reset, strings keep their buffers, vectors hand
    // their elements out again through Slots.
    m_node.allocatable.clear();
    m_node.capacity.clear();
    m_node.ready = Readiness::Unknown;
    m_node.unschedulable = false;
    m_node.gpuModel.clear();
    m_node.gpuCount = 0;
    m_node.instanceType.clear();
    m_labelSlots.begin();
    m_taintSlots.begin();
    m_conditionSlots.begin();
    m_gateSlots.begin();
    m_pod.schedulingMessage.clear();
    m_pod.namespaceName.clear();
    m_pod.nodeName.clear();
    m_pod.phase = PodPhase::Pending;
    m_pod.ownerKind = OwnerKind::None;
    m_pod.ownerName.clear();
    m_pod.mirror = false;
    m_pod.priority = 0;
    m_pod.uid.clear();
    m_pod.flags = model::PodFlagNone;
    beginSchedulingItem();
    m_tolerationSlots.begin();
    m_selectorSlots.begin();
    m_termSlots.begin();
    m_containerSlots.begin();
    m_initContainerSlots.begin();
    m_spec.podRequests.clear();
    m_spec.podLimits.clear();
    m_spec.overhead.clear();
    std::fill(std::begin(m_capacityGpus), std::end(m_capacityGpus), -1);
    std::fill(std::begin(m_allocatableGpus), std::end(m_allocatableGpus), -1);
}

void KubectlJsonImporter::parseItemField(od::field& f, bool isRoot)
{
    const char* k = f.key().raw();
    switch (k[0]) {
    case 'k':
        if (!isRoot)
            onKey(k, "kind", [&] {
                const char* where = nullptr;
                const std::string_view kind = stringValue(f.value(), "a string", &where);
                m_itemKind = itemKindFromName(kind);
                if (m_itemKind == ItemKind::Other)
                    m_itemKindName.assign(kind);
                // The extra kinds are read by their own rules from the start: their fields
                // cannot be read as a Node's or Pod's first and sorted out later.
                if (isExtraKind(m_itemKind) && m_sawItemFields && !isExtraKind(m_defaultItemKind))
                    fail(where, "the kind " + quotedText(kind) + " comes after the item's metadata, spec or status; put kind first, "
                                "as kubectl does");
            });
        return;
    case 'm':
        if (m_itemKind != ItemKind::Other)
            onKey(k, "metadata", [&] {
                m_sawItemFields = true;
                parseMetadata(f.value(), isRoot);
            });
        return;
    case 's':
        if (m_itemKind == ItemKind::Other)
            return;
        if (isExtraKind(effectiveItemKind())) {
            onKey(k, "spec", [&] { parseExtraSpec(f.value()); }) || onKey(k, "status", [&] { parseExtraStatus(f.value()); });
            return;
        }
        onKey(k, "spec", [&] {
            m_sawItemFields = true;
            parseSpec(f.value());
        }) || onKey(k, "status", [&] {
            m_sawItemFields = true;
            parseStatus(f.value());
        });
        return;
    default:
        return;
    }
}

void KubectlJsonImporter::parseMetadata(od::value v, bool isRoot)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'n':
            // No Kubernetes name holds a control character (importers/kubenames.h): one that
            // does is refused here, before it can reach a terminal, a CSV or a script.
            onKey(k, "name", [&] {
                m_itemName.assign(stringValue(f.value(), "a string", &m_nameWhere));
                if (std::string problem = controlCharacterProblem(m_itemName, "the name"); !problem.empty())
                    fail(m_nameWhere, std::move(problem));
            }) || onKey(k, "namespace", [&] {
                const char* where = nullptr;
                m_pod.namespaceName.assign(stringValue(f.value(), "a string", &where));
                if (std::string problem = controlCharacterProblem(m_pod.namespaceName, "the namespace"); !problem.empty())
                    fail(where, std::move(problem));
            });
            break;
        case 'l':
            // Into the node's labels for either kind: commitItem hands them to a pod.
            onKey(k, "labels", [&] { parseStringMap(f.value(), "a string (label value)", m_node.labels, m_labelSlots); });
            break;
        case 'a':
            if (want.pod)
                onKey(k, "annotations", [&] { parseAnnotations(f.value()); });
            break;
        case 'u':
            if (want.pod)
                onKey(k, "uid", [&] { optionalString(f.value(), m_pod.uid); });
            break;
        case 'd':
            // A terminating pod: the API server sets deletionTimestamp (an RFC 3339 time) when
            // the pod is deleted with a grace period; its value is not needed, only that it is set.
            if (want.pod)
                onKey(k, "deletionTimestamp", [&] {
                    std::string at;
                    optionalString(f.value(), at);
                    if (!at.empty())
                        m_pod.flags |= model::PodFlagTerminating;
                });
            break;
        case 'o':
            if (want.pod)
                onKey(k, "ownerReferences", [&] { parseOwnerReferences(f.value()); });
            break;
        case 'c':
            if (isRoot)
                onKey(k, "continue", [&] { optionalString(f.value(), m_continue); });
            break;
        case 'r':
            if (isRoot && keyIs(k, "remainingItemCount")) {
                std::int64_t n = 0;
                if (f.value().get_int64().get(n) == simdjson::SUCCESS)
                    m_remainingItems = n;
            } else if (isRoot) {
                onKey(k, "resourceVersion", [&] { optionalString(f.value(), m_listResourceVersion); });
            }
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseStringMap(
    od::value v, const char* valueWhat, std::vector<StringPair>& into, Slots<StringPair>& slots)
{
    forEachField(v, "an object of label keys to values", [&](od::field& f, const char* k) {
        m_path.pushRawKey(k);
        StringPair& entry = slots.slot(into);
        entry.first.assign(keyText(f));
        const char* where = nullptr;
        entry.second.assign(stringValue(f.value(), valueWhat, &where));
        // Label keys and values never hold a control character (importers/kubenames.h).
        if (std::string problem = controlCharacterProblem(entry.first, "the label key"); !problem.empty())
            fail(where, std::move(problem));
        if (std::string problem = controlCharacterProblem(entry.second, "the label value"); !problem.empty())
            fail(where, std::move(problem));
        m_path.pop();
    });
}

void KubectlJsonImporter::parseAnnotations(od::value v)
{
    forEachField(v, "an object of annotation keys to values", [&](od::field& f, const char* k) {
        // Static pods: the kubelet's mirror pod carries this annotation.
        // Source: https://kubernetes.io/docs/tasks/configure-pod-container/static-pod/
        if (keyIs(k, "kubernetes.io/config.mirror"))
            m_pod.mirror = true;
        else if (k[0] == 'k' || k[0] == 'c')
            parseAnnotation(f, k);
    });
}

void KubectlJsonImporter::parseOwnerReferences(od::value v)
{
    forEachObject(v, "an array of owner references", "an object (owner reference)", [&](od::value&, od::object o) {
        std::string_view kind;
        std::string_view name;
        bool controller = false;
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "kind", [&] { kind = stringValue(f.value(), "a string"); })
                || onKey(k, "name", [&] { name = stringValue(f.value(), "a string"); })
                || onKey(k, "controller", [&] { optionalBool(f.value(), controller); });
        });
        if (controller) {
            // kind/name views may point into simdjson's string buffer; copy them now.
            m_pod.ownerKind = model::ownerKindFromName(kind);
            m_pod.ownerName.assign(name);
        }
    });
}

void KubectlJsonImporter::parseSpec(od::value v)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            if (want.pod)
                onKey(k, "affinity", [&] { parseAffinity(f.value()); });
            break;
        case 'v':
            if (want.pod)
                onKey(k, "volumes", [&] { parseVolumes(f.value()); });
            break;
        case 'c':
            if (want.pod)
                onKey(k, "containers", [&] {
                    m_sawPodFields = true;
                    parseContainers(f.value(), m_spec.containers, m_containerSlots, false);
                });
            break;
        case 'i':
            if (want.pod)
                onKey(
                    k, "initContainers", [&] { parseContainers(f.value(), m_spec.initContainers, m_initContainerSlots, true); });
            break;
        case 'n':
            if (want.pod)
                onKey(k, "nodeName", [&] {
                    if (isNull(f.value()))
                        return;
                    const char* where = nullptr;
                    m_pod.nodeName.assign(stringValue(f.value(), "a string", &where));
                    if (std::string problem = controlCharacterProblem(m_pod.nodeName, "the node name"); !problem.empty())
                        fail(where, std::move(problem));
                }) || onKey(k, "nodeSelector", [&] {
                    parseStringMap(f.value(), "a string", m_pod.nodeSelector, m_selectorSlots);
                });
            break;
        case 'o':
            if (want.pod)
                onKey(k, "overhead", [&] { parseExactResourceList(f.value(), m_spec.overhead); });
            break;
        case 'p':
            if (want.pod)
                onKey(k, "priority", [&] {
                    if (isNull(f.value()))
                        return;
                    std::int64_t priority = 0;
                    if (f.value().get_int64().get(priority) != simdjson::SUCCESS
                        || priority < std::numeric_limits<std::int32_t>::min()
                        || priority > std::numeric_limits<std::int32_t>::max())
                        failType(f.value(), "a 32-bit integer");
                    m_pod.priority = static_cast<std::int32_t>(priority);
                });
            break;
        case 'r':
            if (want.pod)
                onKey(k, "resources", [&] { parseContainerResources(f.value(), m_spec.podRequests, m_spec.podLimits); })
                    || onKey(k, "resourceClaims", [&] { parseResourceClaims(f.value()); });
            break;
        case 's':
            if (want.pod)
                onKey(k, "schedulingGates", [&] { parseSchedulingGates(f.value()); });
            break;
        case 't':
            (want.node && onKey(k, "taints", [&] {
                m_sawNodeFields = true;
                parseTaints(f.value());
            })) || (want.pod && onKey(k, "tolerations", [&] { parseTolerations(f.value()); }))
                || (want.pod && onKey(k, "topologySpreadConstraints", [&] { parseSpreadConstraints(f.value()); }));
            break;
        case 'u':
            if (want.node)
                onKey(k, "unschedulable", [&] { optionalBool(f.value(), m_node.unschedulable); });
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseStatus(od::value v)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            if (want.node)
                onKey(k, "allocatable", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.allocatable, m_allocatableGpus);
                });
            break;
        case 'c':
            if (want.node)
                onKey(k, "capacity", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.capacity, m_capacityGpus);
                });
            onKey(k, "conditions", [&] { parseConditions(f.value()); });
            break;
        case 'p':
            if (want.pod && keyIs(k, "phase")) {
                m_path.push("phase");
                const std::string_view phase = stringValue(f.value(), "a string");
                m_path.pop();
                if (const auto* known = findNamedValue(kPodPhaseNames, phase)) {
                    m_pod.phase = known->value;
                } else {
                    m_pod.phase = PodPhase::Unknown;
                    ++m_unknownPhases;
                }
            }
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseTaints(od::value v)
{
    forEachObject(v, "an array of taints", "an object (taint)", [&](od::value& element, od::object o) {
        auto& taint = m_taintSlots.slot(m_node.taints);
        std::get<0>(taint).clear();
        std::get<1>(taint).clear();
        bool hasEffect = false;
        const char* start = element.raw_json_token().data();
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "key", [&] { std::get<0>(taint).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "value", [&] { std::get<1>(taint).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "effect", [&] {
                       std::get<2>(taint) = enumValue(f.value(), kTaintEffects, "taint effect");
                       hasEffect = true;
                   });
        });
        if (!hasEffect)
            fail(start, "a taint without an effect");
    });
}

void KubectlJsonImporter::parseConditions(od::value v)
{
    // Node conditions keep every field; a pod keeps only its PodScheduled message when the
    // status is False (the scheduler's reason), so pod conditions cost no copies. The views
    // stay valid to the end of the condition object (simdjson's string buffer).
    // Source: https://kubernetes.io/docs/reference/node/node-status/#condition and
    // https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions
    const Wanted want = wanted();
    forEachObject(v, "an array of conditions", "an object (condition)", [&](od::value&, od::object o) {
        std::string_view type;
        std::string_view message;
        std::string_view reason;
        std::int64_t since = 0;
        Readiness status = Readiness::Unknown;
        forEachField(o, [&](od::field& f, const char* k) {
            switch (k[0]) {
            case 't':
                onKey(k, "type", [&] { type = stringValue(f.value(), "a string"); });
                break;
            case 's':
                onKey(k, "status", [&] {
                    const std::string_view s = stringValue(f.value(), "a string");
                    status = s == "True" ? Readiness::True : s == "False" ? Readiness::False : Readiness::Unknown;
                });
                break;
            case 'm':
                onKey(k, "message", [&] {
                    if (!isNull(f.value()))
                        message = stringValue(f.value(), "a string");
                });
                break;
            case 'r':
                if (want.node)
                    onKey(k, "reason", [&] {
                        if (!isNull(f.value()))
                            reason = stringValue(f.value(), "a string");
                    });
                break;
            case 'l':
                if (want.node)
                    onKey(k, "lastTransitionTime", [&] {
                        if (isNull(f.value()))
                            return;
                        const char* where = nullptr;
                        const std::string_view text = stringValue(f.value(), "a string", &where);
                        if (!parseRfc3339(text, since))
                            fail(where, "expected an RFC 3339 time such as \"2024-05-01T10:20:30Z\", found " + quotedText(text));
                    });
                break;
            default:
                break;
            }
        });
        if (want.node) {
            model::NodeConditionRecord& record = m_conditionSlots.slot(m_node.conditions);
            record.type.assign(type);
            record.status = status;
            record.lastTransitionUnixSeconds = since;
            record.reason.assign(reason);
            record.message.assign(message);
            if (type == "Ready")
                m_node.ready = status;
        }
        if (want.pod && type == "PodScheduled" && status == Readiness::False)
            m_pod.schedulingMessage.assign(message);
        // A Ready pod counts as healthy for PodDisruptionBudgets.
        if (want.pod && type == "Ready" && status == Readiness::True)
            m_pod.flags |= model::PodFlagReady;
    });
}

void KubectlJsonImporter::parseSchedulingGates(od::value v)
{
    // spec.schedulingGates[].name (KEP-3521, Pod scheduling readiness).
    forEachObject(v, "an array of scheduling gates", "an object (scheduling gate)", [&](od::value&, od::object o) {
        std::string& gate = m_gateSlots.slot(m_pod.schedulingGates);
        gate.clear();
        forEachField(o, [&](od::field& f, const char* k) { onKey(k, "name", [&] { gate.assign(stringValue(f.value(), "a string")); }); });
    });
}

void KubectlJsonImporter::parseContainers(
    od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init)
{
    forEachObject(v, "an array of containers", "an object (container)", [&](od::value&, od::object o) {
        model::ContainerResources& container = slots.slot(into);
        container.clear();
        // Host ports of app containers and sidecars (restartable init containers) are held
        // while the pod runs; a plain init container's are dropped once its restartPolicy is
        // known (it may come after the ports).
        const std::size_t portsBefore = m_portsUsed;
        forEachField(o, [&](od::field& f, const char* k) {
            if (k[0] == 'p') {
                onKey(k, "ports", [&] { parseContainerPorts(f.value(), true); });
                return;
            }
            if (k[0] != 'r')
                return;
            onKey(k, "resources", [&] { parseContainerResources(f.value(), container.requests, container.limits); })
                // A restartable init container is a sidecar (KEP-753).
                || (init && onKey(k, "restartPolicy", [&] {
                       if (!isNull(f.value()))
                           container.restartable = stringValue(f.value(), "a string") == "Always";
                   }));
        });
        if (init && !container.restartable)
            m_portsUsed = portsBefore;
    });
}

void KubectlJsonImporter::parseContainerResources(od::value v, model::ExactResourceList& requests, model::ExactResourceList& limits)
{
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        onKey(k, "requests", [&] { parseExactResourceList(f.value(), requests); })
            || onKey(k, "limits", [&] { parseExactResourceList(f.value(), limits); });
    });
}

template <class Core, class Extended>
void KubectlJsonImporter::forEachResource(od::value v, Core core, Extended extended)
{
    forEachField(v, "an object of resource names to quantities", [&](od::field& f, const char* k) {
        m_path.pushRawKey(k);
        // The common names without a lookup; everything else through the cache.
        if (keyIs(k, "cpu"))
            core(CoreResource::Cpu, QuantityScale::Milli, f.value());
        else if (keyIs(k, "memory"))
            core(CoreResource::Memory, QuantityScale::Units, f.value());
        else if (keyIs(k, "pods"))
            core(CoreResource::Pods, QuantityScale::Units, f.value());
        else if (keyIs(k, "ephemeral-storage"))
            core(CoreResource::EphemeralStorage, QuantityScale::Units, f.value());
        else
            extended(resourceEntry(keyText(f)), f.value());
        m_path.pop();
    });
}

void KubectlJsonImporter::parseExactResourceList(od::value v, model::ExactResourceList& into)
{
    // Exact amounts: a pod's request is summed over its containers and rounded once
    // (podrequest.h), as Kubernetes sums Quantities.
    forEachResource(
        v, [&](CoreResource r, QuantityScale scale, od::value& q) { into.setCore(r, exactQuantityValue(q, scale)); },
        [&](const ResourceEntry& entry, od::value& q) { into.set(entry.key, exactQuantityValue(q, entry.scale)); });
}

void KubectlJsonImporter::parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts)
{
    forEachResource(
        v, [&](CoreResource r, QuantityScale scale, od::value& q) { into.setCore(r, quantityValue(q, scale)); },
        [&](const ResourceEntry& entry, od::value& q) {
            const std::int64_t amount = quantityValue(q, entry.scale);
            into.set(entry.key, amount);
            if (gpuCounts != nullptr && entry.gpuCountSource >= 0)
                gpuCounts[entry.gpuCountSource] = entry.scale == QuantityScale::ThousandUnits ? amount / 1000 : amount;
        });
}

void KubectlJsonImporter::parseTolerations(od::value v)
{
    forEachObject(v, "an array of tolerations", "an object (toleration)", [&](od::value&, od::object o) {
        auto& toleration = m_tolerationSlots.slot(m_pod.tolerations);
        std::get<0>(toleration).clear();
        std::get<1>(toleration) = TolerationOperator::Equal;
        std::get<2>(toleration).clear();
        std::get<3>(toleration) = TaintEffect::Any;
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "key", [&] { std::get<0>(toleration).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "operator",
                    [&] {
                        const char* where = nullptr;
                        const std::string_view op = stringValue(f.value(), "a string", &where);
                        // An empty operator is Equal (core/v1 Toleration), but not one to suggest.
                        std::get<1>(toleration) = op.empty() ? TolerationOperator::Equal
                                                             : enumValue(op, where, kTolerationOperators, "toleration operator");
                    })
                || onKey(k, "value", [&] { std::get<2>(toleration).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "effect",
                    [&] { std::get<3>(toleration) = enumValue(f.value(), kTolerationEffects, "toleration effect"); });
        });
    });
}

void KubectlJsonImporter::parseAffinity(od::value v)
{
    // Only the required terms are kept (nodeAffinity, podAffinity and podAntiAffinity's
    // requiredDuringSchedulingIgnoredDuringExecution): preferred terms only score.
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        onKey(k, "podAffinity", [&] { parsePodAffinity(f.value(), m_affinityTerms, m_affinityUsed); })
            || onKey(k, "podAntiAffinity", [&] { parsePodAffinity(f.value(), m_antiAffinityTerms, m_antiAffinityUsed); })
            || onKey(k, "nodeAffinity", [&] {
            forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                onKey(gk, "requiredDuringSchedulingIgnoredDuringExecution", [&] {
                    forEachField(g.value(), "an object", [&](od::field& h, const char* hk) {
                        onKey(hk, "nodeSelectorTerms", [&] { parseSelectorTerms(h.value()); });
                    });
                });
            });
        });
    });
}

void KubectlJsonImporter::parseSelectorTerms(od::value v)
{
    forEachObject(v, "an array of node selector terms", "an object (node selector term)", [&](od::value&, od::object o) {
        auto& term = m_termSlots.slot(m_pod.requiredAffinityTerms);
        m_requirementSlots.begin();
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "matchExpressions", [&] { parseRequirements(f.value(), term, false); })
                || onKey(k, "matchFields", [&] { parseRequirements(f.value(), term, true); });
        });
        m_requirementSlots.trim(term);
    });
}

void KubectlJsonImporter::parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField)
{
    forEachObject(
        v, "an array of node selector requirements", "an object (node selector requirement)", [&](od::value&, od::object o) {
            PodRecord::Requirement& req = m_requirementSlots.slot(into);
            req.key.clear();
            req.op = SelectorOperator::In;
            req.matchField = matchField;
            m_valueSlots.begin();
            forEachField(o, [&](od::field& f, const char* k) {
                onKey(k, "key", [&] { req.key.assign(stringValue(f.value(), "a string")); })
                    || onKey(k, "operator", [&] { req.op = enumValue(f.value(), kSelectorOperators, "node selector operator"); })
                    || onKey(k, "values", [&] {
                           forEachElement(f.value(), "an array of strings",
                               [&](od::value& value) { m_valueSlots.slot(req.values).assign(stringValue(value, "a string")); });
                       });
            });
            m_valueSlots.trim(req.values);
        });
}

void KubectlJsonImporter::commitUndecidedItems()
{
    if (m_undecidedItems.empty())
        return;
    if (m_defaultItemKind == ItemKind::Namespace) {
        for (const UndecidedItem& item : m_undecidedItems) {
            if (item.name.empty())
                raiseAt(item.offset, item.path + ".metadata", "a Namespace without a name (metadata.name is missing or empty)");
            m_store.setNamespaceLabels(item.name, item.labels);
            ++m_namespacesRead;
        }
        m_undecidedItems.clear();
        return;
    }
    const UndecidedItem& first = m_undecidedItems.front();
    std::string message = "cannot tell whether this item is a Node or a Pod: it has no kind, no status.allocatable/capacity (a Node) "
                          "and no spec.containers (a Pod)";
    if (!m_rootKind.empty())
        message += ", and the list's kind (" + quotedText(m_rootKind) + ") comes after its items and names neither";
    raiseAt(first.offset, first.path, message);
}

void KubectlJsonImporter::commitItem(const char* itemStart)
{
    ItemKind kind = effectiveItemKind();
    if (kind == ItemKind::Unknown) {
        if (m_sawNodeFields && !m_sawPodFields)
            kind = ItemKind::Node;
        else if (m_sawPodFields && !m_sawNodeFields)
            kind = ItemKind::Pod;
        else if (!m_sawPodFields && m_sawItems && !m_rootIsArray && m_rootKind.empty()) {
            // The list's kind may follow its items: decide when it is read.
            m_labelSlots.trim(m_node.labels);
            m_undecidedItems.push_back({ offsetOf(itemStart), m_path.format(), m_itemName, m_node.labels });
            m_unknownPhases = m_unknownPhasesBeforeItem; // a Namespace's status.phase is no pod's
            m_itemBadValues.clear();
            return;
        } else
            fail(itemStart,
                m_sawPodFields ? "cannot tell whether this item is a Node or a Pod: it has no kind, and both node fields "
                                 "(status.allocatable/capacity) and pod fields (spec.containers)"
                               : "cannot tell whether this item is a Node or a Pod: it has no kind, no "
                                 "status.allocatable/capacity (a Node) and no spec.containers (a Pod)");
    }
    if (kind != ItemKind::Other) {
        m_badValueCount += m_itemBadValues.size();
        for (OffsetBadValue& b : m_itemBadValues)
            if (m_badValues.size() <= BadValueList::kListed)
                m_badValues.push_back(std::move(b));
        m_itemBadValues.clear();
    }
    if (isExtraKind(kind)) {
        commitExtraItem(kind, itemStart);
        return;
    }
    if (kind == ItemKind::Other) {
        const std::string& name = m_itemKind == ItemKind::Other ? m_itemKindName : m_defaultKindName;
        auto it = std::find_if(m_skippedKinds.begin(), m_skippedKinds.end(), [&](const auto& e) { return e.first == name; });
        if (it == m_skippedKinds.end())
            m_skippedKinds.emplace_back(name, 1);
        else
            ++it->second;
        return;
    }
    m_labelSlots.trim(m_node.labels);
    if (kind == ItemKind::Node) {
        m_taintSlots.trim(m_node.taints);
        m_conditionSlots.trim(m_node.conditions);
        if (m_itemName.empty())
            failAtName(itemStart, "a node without a name (metadata.name is missing or empty)");
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
        return;
    }
    m_tolerationSlots.trim(m_pod.tolerations);
    m_selectorSlots.trim(m_pod.nodeSelector);
    m_termSlots.trim(m_pod.requiredAffinityTerms);
    m_containerSlots.trim(m_spec.containers);
    m_initContainerSlots.trim(m_spec.initContainers);
    if (m_itemName.empty())
        failAtName(itemStart, "a pod without a name (metadata.name is missing or empty)");
    if (m_pod.namespaceName.empty())
        failAtName(itemStart, "a pod without a namespace (metadata.namespace is missing or empty)");
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
