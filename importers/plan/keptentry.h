// SPDX-License-Identifier: Apache-2.0
#pragma once
// One node a consolidation keeps, by name (PlanKeptRecord::Entry, planfile.h), and that entry as
// JSON: the one writer of the entries of `plan consolidate --format json`'s "kept", of the
// window's Export of the nodes that stay (importers/export/keptnodesexport.h) and of a plan
// file's "consolidation" record (resources/schemas/plan-v1.md), so that the three stay alike.
// Thread: any (pure functions; keptEntry() reads the store).

#include "importers/plan/jsontext.h"
#include "importers/plan/planfile.h"
#include "model/clusterstore.h"
#include "model/search/consolidation.h"

namespace fleet::importers {

/// `kept` by name: its node's metadata.name, its pod as "namespace/name" ("" when the reason
/// names no pod), its reason's code and message, and its blocking filter. Thread: any reader
/// of the store.
[[nodiscard]] PlanKeptRecord::Entry keptEntry(const model::ClusterStore& store, const model::KeptNode& kept);

/// `entry` as a JSON object: {"node", "pod", "code", "message"}, and for an entry that names its
/// blocking filter (model::BlockingFilter, code not "") "blockingFilter": {"code", "nodes", "of",
/// "judged", and "next": {"code", "nodes"} when another filter rejects some node} (judged < of:
/// the nodes were sampled and the counts scaled, model/search/blockingfilter.h).
void writeKeptEntryJson(JsonWriter& w, const PlanKeptRecord::Entry& entry);

} // namespace fleet::importers
