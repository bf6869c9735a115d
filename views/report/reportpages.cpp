// SPDX-License-Identifier: Apache-2.0
#include "reportpages.h"

#include <QBuffer>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextLayout>
#include <QTextOption>

#include <algorithm>
#include <cmath>

namespace fleet::views {

namespace {

// Fonts are measured and painted at 72 dots per inch: one unit is one point on every device.
constexpr int kDotsPerMeterAt72Dpi = 2835; // 72 / 0.0254
constexpr qreal kCellPadding = 2.5;
constexpr qreal kFooterHeight = 18;
const QColor kRuleColor(0x9e, 0x9e, 0x9e);
const QColor kHeaderFill(0xe3, 0xe8, 0xef);
const QColor kStripeFill(0xf6, 0xf7, 0xf9);

const QPaintDevice* measuringDevice()
{
    static const QImage device = [] {
        QImage image(8, 8, QImage::Format_RGB32);
        image.setDotsPerMeterX(kDotsPerMeterAt72Dpi);
        image.setDotsPerMeterY(kDotsPerMeterAt72Dpi);
        return image;
    }();
    return &device;
}

QString capped(const QString& text)
{
    return text.size() > ReportPages::kMaxCellChars ? text.left(ReportPages::kMaxCellChars - 1) + QChar(0x2026) : text;
}

// Text wraps at word boundaries, and inside a word only when the word alone is wider than the
// line (a digest, a long pod name): QTextOption::WrapAtWordBoundaryOrAnywhere, which drawText's
// flags cannot ask for (Qt::TextWrapAnywhere breaks every line anywhere).
QTextOption wrapOption(Qt::Alignment alignment)
{
    QTextOption option(alignment);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    return option;
}

} // namespace

ReportPages::ReportPages(QString footerTitle, QSizeF pageSize, qreal margin)
    : m_pageSize(pageSize)
    , m_margin(margin)
{
    m_pages.emplace_back();
    m_y = m_margin;
    m_footerFont = font(7, false);
    m_footerTitle = drawable(footerTitle, m_footerFont);
}

QString ReportPages::drawable(const QString& text, int fontIndex)
{
    // Latin, with its supplements and extensions, is DejaVu Sans's own: no look-up (the actions'
    // table has a hundred thousand cells). Below U+0020 are the line breaks the layout splits at.
    constexpr char16_t kOwnBelow = 0x0250;
    if (std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() < kOwnBelow; }))
        return text;
    const QFont& f = m_fonts[static_cast<std::size_t>(fontIndex)];
    const QFontMetricsF metrics(f, measuringDevice());
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        char32_t ucs4 = c.unicode();
        qsizetype length = 1;
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            ucs4 = QChar::surrogateToUcs4(c, text[i + 1]);
            length = 2;
        }
        bool draws = ucs4 < kOwnBelow;
        if (!draws) {
            const std::uint64_t key = (static_cast<std::uint64_t>(f.bold()) << 32) | ucs4;
            auto it = m_drawable.find(key);
            if (it == m_drawable.end())
                it = m_drawable.emplace(key, metrics.inFontUcs4(ucs4)).first;
            draws = it->second;
        }
        if (draws) {
            out.append(text.mid(i, length));
        } else {
            out.append(QChar(QChar::ReplacementCharacter));
            m_undrawable.insert(ucs4);
        }
        i += length - 1;
    }
    return out;
}

std::vector<char32_t> ReportPages::undrawableCharacters() const
{
    return { m_undrawable.begin(), m_undrawable.end() };
}

QString ReportPages::characterList(const std::vector<char32_t>& characters, std::size_t listed)
{
    QStringList names;
    for (std::size_t i = 0; i < characters.size() && i < listed; ++i) {
        const char32_t c = characters[i];
        names << QStringLiteral("U+") + QString::number(static_cast<uint>(c), 16).toUpper().rightJustified(4, QLatin1Char('0'))
                + QLatin1Char(' ') + QString::fromUcs4(&c, 1);
    }
    if (characters.size() > listed)
        names << QStringLiteral("and %1 more").arg(characters.size() - listed);
    return names.join(QStringLiteral(", "));
}

