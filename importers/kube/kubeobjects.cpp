// SPDX-License-Identifier: Apache-2.0
// kubeobjects.cpp: the mapping half of KubectlJsonImporter (see kubejsonimporter_p.h): what every
// Kubernetes item shares (its kind, metadata, the dispatch of spec and status, conditions) and
// the commit of the item to the ClusterStore. What is a Node's alone is in kubenodes.cpp, a
// Pod's in kubepods.cpp (its scheduling constraints in kubescheduling.cpp), the extra kinds
// (PersistentVolume, PodDisruptionBudget, Namespace) in kubescheduling.cpp. The value readers
// (strings, quantities, objects, arrays) are in kubevalues.cpp.
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
    if (kind == ItemKind::Node)
        commitNode(itemStart);
    else
        commitPod(itemStart);
}

} // namespace fleet::importers::kubejson_detail
