// SPDX-License-Identifier: Apache-2.0
// kubeobjects.cpp: KubeObjectMapper (see kubeobjectmapper_p.h), what every Kubernetes object
// shares: the root object (a List's kind and metadata, a Status object, a single object), an
// item's kind, metadata, the dispatch of spec and status, conditions, and the commit of the
// item to the ClusterStore, and the warnings at the end. What is a Node's alone is in
// kubenodes.cpp, a Pod's in kubepods.cpp (its scheduling constraints in kubescheduling.cpp), the
// extra kinds (PersistentVolume, PodDisruptionBudget, Namespace) in kubescheduling.cpp,
// quantities in kubevalues.cpp. The JSON values are read through JsonWindowReader
// (kubejsonreader_p.h), which finds the items and locates errors, so that the Kubernetes rules
// can be read and changed without the windowing.
#include "kubeobjectmapper_p.h"
#include "importers/kubenames.h"
#include "importers/terminaltext.h"
#include "model/wellknownlabels.h"

#include <charconv>
#include <initializer_list>
#include <span>
#include <stdexcept>

namespace fleet::importers::kubejson_detail {

namespace {

// How much an error quotes of a Status object's fields (the API server's message is kept
// whole in practice; the bound is against a hostile one).
constexpr std::size_t kStatusTextMaxChars = 2000;

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

// ---- the document ---------------------------------------------------------------------------

void KubeObjectMapper::beginDocument()
{
    m_rootKind = m_presetListKind;
    m_defaultItemKind = ItemKind::Unknown;
    if (m_rootKind.size() > 4 && m_rootKind.ends_with("List")) {
        m_defaultKindName.assign(m_rootKind, 0, m_rootKind.size() - 4);
        m_defaultItemKind = itemKindFromName(m_defaultKindName);
    }
    m_continue.clear();
    m_listResourceVersion.clear();
    m_remainingItems = -1;
    m_statusText.clear();
    m_statusReason.clear();
    m_statusMessage.clear();
}

void KubeObjectMapper::rootField(od::field& f, bool tail)
{
    const char* k = f.key().raw();
    if (m_json.onKey(k, "kind", [&] { m_rootKind.assign(m_json.stringValue(f.value(), "a string")); })) {
        const ItemKind kind = itemKindFromName(m_rootKind);
        if (!tail && (kind == ItemKind::Node || kind == ItemKind::Pod || isExtraKind(kind)))
            m_itemKind = kind;
        if (m_rootKind.size() > 4 && m_rootKind.ends_with("List")) {
            m_defaultKindName.assign(m_rootKind, 0, m_rootKind.size() - 4);
            m_defaultItemKind = itemKindFromName(m_defaultKindName);
        }
        return;
    }
    if (keyIs(k, "message") || keyIs(k, "reason")) {
        od::value v = f.value();
        if (v.raw_json_token().front() == '"')
            (k[0] == 'm' ? m_statusMessage : m_statusReason).assign(m_json.stringValue(v, "a string"));
        return;
    }
    if (keyIs(k, "code")) {
        std::int64_t code = 0;
        if (f.value().get_int64().get(code) == simdjson::SUCCESS)
            m_statusCode = code;
        return;
    }
    if (keyIs(k, "status") && f.value().raw_json_token().front() == '"') {
        m_statusText.assign(m_json.stringValue(f.value(), "a string"));
        return;
    }
    if (tail) {
        if (keyIs(k, "metadata"))
            parseMetadata(f.value(), true);
        return;
    }
    parseItemField(f, true);
}

void KubeObjectMapper::endRoot(const char* rootStart, bool tail)
{
    if (m_rootKind == "Status") {
        std::string message = "the file holds a Kubernetes Status object, not nodes or pods: the API server refused the request";
        if (!m_statusText.empty())
            message += " (" + escapedText(m_statusText, kStatusTextMaxChars) + ")";
        if (!m_statusReason.empty())
            message += ", reason " + escapedText(m_statusReason, kStatusTextMaxChars);
        if (m_statusCode != 0)
            message += ", code " + std::to_string(m_statusCode);
        if (!m_statusMessage.empty())
            message += ": " + escapedText(m_statusMessage, kStatusTextMaxChars);
        m_json.raiseAt(m_json.offsetOf(rootStart), {}, message);
    }
    if (m_json.sawItems() || tail)
        return;
    // A single object.
    if (m_itemKind == ItemKind::Unknown)
        m_itemKind = itemKindFromName(m_rootKind);
    if (m_itemKind == ItemKind::Other || (!m_rootKind.empty() && m_itemKind == ItemKind::Unknown))
        m_json.fail(rootStart,
            "expected a List, NodeList, PodList, PersistentVolumeList, PodDisruptionBudgetList or NamespaceList, or one such "
            "object; got kind "
                + escapedText(m_rootKind));
    commitItem(rootStart);
}

bool KubeObjectMapper::readAgainWithListKind() const noexcept
{
    return !m_undecidedItems.empty() && m_defaultItemKind != ItemKind::Unknown && m_presetListKind.empty() && m_nodes == 0
        && m_pods == 0 && m_volumesRead == 0 && m_budgetsRead == 0 && m_namespacesRead == 0 && m_skippedKinds.empty();
}

void KubeObjectMapper::finish()
{
    raiseForUndecidedItems();

    m_session.listContinue = m_continue;
    m_session.listResourceVersion = m_listResourceVersion;
    // Warnings that the user must see.
    if (!m_continue.empty() && !m_session.followsPages) {
        std::string w = m_name
            + ": the list is incomplete: metadata.continue is set, so this is only the first page of a "
              "paginated list";
        if (m_remainingItems > 0)
            w += " (" + std::to_string(m_remainingItems) + " more items on the server)";
        w += ". kubectl was run with --chunk-size/--limit or the API was called with limit=; run kubectl get ... -o json "
             "without --chunk-size (it follows every page itself), or keep calling with continue= until it is empty.";
        m_report.warn(std::move(w));
    }
    for (const auto& [kind, count] : m_skippedKinds)
        m_report.warn(
            m_name + ": skipped " + std::to_string(count) + " item(s) of kind " + kind
            + " (only Node, Pod, PersistentVolume, PodDisruptionBudget and Namespace are imported)");
    if (m_unknownPhases > 0)
        m_report.warn(m_name + ": " + std::to_string(m_unknownPhases)
            + " pod(s) have an unrecognised status.phase; they are taken as Unknown");
    if (m_defaultItemKind == ItemKind::PersistentVolume)
        m_session.sawVolumeList = true;
    if (m_json.sawItems() && m_nodes == 0 && m_pods == 0 && m_skippedKinds.empty() && m_volumesRead == 0 && m_budgetsRead == 0
        && m_namespacesRead == 0 && !isExtraKind(m_defaultItemKind))
        m_report.warn(m_name + ": the list has no items (no nodes and no pods)");
    m_report.nodesRead += m_nodes;
    m_report.podsRead += m_pods;
}

// ---- items ----------------------------------------------------------------------------------

void KubeObjectMapper::beginItem()
{
    m_unknownPhasesBeforeItem = m_unknownPhases;
    m_itemKind = ItemKind::Unknown;
    m_itemKindName.clear();
    m_sawNodeFields = false;
    m_sawPodFields = false;
    m_sawClaimFields = false;
    m_itemName.clear();
    m_nameWhere = nullptr;
    m_namespaceWhere = nullptr;
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

void KubeObjectMapper::parseItemField(od::field& f, bool isRoot)
{
    const char* k = f.key().raw();
    switch (k[0]) {
    case 'k':
        if (!isRoot)
            m_json.onKey(k, "kind", [&] {
                const char* where = nullptr;
                const std::string_view kind = m_json.stringValue(f.value(), "a string", &where);
                m_itemKind = itemKindFromName(kind);
                if (m_itemKind == ItemKind::Other)
                    m_itemKindName.assign(kind);
                // The extra kinds are read by their own rules from the start: their fields
                // cannot be read as a Node's or Pod's first and sorted out later.
                if (isExtraKind(m_itemKind) && m_sawItemFields && !isExtraKind(m_defaultItemKind))
                    m_json.fail(where, "the kind " + quotedText(kind) + " comes after the item's metadata, spec or status; put kind first, "
                                "as kubectl does");
            });
        return;
    case 'm':
        if (m_itemKind != ItemKind::Other)
            m_json.onKey(k, "metadata", [&] {
                m_sawItemFields = true;
                parseMetadata(f.value(), isRoot);
            });
        return;
    case 's':
        if (m_itemKind == ItemKind::Other)
            return;
        if (isExtraKind(effectiveItemKind())) {
            m_json.onKey(k, "spec", [&] { parseExtraSpec(f.value()); }) || m_json.onKey(k, "status", [&] { parseExtraStatus(f.value()); });
            return;
        }
        m_json.onKey(k, "spec", [&] {
            m_sawItemFields = true;
            parseSpec(f.value());
        }) || m_json.onKey(k, "status", [&] {
            m_sawItemFields = true;
            parseStatus(f.value());
        });
        return;
    default:
        return;
    }
}

void KubeObjectMapper::parseMetadata(od::value v, bool isRoot)
{
    const Wanted want = wanted();
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'n':
            // No Kubernetes name holds a control character (importers/kubenames.h): one that
            // does is refused here, before it can reach a terminal, a CSV or a script.
            m_json.onKey(k, "name", [&] {
                m_itemName.assign(m_json.stringValue(f.value(), "a string", &m_nameWhere));
                if (std::string problem = controlCharacterProblem(m_itemName, "the name"); !problem.empty())
                    m_json.fail(m_nameWhere, std::move(problem));
            }) || m_json.onKey(k, "namespace", [&] {
                m_pod.namespaceName.assign(m_json.stringValue(f.value(), "a string", &m_namespaceWhere));
                if (std::string problem = controlCharacterProblem(m_pod.namespaceName, "the namespace"); !problem.empty())
                    m_json.fail(m_namespaceWhere, std::move(problem));
            });
            break;
        case 'l':
            // Into the node's labels for either kind: commitItem hands them to a pod.
            m_json.onKey(k, "labels", [&] { parseStringMap(f.value(), "a string (label value)", m_node.labels, m_labelSlots); });
            break;
        case 'a':
            if (want.pod)
                m_json.onKey(k, "annotations", [&] { parseAnnotations(f.value()); });
            break;
        case 'u':
            if (want.pod)
                m_json.onKey(k, "uid", [&] { m_json.optionalString(f.value(), m_pod.uid); });
            break;
        case 'd':
            // A terminating pod: the API server sets deletionTimestamp (an RFC 3339 time) when
            // the pod is deleted with a grace period; its value is not needed, only that it is set.
            if (want.pod)
                m_json.onKey(k, "deletionTimestamp", [&] {
                    std::string at;
                    m_json.optionalString(f.value(), at);
                    if (!at.empty())
                        m_pod.flags |= model::PodFlagTerminating;
                });
            break;
        case 'o':
            if (want.pod)
                m_json.onKey(k, "ownerReferences", [&] { parseOwnerReferences(f.value()); });
            break;
        case 'c':
            if (isRoot)
                m_json.onKey(k, "continue", [&] { m_json.optionalString(f.value(), m_continue); });
            break;
        case 'r':
            if (isRoot && keyIs(k, "remainingItemCount")) {
                std::int64_t n = 0;
                if (f.value().get_int64().get(n) == simdjson::SUCCESS)
                    m_remainingItems = n;
            } else if (isRoot) {
                m_json.onKey(k, "resourceVersion", [&] { m_json.optionalString(f.value(), m_listResourceVersion); });
            }
            break;
        default:
            break;
        }
    });
}

