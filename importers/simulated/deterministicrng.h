// SPDX-License-Identifier: Apache-2.0
#pragma once
// A deterministic random number generator whose output is the same on every compiler,
// standard library and platform.
//
// Design note: std::mt19937_64 is portable, but std::uniform_int_distribution and friends are
// not (libstdc++, libc++ and MSVC map the raw bits differently), so a seeded simulated cluster
// would differ between builds. Here the engine is xoshiro256** (Blackman and Vigna,
// "Scrambled Linear Pseudorandom Number Generators", ACM TOMS 2021; prng.di.unimi.it), seeded
// through SplitMix64 as its authors recommend, and every range mapping is our own integer
// arithmetic: bounded integers by bitmask with rejection (as in M. O'Neill, "Efficiently
// Generating a Number in a Range", pcg-random.org, 2018). No floating point anywhere.

#include <cstddef>
#include <cstdint>

namespace fleet::importers {

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a tiny generator used to expand one
/// 64-bit seed into the state of a bigger one, and as a stateless hash of an integer.
class SplitMix64 {
public:
    constexpr explicit SplitMix64(std::uint64_t seed) noexcept
        : m_state(seed)
    {
    }
    /// The next 64 random bits.
    constexpr std::uint64_t next() noexcept
    {
        m_state += 0x9e3779b97f4a7c15ull;
        return mix(m_state);
    }
    /// The SplitMix64 finaliser: a bijective 64-bit mix, usable as a hash.
    static constexpr std::uint64_t mix(std::uint64_t z) noexcept
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

private:
    std::uint64_t m_state;
};

/// xoshiro256** with portable range mappings. Value type; copy it to fork a stream.
/// Thread: one instance per thread.
class DeterministicRng {
public:
    /// Seeds the four state words with four SplitMix64(seed) outputs.
    constexpr explicit DeterministicRng(std::uint64_t seed) noexcept
    {
        SplitMix64 sm(seed);
        for (auto& s : m_s)
            s = sm.next();
    }

    /// The next 64 random bits.
    constexpr std::uint64_t next() noexcept
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    /// A uniform integer in [0, bound); 0 when bound is 0. Bitmask with rejection: draws
    /// next() masked to the smallest power of two above bound - 1 until it falls below
    /// bound (unbiased; at most two draws on average).
    constexpr std::uint64_t below(std::uint64_t bound) noexcept
    {
        if (bound <= 1)
            return 0;
        std::uint64_t mask = bound - 1;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        mask |= mask >> 32;
        std::uint64_t x = 0;
        do {
            x = next() & mask;
        } while (x >= bound);
        return x;
    }

    /// A uniform integer in [low, high] (inclusive); `low` when high < low.
    constexpr std::int64_t between(std::int64_t low, std::int64_t high) noexcept
    {
        if (high <= low)
            return low;
        return low + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(high - low) + 1));
    }

    /// True with probability perMille / 1000.
    constexpr bool chancePerMille(std::uint32_t perMille) noexcept { return below(1000) < perMille; }

    /// An index into `weights[0..count)` drawn in proportion to the (integer) weights.
    /// Returns 0 when all weights are zero.
    constexpr std::size_t weighted(const std::uint32_t* weights, std::size_t count) noexcept
    {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < count; ++i)
            total += weights[i];
        std::uint64_t pick = below(total);
        for (std::size_t i = 0; i < count; ++i) {
            if (pick < weights[i])
                return i;
            pick -= weights[i];
        }
        return 0;
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4] {};
};

} // namespace fleet::importers
