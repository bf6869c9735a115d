// SPDX-License-Identifier: Apache-2.0
#pragma once
// Names in the simulated fleet: decimal numbers, Kubernetes-style random-looking suffixes
// that are unique per index, and EC2 network node ids. All are pure functions of their
// arguments, so the same seed gives the same names.
// Internal to importers/simulated/; the public entry point is simulatedcluster.h.

#include <cstdint>
#include <string>

namespace fleet::importers::simulated {

// Appends `length` characters of Kubernetes' random-suffix alphabet
// (k8s.io/apimachinery/pkg/util/rand: no vowels, no look-alike digits), unique for each
// index below 27^length under one salt: (index * m + salt) mod 27^length is a bijection
// because m is not a multiple of 3. `length` at most 16.
void appendUniqueSuffix(std::string& out, std::uint64_t index, std::uint64_t salt, int length);

// Appends `length` characters of the same alphabet taken from `hash` (a ReplicaSet's
// pod-template-hash).
void appendHashSuffix(std::string& out, std::uint64_t hash, int length);

// Appends `v` in decimal.
void appendNumber(std::string& out, std::uint64_t v);

// An EC2 network node id: "nn-" and 17 hex digits, from the seed, the layer (1 to 3) and
// the node's index in that layer.
[[nodiscard]] std::string networkNodeId(std::uint64_t seed, std::uint64_t level, std::uint64_t index);

} // namespace fleet::importers::simulated
