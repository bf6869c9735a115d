// SPDX-License-Identifier: Apache-2.0
// Names in the simulated fleet: numbers, unique suffixes and EC2 network node ids (see
// simulatednames.h).

#include "simulatednames.h"

#include "deterministicrng.h"

#include <cstdio>
#include <string_view>

namespace fleet::importers::simulated {
namespace {

// Kubernetes' random-suffix alphabet (k8s.io/apimachinery/pkg/util/rand: no vowels, no
// look-alike digits).
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr std::uint64_t kSuffixBase = 27;

} // namespace

void appendUniqueSuffix(std::string& out, std::uint64_t index, std::uint64_t salt, int length)
{
    std::uint64_t modulus = 1;
    for (int i = 0; i < length; ++i)
        modulus *= kSuffixBase;
    std::uint64_t v = (index % modulus * (7654321 % modulus) + salt % modulus) % modulus;
    char buf[16];
    for (int i = length - 1; i >= 0; --i) {
        buf[i] = kSuffixAlphabet[v % kSuffixBase];
        v /= kSuffixBase;
    }
    out.append(buf, static_cast<std::size_t>(length));
}

void appendHashSuffix(std::string& out, std::uint64_t hash, int length)
{
    for (int i = 0; i < length; ++i) {
        out.push_back(kSuffixAlphabet[hash % kSuffixBase]);
        hash /= kSuffixBase;
    }
}

void appendNumber(std::string& out, std::uint64_t v)
{
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    out.append(buf, static_cast<std::size_t>(n));
}

std::string networkNodeId(std::uint64_t seed, std::uint64_t level, std::uint64_t index)
{
    const std::uint64_t h = SplitMix64::mix(seed ^ SplitMix64::mix(level * 0x1000003ull + SplitMix64::mix(index)));
    char buf[32];
    std::snprintf(
        buf, sizeof buf, "nn-%01x%016llx", static_cast<unsigned>(SplitMix64::mix(h) & 0xf), static_cast<unsigned long long>(h));
    return buf;
}

} // namespace fleet::importers::simulated