void KubeObjectMapper::parseStringMap(
    od::value v, const char* valueWhat, std::vector<StringPair>& into, Slots<StringPair>& slots)
{
    m_json.forEachField(v, "an object of label keys to values", [&](od::field& f, const char* k) {
        m_json.path().pushRawKey(k);
        StringPair& entry = slots.slot(into);
        entry.first.assign(m_json.keyText(f));
        const char* where = nullptr;
        entry.second.assign(m_json.stringValue(f.value(), valueWhat, &where));
        // Label keys and values never hold a control character (importers/kubenames.h).
        if (std::string problem = controlCharacterProblem(entry.first, "the label key"); !problem.empty())
            m_json.fail(where, std::move(problem));
        if (std::string problem = controlCharacterProblem(entry.second, "the label value"); !problem.empty())
            m_json.fail(where, std::move(problem));
        m_json.path().pop();
    });
}

void KubeObjectMapper::parseAnnotations(od::value v)
{
    m_json.forEachField(v, "an object of annotation keys to values", [&](od::field& f, const char* k) {
        // Static pods: the kubelet's mirror pod carries this annotation.
        // Source: https://kubernetes.io/docs/tasks/configure-pod-container/static-pod/
        if (keyIs(k, "kubernetes.io/config.mirror"))
            m_pod.mirror = true;
        else if (k[0] == 'k' || k[0] == 'c')
            parseAnnotation(f, k);
    });
}

