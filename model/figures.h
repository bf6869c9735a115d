#pragma once
// One rule for writing figures, used by the status bar, the map's tooltip and legend, the
// inspectors and `summary` text, so that they agree by construction.
//
// The rule: counts with thousands separators ("1,683,908"); an amount with a unit at three
// significant digits, trailing zeros dropped ("0.45 cores", "8.44M cores", "1.5 GiB",
// "69.9 PiB"); bytes in binary units (B, KiB, MiB, GiB, TiB, PiB, EiB), picked so the number
// is below 1024; cores from millicores ("450m" is written "0.45 cores"); large core counts
// and money with k, M, G suffixes; shares as percent with one decimal ("45.3%").

#include <cstdint>
#include <string>

namespace fleet::model {

/// "1,683,908". Thread: any.
[[nodiscard]] std::string formatCount(std::int64_t n);
/// Millicores as cores: 450 -> "0.45 cores", 1000 -> "1 core", 8'440'000'000 -> "8.44M cores".
[[nodiscard]] std::string formatCpuMillicores(std::int64_t millicores);
/// Bytes in binary units at three significant digits: 1610612736 -> "1.5 GiB".
[[nodiscard]] std::string formatBytes(std::int64_t bytes);
/// Milli-GPU as GPUs: 8000 -> "8 GPUs", 500 -> "0.5 GPU".
[[nodiscard]] std::string formatGpuMilli(std::int64_t gpuMilli);
/// A share in [0, inf) as percent with one decimal: 0.4531 -> "45.3%". NaN -> "n/a".
[[nodiscard]] std::string formatShare(double share);
/// US dollars per hour: 98.32 -> "$98.32/h", 12345.6 -> "$12.3k/h".
[[nodiscard]] std::string formatDollarsPerHour(double dollars);
/// Three significant digits with k/M/G/T suffixes for plain numbers: 12800000 -> "12.8M".
[[nodiscard]] std::string formatSignificant(double value);

} // namespace fleet::model
