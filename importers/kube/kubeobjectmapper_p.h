// SPDX-License-Identifier: Apache-2.0
// kubeobjectmapper_p.h: KubeObjectMapper, the mapping half of the kubectl JSON importer behind
// kubejson.h: it maps Kubernetes objects (Node, Pod, PersistentVolume, PodDisruptionBudget,
// Namespace, and the List around them) onto the model's records and commits them to the
// ClusterStore. It knows nothing of windows or byte sources: JsonWindowReader
// (kubejsonreader_p.h) hands it the root object's fields and the items one by one, and it reads
// their values, and reports failures, through the reader's value readers. Private to
// importers/kube/; implemented in kubeobjects.cpp (the item, its metadata, conditions, the
// commit), kubenodes.cpp, kubepods.cpp, kubescheduling.cpp (scheduling constraints and the
// extra kinds) and kubevalues.cpp (resource names and quantities).
#pragma once

#include "kubejsonreader_p.h"
#include "importers/kubenames.h"

#include "model/podrequest.h"
#include "model/quantity.h"

#include <tuple>

namespace fleet::importers::kubejson_detail {

using model::ClusterStore;
using model::CoreResource;
using model::NodeRecord;
using model::OwnerKind;
using model::PodPhase;
using model::PodRecord;
using model::QuantityScale;
using model::Readiness;
using model::ResourceKey;
using model::ResourceList;
using model::SelectorOperator;
using model::TaintEffect;
using model::TolerationOperator;

/// Reuses vector elements (and the heap buffers of their strings) from item to item:
/// slot() hands out the next element, trim() parks the unused tail in `spare` by move.
template <class T> class Slots {
public:
    T& slot(std::vector<T>& v)
    {
        if (m_used == v.size()) {
            if (!m_spare.empty()) {
                v.push_back(std::move(m_spare.back()));
                m_spare.pop_back();
            } else {
                v.emplace_back();
            }
        }
        return v[m_used++];
    }
    void begin() noexcept { m_used = 0; }
    void trim(std::vector<T>& v)
    {
        while (v.size() > m_used) {
            m_spare.push_back(std::move(v.back()));
            v.pop_back();
        }
    }
    [[nodiscard]] std::size_t used() const noexcept { return m_used; }

private:
    std::size_t m_used = 0;
    std::vector<T> m_spare;
};

/// The kinds imported. PersistentVolume, PodDisruptionBudget and Namespace are the optional
/// inputs of the what-if ("extra" kinds): known only from a `kind` (the item's own, before its
/// other fields, or the list's), never guessed from the fields.
enum class ItemKind : std::uint8_t { Unknown, Node, Pod, PersistentVolume, PodDisruptionBudget, Namespace, Other };

constexpr bool isExtraKind(ItemKind k) noexcept
{
    return k == ItemKind::PersistentVolume || k == ItemKind::PodDisruptionBudget || k == ItemKind::Namespace;
}

inline ItemKind itemKindFromName(std::string_view kind) noexcept
{
    if (kind == "Node")
        return ItemKind::Node;
    if (kind == "Pod")
        return ItemKind::Pod;
    if (kind == "PersistentVolume")
        return ItemKind::PersistentVolume;
    if (kind == "PodDisruptionBudget")
        return ItemKind::PodDisruptionBudget;
    if (kind == "Namespace")
        return ItemKind::Namespace;
    return kind.empty() ? ItemKind::Unknown : ItemKind::Other;
}

using StringPair = std::pair<std::string, std::string>;

/// A metav1.LabelSelector as read, before interning (and before matchLabelKeys are folded in).
struct RawSelector {
    bool present = false; // false: the selector is null (absent)
    std::vector<StringPair> matchLabels;
    std::vector<std::tuple<std::string, model::MatchOperator, std::vector<std::string>>> matchExpressions;
    void clear() noexcept
    {
        present = false;
        matchLabels.clear();
        matchExpressions.clear();
    }
};

/// A required pod (anti-)affinity term as read.
struct RawAffinityTerm {
    RawSelector selector;
    std::vector<std::string> namespaces;
    RawSelector namespaceSelector;
    std::string topologyKey;
    std::vector<std::string> matchLabelKeys, mismatchLabelKeys;
    void clear() noexcept
    {
        selector.clear();
        namespaces.clear();
        namespaceSelector.clear();
        topologyKey.clear();
        matchLabelKeys.clear();
        mismatchLabelKeys.clear();
    }
};

/// A topologySpreadConstraints entry as read.
struct RawSpreadConstraint {
    model::TopologySpreadConstraint value; // scalars; selector filled at commit
    std::string topologyKey;
    RawSelector selector;
    std::vector<std::string> matchLabelKeys;
};

/// A host port as read (hostIP still a string).
struct RawHostPort {
    std::uint16_t port = 0;
    model::PortProtocol protocol = model::PortProtocol::TCP;
    std::string hostIP;
};

/// What a resource name maps to, cached by name so that a name is looked up in the
/// registry (which allocates) once per import, not once per item.
struct ResourceEntry {
    std::string name;
    ResourceKey key = 0;
    QuantityScale scale = QuantityScale::Units;
    std::int8_t gpuCountSource = -1; // 0 nvidia.com/gpu, 1 amd.com/gpu, 2 alibabacloud.com/gpu-count
    /// An extended resource (a name with a domain outside kubernetes.io, e.g. nvidia.com/gpu):
    /// its quantities must be whole numbers, as the API server's validation requires
    /// (ValidateResourceQuantityValue, IsIntegerResourceName: "must be an integer").
    bool wholeUnits = false;
};

// ---- the mapper -------------------------------------------------------------------------

/// Maps the Kubernetes objects of one kubectl JSON document onto the model's records: Nodes
/// and Pods into the store, PersistentVolumes, PodDisruptionBudgets and Namespaces as the
/// what-if's inputs, other kinds counted and skipped. Called by JsonWindowReader::run() (the
/// order is given there); reads values and reports failures only through `json`'s value
/// readers, so it never sees a window or a byte offset other than through them.
/// Thread: one import on one thread; not shared.
class KubeObjectMapper {
public:
    /// What the reader names in its errors where a whole document or item is expected.
    static constexpr const char* kRootExpected = "a JSON object (a List, NodeList, PodList, Node or Pod)";
    static constexpr const char* kItemsExpected = "an array of Node or Pod objects";
    static constexpr const char* kItemExpected = "a Node or Pod object";

