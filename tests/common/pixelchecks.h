// SPDX-License-Identifier: Apache-2.0
#pragma once
// Colour comparisons for the map's pixel tests.

#include <QColor>
#include <QString>

#include <cstdlib>

namespace fleet::testing {

/// True when every channel of `a` and `b` differs by at most `tolerance` (0..255).
inline bool near(QColor a, QColor b, int tolerance)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
        && std::abs(a.blue() - b.blue()) <= tolerance;
}

/// "(r,g,b)", for failure messages.
inline QString describe(QColor c)
{
    return QStringLiteral("(%1,%2,%3)").arg(c.red()).arg(c.green()).arg(c.blue());
}

} // namespace fleet::testing
