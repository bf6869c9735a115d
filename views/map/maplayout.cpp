// SPDX-License-Identifier: Apache-2.0
#include "maplayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

// Algorithm (an ordered, squarified treemap on an integer grid; Bruls, Huizing and van Wijk,
// "Squarified Treemaps", 2000, with the order-keeping strip variant of Bederson, Shneiderman
// and Wattenberg, "Ordered and Quantum Treemaps", 2002):
// 1. Bottom-up, each domain gets a natural size: leaves a near-square block of their node
//    count; a parent the packing of its children's natural sizes into a near-square.
// 2. Top-down, a domain given a target rectangle (width x height, in cells) splits it into
//    rows of its children in Topology order: a child joins the current row while that does
//    not worsen the row's worst aspect ratio; a row's height is its children's natural
//    area over the target width; each child then gets the target (its area / row height) x
//    row height, recursively. Leaves take the target height exactly (so leaf blocks in one
//    row line up) and as many columns as their nodes need.
// 3. Children are placed with their actual integer sizes, gutterForHeight(height of d) cells
//    apart, so nothing overlaps whatever the rounding; the targets only steer the shape.
//    Rows of children are gutter + labelRows(child level) apart, and a non-root parent
//    starts its first row that far below its top (the label band), so that every block has
//    the same empty room above it for its label. The root's first row sits below the margin
//    plus labelRows(1).
//    Integer rounding is carried forward along a row and down the rows (error diffusion),
//    otherwise it adds up, level over level, into a block 25% wider than asked.
// 4. When integer sizes make the root come out much narrower than the view's aspect (tall
//    chains of single children with label bands, in small fleets), the root is packed
//    again with a wider target, at most 4 times; a well-shaped packing is packed once.
// Cost: O(domains x depth + nodes); about 1.5 ms for 100,000 nodes in 7,650 domains
// (bench_map, RelWithDebInfo, 2 cores).

namespace fleet::views {

using model::DomainId;
using model::NodeId;

namespace {

struct Size {
    int width = 0;
    int height = 0;
};

class Packer {
public:
    Packer(
        const model::Topology& topology, std::vector<int>& heights, std::vector<CellRect>& placed, std::span<const int> labelRows)
        : m_topology(topology)
        , m_height(heights)
        , m_placed(placed)
        , m_natural(topology.domainCount())
        , m_labelRows(labelRows)
    {
        computeHeights(topology.root());
    }

    // The size of d when it aims at a targetWidth x targetHeight rectangle. With `record`,
    // also stores the rectangle of each descendant, its position relative to its parent.
    Size pack(DomainId d, double targetWidth, double targetHeight, bool record)
    {
        const auto children = m_topology.domainChildren(d);
        if (children.empty())
            return leafBlock(m_topology.domainNodes(d).size(), targetWidth);
        const int gutter = MapLayout::gutterForHeight(m_height[d.index()]);
        const int rowGap = gutter + labelRows(m_topology.domainLevel(d) + 1);
        const int top = d == m_topology.root() ? rowGap - gutter : rowGap;
        // Natural areas of the children, each with one gutter (right) and one row gap (bottom).
        std::vector<double> areas;
        areas.reserve(children.size());
        for (const DomainId c : children) {
            const Size s = natural(c);
            areas.push_back(static_cast<double>(s.width + gutter) * static_cast<double>(s.height + rowGap));
        }
        const double rowWidth = std::max(targetWidth + gutter, 1.0);
        // Rows: [begin, end) ranges of children.
        std::vector<std::pair<std::size_t, std::size_t>> rows;
        std::size_t begin = 0;
        double sum = 0, minA = 0, maxA = 0;
        for (std::size_t i = 0; i < areas.size(); ++i) {
            if (i == begin) {
                sum = minA = maxA = areas[i];
                continue;
            }
            const double worstNow = worstAspect(sum, minA, maxA, rowWidth);
            const double nextSum = sum + areas[i];
            const double worstNext = worstAspect(nextSum, std::min(minA, areas[i]), std::max(maxA, areas[i]), rowWidth);
            if (worstNext <= worstNow) {
                sum = nextSum;
                minA = std::min(minA, areas[i]);
                maxA = std::max(maxA, areas[i]);
            } else {
                rows.emplace_back(begin, i);
                begin = i;
                sum = minA = maxA = areas[i];
            }
        }
        rows.emplace_back(begin, areas.size());

        // Place rows top to bottom with the children's actual sizes. Integer sizes differ
        // from the ideal ones; the difference is carried forward (error diffusion, along
        // the row and down the rows) so that it does not add up into a wider, flatter block.
        int y = top, width = 0;
        double idealY = top;
        for (const auto& [rb, re] : rows) {
            double rowArea = 0;
            for (std::size_t i = rb; i < re; ++i)
                rowArea += areas[i];
            const double idealRowHeight = rowArea / rowWidth; // includes one row gap
            idealY += idealRowHeight;
            const double childHeight = std::max(1.0, idealY - y - rowGap);
            int x = 0, tallest = 0;
            double idealX = 0;
            for (std::size_t i = rb; i < re; ++i) {
                idealX += areas[i] / idealRowHeight;
                const double childWidth = std::max(1.0, idealX - x - gutter);
                const Size s = pack(children[i], childWidth, childHeight, record);
                if (record)
                    m_placed[children[i].index()] = { x, y, s.width, s.height };
                x += s.width + gutter;
                tallest = std::max(tallest, s.height);
            }
            width = std::max(width, x - gutter);
            y += tallest + rowGap;
        }
        return { width, y - rowGap };
    }

