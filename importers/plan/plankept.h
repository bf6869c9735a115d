// SPDX-License-Identifier: Apache-2.0
#pragma once
// The consolidation's kept-node reasons that a plan file records (PlanKeptRecord, planfile.h):
// made from the search's result when the plan is written, and checked against the state a
// report is made of before it is believed. A plan file is untrusted input: the record is used
// only when it is the plan's (the digest of its actions), of the same state (the plan's source),
// and every entry names a node and pod of that state and a known reason code; otherwise the
// caller replays the search (model/search/keptreplay.h) and says why.
//
// Thread: any (pure functions of their inputs).

#include "importers/plan/planfile.h"
#include "model/clusterstore.h"
#include "model/search/consolidation.h"
#include "model/search/keptreplay.h"

#include <optional>
#include <string>
#include <vector>

namespace fleet::importers {

/// The record of `result` (the consolidation that wrote the plan, over `store`): its order and
/// every kept entry by name. The digest is left empty: planJson() stamps it for the actions it
/// writes. Thread: any reader of the store.
[[nodiscard]] PlanKeptRecord planKeptRecord(const model::ClusterStore& store, const model::ConsolidationResult& result);

/// What checking a plan's record against a state gave.
struct RecordedKept {
    std::optional<model::KeptReplay> kept; // the search's kept list, by NodeId of the store; nullopt: not usable
    /// Why the record is not used, as a sentence for people naming the first thing wrong
    /// ("the plan's recorded reasons why nodes stay name node \"x\", which this state lacks");
    /// "" when it is used, or when the plan records none and names no reason (an old plan).
    std::string problem;
    /// The record's LP bound (PlanKeptRecord::lpBound), nodes, when the record is used and its
    /// bound is at most the state's present nodes; -1 otherwise.
    std::int64_t lpBoundNodes = -1;
};

/// Checks `plan.consolidation` against `store` (the state the report is of, whose source is
/// `current`): the plan's source must be `current` (sourceDifference() empty, and some source
/// named), its actions' digest the record's, the plan must end in drain-node actions, the order
/// one of consolidate()'s, every entry a present node of the store (once, and not one the plan
/// drains), its pod ("namespace/name") one of the store's, its codes known
/// (model::reasonKindOfCode), and no more entries than present nodes. O(entries) lookups.
/// Names from the file reach `problem` escaped (escapedText()). Thread: any reader of the store.
[[nodiscard]] RecordedKept recordedKept(const model::ClusterStore& store, const PlanDocument& plan, const PlanSource& current);

} // namespace fleet::importers
