// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pages of a report: headings, paragraphs, tables and images laid out on fixed-size pages,
// then painted with QPainter onto a PDF (QPdfWriter: text stays text, selectable and
// searchable, fonts embedded) or onto an image.
//
// Design note. QPdfWriter writes pages in order and cannot go back, so a footer "page N of M"
// needs M before page 1 is painted: everything is laid out first (positions in points, 1/72
// inch, measured with the fonts at 72 dpi), and painting replays the laid-out items page by
// page. A table row never splits across pages: a row that does not fit starts a new page, and
// the table's header row is painted again at the top of each page it continues on. A cell's
// text wraps inside its column (at word boundaries, anywhere within a word too long for the
// column), so nothing is cut; a single row taller than a page (which no real cell reaches: cells
// are capped at kMaxCellChars characters, with an ellipsis) is the one exception.
//
// Text is drawn in DejaVu Sans, and where it has no glyph for a
// character in the font Qt falls back to (any installed font that has one: fontconfig's order).
// A character no installed font has (CJK or emoji on a machine without such a font) would be
// painted as nothing, silently: it is painted as U+FFFD REPLACEMENT CHARACTER instead, which
// DejaVu Sans has, and listed (undrawableCharacters()) so that the caller can say so.
//
// Thread: any once the QGuiApplication exists (QFont and QFontMetricsF use its font database,
// which Qt 6 serves to every thread); one object is used by one thread at a time.

#include <QByteArray>
#include <QColor>
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

class QPainter;

namespace fleet::views {

class ReportPages {
public:
    /// A4 portrait in points, the default page.
    static constexpr qreal kA4Width = 595.0;
    static constexpr qreal kA4Height = 842.0;
    /// A cell holds at most this many characters (more are cut with an ellipsis).
    static constexpr int kMaxCellChars = 600;

    /// A table: a header row, rows of cells, each column's share of the text width (summing
    /// to 1; empty: equal shares). `fill`, per row (may be empty), paints the row's background
    /// (e.g. a does-not-hold row); invalid colours paint none.
    struct Table {
        QStringList header;
        std::vector<QStringList> rows;
        std::vector<qreal> columnShares;
        std::vector<QColor> fill;
        qreal fontSize = 7.5; // points
    };

    /// `footerTitle` is printed at the left of every page's footer (elided there when it would reach
    /// the page number; the title block gives it whole); margins in points.
    explicit ReportPages(QString footerTitle, QSizeF pageSize = QSizeF(kA4Width, kA4Height), qreal margin = 40);
    ~ReportPages();

    /// A heading: level 1 (17 pt, starts a page unless the page is still empty), 2 (12.5 pt) or 3 (10 pt).
    void addHeading(const QString& text, int level);
    /// Wrapped text, `size` points.
    void addParagraph(const QString& text, qreal size = 9, bool bold = false, const QColor& color = Qt::black);
    /// A table (above). Rows that do not fit continue on new pages under a repeated header.
    void addTable(const Table& table);
    /// An image `heightPt` high (its width follows its aspect ratio, at most the text width),
    /// centred, with a caption under it. The image is embedded at its own resolution.
    void addImage(const QImage& image, qreal heightPt, const QString& caption);
    /// A row of colour swatches with their labels (a key for a table's fills).
    void addSwatches(const std::vector<std::pair<QColor, QString>>& swatches, qreal size = 8);
    /// Vertical space in points.
    void addSpace(qreal points);
    /// Ends the page; the next item starts a new one.
    void newPage();
    /// Appends `other`'s pages (laid out from an empty ReportPages of the same page size and
    /// margin), its first on a page of its own unless the current page is still empty; later
    /// items continue on its last page. Its fonts and images are taken over (the same sizes and
    /// weights, so the same metrics).
    void appendPages(const ReportPages& other);
    /// The characters of the text given so far (headings, paragraphs, cells, captions, the footer's
    /// title, and appended pages') that no installed font draws, as code points in ascending
    /// order; each is painted as U+FFFD.
    [[nodiscard]] std::vector<char32_t> undrawableCharacters() const;
    /// `characters` named for a message: "U+6771 東, U+1F680 🚀" (code point and character), at
    /// most `listed` of them, then "and N more". Thread: any.
    [[nodiscard]] static QString characterList(const std::vector<char32_t>& characters, std::size_t listed = 20);
    /// Room left on the current page, in points.
    [[nodiscard]] qreal roomLeft() const;

