// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nodes a consolidation keeps, as `plan consolidate --format json` writes them (its "kept"
// entries and "keptByCode" groups) and as a CSV: one writer for the command line and the
// window's Export of the nodes that stay. Pure functions; thread: any reader of the store.

#include "importers/plan/jsontext.h"
#include "model/search/consolidation.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fleet::importers {

/// One kept entry as a JSON object: {"node", "pod" ("namespace/name", "" when the reason names
/// no pod), "code", "message"}.
void writeKeptNodeJson(JsonWriter& w, const model::ClusterStore& store, const model::KeptNode& kept);

/// {"keptByCode": [{"code", "nodes"}...], "kept": [entries]} of `kept[rows[i]]`, in the order of
/// `rows` (indices into `kept`; each < kept.size()); the groups are those of model::keptByCode
/// over the same entries. The keys and entries are those of `plan consolidate --format json`.
[[nodiscard]] std::string keptNodesJson(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows);

/// CSV (RFC 4180, a header line "node,pod,group,code,message", fields by csvTextField) of
/// `kept[rows[i]]` in the order of `rows`; "group" is model::keptGroupCode of the reason.
[[nodiscard]] std::string keptNodesCsv(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows);

} // namespace fleet::importers
