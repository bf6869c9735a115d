// SPDX-License-Identifier: Apache-2.0
#pragma once
// The usage source's settings from a YAML file (`fleetscope --usage-config FILE`, issue 8:
// "configurable base URL, bearer token and PromQL per metric"). Read with yaml-cpp, strictly:
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

/// A time as `--usage-time` and the config's `time` take it: seconds since the epoch (> 0) or
/// an ISO 8601 time ("2026-12-01T10:00:00Z"). False for anything else.
[[nodiscard]] bool parseUsageTime(const std::string& text, double& seconds);

/// The same from `text`, `path` naming it in errors and resolving relative file names.
[[nodiscard]] UsageSource parseUsageConfig(const std::string& text, const std::string& path);

} // namespace fleet::importers::prometheus