    [[nodiscard]] int pageCount() const;
    [[nodiscard]] QSizeF pageSize() const noexcept { return m_pageSize; }
    /// Paints page `index` (0-based) with its footer ("page N of M"), in points (the painter's
    /// coordinates must be points: scale it for a device of another resolution).
    void paintPage(QPainter& painter, int index) const;
    /// The whole document as PDF bytes (QPdfWriter into a buffer; PDF metadata title and
    /// creator set). Returns empty bytes when painting failed.
    [[nodiscard]] QByteArray pdf(const QString& title, const QString& creator) const;
    /// Page `index` as an image of `width` pixels; `height` 0: the height follows the page's
    /// aspect, else the page is stretched to it (callers keep it within a percent or so of the
    /// aspect's height: an A4 page of 595 x 842 points gives 3,510 pixels at 2,480 wide where
    /// A4's 210 x 297 mm at 300 dpi is 2,480 x 3,508).
    [[nodiscard]] QImage pageImage(int index, int width, int height = 0) const;

private:
    struct Item {
        enum Kind : unsigned char { Text, Fill, Image, Line } kind = Text;
        QRectF rect;
        QString text;
        int font = 0;      // index into m_fonts
        int flags = 0;     // Qt::AlignLeft or Qt::AlignHCenter for Text (lines already wrapped)
        QColor color;
        int image = -1;    // index into m_images
    };
    int font(qreal size, bool bold);
    /// `text` with each character that no installed font draws in font `fontIndex` (with Qt's
    /// fallbacks) replaced by U+FFFD, and recorded in m_undrawable.
    [[nodiscard]] QString drawable(const QString& text, int fontIndex);
    /// `text` broken into the lines it takes at `width` points, joined by '\n' (its own line
    /// breaks kept). Layout and painting both use these lines, so a cell's height is exactly
    /// its painted text's.
    [[nodiscard]] QString wrapped(const QString& text, int font, qreal width) const;
    [[nodiscard]] qreal lineHeight(int font) const;
    /// The height of wrapped() text.
    [[nodiscard]] qreal textHeight(const QString& wrappedText, int font) const;
    void ensureRoom(qreal height);
    /// ensureRoom() for a block that must not leave the heading above it alone (an image, a
    /// table's header with its first row): when the block starts a new page and a heading was
    /// placed on this page since the last such block, the heading and what follows it (an
    /// introduction) move to the new page too, where they fit with the block.
    void ensureRoomKeepingHeading(qreal height);
    void place(Item item);
    void tableHeader(const Table& table, const std::vector<qreal>& widths, int fontIndex, int boldIndex);

    QString m_footerTitle;
    QSizeF m_pageSize;
    qreal m_margin;
    qreal m_y = 0;        // the next item's top on the current page
    // The last heading placed, while no image or table row follows it yet (addHeading()):
    // its page, its first item's index on that page and its top.
    struct HeadingKeep {
        bool active = false;
        std::size_t page = 0;
        std::size_t item = 0;
        qreal top = 0;
    } m_keep;
    std::vector<std::vector<Item>> m_pages;
    std::vector<QFont> m_fonts;
    std::vector<std::pair<qreal, qreal>> m_lineMetrics; // per font: ascent, line height (points)
    std::vector<QImage> m_images;
    int m_footerFont = 0;
    std::set<char32_t> m_undrawable;
    std::unordered_map<std::uint64_t, bool> m_drawable; // (bold << 32 | code point) -> a font draws it
};

} // namespace fleet::views
