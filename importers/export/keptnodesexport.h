// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nodes a consolidation keeps, as `plan consolidate --format json` writes them (its "kept"
// entries and "keptByCode" groups) and as a CSV: one writer for the command line and the
// window's Export of the nodes that stay. Pure functions; thread: any reader of the store.

#include "importers/plan/jsontext.h"
#include "model/search/consolidation.h"
#include "model/search/keptgroups.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fleet::importers {

/// One kept entry as a JSON object: {"node", "pod" ("namespace/name", "" when the reason names
/// no pod), "code", "message"}, and for an entry that names its blocking filter
/// (model::BlockingFilter) "blockingFilter": {"code", "nodes", "of", "judged", and "next":
/// {"code", "nodes"} when another filter rejects some node} (judged < of: the nodes were sampled
/// and the counts scaled, model/search/blockingfilter.h).
void writeKeptNodeJson(JsonWriter& w, const model::ClusterStore& store, const model::KeptNode& kept);

/// One group as a JSON object: {"code", "nodes"}, and for a group whose entries name a blocking
/// filter "blockingFilter": {"code", "entries" (naming it), "nodes" (the most it rejects for one
/// entry), "of" (that entry's other nodes)} (model::KeptGroup).
void writeKeptGroupJson(JsonWriter& w, const model::KeptGroup& group);

/// The members "keptByCode" (the groups of model::keptByCode over `kept`) and "kept" (its
/// entries, in order) written into the JSON object `w` has open: `plan consolidate --format
/// json`'s, and keptNodesJson()'s whole document.
void writeKeptMembers(JsonWriter& w, const model::ClusterStore& store, const std::vector<model::KeptNode>& kept);

/// {"keptByCode": [{"code", "nodes"}...], "kept": [entries]} of `kept[rows[i]]`, in the order of
/// `rows` (indices into `kept`; each < kept.size()); the groups are those of model::keptByCode
/// over the same entries. The keys and entries are those of `plan consolidate --format json`.
[[nodiscard]] std::string keptNodesJson(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows);

/// CSV (RFC 4180, a header line "node,pod,group,code,message,blocking_filter,blocking_nodes,other_nodes,nodes_judged",
/// fields by csvTextField) of `kept[rows[i]]` in the order of `rows`; "group" is
/// model::keptGroupCode of the reason; the blocking columns are the entry's
/// model::BlockingFilter, empty when it names none.
[[nodiscard]] std::string keptNodesCsv(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows);

} // namespace fleet::importers
