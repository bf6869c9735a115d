// SPDX-License-Identifier: Apache-2.0
#include "colormap.h"

#include <algorithm>
#include <cmath>
#include <new>

namespace fleet::views {

namespace {

// Viridis at shares 0.0, 0.1, ..., 1.0 (matplotlib's published viridis table, CC0).
constexpr int kStops[11][3] = {
    { 68, 1, 84 },
    { 72, 36, 117 },
    { 65, 68, 135 },
    { 53, 95, 141 },
    { 42, 120, 142 },
    { 33, 145, 140 },
    { 34, 168, 132 },
    { 68, 191, 112 },
    { 122, 209, 81 },
    { 189, 223, 38 },
    { 253, 231, 37 },
};

constexpr double kPi = 3.14159265358979323846;

double toLinear(double c) noexcept
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double fromLinear(double c) noexcept
{
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}
int to8(double c) noexcept
{
    return static_cast<int>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0));
}

// OKLab to sRGB (Ottosson 2020, the published matrices).
QRgb oklabToRgb(double L, double a, double b) noexcept
{
    const double l_ = L + 0.3963377774 * a + 0.2158037573 * b;
    const double m_ = L - 0.1055613458 * a - 0.0638541728 * b;
    const double s_ = L - 0.0894841775 * a - 1.2914855480 * b;
    const double l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
    const double r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
    const double g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
    const double bl = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
    return qRgb(to8(fromLinear(r)), to8(fromLinear(g)), to8(fromLinear(bl)));
}

// sRGB <-> CIELAB (D65), for Moreland's map and for lightness measurements.
struct Lab {
    double L, a, b;
};
constexpr double kXn = 0.95047, kYn = 1.0, kZn = 1.08883;
double labF(double t) noexcept
{
    return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}
double labFInv(double t) noexcept
{
    return t * t * t > 216.0 / 24389.0 ? t * t * t : (116.0 * t - 16.0) / (24389.0 / 27.0);
}
Lab rgbToLab(int r8, int g8, int b8) noexcept
{
    const double r = toLinear(r8 / 255.0), g = toLinear(g8 / 255.0), b = toLinear(b8 / 255.0);
    const double x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
    const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    const double z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
    const double fx = labF(x / kXn), fy = labF(y / kYn), fz = labF(z / kZn);
    return { 116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz) };
}
QRgb labToRgb(const Lab& lab) noexcept
{
    const double fy = (lab.L + 16.0) / 116.0, fx = fy + lab.a / 500.0, fz = fy - lab.b / 200.0;
    const double x = kXn * labFInv(fx), y = kYn * labFInv(fy), z = kZn * labFInv(fz);
    const double r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
    const double g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z;
    const double b = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
    return qRgb(to8(fromLinear(r)), to8(fromLinear(g)), to8(fromLinear(b)));
}

ColorTable buildViridis() noexcept
{
    ColorTable table {};
    for (int i = 0; i < kShareColorSteps; ++i) {
        const double t = static_cast<double>(i) / (kShareColorSteps - 1) * 10.0;
        const int lo = std::min(9, static_cast<int>(t));
        const double f = t - lo;
        int rgb[3];
        for (int c = 0; c < 3; ++c)
            rgb[c] = static_cast<int>(std::lround(kStops[lo][c] + (kStops[lo + 1][c] - kStops[lo][c]) * f));
        table[static_cast<std::size_t>(i)] = qRgb(rgb[0], rgb[1], rgb[2]);
    }
    return table;
}

ColorTable buildAmount() noexcept
{
    ColorTable table {};
    const double hue = 250.0 * kPi / 180.0;
    for (int i = 0; i < kShareColorSteps; ++i) {
        const double t = static_cast<double>(i) / (kShareColorSteps - 1);
        const double L = 0.30 + 0.60 * t;
        const double chroma = 0.05 + 0.07 * std::sin(kPi * t) + 0.03 * t;
        table[static_cast<std::size_t>(i)] = oklabToRgb(L, chroma * std::cos(hue), chroma * std::sin(hue));
    }
    return table;
}