ReportPages::~ReportPages() = default;

int ReportPages::font(qreal size, bool bold)
{
    for (std::size_t i = 0; i < m_fonts.size(); ++i)
        if (qFuzzyCompare(m_fonts[i].pointSizeF(), size) && m_fonts[i].bold() == bold)
            return static_cast<int>(i);
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(size);
    f.setBold(bold);
    // Unhinted metrics: the same advances at 72 dpi (layout), on the PDF and on a page image.
    f.setHintingPreference(QFont::PreferNoHinting);
    // No ligatures: the PDF's text must read back as typed ("ff" in a digest, not U+FB00), so
    // that a search or pdftotext finds names and digests.
    f.setStyleStrategy(QFont::PreferNoShaping);
    m_fonts.push_back(f);
    const QFontMetricsF metrics(f, measuringDevice());
    m_lineMetrics.emplace_back(metrics.ascent(), metrics.height());
    return static_cast<int>(m_fonts.size() - 1);
}

QString ReportPages::wrapped(const QString& text, int fontIndex, qreal width) const
{
    const QFont& f = m_fonts[static_cast<std::size_t>(fontIndex)];
    const QFontMetricsF metrics(f, measuringDevice());
    if (!text.contains(QLatin1Char('\n')) && metrics.horizontalAdvance(text) <= width)
        return text; // one line: the common case, without a wrap pass
    QStringList lines;
    for (const QString& part : text.split(QLatin1Char('\n'))) {
        if (part.isEmpty() || metrics.horizontalAdvance(part) <= width) {
            lines << part;
            continue;
        }
        // The arrow of "pod -> node" never splits ("-" and ">" on two lines) nor ends a line:
        // its hyphen is laid out as a non-breaking one and the space after it as a no-break
        // space, so a line breaks before the arrow when the whole does not fit. The same
        // number of characters: the lines are cut from the text as written.
        QString arrows = part;
        for (qsizetype i = arrows.indexOf(QStringLiteral("->")); i >= 0; i = arrows.indexOf(QStringLiteral("->"), i + 2)) {
            arrows[i] = QChar(0x2011);
            if (i + 2 < arrows.size() && arrows[i + 2] == QLatin1Char(' '))
                arrows[i + 2] = QChar::Nbsp;
        }
        // A name wider than the line (a node's FQDN "ip-10-0-123-45.us-east-2.compute.internal",
        // a pod's name) breaks after one of its '.' or '-' where it must break, never inside a
        // part: Unicode's line breaking (UAX #14) allows no break after a '.' nor after a '-'
        // before a digit, so the whole name was one word and was broken anywhere. A zero-width
        // space is laid out after each such '.' or '-' of a word too wide for the line (the
        // words that fit are laid out as written); `original` maps the laid text back.
        // Words of fewer characters than this fit whatever they hold: not measured.
        const auto surelyFits = static_cast<qsizetype>(width / std::max<qreal>(1, metrics.maxWidth()));
        QString laid;
        std::vector<qsizetype> original; // laid index -> the index in `part`
        laid.reserve(arrows.size() + 16);
        original.reserve(static_cast<std::size_t>(arrows.size()) + 17);
        for (qsizetype start = 0; start < arrows.size();) {
            qsizetype end = arrows.indexOf(QLatin1Char(' '), start);
            end = end < 0 ? arrows.size() : end + 1;
            const bool wide = end - start > surelyFits && metrics.horizontalAdvance(arrows.mid(start, end - start)) > width;
            for (qsizetype i = start; i < end; ++i) {
                laid.append(arrows[i]);
                original.push_back(i);
                const QChar c = arrows[i];
                const bool between = i > start && i + 1 < end && arrows[i - 1].isLetterOrNumber() && arrows[i + 1].isLetterOrNumber();
                if (wide && between && (c == QLatin1Char('.') || c == QLatin1Char('-'))) {
                    laid.append(QChar(0x200B));
                    original.push_back(i + 1);
                }
            }
            start = end;
        }
        original.push_back(arrows.size());
        QTextLayout layout(laid, f, measuringDevice());
        layout.setTextOption(wrapOption(Qt::AlignLeft));
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            const qsizetype from = original[static_cast<std::size_t>(line.textStart())];
            const qsizetype to = original[static_cast<std::size_t>(line.textStart() + line.textLength())];
            lines << part.mid(from, to - from).trimmed();
        }
        layout.endLayout();
    }
    return lines.join(QLatin1Char('\n'));
}