void KubeObjectMapper::parseOwnerReferences(od::value v)
{
    m_json.forEachObject(v, "an array of owner references", "an object (owner reference)", [&](od::value&, od::object o) {
        std::string_view kind;
        std::string_view name;
        bool controller = false;
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            m_json.onKey(k, "kind", [&] { kind = m_json.stringValue(f.value(), "a string"); })
                || m_json.onKey(k, "name", [&] { name = m_json.stringValue(f.value(), "a string"); })
                || m_json.onKey(k, "controller", [&] { m_json.optionalBool(f.value(), controller); });
        });
        if (controller) {
            // kind/name views may point into simdjson's string buffer; copy them now.
            m_pod.ownerKind = model::ownerKindFromName(kind);
            m_pod.ownerName.assign(name);
        }
    });
}

void KubeObjectMapper::parseSpec(od::value v)
{
    const Wanted want = wanted();
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            // A PersistentVolume's or PersistentVolumeClaim's spec (accessModes first, in the
            // API's order and in sorted keys) is no Pod's: its resources are not read as one.
            if (m_itemKind == ItemKind::Unknown && m_defaultItemKind == ItemKind::Unknown && keyIs(k, "accessModes"))
                m_sawClaimFields = true;
            else if (want.pod)
                m_json.onKey(k, "affinity", [&] { parseAffinity(f.value()); });
            break;
        case 'v':
            if (want.pod)
                m_json.onKey(k, "volumes", [&] { parseVolumes(f.value()); });
            break;
        case 'c':
            if (want.pod)
                m_json.onKey(k, "containers", [&] {
                    m_sawPodFields = true;
                    parseContainers(f.value(), m_spec.containers, m_containerSlots, false);
                });
            break;
        case 'i':
            if (want.pod)
                m_json.onKey(
                    k, "initContainers", [&] { parseContainers(f.value(), m_spec.initContainers, m_initContainerSlots, true); });
            break;
        case 'n':
            if (want.pod)
                m_json.onKey(k, "nodeName", [&] {
                    if (m_json.isNull(f.value()))
                        return;
                    const char* where = nullptr;
                    m_pod.nodeName.assign(m_json.stringValue(f.value(), "a string", &where));
                    if (std::string problem = controlCharacterProblem(m_pod.nodeName, "the node name"); !problem.empty())
                        m_json.fail(where, std::move(problem));
                    // The API server holds spec.nodeName to the node name's rule (ValidatePodSpec).
                    if (!m_pod.nodeName.empty())
                        if (std::string problem = kubeNameProblem(m_pod.nodeName, KubeNameRule::Dns1123Subdomain, "the node name");
                            !problem.empty())
                            m_json.fail(where, std::move(problem));
                }) || m_json.onKey(k, "nodeSelector", [&] {
                    parseStringMap(f.value(), "a string", m_pod.nodeSelector, m_selectorSlots);
                });
            break;
        case 'o':
            if (want.pod)
                m_json.onKey(k, "overhead", [&] { parseExactResourceList(f.value(), m_spec.overhead); });
            break;
        case 'p':
            if (want.pod)
                m_json.onKey(k, "priority", [&] {
                    if (m_json.isNull(f.value()))
                        return;
                    std::int64_t priority = 0;
                    if (f.value().get_int64().get(priority) != simdjson::SUCCESS
                        || priority < std::numeric_limits<std::int32_t>::min()
                        || priority > std::numeric_limits<std::int32_t>::max())
                        m_json.failType(f.value(), "a 32-bit integer");
                    m_pod.priority = static_cast<std::int32_t>(priority);
                });
            break;
        case 'r':
            if (want.pod && !m_sawClaimFields)
                m_json.onKey(k, "resources", [&] { parseContainerResources(f.value(), m_spec.podRequests, m_spec.podLimits); })
                    || m_json.onKey(k, "resourceClaims", [&] { parseResourceClaims(f.value()); });
            break;
        case 's':
            if (want.pod)
                m_json.onKey(k, "schedulingGates", [&] { parseSchedulingGates(f.value()); });
            break;
        case 't':
            (want.node && m_json.onKey(k, "taints", [&] {
                m_sawNodeFields = true;
                parseTaints(f.value());
            })) || (want.pod && m_json.onKey(k, "tolerations", [&] { parseTolerations(f.value()); }))
                || (want.pod && m_json.onKey(k, "topologySpreadConstraints", [&] { parseSpreadConstraints(f.value()); }));
            break;
        case 'u':
            if (want.node)
                m_json.onKey(k, "unschedulable", [&] { m_json.optionalBool(f.value(), m_node.unschedulable); });
            break;
        default:
            break;
        }
    });
}

