// SPDX-License-Identifier: Apache-2.0
#include "quantity.h"

#include <array>
#include <cctype>
#include <limits>

namespace fleet::model {
namespace {

__extension__ using Int128 = __int128; // GCC and Clang; exact 128-bit intermediate values
constexpr Int128 kInt64Max = static_cast<Int128>(INT64_MAX);
constexpr int kMaxSignificantDigits = 30;

[[noreturn]] void fail(std::string_view text, std::string_view why)
{
    throw QuantityError("invalid quantity \"" + std::string(text) + "\": " + std::string(why));
}

struct Parsed {
    bool negative = false;
    Int128 mantissa = 0; // significant digits, without the decimal point
    int exponent10 = 0;  // value = mantissa * 10^exponent10 * 2^exponent2
    int exponent2 = 0;
    bool droppedNonZero = false; // digits past kMaxSignificantDigits that were not zero
};

Parsed parse(std::string_view text)
{
    if (text.empty())
        fail(text, "empty string; expected a number with an optional suffix such as 100m, 2Gi or 1e3");
    Parsed p;
    std::size_t pos = 0;
    if (text[pos] == '+' || text[pos] == '-') {
        p.negative = text[pos] == '-';
        ++pos;
    }
    int digits = 0;
    int fractionDigits = 0;
    bool seenPoint = false;
    bool anyDigit = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '.') {
            if (seenPoint)
                fail(text, "more than one decimal point");
            seenPoint = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        anyDigit = true;
        if (p.mantissa == 0 && c == '0') {
            if (seenPoint)
                ++fractionDigits; // leading zeros of a fraction still shift the point
            continue;
        }
        if (digits >= kMaxSignificantDigits) {
            // Digits past the kept ones are dropped: an integer digit still shifts the value
            // by ten; a non-zero one makes the value inexact, so that it still rounds up.
            // (When a dropped digit is at or above the unit, the kept digits alone exceed
            // int64 and the value is reported out of range.)
            if (!seenPoint)
                ++p.exponent10;
            if (c != '0')
                p.droppedNonZero = true;
            continue;
        }
        p.mantissa = p.mantissa * 10 + (c - '0');
        ++digits;
        if (seenPoint)
            ++fractionDigits;
    }
    if (!anyDigit)
        fail(text, "expected digits before the suffix");
    p.exponent10 -= fractionDigits;

