// SPDX-License-Identifier: Apache-2.0
#pragma once
// Binary byte units for the tests' memory amounts (Kubernetes' Ki, Mi, Gi suffixes: powers of
// 1024). long long, which is qint64, the type QtTest data columns of memory amounts hold.

namespace fleet::testing {

inline constexpr long long kKi = 1024;
inline constexpr long long kMi = kKi * 1024;
inline constexpr long long kGi = kMi * 1024;
inline constexpr long long kTi = kGi * 1024;

} // namespace fleet::testing
