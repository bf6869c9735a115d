// SPDX-License-Identifier: Apache-2.0
#pragma once
// The usage source's settings from a YAML file (`fleetscope --usage-config FILE`, docs/usage.md:
// the base URL, the bearer token and a PromQL query per metric). Read with yaml-cpp, strictly:
// an unknown key, a value of the wrong type or an out-of-range figure is an error naming the
// file, the line and the key, never ignored.
//
//   prometheus:
//     url: https://prometheus.example:9090/prometheus   # required: http(s)://HOST[:PORT][/PREFIX]
//     bearerTokenFile: token                            # or bearerToken: "..."; not both
//     certificateAuthority: ca.pem                      # PEM; default: the system's roots
//     insecureSkipTlsVerify: false
//   queries:                    # each optional; defaults in UsageQueries (usagequery.h)
//     cpu: sum by (node) (rate(container_cpu_usage_seconds_total{container!=""}[5m]))
//     memory: sum by (node) (container_memory_working_set_bytes{container!=""})
//     cadvisorNodeLabel: node
//     gpuRatio: DCGM_FI_PROF_GR_ENGINE_ACTIVE
//     gpuPercent: DCGM_FI_DEV_GPU_UTIL
//     gpuNodeLabel: Hostname    # the label naming the node on dcgm-exporter's series
//     neuron: neuroncore_utilization_ratio              # "" turns Neuron off
//     neuronNodeLabel: node
//   idle:
//     window: 1h                # seconds, or a Prometheus duration: 90s, 30m, 2h, 1d
//     threshold: 5%             # or a ratio 0..1 (0.05)
//     step: 1m
//   time: 2026-12-01T10:00:00Z  # seconds since the epoch or ISO 8601; default: now
//
// Relative file names (bearerTokenFile, certificateAuthority) are resolved against the
// config's folder. The token is read from its file when the config is read; no secret is ever
// in an error.
//
// Thread: any (it reads files; no shared state).

#include "importers/importreport.h"
#include "importers/prometheus/usagequery.h"

#include <string>

namespace fleet::importers::prometheus {

/// Reads `path`. Throws ImportError ("FILE:LINE: KEY: what", e.g. "usage.yaml:7:
/// idle.threshold: expected a ratio 0..1 or a percentage, found \"lots\"") for a file that
/// cannot be read, YAML that is not valid, an unknown key, a wrong value, a missing
/// prometheus.url, or a token file that cannot be read.
[[nodiscard]] UsageSource readUsageConfig(const std::string& path);

/// The range of a usage time: from 2000-01-01T00:00:00Z (946684800) to a day after now (a
/// clock a little ahead of the machine's). Prometheus stores nothing older that a fleet could
/// still be running with, and nothing in the future.
inline constexpr double kEarliestUsageTime = 946684800;
inline constexpr long long kUsageTimeAfterNow = 86400;
/// What a usage time must be, for a message ("expected ...").
inline constexpr const char* kUsageTimeExpected
    = "expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), "
      "from 2000-01-01 to a day from now";

/// A time as `--usage-time` and the config's `time` take it: seconds since the epoch in
/// decimal digits with an optional fraction ("1796170706.5"; never 1e9, 0x10, inf or nan), or
/// an ISO 8601 time ("2026-12-01T10:00:00Z"), within [kEarliestUsageTime, now +
/// kUsageTimeAfterNow]. False for anything else.
[[nodiscard]] bool parseUsageTime(const std::string& text, double& seconds);

/// The same from `text`, `path` naming it in errors and resolving relative file names.
[[nodiscard]] UsageSource parseUsageConfig(const std::string& text, const std::string& path);

} // namespace fleet::importers::prometheus
