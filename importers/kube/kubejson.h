#pragma once
// The kubectl JSON importer: `kubectl get nodes -o json`, `kubectl get pods -A -o json` and
// the API server's own NodeList/PodList responses, into a model::ClusterStore.
//
// What is accepted: a List, NodeList or PodList (items with or without their own `kind`;
// without one, the kind comes from the list kind, else from the fields: a Node has
// status.allocatable or status.capacity, a Pod has spec.containers), a mixed List (items
// of other kinds are skipped and counted in a warning), a single Node or Pod object, or a
// bare JSON array of them. Quantities may be JSON strings or numbers.
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
// message), wrong field types, invalid or negative quantities, a node without a name, a
// duplicate node. Input quoted in a message goes through quotedText() (importers/quotedtext.h):
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

namespace fleet::importers {

/// Tuning knobs; the defaults are what the application uses. Tests shrink the window to
/// exercise the window boundaries on small files.
struct KubectlJsonOptions {
    /// Bytes read and parsed at a time (grown automatically for an item larger than this).
    std::size_t windowBytes = std::size_t { 4 } << 20;
};

/// Appends the nodes and pods of one kubectl JSON document (List, NodeList, PodList, or one
/// Node/Pod) in the file at `path` to `store`. Does NOT call store.finalize().
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

} // namespace fleet::importers