    KubeObjectMapper(JsonWindowReader& json, std::string sourceName, ClusterStore& store, ImportReport& report,
        const KubectlJsonOptions& options, KubectlJsonSession& session)
        : m_json(json)
        , m_name(std::move(sourceName))
        , m_store(store)
        , m_report(report)
        , m_extraPodFlags(options.podFlags)
        , m_session(session)
    {
    }

    // ---- the calls of JsonWindowReader::run() ----

    /// The root is read (again, when its window grows): forget what the root told so far.
    void beginDocument();
    /// An item starts (or starts again, when a window cut it): reset the item scratch.
    void beginItem();
    /// A field of the root object other than "items"; `tail`: read after the items (only
    /// the list's metadata counts then).
    void rootField(od::field& f, bool tail);
    /// The root object is read: a Status object is refused; a single object (no items list)
    /// is committed. `rootStart` is where it starts.
    void endRoot(const char* rootStart, bool tail);
    /// A field of an item.
    void itemField(od::field& f) { parseItemField(f, false); }
    /// The item that starts at `itemStart` is read: commit it to the store (or skip it).
    void commitItem(const char* itemStart);
    /// After run(): items whose kind the list's kind decides, the session's list fields, the
    /// warnings and the report's counts. Not called when readAgainWithListKind() is true.
    void finish();
    /// After run(): true when no item was committed because every one waited for the list's
    /// kind, read after them (`jq -S` sorts "items" before "kind", and a server's list answer
    /// gives its items no kind), and that kind names the kind of its items (a
    /// PodDisruptionBudgetList, a PersistentVolumeList, a PersistentVolumeClaimList...): the
    /// document is then read again by a new mapper given that kind first (presetListKind()), so
    /// that every list kind is read by its own item kind's rules whichever order its keys have.
    [[nodiscard]] bool readAgainWithListKind() const noexcept;
    /// The root's kind as read (empty when it has none).
    [[nodiscard]] const std::string& listKind() const noexcept { return m_rootKind; }
    /// Reads the document as if the root's `kind` came before its items. Before run().
    void presetListKind(std::string kind) { m_presetListKind = std::move(kind); }

private:
    void parseItemField(od::field& f, bool isRoot);
    /// The Node or Pod part of commitItem() (kubenodes.cpp, kubepods.cpp).
    void commitNode(const char* itemStart);
    void commitPod(const char* itemStart);
    void parseMetadata(od::value v, bool isRoot);
    void parseSpec(od::value v);
    void parseStatus(od::value v);
    /// An object of label keys to string values (metadata.labels, spec.nodeSelector) into
    /// `into`; a value that is not a string fails with "expected <valueWhat>".
    void parseStringMap(od::value v, const char* valueWhat, std::vector<StringPair>& into, Slots<StringPair>& slots);
    void parseAnnotations(od::value v);
    void parseOwnerReferences(od::value v);
    void parseTaints(od::value v);
    /// status.conditions of a node (every condition, Ready sets `ready`) and of a pod (the
    /// PodScheduled message when its status is False).
    void parseConditions(od::value v);
    void parseSchedulingGates(od::value v);
    void parseContainers(
        od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init);
    void parseContainerResources(od::value v, model::ExactResourceList& requests, model::ExactResourceList& limits);
    /// Each field of a resource list object ("cpu": "500m", "nvidia.com/gpu": 8): `core(resource,
    /// scale, value)` for the four core names (no lookup), `extended(entry, value)` for the rest
    /// (through the resource cache); the path names the field while it is read.
    template <class Core, class Extended>
    void forEachResource(od::value v, Core core, Extended extended);
    void parseExactResourceList(od::value v, model::ExactResourceList& into);
    void parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts);
    void parseTolerations(od::value v);
    void parseAffinity(od::value v);
    void parseSelectorTerms(od::value v);
    void parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField);

    // scheduling constraints and the extra kinds (kubescheduling.cpp)
    void beginSchedulingItem();
    void parsePodAffinity(od::value v, std::vector<RawAffinityTerm>& into, std::size_t& used);
    void parseAffinityTerm(od::object o, RawAffinityTerm& term);
    void parseLabelSelector(od::value v, RawSelector& into);
    void parseStringList(od::value v, std::vector<std::string>& into);
    void parseSpreadConstraints(od::value v);
    void parseContainerPorts(od::value v, bool sidecarOrApp);
    void parseVolumes(od::value v);
    void parseResourceClaims(od::value v);
    void parseAnnotation(od::field& f, const char* k);
    std::int32_t int32Value(od::value& v, const char* what, std::int64_t min, std::int64_t max);
    model::IntOrPercent intOrPercentValue(od::value& v);
    void parseExtraSpec(od::value v);
    void parseExtraStatus(od::value v);
    /// Interns the pod's constraint lists into m_pod (selectors folded with its labels).
    void commitPodScheduling(const std::vector<StringPair>& labels);
    void commitExtraItem(ItemKind kind, const char* itemStart);
    void foldLabelKeys(model::InternedSelector& s, const std::vector<std::string>& keys, model::MatchOperator op,
        const std::vector<StringPair>& labels);

    // resource names and quantities (kubevalues.cpp)
    const ResourceEntry& resourceEntry(std::string_view name);
    /// A quantity in the model's unit for `scale`; with `whole` (an extended resource), a
    /// fraction is a bad value (recorded, 0 returned) like an invalid quantity.
    std::int64_t quantityValue(od::value& v, QuantityScale scale, const ResourceEntry* whole = nullptr);
    model::QuantityNanos exactQuantityValue(od::value& v, QuantityScale scale, const ResourceEntry* whole = nullptr);
    /// False (and a bad value recorded at `where`) when `entry` counts whole units and `text` is a fraction.
    bool wholeUnitsOrRecord(const ResourceEntry* entry, std::string_view text, const char* where);
    std::string_view quantityText(od::value& v, const char*& where);
    void recordQuantityError(const model::QuantityError& e, std::string_view text, const char* where);

    /// The item's kind: its own `kind`, else the list's.
    [[nodiscard]] ItemKind effectiveItemKind() const noexcept
    {
        return m_itemKind != ItemKind::Unknown ? m_itemKind : m_defaultItemKind;
    }
    /// Which record the fields of the current item may fill (both while the kind is unknown).
    struct Wanted {
        bool node;
        bool pod;
    };
    [[nodiscard]] Wanted wanted() const noexcept
    {
        const ItemKind kind = effectiveItemKind();
        if (isExtraKind(kind) || kind == ItemKind::Other) // an item of a kind not imported fills neither
            return { false, false };
        return { kind != ItemKind::Pod, kind != ItemKind::Node };
    }
    /// Fails at the item's metadata.name (or at its start when it has none), with the path
    /// at metadata, or at metadata.name when `nameOnPath`.
    [[noreturn]] void failAtName(const char* itemStart, std::string message, bool nameOnPath = false)
    {
        m_json.path().push("metadata");
        if (nameOnPath)
            m_json.path().push("name");
        m_json.fail(m_nameWhere != nullptr ? m_nameWhere : itemStart, std::move(message));
    }
    /// Fails unless the item's metadata.name follows `rule` (kubenames.h), at metadata.name.
    void checkName(const char* itemStart, KubeNameRule rule, std::string_view what)
    {
        if (std::string problem = kubeNameProblem(m_itemName, rule, what); !problem.empty())
            failAtName(itemStart, std::move(problem), true);
    }
    /// Fails unless the item's metadata.namespace is a DNS-1123 label, at metadata.namespace.
    void checkNamespace(const char* itemStart)
    {
        if (std::string problem = kubeNameProblem(m_pod.namespaceName, KubeNameRule::Dns1123Label, "the namespace");
            !problem.empty()) {
            m_json.path().push("metadata");
            m_json.path().push("namespace");
            m_json.fail(m_namespaceWhere != nullptr ? m_namespaceWhere : itemStart, std::move(problem));
        }
    }

    JsonWindowReader& m_json;
    std::string m_name;
    ClusterStore& m_store;
    ImportReport& m_report;
    std::uint16_t m_extraPodFlags = 0;
    KubectlJsonSession& m_session;

    // root and list state
    std::string m_rootKind;
    std::string m_presetListKind; // see presetListKind()
    ItemKind m_defaultItemKind = ItemKind::Unknown;
    std::string m_defaultKindName;
    std::string m_continue;
    std::string m_listResourceVersion; // the root list's metadata.resourceVersion
    std::int64_t m_remainingItems = -1;
    std::string m_statusText, m_statusReason, m_statusMessage;
    std::int64_t m_statusCode = 0;


    // Items of a list without their own kind, that are neither a Node nor a Pod by their fields,
    // read before the list's kind (`jq -S` sorts "items" before "kind"): when the list's kind,
    // once read, names their kind, the document is read again with it (readAgainWithListKind()),
    // else the first of them is an error.
    struct UndecidedItem {
        std::uint64_t offset = 0;
        std::string path;
    };
    std::vector<UndecidedItem> m_undecidedItems;
    std::size_t m_unknownPhasesBeforeItem = 0;
    /// Raises for the first of m_undecidedItems (when the document is not to be read again).
    void raiseForUndecidedItems();

    // item scratch (reused)
    ItemKind m_itemKind = ItemKind::Unknown;
    std::string m_itemKindName;
    bool m_sawNodeFields = false;
    bool m_sawPodFields = false;
    bool m_sawClaimFields = false; // spec/status.accessModes: a PersistentVolume(Claim)'s, neither a Node's nor a Pod's
    std::string m_itemName;
    const char* m_nameWhere = nullptr;
    const char* m_namespaceWhere = nullptr; // where metadata.namespace's value starts
    NodeRecord m_node;
    PodRecord m_pod;
    model::PodResourceSpec m_spec;
    std::int64_t m_capacityGpus[3] {};
    std::int64_t m_allocatableGpus[3] {};
    Slots<StringPair> m_labelSlots; // metadata.labels of a node or a pod (see commitItem)
    Slots<model::NodeConditionRecord> m_conditionSlots;
    Slots<std::string> m_gateSlots;
    Slots<std::tuple<std::string, std::string, TaintEffect>> m_taintSlots;
    Slots<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>> m_tolerationSlots;
    Slots<StringPair> m_selectorSlots;
    Slots<std::vector<PodRecord::Requirement>> m_termSlots;
    Slots<PodRecord::Requirement> m_requirementSlots;
    Slots<std::string> m_valueSlots;
    Slots<model::ContainerResources> m_containerSlots;
    Slots<model::ContainerResources> m_initContainerSlots;
    std::vector<ResourceEntry> m_resourceCache;

    // scheduling constraints of the pod being read, and the extra kinds (reused; `used` counts)
    bool m_sawItemFields = false; // metadata, spec or status came before the item's kind
    std::vector<RawAffinityTerm> m_affinityTerms, m_antiAffinityTerms;
    std::size_t m_affinityUsed = 0, m_antiAffinityUsed = 0;
    std::vector<RawSpreadConstraint> m_spread;
    std::size_t m_spreadUsed = 0;
    std::vector<RawHostPort> m_ports;
    std::size_t m_portsUsed = 0;
    std::vector<std::string> m_claims;
    std::size_t m_claimsUsed = 0;
    RawSelector m_budgetSelector;
    model::DisruptionBudgetRecord m_budget;
    std::string m_claimRefNamespace, m_claimRefName;
    std::size_t m_volumesRead = 0, m_budgetsRead = 0, m_namespacesRead = 0;


    // report
    std::size_t m_nodes = 0;
    std::size_t m_pods = 0;
    std::size_t m_unknownPhases = 0;
    std::vector<std::pair<std::string, std::size_t>> m_skippedKinds;
};

// Here rather than in a .cpp: both a Node's resource lists (kubenodes.cpp) and a Pod's
// (kubepods.cpp) use it.
template <class Core, class Extended>
void KubeObjectMapper::forEachResource(od::value v, Core core, Extended extended)
{
    m_json.forEachField(v, "an object of resource names to quantities", [&](od::field& f, const char* k) {
        m_json.path().pushRawKey(k);
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
            extended(resourceEntry(m_json.keyText(f)), f.value());
        m_json.path().pop();
    });
}

} // namespace fleet::importers::kubejson_detail