qreal ReportPages::lineHeight(int fontIndex) const
{
    return m_lineMetrics[static_cast<std::size_t>(fontIndex)].second;
}

qreal ReportPages::textHeight(const QString& wrappedText, int fontIndex) const
{
    return (wrappedText.count(QLatin1Char('\n')) + 1) * lineHeight(fontIndex);
}

qreal ReportPages::roomLeft() const
{
    return m_pageSize.height() - m_margin - kFooterHeight - m_y;
}

void ReportPages::newPage()
{
    m_pages.emplace_back();
    m_y = m_margin;
}

void ReportPages::appendPages(const ReportPages& other)
{
    if (!m_pages.back().empty())
        newPage();
    std::vector<int> fonts;
    fonts.reserve(other.m_fonts.size());
    for (const QFont& f : other.m_fonts)
        fonts.push_back(font(f.pointSizeF(), f.bold()));
    m_undrawable.insert(other.m_undrawable.begin(), other.m_undrawable.end());
    const int firstImage = static_cast<int>(m_images.size());
    m_images.insert(m_images.end(), other.m_images.begin(), other.m_images.end());
    for (std::size_t p = 0; p < other.m_pages.size(); ++p) {
        if (p > 0)
            m_pages.emplace_back();
        std::vector<Item>& page = m_pages.back();
        page.reserve(page.size() + other.m_pages[p].size());
        for (Item item : other.m_pages[p]) {
            if (item.kind == Item::Text)
                item.font = fonts[static_cast<std::size_t>(item.font)];
            if (item.image >= 0)
                item.image += firstImage;
            page.push_back(std::move(item));
        }
    }
    m_y = other.m_y;
}

void ReportPages::ensureRoom(qreal height)
{
    if (height > roomLeft() && !m_pages.back().empty())
        newPage();
}

void ReportPages::ensureRoomKeepingHeading(qreal height)
{
    const std::size_t page = m_pages.size() - 1;
    if (height <= roomLeft() || m_pages.back().empty()) {
        return;
    }
    // The heading moves with the block when it is on this page, not already at its top (a new
    // page would not help), and the heading, its introduction and the block fit on one page.
    const qreal kept = m_y - m_keep.top;
    const qreal pageRoom = m_pageSize.height() - 2 * m_margin - kFooterHeight;
    if (!m_keep.active || m_keep.page != page || m_keep.item == 0 || kept + height > pageRoom) {
        newPage();
        return;
    }
    std::vector<Item>& items = m_pages.back();
    std::vector<Item> moved(std::make_move_iterator(items.begin() + static_cast<std::ptrdiff_t>(m_keep.item)), std::make_move_iterator(items.end()));
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(m_keep.item), items.end());
    newPage();
    const qreal shift = m_margin - m_keep.top;
    for (Item& item : moved) {
        item.rect.translate(0, shift);
        place(std::move(item));
    }
    m_y = m_margin + kept;
    m_keep.page = m_pages.size() - 1;
    m_keep.item = 0;
    m_keep.top = m_margin;
}

void ReportPages::place(Item item)
{
    m_pages.back().push_back(std::move(item));
}

