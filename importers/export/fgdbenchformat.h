// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `fleetscope bench fgd` prints: per trace and scheduling policy, the unallocated GPU share
// (%) when 100% of the trace's GPU demand has arrived, as mean and sample standard deviation
// over the seeds, beside the published figure of the FGD paper (Weng et al., USENIX ATC '23; its
// artifact's expected_results) where there is one, and the slowest seed's seconds. Thread: any.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fleet::importers {

/// One trace and policy over the seeds: percentages, and wall seconds of the slowest seed.
struct FgdBenchFigure {
    double mean = 0;
    double sd = 0;
    double secondsMax = 0;
    std::optional<double> paper; // the paper's figure, where it gives one
};
/// Figures by trace name, then by policy name.
using FgdBenchResults = std::map<std::string, std::map<std::string, FgdBenchFigure>>;

/// {"traces": {TRACE: {POLICY: {"mean", "sd", "paper" (null where none), "seconds_max"}}}} with
/// figures rounded to 0.001, in the order of `traces` and `policies`; one object and a newline.
[[nodiscard]] std::string fgdBenchJson(const std::vector<std::string>& traces, const std::vector<std::string>& policies,
    const FgdBenchResults& results);
/// Per trace a heading naming the seeds `first`-`last`, then a table: policy, mean, sd, paper,
/// diff (mean - paper), max s. Trace names pass through terminalLine().
[[nodiscard]] std::string fgdBenchText(const std::vector<std::string>& traces, const std::vector<std::string>& policies,
    const FgdBenchResults& results, std::uint64_t first, std::uint64_t last);

} // namespace fleet::importers
