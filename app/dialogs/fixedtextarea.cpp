// SPDX-License-Identifier: Apache-2.0
#include "fixedtextarea.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>

namespace fleet::app {

QScrollArea* fixedTextArea(QLabel* label, int lines, QWidget* parent)
{
    auto* area = new QScrollArea(parent);
    area->setObjectName(label->objectName() + QStringLiteral("Area"));
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true); // the label takes the area's width and wraps in it
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setAutoFillBackground(false);
    area->setWidget(label);
    area->viewport()->setAutoFillBackground(false); // the dialog's background, as a bare label
    const QMargins m = label->contentsMargins();
    area->setFixedHeight(label->fontMetrics().lineSpacing() * lines + m.top() + m.bottom() + 2 * area->frameWidth());
    // The label's own minimum width is the area's, with room for the scroll bar long text shows
    // (the label inside keeps none: it takes the viewport's width and wraps there).
    area->setMinimumWidth(label->minimumWidth() + area->verticalScrollBar()->sizeHint().width());
    label->setMinimumWidth(0);
    return area;
}

} // namespace fleet::app
