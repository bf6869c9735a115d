// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plan files: a plan saved as JSON (schema documented in resources/schemas/plan-v1.md, versioned
// by "fleetscopePlan": 1), read back and re-checked against a (possibly newer) state, and
// exported as CSV and as a reviewable kubectl script.
//
// A plan file names its source (each input file's name and SHA-256, or a live cluster's server
// and resourceVersion), pods by namespace, name and uid, nodes by name, domains by path
// (model/domainpath.h), and every ActionType. Reading validates everything and reports the
// first error with its place (file, JSON path); writing is atomic (a temporary file renamed
// over the target: a failure never leaves a half-written file).
//
// Thread: any (pure functions of their inputs).

#include "model/plan/plan.h"
#include "model/search/consolidation.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {

/// Where a plan's state came from.
struct PlanSource {
    struct File {
        std::string name;   // as given on the command line or opened in the window
        std::string sha256; // lowercase hex of the file's bytes
    };
    std::vector<File> files;
    std::string server;          // live cluster: the API server URL
    std::string resourceVersion; // live cluster: the list's resourceVersion
    std::string simulated;       // simulated cluster: "nodes=100000 seed=1 regions=1"
};

/// Why each node a consolidation keeps stays, as the search that wrote the plan found it
/// (`plan consolidate`, the window's Plan > Consolidate), recorded in the plan file beside the
/// drains ("consolidation", plan-v1.md) so that a report reads the search's reasons instead of
/// running the search again. Names, not ids: importers/plan/plankept.h checks the record against
/// a state (every node and pod present, every code known, the plan's actions and source the
/// record's) and turns it into model::KeptNode entries.
struct PlanKeptRecord {
    static constexpr int kVersion = 1;           // the record's own version ("consolidation.version")
    static constexpr std::size_t kMaxEntries = 1'000'000; // a reader refuses more (bounded input)
    static constexpr std::size_t kMaxTextBytes = 4096;    // per name, code or message
    struct Entry {
        std::string node;    // the node that stays (metadata.name)
        std::string pod;     // "namespace/name" of the pod that keeps it; "" for a reason of the node itself
        std::string code;    // its reason code (model/scheduling/reasons.h)
        std::string message; // the reason's message as the search wrote it
        model::BlockingFilter blocking; // no-feasible-node only; code "" when none
    };
    std::string order;         // the drain order that won ("saving-per-load", ...; ConsolidationResult::order)
    /// Lowercase hex SHA-256 of the plan's "actions" array as planJson() writes it: a record
    /// whose digest is not the plan's describes other actions (the plan was edited). planJson()
    /// fills it in when empty, and leaves the record out when it names other actions.
    std::string actionsSha256;
    std::vector<Entry> kept;   // every node the search keeps, in NodeId order of its state
    /// The LP bound computed beside the search (model/search/packingrelaxation.h: COIN-OR Clp
    /// over pod and node classes), when it gave one: no plan under the same rules keeps fewer
    /// nodes. Written as "lpBound": {"nodes"} (no time: the same search writes the same file);
    /// nullopt when skipped or without a bound.
    struct LpBound {
        std::int64_t nodes = 0; // the ceiling of the solver's proven bound
    };
    std::optional<LpBound> lpBound;
};

/// A plan as stored.
struct PlanDocument {
    int version = 1;
    PlanSource source;
    std::vector<model::PlanAction> actions;
    /// The consolidation's kept-node reasons, when the search that wrote the plan recorded
    /// them; nullopt in plans written before the field existed and in other plans.
    std::optional<PlanKeptRecord> consolidation;
    /// Set by the reader when the file has a "consolidation" record of a version it does not
    /// read (then `consolidation` is nullopt and a report replays the search): says so.
    std::string consolidationNote;
};

/// Thrown for an unreadable or invalid plan file; what() is "FILE: at PATH: what was wrong".
class PlanFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads and validates a plan file. Throws PlanFileError.
[[nodiscard]] PlanDocument readPlanFile(const std::string& path);
/// Validates plan JSON `text` as readPlanFile() does; `fileName` names it in errors. Throws
/// PlanFileError.
[[nodiscard]] PlanDocument parsePlanText(std::string_view text, const std::string& fileName);
/// Writes a plan file atomically. Throws PlanFileError (naming the path) on I/O failure.
void writePlanFile(const PlanDocument& plan, const std::string& path);

/// The plan's JSON text (what writePlanFile writes).
[[nodiscard]] std::string planJson(const PlanDocument& plan);

/// PlanKeptRecord::actionsSha256 of `actions`: the SHA-256 (lowercase hex) of their "actions"
/// array as planJson() writes it (the same actions give the same digest). Thread: any.
[[nodiscard]] std::string planActionsSha256(const std::vector<model::PlanAction>& actions);

/// Re-evaluation of a plan against a state: `plan check`'s output
/// {"plan": FILE, "state": {source}, "sourceNote": "..." (only when the state is not the plan's
///  source), "actions": [{"index": i, "type": ..., "holds": bool, "reasons": [{"code", "message"}]}],
///  "before": {...}, "after": {...}} (PlanTotals' fields).
struct PlanEvaluation {
    std::vector<model::AppliedAction> actions;
    model::PlanTotals before, after;
    /// Names of the nodes the plan added (NodeId store.nodeCount() + i is addedNodeNames[i]):
    /// the outputs below name nodes, and added ones are not in the store.
    std::vector<std::string> addedNodeNames;
    /// The state the plan was checked against (set by the caller: evaluatePlan() does not know
    /// where the store came from; empty names nothing) and, when it is not the plan's source,
    /// why (sourceDifference(), plansource.h). Written as "state" and "sourceNote".
    PlanSource state;
    std::string sourceNote;
    /// Namespace and name of the pods the plan added (place-pods; PodId store.podCount() + i).
    std::vector<std::pair<std::string, std::string>> addedPods;
    [[nodiscard]] bool allHold() const;
};
/// Applies every action of `plan` in order to a fresh PlanEngine over `store` (an action that
/// names something missing does not hold, with its reason; later actions still run).
/// `nodePricePerHour` (indexed by NodeId, $/h; empty: every price 0) gives the totals' cost
/// per hour (PlanEngine's constructor).
[[nodiscard]] PlanEvaluation evaluatePlan(const model::ClusterStore& store, const model::Topology& topology, const PlanDocument& plan,
    std::vector<double> nodePricePerHour = {});
/// The names of the nodes `state` added (PlanEvaluation::addedNodeNames), for an evaluation made
/// from a plan engine already applied (the window's exports).
[[nodiscard]] std::vector<std::string> addedNodeNames(const model::PlanLedger& state);

/// Adds to `store` the template pod of every place-pods action that the store lacks (by
/// namespace and name), read from the action's podTemplate (a Pod object, through the kubectl
/// JSON importer), pending, then finalize(); so that a plan made on another state re-checks.
/// Returns how many were added. Call before building the PlanEngine (the store must not change
/// under it). Throws PlanFileError naming the action when a template is missing or invalid.
std::size_t addPlanTemplatePods(model::ClusterStore& store, const PlanDocument& plan, const std::string& planName);

} // namespace fleet::importers
