// SPDX-License-Identifier: Apache-2.0
#pragma once
// A topology domain named by its path of label pairs, as `screenshot --focus` takes it:
// "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1a".
//
// Label keys may hold one '/' (prefix/name) but never '='; label values never hold '/'
// (Kubernetes label syntax: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set),
// so the path splits without quoting: a key runs to the next '=', its value to the next '/'.

#include "model/topology.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::model {

/// One step of a domain path: a topology level's label key and the domain's value.
/// The pseudo levels of a trace are written "gpu-model" and "instance-type".
using DomainPathStep = std::pair<std::string, std::string>;

/// Splits "KEY=VALUE[/KEY=VALUE...]" into steps. Throws std::invalid_argument naming the
/// character offset and what was expected ("expected KEY=VALUE at offset 12"). Thread: any.
[[nodiscard]] std::vector<DomainPathStep> parseDomainPath(std::string_view text);

/// The domain the steps name: each step is a level key of `topology` (levelKeys(), or
/// "gpu-model" / "instance-type" for the fallback levels) and a domain name at that level,
/// below the previous step's domain; levels may be skipped when the name is unique
/// ("topology.kubernetes.io/zone=us-east-1a" alone). Throws std::invalid_argument with a
/// sentence that names the unknown key (and the level keys there are), the missing value
/// (and up to 10 values that exist at that level), or the domains an ambiguous step
/// matches. O(domains x steps). Thread: any.
[[nodiscard]] DomainId findDomainByPath(const Topology& topology, const std::vector<DomainPathStep>& steps);

/// The key a user writes (and reads) for level `level` (1-based, <= levelKeys().size()): the
/// label key, or "gpu-model" / "instance-type" for the fallback levels (never the internal
/// "@" pseudo keys). Thread: any.
[[nodiscard]] std::string levelUserKey(const Topology& topology, int level);

/// The path of domain d, outermost first, in the syntax parseDomainPath() reads (empty
/// for the root). Thread: any.
[[nodiscard]] std::string domainPathText(const Topology& topology, DomainId d);

} // namespace fleet::model
