// SPDX-License-Identifier: Apache-2.0
#pragma once
// One rule for writing figures, used by the status bar, the map's tooltip and legend, the
// inspectors and `summary` text, so that they agree by construction.
//
// The rule: counts with thousands separators ("1,683,908"); an amount with a unit at three
// significant digits, trailing zeros dropped ("0.45 cores", "8.44M cores", "1.5 GiB",
// "69.9 PiB"); bytes in binary units (B, KiB, MiB, GiB, TiB, PiB, EiB), picked so the number
// is below 1024; cores from millicores ("450m" is written "0.45 cores"); large core counts
// and money with k, M, G suffixes; GPUs (and other devices) are counted things: below 1,000
// at three significant digits ("0.5", "15.5"), from 1,000 whole with separators
// ("322,935"); shares as percent with one decimal ("45.3%"). Rounding is to nearest; a value
// that rounds up to the next unit or suffix is written in it ("1023.9 MiB" is "1 GiB",
// "999.7k" is "1M"). Negative amounts get a leading "-". Every function is pure and
// thread-safe.

#include <cstdint>
#include <string>

namespace fleet::model {

/// "1,683,908", "-12". Thread: any.
[[nodiscard]] std::string formatCount(std::int64_t n);
/// Millicores as cores: 450 -> "0.45 cores", 1000 -> "1 core", 8'440'000'000 -> "8.44M cores".
[[nodiscard]] std::string formatCpuMillicores(std::int64_t millicores);
/// The number part of formatCpuMillicores(): 450 -> "0.45", 1'230'000 -> "1.23k". For
/// "requested / allocatable" pairs that share one unit. Thread: any.
[[nodiscard]] std::string formatCores(std::int64_t millicores);
/// Bytes in binary units at three significant digits: 1610612736 -> "1.5 GiB", 0 -> "0 B".
[[nodiscard]] std::string formatBytes(std::int64_t bytes);
/// Milli-GPU as GPUs: 8000 -> "8 GPUs", 500 -> "0.5 GPU", 322'935'000 -> "322,935 GPUs".
[[nodiscard]] std::string formatGpuMilli(std::int64_t gpuMilli);
/// The number part of formatGpuMilli(): 500 -> "0.5", 322'935'000 -> "322,935". Thread: any.
[[nodiscard]] std::string formatGpus(std::int64_t gpuMilli);
/// Whole devices (Neuron devices, MIG slices, ...): the same rule as formatGpus() for whole
/// units: 219344 -> "219,344". Thread: any.
[[nodiscard]] std::string formatDevices(std::int64_t devices);
/// A share in [0, inf) as percent with one decimal: 0.4531 -> "45.3%". NaN -> "n/a".
[[nodiscard]] std::string formatShare(double share);
/// US dollars per hour: two decimals below $1,000 (98.32 -> "$98.32/h"), then three
/// significant digits with k, M, G (12345.6 -> "$12.3k/h").
[[nodiscard]] std::string formatDollarsPerHour(double dollars);
/// Three significant digits with k/M/G/T suffixes for plain numbers: 12800000 -> "12.8M",
/// 0.45 -> "0.45", 304 -> "304", 1234 -> "1.23k". NaN -> "n/a".
[[nodiscard]] std::string formatSignificant(double value);

} // namespace fleet::model