    const std::string_view suffix = text.substr(pos);
    if (suffix.empty())
        return p;
    if (suffix.size() == 2 && suffix[1] == 'i') {
        static constexpr std::string_view kBinary = "KMGTPE";
        const auto at = kBinary.find(suffix[0]);
        if (at == std::string_view::npos)
            fail(text, "unknown binary suffix; expected Ki, Mi, Gi, Ti, Pi or Ei");
        p.exponent2 = 10 * static_cast<int>(at + 1);
        return p;
    }
    if (suffix.size() == 1) {
        switch (suffix[0]) {
        case 'n': p.exponent10 -= 9; return p;
        case 'u': p.exponent10 -= 6; return p;
        case 'm': p.exponent10 -= 3; return p;
        case 'k': p.exponent10 += 3; return p;
        case 'M': p.exponent10 += 6; return p;
        case 'G': p.exponent10 += 9; return p;
        case 'T': p.exponent10 += 12; return p;
        case 'P': p.exponent10 += 15; return p;
        case 'E': p.exponent10 += 18; return p;
        default: break;
        }
    }
    if (suffix[0] == 'e' || suffix[0] == 'E') {
        std::size_t i = 1;
        bool negativeExponent = false;
        if (i < suffix.size() && (suffix[i] == '+' || suffix[i] == '-')) {
            negativeExponent = suffix[i] == '-';
            ++i;
        }
        if (i == suffix.size())
            fail(text, "exponent without digits");
        int exponent = 0;
        for (; i < suffix.size(); ++i) {
            const char c = suffix[i];
            if (c < '0' || c > '9')
                fail(text, "unexpected characters after the exponent");
            exponent = exponent * 10 + (c - '0');
            if (exponent > 1000)
                fail(text, "exponent out of range");
        }
        p.exponent10 += negativeExponent ? -exponent : exponent;
        return p;
    }
    fail(text, "unknown suffix \"" + std::string(suffix)
                   + "\"; expected one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent such as e3");
}

// Returns p * 10^extraExponent10 as int64, exactly, rounded away from zero when inexact,
// as Quantity.Value() and MilliValue() do ("rounded up to the nearest integer away from 0";
// see negativeScaleInt64 in k8s.io/apimachinery/pkg/api/resource/amount.go): 1.5 -> 2,
// -1.5 -> -2.
Int128 toScaledWide(std::string_view text, const Parsed& p, int extraExponent10, Int128 limit)
{
    if (p.mantissa == 0 && !p.droppedNonZero)
        return 0;
    Int128 magnitude = p.mantissa;
    int exponent10 = p.exponent10 + extraExponent10;
    // Binary suffixes: multiply first; checked against overflow.
    for (int i = 0; i < p.exponent2; ++i) {
        if (magnitude > (std::numeric_limits<Int128>::max() >> 1))
            fail(text, "value out of range");
        magnitude <<= 1;
    }
    bool inexact = p.droppedNonZero;
    while (exponent10 > 0) {
        if (magnitude > std::numeric_limits<Int128>::max() / 10)
            fail(text, "value out of range");
        magnitude *= 10;
        --exponent10;
    }
    while (exponent10 < 0) {
        if (magnitude == 0)
            break;
        if (magnitude % 10 != 0)
            inexact = true;
        magnitude /= 10;
        ++exponent10;
    }
    if (inexact)
        magnitude += 1;
    if (magnitude > limit + (p.negative ? 1 : 0))
        fail(text, "value out of range of a 64-bit integer");
    return p.negative ? -magnitude : magnitude;
}

std::int64_t toScaled(std::string_view text, const Parsed& p, int extraExponent10)
{
    // int64 holds -2^63 but only 2^63 - 1.
    return static_cast<std::int64_t>(toScaledWide(text, p, extraExponent10, kInt64Max));
}

} // namespace

std::int64_t parseQuantity(std::string_view text)
{
    return toScaled(text, parse(text), 0);
}

std::int64_t parseQuantityMilli(std::string_view text)
{
    return toScaled(text, parse(text), 3);
}

QuantityNanos parseQuantityNanos(std::string_view text)
{
    // The limit: int64 whole units, as parseQuantity() allows.
    return toScaledWide(text, parse(text), 9, kInt64Max * kNanosPerUnit);
}

std::int64_t nanosToUnits(QuantityNanos nanos) noexcept
{
    const bool negative = nanos < 0;
    Int128 magnitude = negative ? -nanos : nanos;
    Int128 units = magnitude / kNanosPerUnit;
    if (magnitude % kNanosPerUnit != 0)
        ++units;
    if (units > kInt64Max)
        units = kInt64Max;
    return static_cast<std::int64_t>(negative ? -units : units);
}

std::string formatMilli(std::int64_t milli)
{
    if (milli % 1000 == 0)
        return std::to_string(milli / 1000);
    return std::to_string(milli) + "m";
}

std::string formatBytesQuantity(std::int64_t bytes)
{
    static constexpr std::array<const char*, 6> kSuffixes{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    if (bytes == 0)
        return "0";
    for (int i = static_cast<int>(kSuffixes.size()) - 1; i >= 0; --i) {
        const std::int64_t unit = std::int64_t{1} << (10 * (i + 1));
        if (bytes % unit == 0)
            return std::to_string(bytes / unit) + kSuffixes[static_cast<std::size_t>(i)];
    }
    return std::to_string(bytes);
}

} // namespace fleet::model
