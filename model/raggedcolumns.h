// SPDX-License-Identifier: Apache-2.0
#pragma once
// Variable-length per-row attributes whose rows change after the store is built (a node's
// taints, labels, conditions, extended resources; the pods counted on a node).
//
// Design note (DESIGN.md "The model": variable-length attributes are ranges into one shared
// vector): a CSR column (one offset per row, rows packed in order) costs O(rows after it) to
// grow one row, since the tail moves and every later offset shifts; a live feed failing and
// recovering nodes (a taint added, removed) paid that ~100 times per batch at 100,000 nodes.
// Here each row has its own begin, size and capacity: a row rewritten at the same or a smaller
// size stays where it is; a row that outgrows its capacity is moved to the end of the values
// with slack (half its size again), its old place left dead. When the dead values outnumber
// the live ones (and a minimum), compact() packs every row again in row order, each at its
// exact size: amortised O(1) per value written, and reads stay one contiguous span per row.
//
// Several value vectors (T...) share one set of ranges: row r of each is the same range, so
// parallel columns (a node's extended allocatable, capacity and requested) index alike.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace fleet::model {

/// Rows of values of types T..., each row one contiguous range, shared by every T.
/// Errors: std::length_error when the values would exceed 2^32 - 1; std::bad_alloc.
/// Thread: one writer, or any number of readers (no internal locking).
template <class... T>
class RaggedColumns {
    static_assert(sizeof...(T) >= 1);

public:
    static constexpr std::size_t kMinDeadToCompact = 4096;

    [[nodiscard]] std::size_t rows() const noexcept { return m_begin.size(); }
    /// Values in use (the rows' sizes summed), and values held (live, slack and dead).
    [[nodiscard]] std::size_t liveValues() const noexcept { return m_live; }
    [[nodiscard]] std::size_t heldValues() const noexcept { return std::get<0>(m_values).size(); }
    /// Times compact() ran (for tests and benchmarks).
    [[nodiscard]] std::size_t compactions() const noexcept { return m_compactions; }

    [[nodiscard]] std::uint32_t size(std::size_t row) const noexcept { return m_size[row]; }
    /// Row `row` of column I (0 when there is one column). `row` < rows().
    template <std::size_t I = 0>
    [[nodiscard]] auto row(std::size_t row) const noexcept
    {
        const auto& v = std::get<I>(m_values);
        return std::span(v.data() + m_begin[row], m_size[row]);
    }
    /// Row `row` of column I, writable in place (its size is fixed).
    template <std::size_t I = 0>
    [[nodiscard]] auto mutableRow(std::size_t row) noexcept
    {
        auto& v = std::get<I>(m_values);
        return std::span(v.data() + m_begin[row], m_size[row]);
    }
    /// Column I's values as held, rows in no particular order, slack and dead values included
    /// (for a pass that resets every value; dead values are never read).
    template <std::size_t I = 0>
    [[nodiscard]] std::vector<std::tuple_element_t<I, std::tuple<T...>>>& allValues() noexcept
    {
        return std::get<I>(m_values);
    }

    /// Appends an empty row; returns its index.
    std::size_t addRow()
    {
        m_begin.push_back(static_cast<std::uint32_t>(heldValues()));
        m_size.push_back(0);
        m_capacity.push_back(0);
        return m_begin.size() - 1;
    }
    /// Empty rows up to `rows` (never fewer rows).
    void resizeRows(std::size_t rows)
    {
        while (m_begin.size() < rows)
            addRow();
    }

