// SPDX-License-Identifier: Apache-2.0
#pragma once
// Colours of the fleet map and its legend: one map per ScaleKind of a metric
// (model/metrics/metric.h), and the marks that a value cannot show.
//
// - Shares (0..1): viridis (van der Walt and Smith, matplotlib 2.0, 2015; stops from
//   matplotlib's published table, CC0). Perceptually uniform, lightness rising
//   monotonically, readable with the common colour-vision deficiencies, and free of red, so
//   red stays free for NotReady and pink for cordoned.
// - Amounts (0..max, e.g. cost): a blue sequential ramp built here, linear in OKLab
//   (Ottosson 2020, "A perceptual color space for image processing") from dark navy
//   (L 0.30) to a light sky blue (L 0.90) at hue 250 degrees, chroma 0.05 + 0.07 sin(pi t)
//   + 0.03 t (the top end stays blue, apart from the neutral not-applicable grey):
//   equal steps of amount are equal perceptual steps, lightness rises monotonically, and
//   its hue (no green, no yellow) tells an amount map from a share map at a glance.
// - Differences around 0 (after minus before): Moreland's "cool to warm" diverging map
//   (K. Moreland, "Diverging Color Maps for Scientific Visualization", ISVC 2009): his
//   blue (59, 76, 192) and red (180, 4, 38) ends and his neutral grey centre (221, 221,
//   221), interpolated piecewise linearly in CIELAB through the centre, so that lightness
//   is symmetric about 0 and the centre is achromatic.
// - Categories: the Okabe-Ito palette (M. Okabe and K. Ito, "Color Universal Design",
//   2008), 8 colours distinguishable with every common colour-vision deficiency, in their
//   order: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black;
//   categories past the 8th share otherCategoryColor() (white). The node-state metric uses
//   fixed colours instead (Ready bluish green, NotReady and cordoned their marks).
//
// The background is a mid blue-grey chosen by contrast (WCAG 2.1 relative luminance):
// 0% (viridis' dark purple) against it 3.16:1 and 100% (yellow) 3.82:1, both above the
// 3:1 WCAG asks of graphics; on the former near-black background 0% measured 1.14:1 and
// idle GPU nodes all but vanished. "Not applicable" (a node without what the metric
// measures, e.g. a CPU-only node under the GPU metric) is a light neutral grey, unlike any
// map colour: 6.8:1 against 0%.
//
// Design note: each map is a table of 256 entries (value quantised to 1/255, rounded);
// the rasteriser and the legend read the same tables, so a test can compute the exact
// expected colour of a node's texel.
//
// Thread: every function is pure and safe from any thread.

#include "model/metrics/metric.h"

#include <QColor>
#include <QRgb>

#include <array>
#include <cstddef>
#include <vector>