    [[nodiscard]] int labelRows(int level) const noexcept
    {
        return level >= 0 && static_cast<std::size_t>(level) < m_labelRows.size() ? std::max(0, m_labelRows[level]) : 0;
    }

private:
    // Worst aspect ratio (>= 1) in a row of total area `sum` spanning `rowWidth`.
    static double worstAspect(double sum, double minA, double maxA, double rowWidth)
    {
        const double h = sum / rowWidth;
        const double h2 = h * h;
        return std::max(maxA / h2, h2 / minA);
    }

    // A block of `count` cells filled row by row, about `targetWidth` columns wide.
    static Size leafBlock(std::size_t count, double targetWidth)
    {
        if (count == 0)
            return { 1, 1 };
        const auto n = static_cast<long long>(std::min<std::size_t>(count, std::numeric_limits<int>::max()));
        long long w = std::clamp<long long>(std::llround(targetWidth), 1, n);
        const long long h = (n + w - 1) / w;
        w = (n + h - 1) / h; // drop columns the rows do not need
        return { static_cast<int>(w), static_cast<int>(h) };
    }

    Size natural(DomainId d)
    {
        Size& cached = m_natural[d.index()];
        if (cached.width > 0)
            return cached;
        const auto children = m_topology.domainChildren(d);
        if (children.empty()) {
            const auto count = static_cast<double>(m_topology.domainNodes(d).size());
            cached = leafBlock(m_topology.domainNodes(d).size(), std::ceil(std::sqrt(std::max(1.0, count))));
            return cached;
        }
        const int gutter = MapLayout::gutterForHeight(m_height[d.index()]);
        const int rowGap = gutter + labelRows(m_topology.domainLevel(d) + 1);
        double total = 0;
        for (const DomainId c : children) {
            const Size s = natural(c);
            total += static_cast<double>(s.width + gutter) * static_cast<double>(s.height + rowGap);
        }
        const double side = std::sqrt(total);
        cached = pack(d, side - gutter, side - gutter, false);
        return cached;
    }

    int computeHeights(DomainId d)
    {
        int h = 0;
        for (const DomainId c : m_topology.domainChildren(d))
            h = std::max(h, computeHeights(c) + 1);
        m_height[d.index()] = h;
        return h;
    }