    /// Replaces row `row` by `values` (one span per column, all of one size): in place when it
    /// fits the row's capacity, else at the end of the values with slack (the last row held grows
    /// in place, without slack). May compact. O(values) amortised.
    void assign(std::size_t row, std::span<const T>... values)
    {
        const std::size_t n = std::get<0>(std::forward_as_tuple(values...)).size();
        if (((values.size() != n) || ...))
            throw std::invalid_argument("RaggedColumns::assign: columns of different sizes");
        if (n > m_capacity[row] && m_begin[row] + m_capacity[row] == heldValues()) {
            // The last row held (a row just added, as a load fills rows): grown in place, exact.
            if (m_begin[row] + n > UINT32_MAX)
                throw std::length_error("RaggedColumns: more than 2^32 - 1 values");
            forEachColumn([&](auto& column) { column.resize(m_begin[row] + n); });
            m_capacity[row] = static_cast<std::uint32_t>(n);
        } else if (n > m_capacity[row]) {
            m_dead += m_capacity[row];
            const std::size_t capacity = n + n / 2 + 1;
            const std::size_t at = heldValues();
            if (at + capacity > UINT32_MAX)
                throw std::length_error("RaggedColumns: more than 2^32 - 1 values");
            forEachColumn([&](auto& column) { column.resize(at + capacity); });
            m_begin[row] = static_cast<std::uint32_t>(at);
            m_capacity[row] = static_cast<std::uint32_t>(capacity);
        }
        m_live += n;
        m_live -= m_size[row];
        m_size[row] = static_cast<std::uint32_t>(n);
        const std::uint32_t b = m_begin[row];
        std::apply([&](auto&... columns) { (std::copy(values.begin(), values.end(), columns.begin() + b), ...); }, m_values);
        if (m_dead > kMinDeadToCompact && m_dead > m_live)
            compact();
    }

    /// Packs every row in row order at its exact size (capacity = size), dropping slack and dead
    /// values. O(held values).
    void compact()
    {
        std::vector<std::uint32_t> begin(m_begin.size());
        std::size_t at = 0;
        for (std::size_t r = 0; r < m_begin.size(); ++r) {
            begin[r] = static_cast<std::uint32_t>(at);
            at += m_size[r];
        }
        auto pack = [&](auto& column) {
            std::remove_reference_t<decltype(column)> out(at);
            for (std::size_t r = 0; r < m_begin.size(); ++r)
                std::copy_n(column.begin() + m_begin[r], m_size[r], out.begin() + begin[r]);
            column = std::move(out);
        };
        forEachColumn(pack);
        m_begin = std::move(begin);
        m_capacity = m_size;
        m_dead = 0;
        ++m_compactions;
    }

    /// Replaces everything by packed rows: row r is [offsets[r], offsets[r+1]) of `values`
    /// (offsets.size() == rows + 1, offsets.back() == every values' size).
    void assignPacked(std::span<const std::uint32_t> offsets, std::vector<T>... values)
    {
        const std::size_t rows = offsets.empty() ? 0 : offsets.size() - 1;
        m_begin.assign(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(rows));
        m_size.resize(rows);
        for (std::size_t r = 0; r < rows; ++r)
            m_size[r] = offsets[r + 1] - offsets[r];
        m_capacity = m_size;
        m_values = std::tuple<std::vector<T>...>(std::move(values)...);
        m_live = rows == 0 ? 0 : offsets[rows] - offsets[0];
        m_dead = 0;
    }

    void clear()
    {
        *this = RaggedColumns();
    }

    /// Bytes held (ranges and values).
    [[nodiscard]] std::size_t memoryBytes() const noexcept
    {
        std::size_t b = (m_begin.capacity() + m_size.capacity() + m_capacity.capacity()) * sizeof(std::uint32_t);
        std::apply([&](const auto&... columns) { ((b += columns.capacity() * sizeof(T)), ...); }, m_values);
        return b;
    }

private:
    template <class F>
    void forEachColumn(F&& f)
    {
        std::apply([&](auto&... columns) { (f(columns), ...); }, m_values);
    }

    std::vector<std::uint32_t> m_begin, m_size, m_capacity;
    std::tuple<std::vector<T>...> m_values;
    std::size_t m_live = 0;
    std::size_t m_dead = 0; // values of abandoned places (slack of live rows not counted)
    std::size_t m_compactions = 0;
};

} // namespace fleet::model
