// SPDX-License-Identifier: Apache-2.0
#include "stringpool.h"

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
        m_blocks.push_back(std::make_unique<char[]>(text.size()));
        std::memcpy(m_blocks.back().get(), text.data(), text.size());
        m_charBytes += text.size();
        const char* p = m_blocks.back().get();
        // Keep the current partially filled block the one we append to.
        if (m_blocks.size() >= 2)
            std::swap(m_blocks[m_blocks.size() - 1], m_blocks[m_blocks.size() - 2]);
        return p;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockBytes));
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
    for (std::uint32_t id = 0; id < m_views.size(); ++id) {
        std::size_t i = hashOf(m_views[id]) & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = id + 1;
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
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hashOf(text) & mask;
    while (m_slots[i] != 0) {
        const std::uint32_t id = m_slots[i] - 1;
        if (m_views[id] == text)
            return StringId(id);
        i = (i + 1) & mask;
    }
    const auto id = static_cast<std::uint32_t>(m_views.size());
    m_views.emplace_back(store(text), text.size());
    m_slots[i] = id + 1;
    if (m_views.size() * 2 > m_slots.size())
        grow();
    return StringId(id);
}

StringId StringPool::find(std::string_view text) const noexcept
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hashOf(text) & mask;
    while (m_slots[i] != 0) {
        const std::uint32_t id = m_slots[i] - 1;
        if (m_views[id] == text)
            return StringId(id);
        i = (i + 1) & mask;
    }
    return {};
}

std::size_t StringPool::memoryBytes() const noexcept
{
    return m_charBytes + m_views.capacity() * sizeof(std::string_view) + m_slots.capacity() * sizeof(std::uint32_t);
}

} // namespace fleet::model