    const model::Topology& m_topology;
    std::vector<int>& m_height;
    std::vector<CellRect>& m_placed;
    std::vector<Size> m_natural;
    std::span<const int> m_labelRows;
};

} // namespace

MapLayout MapLayout::build(const model::Topology& topology, double viewAspect, std::span<const int> labelRowsByLevel)
{
    MapLayout layout;
    if (!(viewAspect > 0))
        viewAspect = 1.6;
    viewAspect = std::clamp(viewAspect, 0.1, 10.0);
    layout.m_viewAspect = viewAspect;

    const std::size_t domainCount = topology.domainCount();
    const std::size_t nodeCount = topology.orderedNodes().size();
    layout.m_nodeCell.assign(nodeCount, NodeId::kInvalid);
    layout.m_domainRect.assign(domainCount, CellRect {});
    layout.m_domainHeight.assign(domainCount, 0);
    if (domainCount == 0 || nodeCount == 0)
        return layout;

    // Rectangles relative to the parent first, made absolute below.
    std::vector<CellRect>& rects = layout.m_domainRect;
    Packer packer(topology, layout.m_domainHeight, rects, labelRowsByLevel);
    const DomainId root = topology.root();

    // The root aims at the view's aspect with the area of its natural packing.
    const double side = std::sqrt(static_cast<double>(nodeCount));
    const Size natural = packer.pack(root, side, side, false);
    const double area = static_cast<double>(natural.width) * natural.height;
    double targetWidth = std::sqrt(area * viewAspect);
    Size rootSize = packer.pack(root, targetWidth, std::sqrt(area / viewAspect), true);
    // Blocks cannot be narrower than their integer packing allows (a chain of single
    // children with label bands is one column wide and tall), so a row can come out much
    // narrower than its target and the whole much taller than the view. Widen the target
    // and pack again, a few times at most; a well-shaped packing is not packed again.
    for (int attempt = 0; attempt < 4 && rootSize.width > 0 && rootSize.height > 0; ++attempt) {
        const double got = static_cast<double>(rootSize.width) / rootSize.height;
        if (got > viewAspect / 1.3)
            break;
        targetWidth *= std::sqrt(viewAspect / got);
        rootSize = packer.pack(root, targetWidth, std::sqrt(area / viewAspect), true);
    }

    // Absolute rectangles, parents before children, with a margin around the root block.
    const int margin = gutterForHeight(layout.m_domainHeight[root.index()]) + 1;
    layout.m_labelGap.assign(domainCount, 0);
    for (std::uint32_t i = 1; i < domainCount; ++i) {
        const DomainId dom(i);
        const int level = topology.domainLevel(dom);
        const int extra = static_cast<std::size_t>(level) < labelRowsByLevel.size() ? std::max(0, labelRowsByLevel[level]) : 0;
        layout.m_labelGap[i] = gutterForHeight(layout.m_domainHeight[topology.domainParent(dom).index()]) + extra;
    }
    layout.m_width = rootSize.width + 2 * margin;
    layout.m_height = rootSize.height + 2 * margin;
    rects[root.index()] = { margin, margin, rootSize.width, rootSize.height };
    const auto cellCount = static_cast<std::size_t>(layout.m_width) * static_cast<std::size_t>(layout.m_height);
    layout.m_cellNode.assign(cellCount, NodeId::kInvalid);
    const auto gridWidth = static_cast<std::uint32_t>(layout.m_width);
    std::vector<DomainId> stack { root };
    while (!stack.empty()) {
        const DomainId d = stack.back();
        stack.pop_back();
        const CellRect r = rects[d.index()];
        const auto children = topology.domainChildren(d);
        for (const DomainId c : children) {
            rects[c.index()].x += r.x;
            rects[c.index()].y += r.y;
            stack.push_back(c);
        }
        if (!children.empty())
            continue;
        // A leaf: its nodes row by row, in Topology order.
        const auto nodes = topology.domainNodes(d);
        const auto w = static_cast<std::size_t>(r.width);
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto x = static_cast<std::uint32_t>(r.x) + static_cast<std::uint32_t>(i % w);
            const auto y = static_cast<std::uint32_t>(r.y) + static_cast<std::uint32_t>(i / w);
            const std::uint32_t cell = y * gridWidth + x;
            layout.m_nodeCell[nodes[i].index()] = cell;
            layout.m_cellNode[cell] = nodes[i].value;
        }
    }
    return layout;
}

} // namespace fleet::views