void ReportPages::addHeading(const QString& text, int level)
{
    const qreal size = level <= 1 ? 17 : level == 2 ? 12.5 : 10;
    const int f = font(size, true);
    const qreal width = m_pageSize.width() - 2 * m_margin;
    const QString lines = wrapped(drawable(text, f), f, width);
    const qreal h = textHeight(lines, f);
    if (level <= 1 && !m_pages.back().empty())
        newPage();
    // A heading keeps at least a few lines of what follows on its page.
    ensureRoom(h + 60);
    m_y += m_pages.back().empty() ? 0 : (level <= 1 ? 10 : 8);
    m_keep = { true, m_pages.size() - 1, m_pages.back().size(), m_y };
    place({ Item::Text, QRectF(m_margin, m_y, width, h), lines, f, Qt::AlignLeft, QColor(0x1a, 0x23, 0x7e) });
    m_y += h + 4;
    if (level <= 1) {
        place({ Item::Line, QRectF(m_margin, m_y, width, 0), {}, 0, 0, QColor(0x1a, 0x23, 0x7e) });
        m_y += 6;
    }
}

void ReportPages::addParagraph(const QString& text, qreal size, bool bold, const QColor& color)
{
    const int f = font(size, bold);
    const qreal width = m_pageSize.width() - 2 * m_margin;
    // Paragraph by paragraph, so that a long text continues on the next page.
    for (const QString& part : text.split(QLatin1Char('\n'))) {
        const QString lines = wrapped(drawable(part, f), f, width);
        const qreal h = textHeight(lines, f);
        ensureRoom(h);
        place({ Item::Text, QRectF(m_margin, m_y, width, h), lines, f, Qt::AlignLeft, color });
        m_y += h;
    }
    m_y += 3;
}

void ReportPages::addSpace(qreal points)
{
    m_y += points;
}

void ReportPages::tableHeader(const Table& table, const std::vector<qreal>& widths, int fontIndex, int boldIndex)
{
    (void)fontIndex;
    qreal h = 0;
    QStringList cells;
    for (int c = 0; c < table.header.size(); ++c) {
        cells << wrapped(drawable(table.header[c], boldIndex), boldIndex, widths[static_cast<std::size_t>(c)] - 2 * kCellPadding);
        h = std::max(h, textHeight(cells.back(), boldIndex));
    }
    h += 2 * kCellPadding;
    const qreal width = m_pageSize.width() - 2 * m_margin;
    place({ Item::Fill, QRectF(m_margin, m_y, width, h), {}, 0, 0, kHeaderFill });
    qreal x = m_margin;
    for (int c = 0; c < table.header.size(); ++c) {
        const qreal w = widths[static_cast<std::size_t>(c)];
        place({ Item::Text, QRectF(x + kCellPadding, m_y + kCellPadding, w - 2 * kCellPadding, h - 2 * kCellPadding), cells[c],
            boldIndex, Qt::AlignLeft, Qt::black });
        x += w;
    }
    m_y += h;
    place({ Item::Line, QRectF(m_margin, m_y, width, 0), {}, 0, 0, kRuleColor });
}

