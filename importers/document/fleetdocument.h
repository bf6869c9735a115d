// SPDX-License-Identifier: Apache-2.0
#pragma once
// The .fleet document: one cluster state as loaded, where it came from, and named plans, in one
// SQLite file (docs/document.md describes the file; storecodec.h the store's columns).
//
// Design note. The file follows SQLite's guidance for an application file format: a
// PRAGMA application_id of its own (kApplicationId, "FSCP", also the Debian package's MIME
// magic) and a PRAGMA user_version (kDocumentVersion). Saving builds the whole database in
// memory, serializes it (sqlite3_serialize) and writes the bytes through the one output writer
// (importers/output/outputfile.h: temporary file beside the target, fsync, rename, folder
// fsync), so the previous file is intact until the new one is complete, and no -journal or -wal
// file ever exists beside it. Opening never touches the file after reading it: the bytes (at
// most kMaxDocumentBytes) are read into memory and opened there read-only (sqlite3_deserialize,
// the path the fuzzer takes), with SQLITE_DBCONFIG_DEFENSIVE, trusted_schema=OFF,
// cell_size_check=ON, a quick_check, an exact match of the schema, and every decoded value and
// reference checked; a bad file is an error naming the file and what is wrong, never a
// partial cluster. Prepared statements only.
//
// Thread: any; no shared state (SQLite is used in its default serialized mode, one connection
// per call).

#include "importers/clusterloader.h"
#include "importers/importreport.h"
#include "importers/output/documentheader.h"
#include "importers/output/outputfile.h"
#include "importers/plan/planfile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {

// kFleetApplicationId and isFleetDocumentFile(): importers/output/documentheader.h.
/// PRAGMA user_version this build writes, and the newest it reads. Version 2 keeps each plan's
/// JSON and evaluation zlib-compressed; version 3 adds a CRC-32 of the document's text fields
/// (provenance, warnings, topology keys, plans' names, notes and times), which zlib's checksums
/// of the store's columns and the plans do not cover. Version 1 and 2 files open as they are.
inline constexpr int kFleetDocumentVersion = 3;
/// The largest file opened (a 100,000-node, 1.6M-pod state is about 70 MB).
inline constexpr std::uint64_t kMaxFleetDocumentBytes = std::uint64_t { 2 } << 30;

/// A document that cannot be opened or saved. An ImportError (so every place that reports a
/// failed import reports it): file() is the document, message() what is wrong, e.g.
/// "state.fleet: not a Fleetscope document (application_id 0x00000000, expected 0x46534350 \"FSCP\")".
class FleetDocumentError : public ImportError {
public:
    FleetDocumentError(const std::string& file, const std::string& message) : ImportError(file, 0, "", message) {}
};

/// One named plan kept in a document.
struct DocumentPlan {
    std::string name;           ///< unique in the document, not empty
    std::string planJson;       ///< the plan as a plan file holds it (resources/schemas/plan-v1.md)
    std::string evaluationJson; ///< `plan check --format json` of it on the saved state when saved; "" when none
    std::string notes;          ///< free text
    std::string savedAt;        ///< ISO 8601 UTC, "2026-12-06T07:10:00Z"
};

/// What a document holds.
struct FleetDocument {
    /// The cluster as loaded: store (finalized), topology, import report (its warnings),
    /// sourceLabel, usage, live server and resourceVersion.
    LoadedCluster cluster;
    /// Where the state came from: the files with their SHA-256, the simulation, or the live
    /// server and resourceVersion (plansource.h).
    PlanSource provenance;
    /// When the state was taken, ISO 8601 UTC.
    std::string takenAt;
    /// The topology levels the state was shown with (model::TopologySpec::levelKeys).
    std::vector<std::string> topologyKeys;
    /// The price table in force when saved (CSV text as importers/pricing/pricetableloader.h reads).
    std::string priceTableCsv;
    std::vector<DocumentPlan> plans;
};

/// The document's database as bytes (what saveFleetDocument() writes). Throws
/// FleetDocumentError naming `fileName` when SQLite refuses (out of memory), or for a plan
/// without a name or with a name used twice. `cancelled` (may be empty) is polled between the
/// phases and between the columns inserted; returning true stops with OutputCancelled naming
/// `fileName` (nothing was written anywhere).
[[nodiscard]] std::string serializeFleetDocument(const FleetDocument& document, const std::string& fileName,
                                                 const std::function<bool()>& cancelled = {});

/// Writes the document to `path` atomically through writeOutputFile(). Throws OutputFileError
/// (disk full, read-only folder, ...: the previous file unchanged) or FleetDocumentError; with
/// options.cancelled, OutputCancelled when it returns true before the rename (serializing
/// included): the previous file is then byte for byte as it was and no temporary file is left.
void saveFleetDocument(const FleetDocument& document, const std::string& path, const OutputFileOptions& options = {});

/// Opens a document read-only (the file is read once and never written). `topologySpec` null:
/// the document's own topology keys. Throws FleetDocumentError naming the file and what is
/// wrong (not a document, a newer version, damaged, a value out of range, ...).
[[nodiscard]] FleetDocument openFleetDocument(const std::string& path, const model::TopologySpec* topologySpec = nullptr);

/// Only where the document's state came from (FleetDocument::provenance), with the same checks
/// of the file but without rebuilding the cluster: what a plan made on the document names as its
/// source. Throws FleetDocumentError.
[[nodiscard]] PlanSource readFleetDocumentProvenance(const std::string& path);

/// Only the document's named plans, in the order saved, with the same checks of the file (and
/// each plan's JSON read as a plan file) but without rebuilding the cluster: what `--plan NAME`
/// and `fleetscope plans` read (a 100,000-node document's plans in well under a second). Throws
/// FleetDocumentError.
[[nodiscard]] std::vector<DocumentPlan> readFleetDocumentPlans(const std::string& path);

/// openFleetDocument() over bytes already in memory; `fileName` names them in errors.
[[nodiscard]] FleetDocument readFleetDocument(std::string_view bytes, const std::string& fileName,
                                              const model::TopologySpec* topologySpec = nullptr);

/// True when a plan's `name` reads as itself: printable UTF-8 without control, invisible or
/// reordering characters (escapedText() leaves it unchanged, importers/quotedtext.h). A plan is
/// chosen by its name on a command line (`--plan NAME`) and in the Plans list, so a name that
/// could not be typed back or told apart from another is refused by the writer and the reader
/// (FleetDocumentError). Pure; thread: any.
[[nodiscard]] bool isPrintablePlanName(std::string_view name);

/// The current time as ISO 8601 UTC ("2026-12-06T07:10:00Z"). Thread: any.
[[nodiscard]] std::string utcNowIso();

} // namespace fleet::importers