void KubeObjectMapper::parseStatus(od::value v)
{
    const Wanted want = wanted();
    m_json.forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            // A PersistentVolumeClaim's status (accessModes before capacity, in the API's order
            // and in sorted keys) is no Node's: its capacity is not read as one.
            if (m_itemKind == ItemKind::Unknown && m_defaultItemKind == ItemKind::Unknown && keyIs(k, "accessModes"))
                m_sawClaimFields = true;
            else if (want.node)
                m_json.onKey(k, "allocatable", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.allocatable, m_allocatableGpus);
                });
            break;
        case 'c':
            if (want.node && !m_sawClaimFields)
                m_json.onKey(k, "capacity", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.capacity, m_capacityGpus);
                });
            m_json.onKey(k, "conditions", [&] { parseConditions(f.value()); });
            break;
        case 'p':
            if (want.pod && keyIs(k, "phase")) {
                m_json.path().push("phase");
                const std::string_view phase = m_json.stringValue(f.value(), "a string");
                m_json.path().pop();
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

void KubeObjectMapper::parseConditions(od::value v)
{
    // Node conditions keep every field; a pod keeps only its PodScheduled message when the
    // status is False (the scheduler's reason), so pod conditions cost no copies. The views
    // stay valid to the end of the condition object (simdjson's string buffer).
    // Source: https://kubernetes.io/docs/reference/node/node-status/#condition and
    // https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions
    const Wanted want = wanted();
    m_json.forEachObject(v, "an array of conditions", "an object (condition)", [&](od::value&, od::object o) {
        std::string_view type;
        std::string_view message;
        std::string_view reason;
        std::int64_t since = 0;
        Readiness status = Readiness::Unknown;
        m_json.forEachField(o, [&](od::field& f, const char* k) {
            switch (k[0]) {
            case 't':
                m_json.onKey(k, "type", [&] { type = m_json.stringValue(f.value(), "a string"); });
                break;
            case 's':
                m_json.onKey(k, "status", [&] {
                    const std::string_view s = m_json.stringValue(f.value(), "a string");
                    status = s == "True" ? Readiness::True : s == "False" ? Readiness::False : Readiness::Unknown;
                });
                break;
            case 'm':
                m_json.onKey(k, "message", [&] {
                    if (!m_json.isNull(f.value()))
                        message = m_json.stringValue(f.value(), "a string");
                });
                break;
            case 'r':
                if (want.node)
                    m_json.onKey(k, "reason", [&] {
                        if (!m_json.isNull(f.value()))
                            reason = m_json.stringValue(f.value(), "a string");
                    });
                break;
            case 'l':
                if (want.node)
                    m_json.onKey(k, "lastTransitionTime", [&] {
                        if (m_json.isNull(f.value()))
                            return;
                        const char* where = nullptr;
                        const std::string_view text = m_json.stringValue(f.value(), "a string", &where);
                        if (!parseRfc3339(text, since))
                            m_json.fail(where, "expected an RFC 3339 time such as \"2024-05-01T10:20:30Z\", found " + quotedText(text));
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

void KubeObjectMapper::raiseForUndecidedItems()
{
    if (m_undecidedItems.empty())
        return;
    const UndecidedItem& first = m_undecidedItems.front();
    std::string message = "cannot tell what kind of object this item is: it has no kind, no status.allocatable/capacity (a "
                          "Node) and no spec.containers (a Pod)";
    if (!m_rootKind.empty())
        message += ", and the list's kind (" + quotedText(m_rootKind) + ") comes after its items and does not name their kind";
    else
        message += ", and the list has no kind";
    message += "; give each item its kind, or the list a kind such as NodeList or PodDisruptionBudgetList";
    m_json.raiseAt(first.offset, first.path, message);
}

void KubeObjectMapper::commitItem(const char* itemStart)
{
    ItemKind kind = effectiveItemKind();
    if (kind == ItemKind::Unknown) {
        if (m_sawNodeFields && !m_sawPodFields && !m_sawClaimFields)
            kind = ItemKind::Node;
        else if (m_sawPodFields && !m_sawNodeFields && !m_sawClaimFields)
            kind = ItemKind::Pod;
        else if (!m_sawPodFields && m_json.sawItems() && !m_json.rootIsArray() && m_rootKind.empty()) {
            // The list's kind may follow its items: decide when it is read.
            m_undecidedItems.push_back({ m_json.offsetOf(itemStart), m_json.path().format() });
            m_unknownPhases = m_unknownPhasesBeforeItem; // a Namespace's status.phase is no pod's
            m_json.dropItemBadValues();
            return;
        } else
            m_json.fail(itemStart,
                m_sawPodFields ? "cannot tell whether this item is a Node or a Pod: it has no kind, and both node fields "
                                 "(status.allocatable/capacity) and pod fields (spec.containers)"
                               : "cannot tell whether this item is a Node or a Pod: it has no kind, no "
                                 "status.allocatable/capacity (a Node) and no spec.containers (a Pod)");
    }
    if (kind != ItemKind::Other) {
        m_json.keepItemBadValues();
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
    if (kind == ItemKind::Node)
        commitNode(itemStart);
    else
        commitPod(itemStart);
}

} // namespace fleet::importers::kubejson_detail
