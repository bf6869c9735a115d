// SPDX-License-Identifier: Apache-2.0
#pragma once
// A status bar field that shortens its text to fit instead of being cut off.

#include <QStringList>
#include <QWidget>

class QFontMetrics;

namespace fleet::app {

/// One line of text in the status bar, given as variants from the longest (the full text)
/// to the shortest. It shows the longest variant that fits its width; when none fits, the
/// shortest one elided: in the middle ("…") by default, which keeps both ends of a line of
/// figures, or at the end (setElideMode(Qt::ElideRight)), which keeps a sentence readable from
/// its start, as a desktop's status bar cuts a message. Its size hint is the full text, its minimum a few
/// characters, so it never widens the window. The tooltip is the full text, followed by the
/// tooltip set on the field when the text shows shortened (toolTipText()). Thread: GUI thread.
class StatusField : public QWidget {
    Q_OBJECT
public:
    explicit StatusField(QWidget* parent = nullptr);

    /// Sets the variants (longest first; at least one; empty list clears the field).
    void setVariants(const QStringList& variants);
    /// Same as setVariants({ text }).
    void setText(const QString& text) { setVariants(text.isEmpty() ? QStringList() : QStringList { text }); }
    /// The full text (the first variant), or empty.
    [[nodiscard]] QString text() const { return m_variants.value(0); }
    /// The text as painted at the current width.
    [[nodiscard]] QString displayedText() const;
    /// The tooltip shown over the field: the tooltip set on it, with the full text first when
    /// the field shows it shortened; the full text when none is set.
    [[nodiscard]] QString toolTipText() const;
    /// How the shortest variant is elided when none fits: Qt::ElideMiddle (the default) or
    /// Qt::ElideRight.
    void setElideMode(Qt::TextElideMode mode);
    [[nodiscard]] Qt::TextElideMode elideMode() const noexcept { return m_elideMode; }
    /// The variant of `variants` (longest first) that fits in `widthPx` with `metrics`, or the
    /// last one elided by `mode`. Thread: any.
    [[nodiscard]] static QString fitText(
        const QStringList& variants, const QFontMetrics& metrics, int widthPx, Qt::TextElideMode mode = Qt::ElideMiddle);

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QStringList m_variants;
    Qt::TextElideMode m_elideMode = Qt::ElideMiddle;
};

} // namespace fleet::app