ColorTable buildDiverging() noexcept
{
    const Lab cool = rgbToLab(59, 76, 192);
    const Lab centre = rgbToLab(221, 221, 221);
    const Lab warm = rgbToLab(180, 4, 38);
    ColorTable table {};
    for (int i = 0; i < kShareColorSteps; ++i) {
        const double t = static_cast<double>(i) / (kShareColorSteps - 1); // 0 cool .. 1 warm
        const Lab& from = t < 0.5 ? cool : centre;
        const Lab& to = t < 0.5 ? centre : warm;
        const double f = t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0;
        // Lightness from the centre's, mirrored, so both halves fall off alike even though
        // Moreland's two ends differ by a fraction of a unit of L*.
        const double endL = (cool.L + warm.L) / 2.0;
        const double L = centre.L + (endL - centre.L) * std::abs(2.0 * t - 1.0);
        table[static_cast<std::size_t>(i)] = labToRgb({ L, from.a + (to.a - from.a) * f, from.b + (to.b - from.b) * f });
    }
    return table;
}

// Okabe-Ito, in the authors' order, black last.
constexpr QRgb kOkabeIto[kCategoryColors] = {
    0xFFE69F00, // orange
    0xFF56B4E9, // sky blue
    0xFF009E73, // bluish green
    0xFFF0E442, // yellow
    0xFF0072B2, // blue
    0xFFD55E00, // vermillion
    0xFFCC79A7, // reddish purple
    0xFF000000, // black
};

double relativeLuminance(QRgb c) noexcept
{
    return 0.2126 * toLinear(qRed(c) / 255.0) + 0.7152 * toLinear(qGreen(c) / 255.0) + 0.0722 * toLinear(qBlue(c) / 255.0);
}

} // namespace

const ColorTable& shareColorTable() noexcept
{
    static const ColorTable table = buildViridis();
    return table;
}
const ColorTable& amountColorTable() noexcept
{
    static const ColorTable table = buildAmount();
    return table;
}
const ColorTable& divergingColorTable() noexcept
{
    static const ColorTable table = buildDiverging();
    return table;
}
const ColorTable& colorTable(model::ScaleKind kind) noexcept
{
    switch (kind) {
    case model::ScaleKind::Amount:
        return amountColorTable();
    case model::ScaleKind::Diverging:
        return divergingColorTable();
    case model::ScaleKind::Share:
    case model::ScaleKind::Categorical:
        break;
    }
    return shareColorTable();
}

int shareColorIndex(double share) noexcept
{
    if (!(share > 0.0)) // also NaN
        return 0;
    if (share >= 1.0)
        return kShareColorSteps - 1;
    return static_cast<int>(std::lround(share * (kShareColorSteps - 1)));
}

QRgb shareRgb(double share) noexcept
{
    if (std::isnan(share))
        return notApplicableColor().rgb();
    return shareColorTable()[static_cast<std::size_t>(shareColorIndex(share))];
}

QColor shareColor(double share)
{
    return QColor::fromRgb(shareRgb(share));
}

QRgb categoryRgb(int rank) noexcept
{
    if (rank < 0)
        return notApplicableColor().rgb();
    if (rank >= kCategoryColors)
        return otherCategoryColor().rgb();
    return kOkabeIto[rank];
}
QColor otherCategoryColor()
{
    return QColor(250, 250, 250);
}
QColor readyColor()
{
    return QColor::fromRgb(kOkabeIto[2]);
}
QColor notApplicableColor()
{
    return QColor(178, 178, 178);
}
QColor noDataColor()
{
    return notApplicableColor();
}
QColor notReadyColor()
{
    return QColor(230, 35, 35);
}
QColor cordonedColor()
{
    return QColor(255, 140, 200);
}
QColor mapBackgroundColor()
{
    return QColor(110, 114, 122);
}
QColor legendBackgroundColor()
{
    return QColor(24, 26, 32);
}
QColor domainOutlineColor()
{
    return QColor(210, 214, 222);
}

