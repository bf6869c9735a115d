// SPDX-License-Identifier: Apache-2.0
#include "stringpool.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>

namespace fleet::model {
namespace {
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

std::size_t hashOf(std::string_view s) noexcept
{
    // libstdc++'s string hash (Murmur-style, 8 bytes a step): several times faster than a
    // byte-wise FNV on 30 to 60 byte pod names, which dominate interning at import.
    return std::hash<std::string_view>{}(s);
}

// A slot holds id + 1 in its low bits (as many as the table has slots: the table is at most
// half full, so id + 1 < slots) and, in the bits above, a tag: the hash's top bits. A probe
// compares a string only when the tags match, so that a slot of another string costs no
// access to m_views and its characters (two cache misses each at 1.7M strings; perf put a
// quarter of intern()'s time in them when a .fleet document's strings are interned).
struct SlotLayout {
    std::uint32_t idMask;
    unsigned idBits;
    explicit SlotLayout(std::size_t slots) noexcept
        : idMask(slots >= (std::size_t{1} << 32) ? ~std::uint32_t{0} : static_cast<std::uint32_t>(slots - 1))
        , idBits(static_cast<unsigned>(std::countr_zero(slots)))
    {
    }
    [[nodiscard]] std::uint32_t tag(std::size_t hash) const noexcept
    {
        if (idBits >= 32)
            return 0;
        return static_cast<std::uint32_t>(static_cast<std::uint64_t>(hash) >> (32 + idBits)) << idBits;
    }
};
} // namespace

StringPool::StringPool()
{
    m_slots.assign(1024, 0);
    intern({});
}

StringPool::StringPool(const StringPool& other)
    : m_slots(other.m_slots)
{
    m_views.reserve(other.m_views.size());
    for (const std::string_view v : other.m_views)
        m_views.emplace_back(store(v), v.size()); // the same order, so the same ids; the table holds ids
}

const char* StringPool::store(std::string_view text)
{
    if (text.empty())
        return "";
    if (text.size() > kBlockBytes / 4) {
        // A very long string gets a block of its own.
        m_blocks.push_back(std::unique_ptr<char[]>(new char[text.size()]));
        std::memcpy(m_blocks.back().get(), text.data(), text.size());
        m_charBytes += text.size();
        const char* p = m_blocks.back().get();
        // Keep the current partially filled block the one we append to.
        if (m_blocks.size() >= 2)
            std::swap(m_blocks[m_blocks.size() - 1], m_blocks[m_blocks.size() - 2]);
        return p;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        // Not zeroed (make_unique<char[]> would be): only what store() copies in is read, and
        // zeroing touched every page of ~47 blocks twice when a 100,000-node document's
        // strings were interned.
        m_blocks.push_back(std::unique_ptr<char[]>(new char[kBlockBytes]));
        m_blockSize = kBlockBytes;
        m_blockUsed = 0;
        m_charBytes += kBlockBytes;
    }
    char* p = m_blocks.back().get() + m_blockUsed;
    std::memcpy(p, text.data(), text.size());
    m_blockUsed += text.size();
    return p;
}

void StringPool::grow()
{
    std::vector<std::uint32_t> slots(m_slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    const SlotLayout layout(slots.size());
    for (std::uint32_t id = 0; id < m_views.size(); ++id) {
        const std::size_t h = hashOf(m_views[id]);
        std::size_t i = h & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = layout.tag(h) | (id + 1);
    }
    m_slots.swap(slots);
}

void StringPool::reserve(std::size_t count)
{
    m_views.reserve(count);
    while (count * 2 > m_slots.size())
        grow();
}

StringId StringPool::intern(std::string_view text)
{
    return internHashed(text, hashOf(text));
}

void StringPool::internBatch(std::span<const std::string_view> texts, std::span<StringId> ids)
{
    constexpr std::size_t kBatch = 16;
    std::size_t hashes[kBatch];
    for (std::size_t begin = 0; begin < texts.size(); begin += kBatch) {
        const std::size_t n = std::min(kBatch, texts.size() - begin);
        // The mask of now: an insert below may grow the table, which only makes a prefetch useless.
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = 0; i < n; ++i) {
            hashes[i] = hashOf(texts[begin + i]);
            __builtin_prefetch(m_slots.data() + (hashes[i] & mask));
        }
        for (std::size_t i = 0; i < n; ++i)
            ids[begin + i] = internHashed(texts[begin + i], hashes[i]);
    }
}

StringId StringPool::internHashed(std::string_view text, std::size_t h)
{
    const std::size_t mask = m_slots.size() - 1;
    const SlotLayout layout(m_slots.size());
    const std::uint32_t tag = layout.tag(h);
    std::size_t i = h & mask;
    while (m_slots[i] != 0) {
        if ((m_slots[i] & ~layout.idMask) == tag) {
            const std::uint32_t id = (m_slots[i] & layout.idMask) - 1;
            if (m_views[id] == text)
                return StringId(id);
        }
        i = (i + 1) & mask;
    }
    const auto id = static_cast<std::uint32_t>(m_views.size());
    m_views.emplace_back(store(text), text.size());
    m_slots[i] = tag | (id + 1);
    if (m_views.size() * 2 > m_slots.size())
        grow();
    return StringId(id);
}

StringId StringPool::find(std::string_view text) const noexcept
{
    const std::size_t mask = m_slots.size() - 1;
    const SlotLayout layout(m_slots.size());
    const std::size_t h = hashOf(text);
    const std::uint32_t tag = layout.tag(h);
    std::size_t i = h & mask;
    while (m_slots[i] != 0) {
        if ((m_slots[i] & ~layout.idMask) == tag) {
            const std::uint32_t id = (m_slots[i] & layout.idMask) - 1;
            if (m_views[id] == text)
                return StringId(id);
        }
        i = (i + 1) & mask;
    }
    return {};
}

std::size_t StringPool::memoryBytes() const noexcept
{
    return m_charBytes + m_views.capacity() * sizeof(std::string_view) + m_slots.capacity() * sizeof(std::uint32_t);
}

} // namespace fleet::model
