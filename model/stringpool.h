// SPDX-License-Identifier: Apache-2.0
#pragma once
// Interned strings: names, namespaces, label keys and values are stored once and
// referred to by a 32-bit StringId.
//
// Design note: 2,000,000 pods carry ~2,000,000 distinct names; a std::string plus a
// std::unordered_map node per name would cost ~100 bytes of overhead each. The pool keeps
// the characters in 1 MiB blocks and an open-addressing table of ids (4 bytes a slot).

#include "ids.h"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace fleet::model {

/// Owner of interned strings. StringId 0 is always the empty string.
/// Thread: not thread-safe for intern(); view() is safe to call concurrently once writes stop.
class StringPool {
public:
    /// An empty pool holding only the empty string (id 0).
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;
    /// A deep copy: the same strings under the same ids, in blocks of its own. O(characters).
    StringPool(const StringPool& other);
    StringPool& operator=(const StringPool&) = delete;

    /// Returns the id of `text`, adding it if new. Amortised O(length).
    StringId intern(std::string_view text);
    /// intern() of each of `texts` in order, their ids into `ids` (as many): the same ids as
    /// intern() one after another, but the table's slot of every text of a batch of 16 is
    /// fetched into the cache before the first is looked up, so that the cache misses of a
    /// large pool (one a string: the .fleet reader's 1.8M strings) overlap. Amortised O(length).
    void internBatch(std::span<const std::string_view> texts, std::span<StringId> ids);
    /// Makes room for `count` strings in all, so that interning up to that many never rehashes
    /// the table (a reader that knows the count up front: the .fleet document). O(size()).
    void reserve(std::size_t count);
    /// Returns the id of `text` or an invalid id if it was never interned.
    [[nodiscard]] StringId find(std::string_view text) const noexcept;
    /// The characters of `id` (valid until the pool is destroyed). Invalid id -> "".
    [[nodiscard]] std::string_view view(StringId id) const noexcept
    {
        return id.isValid() && id.index() < m_views.size() ? m_views[id.index()] : std::string_view{};
    }
    /// Number of distinct strings, the empty string included.
    [[nodiscard]] std::size_t size() const noexcept { return m_views.size(); }
    /// Bytes held by the pool (characters, views and table).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    StringId internHashed(std::string_view text, std::size_t hash);
    const char* store(std::string_view text);
    void grow();

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::vector<std::string_view> m_views;
    std::vector<std::uint32_t> m_slots; // id + 1, 0 = empty
    std::size_t m_charBytes = 0;
};

} // namespace fleet::model