double contrastRatio(QRgb a, QRgb b) noexcept
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

double cieLightness(QRgb c) noexcept
{
    return rgbToLab(qRed(c), qGreen(c), qBlue(c)).L;
}

double niceCeiling(double x) noexcept
{
    if (!(x > 0))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    for (const double m : { 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0 })
        if (m * p >= x * (1 - 1e-12))
            return m * p;
    return 10.0 * p;
}

double divergingExtent(const std::vector<double>& values) noexcept
{
    std::size_t changed = 0;
    double largest = 0;
    for (const double v : values) {
        const double magnitude = std::abs(v);
        if (magnitude > kUnchangedBelow) { // NaN compares false
            ++changed;
            largest = std::max(largest, magnitude);
        }
    }
    if (changed == 0)
        return 1.0;
    const double ceiling = std::max(kMinDivergingExtent, niceCeiling(largest));
    std::vector<double> magnitudes;
    try {
        magnitudes.reserve(changed);
    } catch (const std::bad_alloc&) {
        return ceiling; // no room to rank them: the largest, which clamps none
    }
    for (const double v : values)
        if (std::abs(v) > kUnchangedBelow)
            magnitudes.push_back(std::abs(v));
    const auto rank = static_cast<std::size_t>(std::ceil(kDivergingCoverage * static_cast<double>(changed))) - 1;
    const auto at = magnitudes.begin() + static_cast<std::ptrdiff_t>(std::min(rank, changed - 1));
    std::nth_element(magnitudes.begin(), at, magnitudes.end());
    // Strictly above the quantile: shares are often steps (a 4-GPU pod is half an 8-GPU node), and
    // a quantile on a step made every node of that step an end colour, which reads as clamped.
    return std::clamp(niceCeiling(*at * (1 + 1e-6)), kMinDivergingExtent, ceiling);
}

MetricColorScale MetricColorScale::forColumn(const model::Metric& metric, const model::MetricColumn& column)
{
    MetricColorScale s;
    s.kind = metric.scale();
    switch (s.kind) {
    case model::ScaleKind::Share:
        s.lo = 0;
        s.hi = 1;
        break;
    case model::ScaleKind::Amount:
        s.lo = 0;
        s.hi = niceCeiling(column.maxValue);
        break;
    case model::ScaleKind::Diverging: {
        const double extent = divergingExtent(column.values);
        s.lo = -extent;
        s.hi = extent;
        for (const double v : column.values) {
            const double magnitude = std::abs(v); // NaN compares false below
            if (magnitude > kUnchangedBelow) {
                ++s.changed;
                if (magnitude > extent)
                    ++s.beyond;
            }
        }
        break;
    }
    case model::ScaleKind::Categorical:
        s.nodeState = metric.id() == "state";
        break;
    }
    return s;
}

double MetricColorScale::position(double value) const noexcept
{
    if (std::isnan(value))
        return value;
    if (!(hi > lo))
        return 0.0;
    return std::clamp((value - lo) / (hi - lo), 0.0, 1.0);
}

QRgb MetricColorScale::color(double value, int categoryRank) const noexcept
{
    if (kind == model::ScaleKind::Categorical) {
        if (nodeState) {
            switch (static_cast<int>(value)) {
            case 0:
                return readyColor().rgb();
            case 1:
                return notReadyColor().rgb();
            case 2:
                return cordonedColor().rgb();
            default:
                return notApplicableColor().rgb();
            }
        }
        return categoryRgb(categoryRank);
    }
    if (std::isnan(value))
        return notApplicableColor().rgb();
    return colorTable(kind)[static_cast<std::size_t>(shareColorIndex(position(value)))];
}

} // namespace fleet::views
