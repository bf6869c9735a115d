// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strong integer ids for the entities of the cluster model.
//
// Design note: entities are rows in columns (std::vector<T> indexed by id), never objects
// reached through pointers, so that 100,000 nodes and 2,000,000 pods stay compact and hot
// loops walk one column at a time (see DESIGN.md, "The model").

// <cstddef> comes before <compare>: Qt 6.4's moc (run on every Q_OBJECT file that includes
// a model header) fails with "Parse error at std" in <concepts> when <compare> is the
// first standard header it reads (GCC 12, C++20).
#include <cstddef>
#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace fleet::model {

/// A typed 32-bit index. `Tag` only makes NodeId and PodId distinct types.
/// The default-constructed id is invalid.
template <class Tag>
struct Id {
    /// The value of an invalid id (2^32 - 1); valid ids are dense indices from 0.
    static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t value = kInvalid;

    constexpr Id() noexcept = default;
    constexpr explicit Id(std::uint32_t v) noexcept : value(v) {}
    [[nodiscard]] constexpr bool isValid() const noexcept { return value != kInvalid; }
    /// The id as an index into its columns (only meaningful when isValid()).
    [[nodiscard]] constexpr std::size_t index() const noexcept { return value; }
    constexpr auto operator<=>(const Id&) const noexcept = default;
};

using NodeId = Id<struct NodeTag>;
using PodId = Id<struct PodTag>;
using WorkloadId = Id<struct WorkloadTag>;
using DomainId = Id<struct DomainTag>;
/// An interned string (names, namespaces, label keys and values); see StringPool.
using StringId = Id<struct StringTag>;

} // namespace fleet::model

template <class Tag>
struct std::hash<fleet::model::Id<Tag>> {
    std::size_t operator()(fleet::model::Id<Tag> id) const noexcept { return std::hash<std::uint32_t>{}(id.value); }
};