void ReportPages::addTable(const Table& table)
{
    const int columns = static_cast<int>(table.header.size());
    if (columns == 0)
        return;
    const qreal width = m_pageSize.width() - 2 * m_margin;
    std::vector<qreal> widths(static_cast<std::size_t>(columns), width / columns);
    if (table.columnShares.size() == static_cast<std::size_t>(columns)) {
        qreal sum = 0;
        for (const qreal s : table.columnShares)
            sum += s;
        for (int c = 0; c < columns; ++c)
            widths[static_cast<std::size_t>(c)] = width * table.columnShares[static_cast<std::size_t>(c)] / (sum > 0 ? sum : 1);
    }
    const int f = font(table.fontSize, false);
    const int bold = font(table.fontSize, true);
    const QFontMetricsF metrics(m_fonts[static_cast<std::size_t>(f)], measuringDevice());
    QStringList cells;
    // Row r's cells, wrapped, into `cells`; its height.
    auto layRow = [&](std::size_t r) {
        cells.clear();
        qreal h = metrics.height();
        for (int c = 0; c < columns; ++c) {
            const QString text = c < table.rows[r].size() ? wrapped(drawable(capped(table.rows[r][c]), f), f, widths[static_cast<std::size_t>(c)] - 2 * kCellPadding)
                                                           : QString();
            if (!text.isEmpty())
                h = std::max(h, textHeight(text, f));
            cells << text;
        }
        return h + 2 * kCellPadding;
    };
    // The header and the first row stay together, with the heading above them: the first row's
    // own height (a wrapped cell makes it several lines), the header's as wrapped.
    qreal headerHeight = 0;
    for (int c = 0; c < columns; ++c)
        headerHeight = std::max(headerHeight, textHeight(wrapped(drawable(table.header[c], bold), bold, widths[static_cast<std::size_t>(c)] - 2 * kCellPadding), bold));
    headerHeight += 2 * kCellPadding;
    ensureRoomKeepingHeading(headerHeight + (table.rows.empty() ? 0 : layRow(0)) + 4);
    m_keep.active = false;
    tableHeader(table, widths, f, bold);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const qreal h = layRow(r);
        if (h > roomLeft()) {
            newPage();
            tableHeader(table, widths, f, bold);
        }
        QColor fill = r < table.fill.size() ? table.fill[r] : QColor();
        if (!fill.isValid() && r % 2 == 1)
            fill = kStripeFill;
        if (fill.isValid())
            place({ Item::Fill, QRectF(m_margin, m_y, width, h), {}, 0, 0, fill });
        qreal x = m_margin;
        for (int c = 0; c < columns; ++c) {
            const qreal w = widths[static_cast<std::size_t>(c)];
            if (!cells[c].isEmpty())
                place({ Item::Text, QRectF(x + kCellPadding, m_y + kCellPadding, w - 2 * kCellPadding, h - 2 * kCellPadding), cells[c], f,
                    Qt::AlignLeft, Qt::black });
            x += w;
        }
        m_y += h;
    }
    place({ Item::Line, QRectF(m_margin, m_y, width, 0), {}, 0, 0, kRuleColor });
    m_y += 8;
}

void ReportPages::addImage(const QImage& image, qreal heightPt, const QString& caption)
{
    if (image.isNull())
        return;
    const qreal textWidth = m_pageSize.width() - 2 * m_margin;
    qreal h = heightPt;
    qreal w = h * image.width() / std::max(1, image.height());
    if (w > textWidth) {
        w = textWidth;
        h = w * image.height() / std::max(1, image.width());
    }
    const int f = font(8, false);
    const QString captionLines = caption.isEmpty() ? QString() : wrapped(drawable(caption, f), f, textWidth);
    const qreal captionHeight = caption.isEmpty() ? 0 : textHeight(captionLines, f) + 2;
    ensureRoomKeepingHeading(h + captionHeight + 4);
    m_keep.active = false;
    m_images.push_back(image);
    place({ Item::Image, QRectF(m_margin + (textWidth - w) / 2, m_y, w, h), {}, 0, 0, {}, static_cast<int>(m_images.size() - 1) });
    m_y += h + 2;
    if (!caption.isEmpty()) {
        place({ Item::Text, QRectF(m_margin, m_y, textWidth, captionHeight), captionLines, f, Qt::AlignHCenter, QColor(0x42, 0x42, 0x42) });
        m_y += captionHeight;
    }
    m_y += 6;
}

void ReportPages::addSwatches(const std::vector<std::pair<QColor, QString>>& swatches, qreal size)
{
    const int f = font(size, false);
    const QFontMetricsF metrics(m_fonts[static_cast<std::size_t>(f)], measuringDevice());
    const qreal h = metrics.height();
    ensureRoom(h + 4);
    qreal x = m_margin;
    for (const auto& [color, text] : swatches) {
        const QString label = drawable(text, f);
        place({ Item::Fill, QRectF(x, m_y + 1, h - 2, h - 2), {}, 0, 0, color });
        x += h + 2;
        const qreal w = metrics.horizontalAdvance(label) + 2;
        place({ Item::Text, QRectF(x, m_y, w, h), label, f, Qt::AlignLeft, Qt::black });
        x += w + 12;
    }
    m_y += h + 4;
}

int ReportPages::pageCount() const
{
    return static_cast<int>(m_pages.size());
}

