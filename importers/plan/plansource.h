#pragma once
// The source a plan names (PlanSource, planfile.h): the input files with their SHA-256
// digests, so that `plan check` can say whether it runs against the state the plan was made on.
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

/// A source naming a simulated cluster ("nodes=N seed=S").
[[nodiscard]] PlanSource sourceOfSimulation(std::size_t nodes, std::uint64_t seed);

/// The files of `planned` whose digest differs from `current`'s (same name), or that `current`
/// lacks, as "name" strings: empty when the state is the one the plan was made on.
[[nodiscard]] std::vector<std::string> changedSourceFiles(const PlanSource& planned, const PlanSource& current);

} // namespace fleet::importers
