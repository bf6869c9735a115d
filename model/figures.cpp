// SPDX-License-Identifier: Apache-2.0
#include "figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace fleet::model {
namespace {

// `v` (>= 0, finite) at three significant digits, trailing zeros dropped; `rounded` is the
// value as written, so that a caller can tell when it reached the next unit.
std::string threeDigits(double v, double& rounded)
{
    if (!(v > 0)) {
        rounded = 0;
        return "0";
    }
    const int magnitude = static_cast<int>(std::floor(std::log10(v)));
    const int decimals = std::max(0, 2 - magnitude);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    rounded = std::strtod(buf, nullptr);
    std::string s(buf);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

// `v` (>= 0) in steps of `step` with `suffixes` (the first is the plain number).
template <std::size_t N>
std::string scaled(double v, double step, const char* const (&suffixes)[N], const char* separator)
{
    for (std::size_t i = 0;; ++i) {
        double rounded = 0;
        std::string s = threeDigits(v, rounded);
        if (rounded < step || i + 1 == N)
            return *suffixes[i] ? s + separator + suffixes[i] : s;
        v /= step;
    }
}

constexpr const char* kSiSuffixes[] = {"", "k", "M", "G", "T"};

std::string signedText(double v, std::string (*positive)(double))
{
    if (std::isnan(v))
        return "n/a";
    return v < 0 ? "-" + positive(-v) : positive(v);
}

std::string significantPositive(double v)
{
    return scaled(v, 1000.0, kSiSuffixes, "");
}

// Devices: three significant digits below 1,000, whole with separators from there.
std::string devicesPositive(double v)
{
    double rounded = 0;
    std::string s = threeDigits(v, rounded);
    if (rounded < 1000.0)
        return s;
    return formatCount(std::llround(v));
}

} // namespace

std::string formatCount(std::int64_t n)
{
    const std::uint64_t magnitude = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
    const std::string digits = std::to_string(magnitude);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3 + 1);
    if (n < 0)
        out += '-';
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string formatCores(std::int64_t millicores)
{
    return signedText(static_cast<double>(millicores) / 1000.0, significantPositive);
}

std::string formatCpuMillicores(std::int64_t millicores)
{
    return formatCores(millicores) + (millicores == 1000 ? " core" : " cores");
}

std::string formatBytes(std::int64_t bytes)
{
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const double v = static_cast<double>(bytes);
    return (bytes < 0 ? "-" : "") + scaled(std::fabs(v), 1024.0, kUnits, " ");
}

std::string formatGpus(std::int64_t gpuMilli)
{
    return signedText(static_cast<double>(gpuMilli) / 1000.0, devicesPositive);
}

std::string formatGpuMilli(std::int64_t gpuMilli)
{
    return formatGpus(gpuMilli) + (gpuMilli == 1000 || (gpuMilli > 0 && gpuMilli < 1000) ? " GPU" : " GPUs");
}

std::string formatDevices(std::int64_t devices)
{
    return signedText(static_cast<double>(devices), devicesPositive);
}

std::string formatShare(double share)
{
    if (std::isnan(share))
        return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f%%", share * 100.0);
    // "-0.0%" reads as a defect: a tiny negative share is written as zero.
    if (std::string_view(buf) == "-0.0%")
        return "0.0%";
    return buf;
}

std::string formatDollarsPerHour(double dollars)
{
    if (std::isnan(dollars))
        return "n/a";
    const double magnitude = std::fabs(dollars);
    std::string number;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", magnitude);
    if (std::strtod(buf, nullptr) < 1000.0)
        number = buf;
    else
        number = significantPositive(magnitude);
    return (dollars < 0 ? "-$" : "$") + number + "/h";
}

std::string formatSignificant(double value)
{
    return signedText(value, significantPositive);
}

} // namespace fleet::model
