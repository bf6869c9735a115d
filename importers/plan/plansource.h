// SPDX-License-Identifier: Apache-2.0
#pragma once
// The source a plan names (PlanSource, planfile.h): the input files with their SHA-256
// digests, a live cluster's server and resourceVersion, or a simulation, so that `plan check`
// can say whether it runs against the state the plan was made on.
//
// Thread: any.

#include "importers/plan/planfile.h"

#include <string>
#include <vector>

namespace fleet::importers {

/// Lowercase hex SHA-256 of a file's bytes (QCryptographicHash). Throws PlanFileError naming
/// the file when it cannot be read.
[[nodiscard]] std::string fileSha256(const std::string& path);

/// A source naming each file (as given) with its digest. Throws PlanFileError.
[[nodiscard]] PlanSource sourceOfFiles(const std::vector<std::string>& paths);

/// A source naming a simulated cluster ("nodes=N seed=S regions=R"). The region count is
/// always written: a plan that names no region count was made before the one-region default,
/// on the four-region fleet, and must not pass for one made on today's default.
[[nodiscard]] PlanSource sourceOfSimulation(std::size_t nodes, std::uint64_t seed, std::size_t regions = 1);

/// A source naming a live cluster: its API server URL and the resourceVersion of the list the
/// state came from (LoadedCluster::server, ::resourceVersion).
[[nodiscard]] PlanSource sourceOfLiveCluster(const std::string& server, const std::string& resourceVersion);

/// The source for people: "nodes.json (sha256 9558dd5de55e), pods.json (...)", "live cluster
/// https://... at resourceVersion 4242", "simulated cluster nodes=1000 seed=2", or "an
/// unnamed source" when it names nothing.
[[nodiscard]] std::string sourceText(const PlanSource& source);

/// Says why `current` is not the state `planned` names, as one sentence ("the plan was made on
/// live cluster A at resourceVersion 1, checked against nodes.json (sha256 ...)"); empty when
/// it is the same state or `planned` names no source. Files are the same when every planned
/// digest is among the current files' (names may differ: a file moved is the same state); a
/// live cluster is the same when server and resourceVersion are (another resourceVersion of
/// the same server is a newer state and is said so).
[[nodiscard]] std::string sourceDifference(const PlanSource& planned, const PlanSource& current);

/// Says why `current` is not a state of the cluster `planned` names, as one sentence; empty when
/// it is. A live cluster is the same cluster when the server is (any resourceVersion: a newer
/// list of it); files when every planned digest is among the current files' (sourceDifference);
/// a simulation when its nodes and seed are. A plan that names no source is never shown to be
/// on this cluster: the sentence says so. Exports (CSV, kubectl script) are refused on a
/// non-empty answer unless forced.
[[nodiscard]] std::string clusterDifference(const PlanSource& planned, const PlanSource& current);

class JsonWriter;
/// Writes `source` as the plan file's "source" object (resources/schemas/plan-v1.md).
void writePlanSource(JsonWriter& w, const PlanSource& source);

/// The files of `planned` whose digest is not among `current`'s files' (a file changed, or
/// missing; a file given under another name with the same bytes is the same), as "name" strings: empty when the state is the one the plan was made on.
[[nodiscard]] std::vector<std::string> changedSourceFiles(const PlanSource& planned, const PlanSource& current);

} // namespace fleet::importers