namespace fleet::views {

/// Number of entries in each colour table.
inline constexpr int kShareColorSteps = 256;
using ColorTable = std::array<QRgb, kShareColorSteps>;

/// The viridis table behind shareColor(): entry i is the colour of share i/255. Opaque QRgb.
[[nodiscard]] const ColorTable& shareColorTable() noexcept;
/// The blue OKLab ramp for amounts: entry i is the colour of i/255 of the scale's maximum.
[[nodiscard]] const ColorTable& amountColorTable() noexcept;
/// Moreland's cool-warm map: entry i is the colour of -1 + 2 i/255 of the scale's extent
/// (entries 127 and 128 straddle 0).
[[nodiscard]] const ColorTable& divergingColorTable() noexcept;
/// The table of a continuous scale kind (Share, Amount, Diverging); viridis for Categorical.
[[nodiscard]] const ColorTable& colorTable(model::ScaleKind kind) noexcept;

/// Table index of a value in [0, 1]: clamp, then round(t * 255). NaN gives 0.
[[nodiscard]] int shareColorIndex(double share) noexcept;

/// Colour of a share in [0, 1] (clamped): viridis. NaN gives notApplicableColor().
[[nodiscard]] QRgb shareRgb(double share) noexcept;
/// shareRgb() as a QColor.
[[nodiscard]] QColor shareColor(double share);

/// Number of colours of the categorical palette (Okabe-Ito): 8.
inline constexpr int kCategoryColors = 8;
/// Colour of the category ranked `rank` (0 = most nodes): the palette's rank-th colour,
/// otherCategoryColor() from rank kCategoryColors on.
[[nodiscard]] QRgb categoryRgb(int rank) noexcept;
/// Categories past the palette ("other"): white.
[[nodiscard]] QColor otherCategoryColor();
/// A Ready node under the node-state metric: Okabe-Ito bluish green.
[[nodiscard]] QColor readyColor();

/// A node the metric does not apply to (no such resource, no price): light neutral grey.
[[nodiscard]] QColor notApplicableColor();
/// Same as notApplicableColor() (the former name).
[[nodiscard]] QColor noDataColor();
/// A node whose Ready condition is False or Unknown: red. Takes precedence over cordoned.
[[nodiscard]] QColor notReadyColor();
/// A Ready node that is cordoned (spec.unschedulable): pink.
[[nodiscard]] QColor cordonedColor();
/// Gutters between domains and the area around the map: mid blue-grey (see above).
[[nodiscard]] QColor mapBackgroundColor();
/// The legend's panel: near-black blue grey, for light text.
[[nodiscard]] QColor legendBackgroundColor();
/// Domain outlines drawn over the map: light grey.
[[nodiscard]] QColor domainOutlineColor();

/// WCAG 2.1 contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) >= 1.
[[nodiscard]] double contrastRatio(QRgb a, QRgb b) noexcept;
/// CIELAB L* (0..100, D65) of an sRGB colour.
[[nodiscard]] double cieLightness(QRgb c) noexcept;

/// How a metric's values map to colours on one fleet: the scale kind and the value range.
struct MetricColorScale {
    model::ScaleKind kind = model::ScaleKind::Share;
    /// Share: 0..1. Amount: 0..niceCeiling(max). Diverging: -extent..extent, where extent is
    /// divergingExtent() of the column: values beyond it take the table's end colours.
    double lo = 0;
    double hi = 1;
    /// Diverging only: the nodes whose value is not 0 (|value| > kUnchangedBelow), and those of
    /// them beyond -extent..extent (drawn at the ends).
    std::size_t changed = 0;
    std::size_t beyond = 0;
    /// Fixed categories (node state) use readyColor() / notReadyColor() / cordonedColor().
    bool nodeState = false;
    /// The scale of `metric` over `column`. Thread: any.
    [[nodiscard]] static MetricColorScale forColumn(const model::Metric& metric, const model::MetricColumn& column);
    /// Position of `value` on the table, in [0, 1] (clamped); NaN stays NaN.
    [[nodiscard]] double position(double value) const noexcept;
    /// The colour of a node's value (and its category rank, for categorical scales);
    /// notApplicableColor() for NaN / rank < 0.
    [[nodiscard]] QRgb color(double value, int categoryRank) const noexcept;
};

/// The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten that is >= x (so
/// that the scale wastes at most a fifth of its colours); 1 for x <= 0.
[[nodiscard]] double niceCeiling(double x) noexcept;

/// A difference smaller than this is no change (floating-point noise of after minus before).
inline constexpr double kUnchangedBelow = 1e-9;
/// The share of the changed nodes a diverging scale spans without clamping.
inline constexpr double kDivergingCoverage = 0.95;
/// The smallest extent of a diverging scale (0.1 % of a share): below it, differences are
/// rounding, not a plan.
inline constexpr double kMinDivergingExtent = 1e-3;

/// The half-range of a diverging scale over `values` (NaN: not applicable): the
/// kDivergingCoverage quantile of |value| over the changed values (|value| >
/// kUnchangedBelow), rounded up by niceCeiling() to a step above it, at least kMinDivergingExtent and at most
/// niceCeiling(max |value|); 1 when nothing changed. A plan's difference is mostly large on
/// a few nodes (drained ones lose their whole share) and small on many: a scale from the
/// largest one alone left most changed nodes indistinguishable from the unchanged grey, and
/// one fixed scale cannot fit both a rebalancing of a few percent and a consolidation.
/// O(n). Thread: any.
[[nodiscard]] double divergingExtent(const std::vector<double>& values) noexcept;

} // namespace fleet::views
