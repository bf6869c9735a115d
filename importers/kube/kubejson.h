// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kubectl JSON importer: `kubectl get nodes -o json`, `kubectl get pods -A -o json` and
// the API server's own NodeList/PodList responses, into a model::ClusterStore; optionally also
// `kubectl get pv -o json` (PersistentVolumeList), `kubectl get pdb -A -o json`
// (PodDisruptionBudgetList) and `kubectl get ns -o json` (NamespaceList), recognised by kind
// like the node and pod lists, for the what-if's scheduling constraints (schedulingtypes.h).
//
// What a pod brings for the what-if: metadata.uid; the annotations karpenter.sh/do-not-disrupt
// "true" and cluster-autoscaler.kubernetes.io/safe-to-evict "false" (PodFlagDoNotDisrupt); the
// Ready condition (PodFlagReady); pod-group labels (PodFlagPodGroup); required pod affinity and
// anti-affinity terms (matchLabelKeys / mismatchLabelKeys folded into the selector with the
// pod's own label values, KEP-3633); topologySpreadConstraints (matchLabelKeys folded, KEP-3243;
// API defaults: minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore); the hostPorts
// of containers and restartable init containers (protocol TCP and hostIP 0.0.0.0 by default);
// emptyDir volumes (PodFlagLocalStorage); persistentVolumeClaim volumes, bound to the
// PersistentVolume whose spec.claimRef names the pod's namespace and the claim, once every file
// is read (KubectlJsonSession), giving its zone / region labels and spec.nodeAffinity.required;
// spec.resourceClaims (PodFlagResourceClaims). Invalid values there (a maxSkew below 1, an
// unknown whenUnsatisfiable, operator or protocol, a hostPort outside 0..65535, a topologyKey
// missing, In/NotIn without values, a budget's "N%" out of 0..100 or both minAvailable and
// maxUnavailable set) are errors with file, line and JSON path, as the API server rejects them.
//
// What is accepted: a List, NodeList or PodList (items with or without their own `kind`;
// without one, the kind comes from the list kind, else from the fields: a Node has
// status.allocatable or status.capacity, a Pod has spec.containers), a mixed List (items
// of other kinds are skipped and counted in a warning), a single Node or Pod object, or a
// bare JSON array of them. A list whose kind comes after items that carry none (what `jq -S`
// makes of a server's answer) is read as if its kind came first: when only the list's kind
// can name its items (a PodDisruptionBudgetList, PersistentVolumeList, NamespaceList, or a
// kind that is skipped), the document is read a second time knowing it. Quantities may be JSON strings or numbers.
//
// Errors: this importer refuses a file with any problem (it never keeps a bad item): it
// throws ImportError naming the file, the line (computed from the byte offset where
// simdjson or the importer points at one) and the JSON path, e.g.
//   pods.json:1201: items[3].spec.containers[0].resources.requests.cpu: invalid quantity "2GB": ...
// It stops at the first problem, except invalid and negative quantities: it reads past them
// to the end of the file and then throws one ImportError at the first of them whose message
// lists every one ("...; 3 invalid values in all:" then one "file:line: path: message" line
// each), the first 20 and then "and N more".
// Detected: an empty file, a binary file (a NUL byte in the first 4 KiB, or the magic number
// of ELF, PNG, zip, gzip, xz or zstd) or UTF-16 text, text before the JSON (a kubectl log
// line, YAML), an HTML page, truncated or malformed JSON, text after the JSON document (the
// message quotes that text and gives its line), a `kind: Status` object (its reason and
// message), wrong field types, invalid or negative quantities, a fraction of an extended
// resource (nvidia.com/gpu: "1.5"; the API server requires whole units), a node without a
// name, a duplicate node. Input quoted in a message goes through quotedText() (importers/quotedtext.h):
// control bytes and invalid UTF-8 as \xNN, at most about 60 characters.
// A list whose metadata.continue is set imports with a warning (the list is incomplete).
//
// Design note (speed, DESIGN.md "JSON"): simdjson On-Demand over fixed-size windows of the
// input. Each window is cut where no string can be open (after a newline, or before `{"`
// followed by a key), wrapped as `[` + window + `]`, and iterated field by field in
// document order with raw key comparisons; values that are not needed (managedFields,
// containerStatuses, ...) are skipped by simdjson without being decoded. An item cut off
// by the window end is parsed again at the start of the next window, so memory stays at
// a few window sizes whatever the file size (also beyond simdjson's 4 GB document limit),
// and the window stays hot in cache between reading, indexing and parsing; the kernel is
// asked to read the next stretch of the file while a window is parsed. Strings without
// escapes are taken from the raw token (no copy), keys are compared raw. Records
// (NodeRecord, PodRecord, container resources) are reused: no allocation per item once warm.
// Measured (tests/bench/bench_import, 2 cores): 9.1 GB kubectl List of 100,000 nodes and
// 1,000,000 pods in 3.8 s end to end, 2.4 GB/s, 216 MiB peak RSS; parsing the whole file as
// one document instead (0.9 GB case) ran at 0.45 GB/s with 1.1 GB RSS, and decoding every
// string with simdjson's get_string() at 1.7 GB/s instead of 3.6 GB/s.

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::importers {

/// Tuning knobs; the defaults are what the application uses. Tests shrink the window to
/// exercise the window boundaries on small files.
struct KubectlJsonOptions {
    /// Bytes read and parsed at a time (grown automatically for an item larger than this).
    std::size_t windowBytes = std::size_t { 4 } << 20;
    /// PodFlag bits set on every pod read, besides the ones its fields give (a plan's template
    /// pod: model::PodFlagTemplate).
    std::uint16_t podFlags = 0;
};

/// What one load carries from file to file: the PersistentVolumes seen and the pods' claims,
/// matched by resolvePersistentVolumeClaims() once every file is read (a PV list may come after
/// the pods). Thread: one thread, with the store it is used with.
struct KubectlJsonSession {
    /// A PersistentVolume as read (strings, not yet interned).
    struct Volume {
        std::string name;
        std::string claimNamespace, claimName; // spec.claimRef; empty when unbound
        std::vector<std::pair<std::string, std::string>> labels;
        std::vector<std::vector<model::PodRecord::Requirement>> nodeAffinity; // spec.nodeAffinity.required terms
    };
    /// A pod's persistentVolumeClaim volume.
    struct Claim {
        model::PodId pod;
        std::string claimName; // in the pod's namespace
        std::string file;      // where the pod was read, for warnings
    };
    std::vector<Volume> volumes;
    std::vector<Claim> claims;
    bool sawVolumeList = false; // some file held a PersistentVolume (or an empty PersistentVolumeList)
    /// The root list's metadata.continue and metadata.resourceVersion of the last document
    /// read (empty when absent): a live LIST follows its pages and then watches with them.
    std::string listContinue, listResourceVersion;
    /// Set by a caller that follows every page itself (the live LIST): a page's
    /// metadata.continue then gets no "the list is incomplete" warning.
    bool followsPages = false;
};

/// Binds every claim of `session` to the PersistentVolume whose claimRef names it and sets the
/// pod's volume constraints (ClusterStore::setPodVolumes): the PV's zone / region labels
/// (topology.kubernetes.io/zone, /region and the failure-domain.beta.kubernetes.io forms,
/// values split on "__" as the VolumeZone plugin does) and its node affinity terms. A claim no
/// PV names gets no constraint; when PVs were loaded, the report says how many claims were
/// left unbound (when none were, claims constrain nothing, silently). Clears the session.
/// Call before ClusterStore::finalize(). Thread: the store's.
void resolvePersistentVolumeClaims(KubectlJsonSession& session, model::ClusterStore& store, ImportReport& report);

/// As importKubectlJsonFile() below, but PersistentVolumeClaims are left in `session` for
/// resolvePersistentVolumeClaims() (the loader reads several files).
void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options, KubectlJsonSession& session);

/// Appends the nodes and pods of one kubectl JSON document (List, NodeList, PodList, or one
/// Node/Pod, or the optional PersistentVolume, PodDisruptionBudget and Namespace lists) in the
/// file at `path` to `store`; claims are resolved against the PVs of this file alone. Does NOT
/// call store.finalize().
/// Throws ImportError (file, line, JSON path) on any problem; the store may then hold part of
/// the file and must be discarded (clusterloader does). Throws ImportCancelled when
/// `progress->isCancelled()`. Progress is reported in bytes, at most about ten times a second.
/// Thread: any one thread per store; `progress` is called on that thread.
void importKubectlJsonFile(
    const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress = nullptr);
/// As above, with tuning `options` (tests).
void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options);

/// Same as importKubectlJsonFile() for JSON already in memory; `sourceName` is used as the
/// file name in errors and warnings.
void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress = nullptr);
/// As above, with tuning `options` (tests).
void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options);
/// As above, carrying `session` from page to page (a live LIST): claims are left in `session`
/// for resolvePersistentVolumeClaims(), and the page's continue token and resourceVersion are
/// set in it.
void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options, KubectlJsonSession& session);

} // namespace fleet::importers
