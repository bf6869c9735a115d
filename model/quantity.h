// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kubernetes resource.Quantity parsing, exact.
//
// Source of the grammar: k8s.io/apimachinery/pkg/api/resource/quantity.go
//   <quantity>        ::= <signedNumber><suffix>
//   <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//   <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
//   <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
//   <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
//   <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
// (The grammar comment in quantity.go omits n and u; its suffixer accepts them, and
// metrics.k8s.io reports CPU usage in nanocores, e.g. "123456789n".) "1E" is Exa (10^18);
// "12E6" is an exponent (12 * 10^6).
// Values are kept exact (no floating point) and rounded away from zero, as Quantity.Value()
// and Quantity.MilliValue() do ("rounded up to the nearest integer away from 0"):
// "1500m" -> 2, "-1500m" -> -2.
// Deliberately stricter than ParseQuantity, which
//   - accepts a sign, point or suffix with no digit ("Ki", "m", "e3", ".", "-") as 0
//     (kubernetes/apimachinery issue #165); here that is an error;
//   - caps values beyond int64 at 2^63-1 ("9Ei", "10E"); here that is an out-of-range error.
// The API server re-serialises quantities canonically, so neither case reaches kubectl output.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fleet::model {

/// Thrown for a string that is not a valid Quantity, or whose value does not fit in int64.
/// what() names the offending value and what was expected.
class QuantityError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Parses `text` and returns its value in whole units, rounded away from zero
/// (Quantity.Value()): "1500m" -> 2, "2Ki" -> 2048, "129e6" -> 129000000, "0.1" -> 1.
/// Throws QuantityError, whose what() quotes `text`, on an invalid form (e.g. "2GB", "64K",
/// "1e3m", "", " 1") or when the value does not fit in int64 ("10E", "8Ei").
/// Thread-safe (pure function).
[[nodiscard]] std::int64_t parseQuantity(std::string_view text);

/// Parses `text` and returns its value in thousandths, rounded away from zero
/// (Quantity.MilliValue()):
/// "100m" -> 100, "1.5" -> 1500, "2" -> 2000. Throws QuantityError like parseQuantity().
/// Thread-safe (pure function).
[[nodiscard]] std::int64_t parseQuantityMilli(std::string_view text);

/// An exact quantity in nano-units (10^-9 of the unit): resource.Quantity keeps a value to the
/// nano (ParseQuantity rounds finer digits up, away from zero), and sums of Quantities are exact.
__extension__ using QuantityNanos = __int128;
/// The nanos in one unit.
inline constexpr std::int64_t kNanosPerUnit = 1'000'000'000;

/// Parses `text` to its exact value in nano-units, finer digits rounded away from zero:
/// "300u" -> 300000, "1.5" -> 1500000000, "1n" -> 1, "0.1n" -> 1. Throws QuantityError like
/// parseQuantity(), also when the value in whole units does not fit in int64.
/// Thread-safe (pure function).
[[nodiscard]] QuantityNanos parseQuantityNanos(std::string_view text);

/// `nanos` / 10^9 rounded away from zero (Quantity.Value() of an exact sum), saturated to the
/// int64 range. Thread-safe.
[[nodiscard]] std::int64_t nanosToUnits(QuantityNanos nanos) noexcept;

/// Formats a millicore value the way kubectl prints CPU: whole cores without a suffix ("4"),
/// else millicores with "m" ("250m", "1500m"). Never throws except std::bad_alloc. Thread-safe.
[[nodiscard]] std::string formatMilli(std::int64_t milli);

/// Formats a byte count as a Kubernetes quantity with the largest exact binary suffix ("16Gi",
/// "1536Mi", "123"). (Named apart from figures.h's formatBytes(), which writes figures for
/// people: "1.5 GiB".) Never throws except std::bad_alloc. Thread-safe.
[[nodiscard]] std::string formatBytesQuantity(std::int64_t bytes);

} // namespace fleet::model
