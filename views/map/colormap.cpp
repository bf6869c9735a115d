#include "colormap.h"

#include <cmath>

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

std::array<QRgb, kShareColorSteps> buildTable() noexcept
{
    std::array<QRgb, kShareColorSteps> table {};
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

} // namespace

const std::array<QRgb, kShareColorSteps>& shareColorTable() noexcept
{
    static const std::array<QRgb, kShareColorSteps> table = buildTable();
    return table;
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
        return qRgb(128, 128, 128);
    return shareColorTable()[static_cast<std::size_t>(shareColorIndex(share))];
}

QColor shareColor(double share)
{
    return QColor::fromRgb(shareRgb(share));
}
QColor noDataColor()
{
    return QColor(128, 128, 128);
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
    return QColor(24, 26, 32);
}
QColor domainOutlineColor()
{
    return QColor(150, 156, 168);
}

} // namespace fleet::views
