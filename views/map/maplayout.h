// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map's layout: the topology tree as nested blocks on an integer cell grid.
//
// Design note (DESIGN.md "Views"): every node is one cell; the nodes of a leaf domain
// fill a near-square block row by row in Topology order; the blocks of siblings are
// packed in rows (an ordered squarified treemap, in Topology order: Bruls, Huizing and van
// Wijk, "Squarified Treemaps", 2000, with the order-keeping variant of Bederson, Shneiderman
// and Wattenberg, "Ordered and Quantum Treemaps", 2002; steps in maplayout.cpp) with a gutter between
// them that grows with the height of the parent in the tree (1 cell between leaf blocks, 2
// between their parents' blocks, ...); the root block is shaped near the aspect of the view. A
// row-major table maps each cell to its node, so picking is arithmetic: O(1), no picker.
// Domain labels never cover a cell: above every block there is at least labelGapRows()
// empty rows, where the view draws its label when that gap is tall enough on screen.
// The gap is the gutter between rows of siblings plus optional extra rows per level
// (labelRowsByLevel, sized by the view in screen pixels); a non-leaf domain also keeps
// such a band at its own top, above its first row of children, so the first row's labels
// have the same room as the others'.
// Pure C++ (no Qt, no VTK), so it is tested without a display.

#include "model/topology.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fleet::views {

/// A rectangle of cells: columns [x, x + width), rows [y, y + height). Row 0 is the top.
struct CellRect {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    [[nodiscard]] constexpr bool contains(int cx, int cy) const noexcept
    {
        return cx >= x && cy >= y && cx < x + width && cy < y + height;
    }
    [[nodiscard]] constexpr bool intersects(const CellRect& o) const noexcept
    {
        return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height;
    }
    constexpr bool operator==(const CellRect&) const noexcept = default;
};

/// A cell position (column x, row y; row 0 is the top). {-1, -1} when absent.
struct CellPos {
    int x = -1;
    int y = -1;
    [[nodiscard]] constexpr bool isValid() const noexcept { return x >= 0 && y >= 0; }
    constexpr bool operator==(const CellPos&) const noexcept = default;
};

/// The layout of one Topology. Immutable value; safe to share across threads once built.
class MapLayout {
public:
    /// Lays out `topology` for a view of aspect `viewAspect` (width / height, > 0; values
    /// outside [0.1, 10] are clamped). O(nodes + domains x candidates). Never throws except
    /// std::bad_alloc. An empty topology gives a 0 x 0 grid.
    /// `labelRowsByLevel[L]` (optional; missing entries are 0) is the number of extra empty
    /// rows reserved above every block of tree level L (1 = region, 2 = zone, ...) for its
    /// label, in addition to the gutter; negative values count as 0.
    [[nodiscard]] static MapLayout build(
        const model::Topology& topology, double viewAspect = 1.6, std::span<const int> labelRowsByLevel = {});

    /// Grid size in cells, including a margin around the root block.
    [[nodiscard]] int width() const noexcept { return m_width; }
    [[nodiscard]] int height() const noexcept { return m_height; }
    /// Number of nodes laid out (all nodes of the topology).
    [[nodiscard]] std::size_t nodeCount() const noexcept { return m_nodeCell.size(); }
    /// The aspect the layout was built for.
    [[nodiscard]] double viewAspect() const noexcept { return m_viewAspect; }

    /// Cell of node n; invalid when n is not in the layout.
    [[nodiscard]] CellPos nodeCell(model::NodeId n) const noexcept
    {
        if (!n.isValid() || n.index() >= m_nodeCell.size())
            return {};
        const std::uint32_t packed = m_nodeCell[n.index()];
        if (packed == model::NodeId::kInvalid)
            return {};
        return { static_cast<int>(packed % static_cast<std::uint32_t>(m_width)),
            static_cast<int>(packed / static_cast<std::uint32_t>(m_width)) };
    }
    /// Node in cell (x, y); invalid for gutters, empty cells and positions off the grid.
    [[nodiscard]] model::NodeId nodeAt(int x, int y) const noexcept
    {
        if (x < 0 || y < 0 || x >= m_width || y >= m_height)
            return {};
        return model::NodeId(
            m_cellNode[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x)]);
    }
    /// Bounding rectangle of the cells of domain d: tight around its nodes' blocks, plus,
    /// for a non-leaf domain other than the root, the label band at its top (its first
    /// row of children starts labelGapRows() of a child below r.y).
    [[nodiscard]] CellRect domainRect(model::DomainId d) const noexcept
    {
        return d.index() < m_domainRect.size() ? m_domainRect[d.index()] : CellRect {};
    }
    /// Number of domains laid out (the topology's domainCount()).
    [[nodiscard]] std::size_t domainCount() const noexcept { return m_domainRect.size(); }
    /// Height of domain d in the tree: 0 for a leaf, 1 + the largest child height otherwise.
    [[nodiscard]] int domainHeight(model::DomainId d) const noexcept { return m_domainHeight[d.index()]; }
    /// Cells between the blocks of the children of a domain of tree height h (h >= 1):
    /// 1 + h / 2, so 1 between leaf blocks, 2 between their parents' blocks, growing with
    /// the level but slower than the level, since every cell of gutter at 100,000 nodes
    /// costs screen space. Always more than h / 2, so outlines drawn h / 4 + 1/4 cells
    /// outside each block never touch (see FleetMapView).
    [[nodiscard]] static constexpr int gutterForHeight(int h) noexcept { return 1 + h / 2; }
    /// gutterForHeight() of domain d: cells between the blocks of its children.
    [[nodiscard]] int domainGutter(model::DomainId d) const noexcept { return gutterForHeight(m_domainHeight[d.index()]); }
    /// Rows above domain d's rectangle that hold no cell, across its width and a quarter
    /// gutter either side (a lower bound: the gap can be larger in practice): the gutter
    /// between the children of its parent plus labelRowsByLevel[level of d]; the top margin
    /// plus that for the root's first row. 0 for the root. The view draws d's label there.
    [[nodiscard]] int labelGapRows(model::DomainId d) const noexcept
    {
        return d.index() < m_labelGap.size() ? m_labelGap[d.index()] : 0;
    }
    /// Row-major table of width() x height() node indices (NodeId::kInvalid for no node).
    [[nodiscard]] const std::vector<std::uint32_t>& cellNodes() const noexcept { return m_cellNode; }

private:
    int m_width = 0;
    int m_height = 0;
    double m_viewAspect = 1.6;
    std::vector<std::uint32_t> m_nodeCell; // y * width + x, by node index
    std::vector<std::uint32_t> m_cellNode; // node index by cell, kInvalid when none
    std::vector<CellRect> m_domainRect;
    std::vector<int> m_domainHeight;
    std::vector<int> m_labelGap;
};

} // namespace fleet::views