void ReportPages::paintPage(QPainter& painter, int index) const
{
    if (index < 0 || index >= pageCount())
        return;
    painter.save();
    for (const Item& item : m_pages[static_cast<std::size_t>(index)]) {
        switch (item.kind) {
        case Item::Fill:
            painter.fillRect(item.rect, item.color);
            break;
        case Item::Line:
            painter.setPen(QPen(item.color, 0.6));
            painter.drawLine(item.rect.topLeft(), item.rect.topRight());
            break;
        case Item::Image:
            painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
            painter.drawImage(item.rect, m_images[static_cast<std::size_t>(item.image)]);
            break;
        case Item::Text: {
            // The lines as laid out (wrapped()), one under the other from the item's top: the
            // painted text takes exactly the height the layout gave it, so nothing runs into
            // the next row (drawText's own wrapping rounds each line's position up to a whole
            // unit and overran the measured height by up to a point per line).
            const QFont& f = m_fonts[static_cast<std::size_t>(item.font)];
            const auto [ascent, height] = m_lineMetrics[static_cast<std::size_t>(item.font)];
            painter.setFont(f);
            painter.setPen(item.color);
            qreal y = item.rect.top() + ascent;
            for (const QString& line : item.text.split(QLatin1Char('\n'))) {
                qreal x = item.rect.left();
                if (item.flags & Qt::AlignHCenter)
                    x += (item.rect.width() - QFontMetricsF(f, measuringDevice()).horizontalAdvance(line)) / 2;
                if (!line.isEmpty())
                    painter.drawText(QPointF(x, y), line);
                y += height;
            }
            break;
        }
        }
    }
    // The footer: the title at the left, "page N of M" at the right.
    const QRectF footer(m_margin, m_pageSize.height() - m_margin + 4, m_pageSize.width() - 2 * m_margin, kFooterHeight);
    painter.setPen(QPen(kRuleColor, 0.6));
    painter.drawLine(footer.topLeft(), footer.topRight());
    painter.setFont(m_fonts[static_cast<std::size_t>(m_footerFont)]);
    painter.setPen(QColor(0x42, 0x42, 0x42));
    // A long title is elided here, in the footer only (the title block gives it whole), so that
    // it never runs into the page number.
    const QString pageText = QStringLiteral("page %1 of %2").arg(index + 1).arg(pageCount());
    const QFontMetricsF metrics(m_fonts[static_cast<std::size_t>(m_footerFont)], measuringDevice());
    const qreal titleRoom = footer.width() - metrics.horizontalAdvance(pageText) - 12;
    painter.drawText(footer.adjusted(0, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop, metrics.elidedText(m_footerTitle, Qt::ElideRight, titleRoom));
    painter.drawText(footer.adjusted(0, 2, 0, 0), Qt::AlignRight | Qt::AlignTop, pageText);
    painter.restore();
}

QByteArray ReportPages::pdf(const QString& title, const QString& creator) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly))
        return {};
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(72); // one device unit is one point, as the layout
        writer.setTitle(title);
        writer.setCreator(creator);
        writer.setPageLayout(QPageLayout(QPageSize(m_pageSize, QPageSize::Point), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        QPainter painter;
        if (!painter.begin(&writer))
            return {};
        for (int i = 0; i < pageCount(); ++i) {
            if (i > 0 && !writer.newPage())
                return {};
            paintPage(painter, i);
        }
        if (!painter.end())
            return {};
    }
    buffer.close();
    return bytes;
}

QImage ReportPages::pageImage(int index, int width, int height) const
{
    const qreal scale = width / m_pageSize.width();
    if (height <= 0)
        height = static_cast<int>(std::lround(m_pageSize.height() * scale));
    QImage image(width, height, QImage::Format_RGB32);
    // 72 dpi, as the layout measured the fonts; the painter's scale makes the pixels.
    image.setDotsPerMeterX(kDotsPerMeterAt72Dpi);
    image.setDotsPerMeterY(kDotsPerMeterAt72Dpi);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.scale(scale, height / m_pageSize.height());
    paintPage(painter, index);
    painter.end();
    return image;
}

} // namespace fleet::views
