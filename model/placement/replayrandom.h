// SPDX-License-Identifier: Apache-2.0
#pragma once
// The random stream of a placement run: one generator per (trace, seed), drawn in the order
// the FGD simulator draws (PROTOCOL.md section 2). It is not Go's math/rand, so single runs
// differ from the reference; means over seeds agree (PROTOCOL.md says what bit-for-bit
// matching would take). Deterministic on every platform: std::mt19937_64 is specified
// exactly, and below() does its own unbiased reduction (Lemire's multiply-and-reject) instead
// of std::uniform_int_distribution, whose algorithm the standard leaves open.
//
// Thread: one thread.

#include <cstdint>
#include <random>

namespace fleet::model {

__extension__ using ReplayUint128 = unsigned __int128; // GCC and Clang; the multiply's high half

class ReplayRandom {
public:
    explicit ReplayRandom(std::uint64_t seed) : m_engine(seed) {}
    /// 64 random bits.
    std::uint64_t next() { return m_engine(); }
    /// Uniform in [0, n); n > 0 (0 when n is 0).
    std::uint64_t below(std::uint64_t n)
    {
        if (n == 0)
            return 0;
        ReplayUint128 product = static_cast<ReplayUint128>(next()) * n;
        auto low = static_cast<std::uint64_t>(product);
        if (low < n) {
            const std::uint64_t threshold = -n % n;
            while (low < threshold) {
                product = static_cast<ReplayUint128>(next()) * n;
                low = static_cast<std::uint64_t>(product);
            }
        }
        return static_cast<std::uint64_t>(product >> 64);
    }

private:
    std::mt19937_64 m_engine;
};

} // namespace fleet::model
