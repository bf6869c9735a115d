#pragma once
// Colours of the fleet map: the sequential map for a share in [0, 1] and the marks for
// states that a share cannot show (no data, NotReady, cordoned, gutter background).
//
// The sequential map is viridis (van der Walt and Smith, matplotlib 2.0, 2015; stops
// from matplotlib's published table, CC0). Why viridis rather than green-yellow-red:
// it is perceptually uniform (equal steps of share look like equal steps of colour),
// its lightness rises monotonically (hot spots, the bright yellow end, stand out on
// the dark gutters and survive greyscale printing), and it is readable with the common
// colour-vision deficiencies. It also holds no red, so red stays free to mark NotReady
// nodes and pink to mark cordoned ones without being mistaken for a load level.
//
// Design note: the map is a table of 256 entries (share quantised to 1/255, rounded to
// nearest), linear interpolation in sRGB between 11 viridis stops. shareColor() and
// the rasteriser read the same table, so a test can compute the exact expected colour
// of a node's texel.
//
// Thread: every function is pure and safe from any thread.

#include <QColor>
#include <QRgb>

#include <array>

namespace fleet::views {

/// Number of entries in the share colour table.
inline constexpr int kShareColorSteps = 256;

/// The 256-entry table behind shareColor(): entry i is the colour of share i/255.
/// Values are opaque QRgb (0xAARRGGBB, alpha 255).
[[nodiscard]] const std::array<QRgb, kShareColorSteps>& shareColorTable() noexcept;

/// Table index of a share: clamp to [0, 1], then round(share * 255). NaN gives 0.
[[nodiscard]] int shareColorIndex(double share) noexcept;

/// Colour of a share in [0, 1] (values outside are clamped): viridis, dark purple (0%)
/// through teal (50%) to yellow (100%). NaN gives noDataColor().
[[nodiscard]] QRgb shareRgb(double share) noexcept;
/// shareRgb() as a QColor.
[[nodiscard]] QColor shareColor(double share);

/// A node with no capacity of the shown resource (e.g. zero allocatable): mid grey.
[[nodiscard]] QColor noDataColor();
/// A node whose Ready condition is False or Unknown: red. Takes precedence over cordoned.
[[nodiscard]] QColor notReadyColor();
/// A Ready node that is cordoned (spec.unschedulable): pink.
[[nodiscard]] QColor cordonedColor();
/// Gutters between domains and the area around the map: near-black blue grey.
[[nodiscard]] QColor mapBackgroundColor();
/// Domain outlines drawn over the map: light grey.
[[nodiscard]] QColor domainOutlineColor();

} // namespace fleet::views
