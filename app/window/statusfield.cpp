// SPDX-License-Identifier: Apache-2.0
#include "statusfield.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace fleet::app {

namespace {
constexpr int kMinimumChars = 6; // the minimum width: about "Nod…"
}

StatusField::StatusField(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void StatusField::setVariants(const QStringList& variants)
{
    if (variants == m_variants)
        return;
    m_variants = variants;
    updateGeometry();
    update();
}

void StatusField::setElideMode(Qt::TextElideMode mode)
{
    if (mode == m_elideMode)
        return;
    m_elideMode = mode;
    update();
}

QString StatusField::fitText(const QStringList& variants, const QFontMetrics& metrics, int widthPx, Qt::TextElideMode mode)
{
    for (const QString& v : variants)
        if (metrics.horizontalAdvance(v) <= widthPx)
            return v;
    return variants.isEmpty() ? QString() : metrics.elidedText(variants.back(), mode, widthPx);
}

QString StatusField::displayedText() const
{
    return fitText(m_variants, fontMetrics(), contentsRect().width(), m_elideMode);
}

QSize StatusField::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const QMargins m = contentsMargins();
    return { fm.horizontalAdvance(text()) + m.left() + m.right() + 1, fm.height() + m.top() + m.bottom() };
}

QSize StatusField::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const QMargins m = contentsMargins();
    const int full = fm.horizontalAdvance(text()) + 1;
    return { std::min(full, fm.averageCharWidth() * kMinimumChars) + m.left() + m.right(), fm.height() + m.top() + m.bottom() };
}

void StatusField::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setPen(palette().color(foregroundRole()));
    painter.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, displayedText());
}

bool StatusField::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const QString tip = toolTipText(); !tip.isEmpty())
            QToolTip::showText(help->globalPos(), tip, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString StatusField::toolTipText() const
{
    const QString own = toolTip();
    if (own.isEmpty())
        return text();
    // Shortened: the whole text first, then what the field's own tooltip explains.
    if (displayedText() != text() && !own.contains(text()))
        return text() + QStringLiteral("\n\n") + own;
    return own;
}

} // namespace fleet::app
