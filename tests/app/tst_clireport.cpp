// SPDX-License-Identifier: Apache-2.0
// `fleetscope report` run as a user runs it (QProcess, DISPLAY removed: it starts its own Xvfb),
// its PDF read back with Debian's poppler-utils: the text (pdftotext) holds the same figures as
// `summary --format json` and `plan check --format json` on the same input and plan (thousands
// separators taken out), the footer says "page N of M" on every page (M from pdfinfo), a table
// that spans pages repeats its header, the pages as images (pdftoppm) show the maps and the
// legend's colours, a PNG report is the first page, and a failed run leaves the previous file.

#include "common/pdftext.h"
#include "fleetscoperun.h"
#include "views/map/colormap.h"
#include "views/map/layers/planlayer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace {

const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");

using Run = fleet::tests::FleetscopeRun;
using fleet::tests::runFleetscope;

// Runs a poppler tool; its standard output, or a failed QVERIFY in the caller (empty result).
using fleet::tests::pdfPages;
using fleet::tests::pdfText;
using fleet::tests::runTool;

QJsonObject runJson(const QStringList& args)
{
    const Run r = runFleetscope(args);
    // plan check exits 1 when some action does not hold; its JSON is written all the same.
    if (r.exitCode != 0 && r.exitCode != 1)
        qWarning("fleetscope %s: %s", qPrintable(args.join(QLatin1Char(' '))), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QString dollars(double v)
{
    return QStringLiteral("$") + QString::number(v, 'f', 2);
}

// Milli-units as the report writes them, without separators: "8", "15.5".
QString milli(double v)
{
    QString s = QString::number(v, 'f', 3);
    while (s.endsWith(QLatin1Char('0')))
        s.chop(1);
    if (s.endsWith(QLatin1Char('.')))
        s.chop(1);
    return s;
}

bool near(QRgb a, QRgb b, int tolerance)
{
    return std::abs(qRed(a) - qRed(b)) <= tolerance && std::abs(qGreen(a) - qGreen(b)) <= tolerance
        && std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

int countNear(const QImage& image, QRgb colour, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            n += near(line[x], colour, tolerance) ? 1 : 0;
    }
    return n;
}

// A word of a page as pdftotext -bbox gives it, in points from the page's top left.
struct PdfWord {
    QString text;
    QRectF box;
};

// The words of every page (pdftotext -bbox), page by page.
std::vector<std::vector<PdfWord>> pdfWords(const QString& pdf)
{
    const QString html = QString::fromUtf8(runTool(QStringLiteral("pdftotext"), { QStringLiteral("-bbox"), pdf, QStringLiteral("-") }));
    std::vector<std::vector<PdfWord>> pages;
    static const QRegularExpression tag(QStringLiteral("<page |<word xMin=\"([\\d.]+)\" yMin=\"([\\d.]+)\" xMax=\"([\\d.]+)\" "
                                                       "yMax=\"([\\d.]+)\">([^<]*)</word>"));
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        if (m.captured(0).startsWith(QStringLiteral("<page"))) {
            pages.emplace_back();
            continue;
        }
        if (pages.empty())
            continue;
        const QPointF topLeft(m.captured(1).toDouble(), m.captured(2).toDouble());
        const QPointF bottomRight(m.captured(3).toDouble(), m.captured(4).toDouble());
        pages.back().push_back({ m.captured(5), QRectF(topLeft, bottomRight) });
    }
    return pages;
}

// The report's pages as images at `dpi` (pdftoppm), in order; empty on failure.
std::vector<QImage> pdfImages(const QString& pdf, const QString& prefix, int dpi)
{
    int code = -1;
    runTool(QStringLiteral("pdftoppm"), { QStringLiteral("-r"), QString::number(dpi), QStringLiteral("-png"), pdf, prefix }, &code);
    if (code != 0)
        return {};
    const QFileInfo info(prefix);
    std::vector<QImage> images;
    for (const QString& f : QDir(info.path()).entryList({ info.fileName() + QStringLiteral("-*.png") }, QDir::Files, QDir::Name))
        images.push_back(QImage(info.path() + QLatin1Char('/') + f).convertToFormat(QImage::Format_RGB32));
    return images;
}

// Where text is painted over text, or under a fill painted later (the next row's), on the
// report's pages: each word must have ink (a pixel darker than any fill) inside its box, and
// the lines of one column must be a line apart (the same cell) or a row apart, never closer.
QString textCutOrOverlapping(const QString& pdf, const QString& prefix)
{
    const auto pages = pdfWords(pdf);
    constexpr int kDpi = 150;
    const std::vector<QImage> images = pdfImages(pdf, prefix, kDpi);
    if (pages.empty() || images.size() != pages.size())
        return QStringLiteral("%1 pages of words, %2 images").arg(pages.size()).arg(images.size());
    const double scale = kDpi / 72.0;
    for (std::size_t p = 0; p < pages.size(); ++p) {
        const QImage& image = images[p];
        for (const PdfWord& w : pages[p]) {
            const QRect px = QRectF(w.box.left() * scale, w.box.top() * scale, w.box.width() * scale, w.box.height() * scale).toAlignedRect() & image.rect();
            int darkest = 255;
            for (int y = px.top(); y <= px.bottom(); ++y)
                for (int x = px.left(); x <= px.right(); ++x)
                    darkest = std::min(darkest, qGray(image.pixel(x, y)));
            if (darkest > 170) // the fills are lighter than 190 grey
                return QStringLiteral("page %1: \"%2\" at (%3, %4) has no ink: painted over").arg(p + 1).arg(w.text).arg(w.box.left()).arg(w.box.top());
        }
        // Lines of one column (words starting at the same x) and of one size: their pitch is
        // one line (a cell's or a paragraph's wrapped lines, laid out a line apart) or more.
        std::map<long, std::vector<const PdfWord*>> columns;
        for (const PdfWord& w : pages[p])
            columns[std::lround(w.box.left() * 10)].push_back(&w);
        for (auto& [x, words] : columns) {
            std::sort(words.begin(), words.end(), [](const PdfWord* a, const PdfWord* b) { return a->box.top() < b->box.top(); });
            for (std::size_t i = 1; i < words.size(); ++i) {
                const PdfWord& a = *words[i - 1];
                const PdfWord& b = *words[i];
                const double h = a.box.height();
                if (std::abs(h - b.box.height()) > 0.05 || h <= 0)
                    continue;
                const double pitch = b.box.top() - a.box.top();
                if (pitch < h - 0.05)
                    return QStringLiteral("page %1: \"%2\" and \"%3\" overlap (%4 pt apart, %5 pt high)")
                        .arg(p + 1).arg(a.text, b.text).arg(pitch).arg(h);
                // A wrapped cell's next line is exactly one line lower (where it was laid out);
                // further down is another row or paragraph, at least the cell padding apart.
                if (pitch > h + 0.15 && pitch < h + 1.5)
                    return QStringLiteral("page %1: \"%2\" then \"%3\" %4 pt apart, not one line (%5 pt): not where they were laid out")
                        .arg(p + 1).arg(a.text, b.text).arg(pitch).arg(h);
            }
        }
    }
    return {};
}

} // namespace

class TstCliReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void figuresAreSummaryAndPlanCheck();
    void pagesAsImages();
    void notHoldingActionsAreMarked();
    void tableRepeatsHeaderAcrossPages();
    void pngIsTheFirstPage();
    void failureKeepsThePreviousFile_data();
    void failureKeepsThePreviousFile();
    void screenshotUnderPlan();
    void wrappedTextIsWhole();
    void arrowStaysWithItsNode();
    void boundAndBaselineArePlanConsolidates();
    void whyNodesStayIsPlanConsolidates();
    void recordedReasonsAreReadNotSearched();
    void staleRecordedReasonsAreReplayed_data();
    void staleRecordedReasonsAreReplayed();
    void schedulerMessageCountsHaveSeparators();
    void unknownPricesAreNotZero();
    void failureWhatIfSaysLost();
    void longTitleAndExamplesAreWhole();
    void gpuLessClusterMapsByCpu();
    void legendMarkersAreScreenshots();
    void zoomedDomainMaps();
    void planMarksOverTheCells();
    void differenceScaleIsTheData();
    void namesFromTheInputAddNoLines();

private:
    QTemporaryDir m_dir;
    QString m_pdf; // cluster.json + plan.json + prices.csv
    // `plan consolidate --simulate 2000 --format json`: its plan, its JSON, the report of it.
    QString m_consolidation;
    QJsonObject m_consolidate;
    QString m_consolidationPdf;
};

void TstCliReport::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(FLEETSCOPE_EXECUTABLE)).isExecutable(), FLEETSCOPE_EXECUTABLE);
    for (const char* tool : { "pdftotext", "pdftoppm", "pdfinfo" })
        QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(),
            "poppler-utils is not installed (installer/install-deps.sh installs it)");
    QVERIFY(m_dir.isValid());
    m_pdf = m_dir.filePath(QStringLiteral("review.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--prices"), kPlanData + QStringLiteral("/prices.csv"), QStringLiteral("-o"),
        m_pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("wrote "), r.out.constData());
    QVERIFY(QFileInfo(m_pdf).size() > 10'000);

    // A consolidation of a simulated 2,000-node fleet: hundreds of actions (pending pods placed
    // first, "ns/pod -> node", then drains), a table over pages, a baseline and a bound.
    m_consolidation = m_dir.filePath(QStringLiteral("consolidation.json"));
    const Run c = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), m_consolidation });
    QVERIFY2(c.exitCode == 0, c.err.constData());
    m_consolidate = QJsonDocument::fromJson(c.out).object();
    QVERIFY2(m_consolidate.contains(QStringLiteral("lowerBound")), c.out.constData());
    m_consolidationPdf = m_dir.filePath(QStringLiteral("consolidation.pdf"));
    const Run cr = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("-o"), m_consolidationPdf });
    QVERIFY2(cr.exitCode == 0, cr.err.constData());
}

void TstCliReport::figuresAreSummaryAndPlanCheck()
{
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    const QJsonObject summary
        = runJson({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("totals"), cluster })
              .value(QStringLiteral("totals"))
              .toObject();
    const QJsonObject check = runJson({ QStringLiteral("plan"), QStringLiteral("check"), cluster, QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--prices"), kPlanData + QStringLiteral("/prices.csv"),
        QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY(!summary.isEmpty());
    QVERIFY(!check.isEmpty());
    const QJsonObject before = check.value(QStringLiteral("before")).toObject();
    const QJsonObject after = check.value(QStringLiteral("after")).toObject();
    const QString text = pdfText(m_pdf);

    // The summary's node count is the plan check's "before" (both the loaded state).
    QCOMPARE(before.value(QStringLiteral("nodes")).toInteger(), summary.value(QStringLiteral("nodes")).toInteger());
    auto row = [&](const QString& label, const QString& b, const QString& a) {
        const QRegularExpression re(QStringLiteral("^\\s*") + QRegularExpression::escape(label) + QStringLiteral("\\s{2,}")
                + QRegularExpression::escape(b) + QStringLiteral("\\s{2,}") + QRegularExpression::escape(a) + QStringLiteral("(\\s|$)"),
            QRegularExpression::MultilineOption);
        return re.match(text).hasMatch();
    };
    auto n = [](const QJsonObject& o, const char* key) { return QString::number(o.value(QLatin1String(key)).toInteger()); };
    QVERIFY2(row(QStringLiteral("Nodes"), n(before, "nodes"), n(after, "nodes")), qPrintable(text));
    QVERIFY(row(QStringLiteral("Nodes in use"), n(before, "nodesInUse"), n(after, "nodesInUse")));
    QVERIFY(row(QStringLiteral("GPUs"), n(before, "gpus"), n(after, "gpus")));
    QVERIFY(row(QStringLiteral("Pods without a node"), n(before, "podsUnplaced"), n(after, "podsUnplaced")));
    const QString gpuBefore = milli(before.value(QStringLiteral("gpuMilliAllocated")).toDouble() / 1000.0);
    const QString gpuAfter = milli(after.value(QStringLiteral("gpuMilliAllocated")).toDouble() / 1000.0);
    QVERIFY2(QRegularExpression(QStringLiteral("GPUs allocated\\s+") + QRegularExpression::escape(gpuBefore) + QStringLiteral(" \\([^)]*\\)\\s+")
                 + QRegularExpression::escape(gpuAfter) + QStringLiteral(" \\("))
                 .match(text)
                 .hasMatch(),
        qPrintable(gpuBefore + QLatin1Char(' ') + gpuAfter));
    QVERIFY(row(QStringLiteral("Cost per hour"), dollars(before.value(QStringLiteral("costPerHour")).toDouble()),
        dollars(after.value(QStringLiteral("costPerHour")).toDouble())));
    QVERIFY(row(QStringLiteral("Cost per month (730 h)"), dollars(before.value(QStringLiteral("costPerHour")).toDouble() * 730),
        dollars(after.value(QStringLiteral("costPerHour")).toDouble() * 730)));
    // Pending pods: the summary's count before the plan.
    QVERIFY(QRegularExpression(QStringLiteral("Pending pods\\s{2,}") + QString::number(summary.value(QStringLiteral("pending_pods")).toInteger()) + QStringLiteral("\\s"))
                .match(text)
                .hasMatch());
    // Every action, with plan check's subject and verdict.
    const QJsonArray actions = check.value(QStringLiteral("actions")).toArray();
    QVERIFY(!actions.isEmpty());
    for (const QJsonValue& v : actions) {
        // A subject wider than its column wraps (at a space or a slash): each of its parts.
        const QString subject = v.toObject().value(QStringLiteral("subject")).toString();
        for (const QString& part : subject.split(QRegularExpression(QStringLiteral("[\\s/]+")), Qt::SkipEmptyParts))
            QVERIFY2(text.contains(part), qPrintable(subject + QStringLiteral(": ") + part));
    }
    QVERIFY(text.contains(QStringLiteral("%1 actions, %1 hold, 0 do not hold").arg(actions.size())));
    // The title block: the input's digest and the version.
    QFile file(cluster);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray digest = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
    QVERIFY2(text.contains(QString::fromLatin1(digest)), digest.constData());
    const Run version = runFleetscope({ QStringLiteral("--version") });
    QVERIFY(text.contains(QString::fromUtf8(version.out).trimmed().section(QLatin1Char(' '), 1)));
    QVERIFY(text.contains(QStringLiteral("plan.json")));

    // The footer on every page, M from pdfinfo.
    const int pages = pdfPages(m_pdf);
    QVERIFY(pages >= 3);
    for (int p = 1; p <= pages; ++p)
        QVERIFY2(pdfText(m_pdf, p, p).contains(QStringLiteral("page %1 of %2").arg(p).arg(pages)), qPrintable(QString::number(p)));
}

void TstCliReport::pagesAsImages()
{
    const QString prefix = m_dir.filePath(QStringLiteral("page"));
    int code = -1;
    runTool(QStringLiteral("pdftoppm"), { QStringLiteral("-r"), QStringLiteral("60"), QStringLiteral("-png"), m_pdf, prefix }, &code);
    QCOMPARE(code, 0);
    const QStringList files = QDir(m_dir.path()).entryList({ QStringLiteral("page-*.png") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), pdfPages(m_pdf));
    // The maps' page: the legend's viridis ends (0 and 100% requested) and many colours (the
    // map is not blank). The GPU node is fully requested: the top of the scale is a cell too.
    const QRgb low = fleet::views::shareRgb(0.0);
    const QRgb high = fleet::views::shareRgb(1.0);
    bool mapsFound = false;
    for (const QString& f : files) {
        const QImage page(m_dir.filePath(f));
        QVERIFY(!page.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < page.height(); y += 2)
            for (int x = 0; x < page.width(); x += 2)
                colours.insert(page.pixel(x, y) & 0xf0f0f0);
        if (countNear(page, low, 10) > 4 && countNear(page, high, 10) > 4 && colours.size() > 40)
            mapsFound = true;
    }
    QVERIFY2(mapsFound, "no page shows a map with the legend's colours");
}

// The maps under a consolidation carry the plan's marks and say what they are: the legend's Plan
// key, also under the after map in words, counts the removed nodes as plan consolidate frees
// them, and the after map shows removed nodes as black crosses over their grey (not applicable)
// cells, not as red cells or marks like NotReady's.
void TstCliReport::planMarksOverTheCells()
{
    const QString text = pdfText(m_consolidationPdf);
    const auto freed = m_consolidate.value(QStringLiteral("ours")).toObject().value(QStringLiteral("nodesFreed")).toInteger();
    QVERIFY(freed > 0);
    const QString removed = QStringLiteral("Removed: %1").arg(QLocale(QLocale::English).toString(freed));
    QVERIFY2(text.contains(removed), qPrintable(removed));
    QVERIFY(text.contains(QStringLiteral("black cross")));
    // The page of the after map, at 150 dpi: black pixels of the crosses next to grey cell pixels.
    const int pages = pdfPages(m_consolidationPdf);
    int afterPage = 0;
    for (int p = 1; p <= pages && afterPage == 0; ++p)
        if (pdfText(m_consolidationPdf, p, p).contains(QStringLiteral("After the plan (")))
            afterPage = p;
    QVERIFY(afterPage > 0);
    const QString prefix = m_dir.filePath(QStringLiteral("after"));
    int code = -1;
    runTool(QStringLiteral("pdftoppm"), { QStringLiteral("-r"), QStringLiteral("150"), QStringLiteral("-png"), QStringLiteral("-f"),
        QString::number(afterPage), QStringLiteral("-l"), QString::number(afterPage), m_consolidationPdf, prefix }, &code);
    QCOMPARE(code, 0);
    const QStringList files = QDir(m_dir.path()).entryList({ QStringLiteral("after-*.png") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 1);
    const QImage page = QImage(m_dir.filePath(files.first())).convertToFormat(QImage::Format_RGB32);
    const QRgb cross = fleet::views::PlanLayer::removedColor().rgb();
    const QRgb grey = fleet::views::notApplicableColor().rgb();
    int crossed = 0;
    for (int y = 2; y < page.height() - 2; ++y)
        for (int x = 2; x < page.width() - 2; ++x) {
            if (!near(page.pixel(x, y), cross, 24))
                continue;
            bool greyBeside = false;
            for (int d = -2; d <= 2 && !greyBeside; ++d)
                greyBeside = near(page.pixel(x + d, y), grey, 16) || near(page.pixel(x, y + d), grey, 16);
            crossed += greyBeside ? 1 : 0;
        }
    QVERIFY2(crossed > 200, qPrintable(QStringLiteral("%1 cross pixels on grey cells").arg(crossed)));
}

// A file name (and so the provenance, the plan's name and the default title) holding a
// newline or ESC cannot add a line to the page or raw bytes to the PDF's title: the report
// shows such text as the terminal does (\x0A).
void TstCliReport::namesFromTheInputAddNoLines()
{
    const QString cluster = m_dir.filePath(QStringLiteral("c\nFAKE approved by SRE\x1b[2J.json"));
    QVERIFY(QFile::copy(kPlanData + QStringLiteral("/cluster.json"), cluster));
    const QString plan = m_dir.filePath(QStringLiteral("p\nFAKE plan approved.json"));
    QVERIFY(QFile::copy(kPlanData + QStringLiteral("/plan.json"), plan));
    const QString pdf = m_dir.filePath(QStringLiteral("names.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), cluster, QStringLiteral("--plan"), plan, QStringLiteral("-o"), pdf,
        QStringLiteral("--title"), QStringLiteral("Review\nFAKE title line") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString text = pdfText(pdf);
    for (const QString& line : text.split(QLatin1Char('\n')))
        QVERIFY2(!line.trimmed().startsWith(QStringLiteral("FAKE")), qPrintable(line));
    // The title, the cluster file and the plan file each show their newline escaped (a long
    // cell may wrap at a space, so only the escaped newline and the word after it are matched).
    QVERIFY2(text.count(QStringLiteral("\\x0AFAKE")) >= 3, qPrintable(text.left(2000)));
    QVERIFY2(text.contains(QStringLiteral("\\x1B[2J")), qPrintable(text.left(2000)));
    const QByteArray info = runTool(QStringLiteral("pdfinfo"), { pdf });
    QVERIFY2(!info.contains('\x1b'), info.constData());
    QVERIFY2(info.contains("Review\\x0AFAKE title line"), info.constData());
}

void TstCliReport::notHoldingActionsAreMarked()
{
    // Against the changed cluster two actions do not hold: the rows say so, and are filled.
    const QString pdf = m_dir.filePath(QStringLiteral("changed.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), kPlanData + QStringLiteral("/cluster-changed.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("-o"), pdf, QStringLiteral("--title"), QStringLiteral("Changed review") });
    QVERIFY2(r.exitCode == 1, r.err.constData()); // written, and some action does not hold: plan check's status
    QVERIFY2(r.out.contains("wrote "), r.out.constData());
    const QString text = pdfText(pdf);
    QVERIFY(text.contains(QStringLiteral("Changed review")));
    QVERIFY(text.contains(QStringLiteral("does not hold")));
    QVERIFY(text.contains(QStringLiteral("not-found:node/cpu-b1")));
    QVERIFY(text.contains(QStringLiteral("Note:"))); // the state is not the plan's source
    const QString prefix = m_dir.filePath(QStringLiteral("changed"));
    int code = -1;
    runTool(QStringLiteral("pdftoppm"), { QStringLiteral("-r"), QStringLiteral("60"), QStringLiteral("-png"), pdf, prefix }, &code);
    QCOMPARE(code, 0);
    int filled = 0;
    for (const QString& f : QDir(m_dir.path()).entryList({ QStringLiteral("changed-*.png") }, QDir::Files))
        filled += countNear(QImage(m_dir.filePath(f)).convertToFormat(QImage::Format_RGB32), qRgb(0xf6, 0xd5, 0xc4), 6);
    QVERIFY2(filled > 200, qPrintable(QString::number(filled)));
}

void TstCliReport::tableRepeatsHeaderAcrossPages()
{
    // The consolidation of a simulated 2,000-node fleet (initTestCase): a table over pages.
    const QString plan = m_consolidation;
    const QString pdf = m_consolidationPdf;
    const QString all = pdfText(pdf);
    QVERIFY(all.contains(QStringLiteral("simulated cluster, nodes=2000 seed=1")));
    const int pages = pdfPages(pdf);
    int tablePages = 0;
    static const QRegularExpression actionRow(QStringLiteral("^\\s*\\d+\\s+drain-node\\s"), QRegularExpression::MultilineOption);
    static const QRegularExpression header(QStringLiteral("^\\s*#\\s+Action\\s+Subject\\s+Holds\\s+Pods\\s+Reasons"), QRegularExpression::MultilineOption);
    for (int p = 1; p <= pages; ++p) {
        const QString page = pdfText(pdf, p, p);
        if (!actionRow.match(page).hasMatch())
            continue;
        ++tablePages;
        // The header comes before the page's first row.
        const auto h = header.match(page);
        QVERIFY2(h.hasMatch(), qPrintable(QStringLiteral("page %1 has action rows but no header").arg(p)));
        QVERIFY(h.capturedStart() < actionRow.match(page).capturedStart());
    }
    QVERIFY2(tablePages >= 2, qPrintable(QString::number(tablePages)));
    // Every action is there, numbered without a gap.
    const QJsonObject plans = QJsonDocument::fromJson([&] {
        QFile f(plan);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }()).object();
    const qsizetype count = plans.value(QStringLiteral("actions")).toArray().size();
    QVERIFY(count > 50);
    QVERIFY(QRegularExpression(QStringLiteral("^\\s*%1\\s+drain-node\\s").arg(count - 1), QRegularExpression::MultilineOption).match(all).hasMatch());
}

void TstCliReport::pngIsTheFirstPage()
{
    const QString png = m_dir.filePath(QStringLiteral("first.png"));
    const Run r = runFleetscope({ QStringLiteral("report"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("620x877") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage image(png);
    QCOMPARE(image.width(), 620);
    QCOMPARE(image.height(), 877); // A4's aspect
    // Text on white: dark pixels in the title's band, and the header fill of the tables.
    int dark = 0;
    for (int y = 0; y < image.height() / 4; ++y)
        for (int x = 0; x < image.width(); ++x)
            dark += qGray(image.pixel(x, y)) < 100 ? 1 : 0;
    QVERIFY2(dark > 200, qPrintable(QString::number(dark)));
    QVERIFY(countNear(image.convertToFormat(QImage::Format_RGB32), qRgb(0xe3, 0xe8, 0xef), 4) > 500);
}

void TstCliReport::failureKeepsThePreviousFile_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("plan unreadable") << QStringList { kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/no-such-plan.json") } << 2 << QStringLiteral("no-such-plan.json");
    QTest::newRow("plan not a plan") << QStringList { kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/prices.csv") } << 2 << QStringLiteral("prices.csv");
    QTest::newRow("cluster unreadable") << QStringList { kPlanData + QStringLiteral("/no-such-cluster.json") } << 1
                                        << QStringLiteral("no-such-cluster.json");
    QTest::newRow("metric") << QStringList { QStringLiteral("--simulate"), QStringLiteral("100"), QStringLiteral("--metric"), QStringLiteral("cost") }
                            << 2 << QStringLiteral("--metric");
    QTest::newRow("size on a pdf") << QStringList { QStringLiteral("--simulate"), QStringLiteral("100"), QStringLiteral("--size"), QStringLiteral("800x600") }
                                   << 2 << QStringLiteral("--size");
}

void TstCliReport::failureKeepsThePreviousFile()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString pdf = m_dir.filePath(QStringLiteral("previous.pdf"));
    {
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("the previous report");
    }
    const Run r = runFleetscope(QStringList { QStringLiteral("report") } + args + QStringList { QStringLiteral("-o"), pdf });
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("the previous report"));
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral(".previous*") }, QDir::Files | QDir::Hidden).size(), 0);
}

void TstCliReport::screenshotUnderPlan()
{
    // screenshot --plan: the map under the plan; --metric plan-difference colours the nodes by
    // what they gain or lose, where the plain map shows their share.
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    auto shot = [&](const QString& name, const QStringList& extra, QPoint& cell) {
        const QString png = m_dir.filePath(name);
        const Run r = runFleetscope(QStringList { QStringLiteral("screenshot"), cluster, QStringLiteral("--map-only"), QStringLiteral("--size"),
                                        QStringLiteral("800x600"), QStringLiteral("--print-cell"), QStringLiteral("cpu-a2"), QStringLiteral("-o"), png }
            + extra);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        const auto m = QRegularExpression(QStringLiteral("cell cpu-a2 (\\d+) (\\d+)")).match(QString::fromUtf8(r.out));
        cell = m.hasMatch() ? QPoint(m.captured(1).toInt(), m.captured(2).toInt()) : QPoint(-1, -1);
        return r.exitCode == 0 ? QImage(png) : QImage();
    };
    QPoint plainCell, planCell;
    const QImage plain = shot(QStringLiteral("plain.png"), { QStringLiteral("--metric"), QStringLiteral("cpu") }, plainCell);
    const QImage planned = shot(QStringLiteral("planned.png"),
        { QStringLiteral("--plan"), kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--metric"), QStringLiteral("plan-difference") }, planCell);
    QVERIFY(!plain.isNull());
    QVERIFY(!planned.isNull());
    QCOMPARE(planned.size(), QSize(800, 600)); // --map-only: the map alone, no menus or status bar
    QVERIFY(plainCell.x() >= 0 && planCell == plainCell);
    // The difference's legend and cells use the diverging scale (its cool end: nodes that lose,
    // as cpu-a2 loses api-0), which the plain map (viridis) has nowhere.
    const QRgb cool = fleet::views::divergingColorTable().front();
    QCOMPARE(countNear(plain.convertToFormat(QImage::Format_RGB32), cool, 8), 0);
    QVERIFY2(countNear(planned.convertToFormat(QImage::Format_RGB32), cool, 8) > 20, qPrintable(QString::number(cool, 16)));
    QVERIFY(plain != planned);
    // Without a plan, a plan metric is refused.
    const Run refused = runFleetscope({ QStringLiteral("screenshot"), cluster, QStringLiteral("--metric"), QStringLiteral("plan-difference"),
        QStringLiteral("-o"), m_dir.filePath(QStringLiteral("refused.png")) });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.err.contains("--plan"));
}

void TstCliReport::wrappedTextIsWhole()
{
    // Wrapped cells (reasons, examples, provenance) on every page of both reports: no line is
    // painted over by the next row nor drawn lower than it was laid out.
    for (const auto& [pdf, prefix] : { std::pair { m_pdf, QStringLiteral("whole-review") },
             std::pair { m_consolidationPdf, QStringLiteral("whole-consolidation") } }) {
        const QString problem = textCutOrOverlapping(pdf, m_dir.filePath(prefix));
        QVERIFY2(problem.isEmpty(), qPrintable(QFileInfo(pdf).fileName() + QStringLiteral(": ") + problem));
    }
    // The test sees a wrapped cell at all: the consolidation's reasons wrap.
    const auto pages = pdfWords(m_consolidationPdf);
    QVERIFY(!pages.empty());
}

void TstCliReport::arrowStaysWithItsNode()
{
    // A move's subject is "ns/pod -> node": the arrow is never split ("-" and ">" on two lines)
    // and stays with the node it points to. The pending pods the consolidation places first
    // are such moves, with long pod names in a narrow column.
    const QJsonObject check = runJson({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), m_consolidation, QStringLiteral("--format"), QStringLiteral("json") });
    const QString text = pdfText(m_consolidationPdf);
    int arrows = 0;
    for (const QJsonValue& v : check.value(QStringLiteral("actions")).toArray()) {
        const QString subject = v.toObject().value(QStringLiteral("subject")).toString();
        const qsizetype at = subject.indexOf(QStringLiteral(" -> "));
        if (at < 0)
            continue;
        ++arrows;
        // The node's name may wrap further on (at its own hyphens), but its first part is on
        // the arrow's line.
        const QString node = subject.mid(at + 4);
        const QString start = node.contains(QLatin1Char('-')) ? node.section(QLatin1Char('-'), 0, 0) + QLatin1Char('-') : node;
        QVERIFY2(text.contains(QStringLiteral("-> ") + start), qPrintable(subject));
    }
    QVERIFY2(arrows >= 5, qPrintable(QString::number(arrows)));
    // Read in the text's own order (no -layout): a cell's lines follow each other.
    const QString raw = QString::fromUtf8(runTool(QStringLiteral("pdftotext"), { m_consolidationPdf, QStringLiteral("-") }));
    static const QRegularExpression brokenArrow(QStringLiteral("-\\n\\s*>|->\\s*\\n"));
    const auto broken = brokenArrow.match(raw);
    QVERIFY2(!broken.hasMatch(), qPrintable(raw.mid(std::max<qsizetype>(0, broken.capturedStart() - 80), 160)));
}

void TstCliReport::boundAndBaselineArePlanConsolidates()
{
    // The lower bound and the Karpenter baseline beside the consolidation are the figures
    // `plan consolidate` printed for the same fleet.
    const QString text = pdfText(m_consolidationPdf);
    const QJsonObject bound = m_consolidate.value(QStringLiteral("lowerBound")).toObject();
    const QJsonObject baseline = m_consolidate.value(QStringLiteral("baseline")).toObject();
    const QJsonObject ours = m_consolidate.value(QStringLiteral("ours")).toObject();
    const QString boundNodes = QString::number(bound.value(QStringLiteral("nodes")).toInteger());
    QVERIFY2(QRegularExpression(QStringLiteral("Lower bound on the node count\\s{2,}") + boundNodes + QStringLiteral("\\s"))
                 .match(text)
                 .hasMatch(),
        qPrintable(boundNodes));
    const QRegularExpression baselineRow(QStringLiteral("Karpenter multi-node baseline\\s{2,}(\\d+)\\s{2,}(\\d+)\\s{2,}\\$([\\d.]+)"));
    const auto m = baselineRow.match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text.left(4000)));
    QCOMPARE(m.captured(1).toLongLong(), baseline.value(QStringLiteral("nodesAfter")).toInteger());
    QCOMPARE(m.captured(2).toLongLong(), baseline.value(QStringLiteral("nodesFreed")).toInteger());
    QCOMPARE(m.captured(3), QString::number(baseline.value(QStringLiteral("costPerHourSaved")).toDouble(), 'f', 2));
    const auto plan = QRegularExpression(QStringLiteral("This plan\\s{2,}(\\d+)\\s{2,}(\\d+)\\s")).match(text);
    QVERIFY(plan.hasMatch());
    QCOMPARE(plan.captured(1).toLongLong(), ours.value(QStringLiteral("nodesAfter")).toInteger());
    QCOMPARE(plan.captured(2).toLongLong(), ours.value(QStringLiteral("nodesFreed")).toInteger());
    // The LP bound the search computed is recorded in the plan file and shown, not computed
    // again; the plan's ratio is over the better of the two bounds, as `plan consolidate` says.
    const QJsonObject lp = m_consolidate.value(QStringLiteral("lpBound")).toObject();
    QCOMPARE(lp.value(QStringLiteral("status")).toString(), QStringLiteral("optimal"));
    const QString lpNodes = QString::number(lp.value(QStringLiteral("nodes")).toInteger());
    QVERIFY2(QRegularExpression(QStringLiteral("LP bound on the node count\\s{2,}") + lpNodes + QStringLiteral("\\s")).match(text).hasMatch(),
        qPrintable(lpNodes + QLatin1Char(' ') + text.mid(text.indexOf(QStringLiteral("Lower bound on the node count")), 300)));
    const auto planRatio = QRegularExpression(QStringLiteral("This plan\\s{2,}\\d+\\s{2,}\\d+\\s{2,}\\S+\\s{2,}([\\d.]+)")).match(text);
    QVERIFY2(planRatio.hasMatch(), qPrintable(text.mid(text.indexOf(QStringLiteral("This plan")), 200)));
    QCOMPARE(planRatio.captured(1), QString::number(m_consolidate.value(QStringLiteral("ratioToBetterBound")).toDouble(), 'f', 3));
    QFile planFile(m_consolidation);
    QVERIFY(planFile.open(QIODevice::ReadOnly));
    QVERIFY2(QJsonDocument::fromJson(planFile.readAll()).object().value(QStringLiteral("consolidation")).toObject().contains(QStringLiteral("lpBound")),
        "plan consolidate records its LP bound in the plan file");
}

void TstCliReport::whyNodesStayIsPlanConsolidates()
{
    // "Why nodes stay" gives the groups and counts `plan consolidate` printed for the plan it
    // wrote (keptByCode: the search's own reasons, as the window's Consolidate dialog shows
    // them), not a guess made from the plan file (destination, not-in-plan).
    const QString text = pdfText(m_consolidationPdf);
    const qsizetype from = text.indexOf(QStringLiteral("Why nodes stay"));
    const qsizetype to = text.indexOf(QStringLiteral("What the plan risks"), from);
    QVERIFY2(from >= 0 && to > from, qPrintable(text.left(2000)));
    const QString section = text.mid(from, to - from);
    const QJsonArray groups = m_consolidate.value(QStringLiteral("keptByCode")).toArray();
    QVERIFY(groups.size() >= 3);
    std::int64_t total = 0;
    for (const QJsonValue& v : groups) {
        const QString code = v.toObject().value(QStringLiteral("code")).toString();
        const std::int64_t nodes = v.toObject().value(QStringLiteral("nodes")).toInteger();
        total += nodes;
        const QRegularExpression row(QStringLiteral("(^|\\n)\\s*") + QRegularExpression::escape(code) + QStringLiteral("\\s{2,}")
            + QString::number(nodes) + QStringLiteral("\\s"));
        QVERIFY2(row.match(section).hasMatch(), qPrintable(code + QStringLiteral(" ") + QString::number(nodes) + QStringLiteral("\n") + section.left(3000)));
    }
    QCOMPARE(total, static_cast<std::int64_t>(m_consolidate.value(QStringLiteral("kept")).toArray().size()));
    QVERIFY2(!section.contains(QStringLiteral("not-in-plan")) && !section.contains(QStringLiteral("destination ")), qPrintable(section.left(3000)));
}

void TstCliReport::recordedReasonsAreReadNotSearched()
{
    // `plan consolidate` records why each node stays in the plan file (plan-v1.md,
    // "consolidation"): the same entries as its JSON's "kept", and the report reads them (its
    // text says so) rather than replaying the search; no note on standard error.
    QFile file(m_consolidation);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject plan = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject record = plan.value(QStringLiteral("consolidation")).toObject();
    QCOMPARE(record.value(QStringLiteral("version")).toInt(), 1);
    const QJsonArray kept = m_consolidate.value(QStringLiteral("kept")).toArray();
    QCOMPARE(record.value(QStringLiteral("kept")).toArray(), kept);
    QString text = pdfText(m_consolidationPdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("as the search recorded it in the plan file")), qPrintable(text.left(6000)));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("-o"), m_dir.filePath(QStringLiteral("again.png")) });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(!r.err.contains("recorded reasons"), r.err.constData());
}

void TstCliReport::staleRecordedReasonsAreReplayed_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QStringList>("state");
    QTest::addColumn<QString>("note");
    // A hostile record (a node the state lacks): ignored, said, and the search replayed.
    QTest::newRow("unknown node") << QStringLiteral("node") << QStringList { QStringLiteral("--simulate"), QStringLiteral("2000") }
                                  << QStringLiteral("fleetscope report: note: the plan's recorded reasons why nodes stay name node "
                                                    "\"no-such-node\", which this state lacks (entry 0); the search is replayed instead");
    // A plan written before the record: replayed as before, with nothing to say.
    QTest::newRow("no record") << QStringLiteral("remove") << QStringList { QStringLiteral("--simulate"), QStringLiteral("2000") } << QString();
}

void TstCliReport::staleRecordedReasonsAreReplayed()
{
    QFETCH(QString, change);
    QFETCH(QStringList, state);
    QFETCH(QString, note);
    QFile file(m_consolidation);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject plan = QJsonDocument::fromJson(file.readAll()).object();
    QJsonObject record = plan.value(QStringLiteral("consolidation")).toObject();
    QVERIFY(!record.isEmpty());
    if (change == QLatin1String("remove")) {
        plan.remove(QStringLiteral("consolidation"));
    } else {
        QJsonArray kept = record.value(QStringLiteral("kept")).toArray();
        QJsonObject first = kept.first().toObject();
        first.insert(QStringLiteral("node"), QStringLiteral("no-such-node"));
        kept.replace(0, first);
        record.insert(QStringLiteral("kept"), kept);
        plan.insert(QStringLiteral("consolidation"), record);
    }
    const QString changed = m_dir.filePath(QStringLiteral("changed-") + change + QStringLiteral(".json"));
    QFile out(changed);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(QJsonDocument(plan).toJson());
    out.close();
    const QString pdf = m_dir.filePath(QStringLiteral("changed-") + change + QStringLiteral(".pdf"));
    const Run r = runFleetscope(QStringList { QStringLiteral("report") } + state
        + QStringList { QStringLiteral("--plan"), changed, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    if (note.isEmpty())
        QVERIFY2(!r.err.contains("recorded reasons"), r.err.constData());
    else
        QVERIFY2(QString::fromUtf8(r.err).contains(note), r.err.constData());
    // Replayed: the same groups and counts as the search's (and not read from the record).
    QString text = pdfText(pdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("replayed on the loaded state")), qPrintable(text.left(6000)));
    const QJsonArray groups = m_consolidate.value(QStringLiteral("keptByCode")).toArray();
    QVERIFY(!groups.isEmpty());
    for (const QJsonValue& v : groups) {
        const QString code = v.toObject().value(QStringLiteral("code")).toString();
        const QString row = code + QStringLiteral(" ") + QString::number(v.toObject().value(QStringLiteral("nodes")).toInteger()) + QStringLiteral(" ");
        QVERIFY2(text.contains(row), qPrintable(row));
    }
}

void TstCliReport::schedulerMessageCountsHaveSeparators()
{
    // A pending pod's kube-scheduler message ("0/2000 nodes are available: ...") is shown with
    // the report's own thousands separators, as every other count in it (pdftotext's own text:
    // pdfText() takes the separators out).
    QString text = QString::fromUtf8(runTool(QStringLiteral("pdftotext"), { m_consolidationPdf, QStringLiteral("-") }));
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("0/2,000 nodes are available")), qPrintable(text.left(8000)));
    QVERIFY2(!text.contains(QStringLiteral("0/2000 nodes")), qPrintable(text.left(8000)));
}

void TstCliReport::unknownPricesAreNotZero()
{
    // A trace without instance types or regions (Alibaba's openb) has no price for any node:
    // its costs and savings are unknown, not $0.00.
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QStringList input { csv + QStringLiteral("openb_node_list_gpu_node.csv"), csv + QStringLiteral("openb_pod_list_default.csv") };
    const QString plan = m_dir.filePath(QStringLiteral("openb-consolidation.json"));
    const Run c = runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + input + QStringList { QStringLiteral("-o"), plan });
    QVERIFY2(c.exitCode == 0, c.err.constData());
    // plan consolidate's own summary says so too: no "$0.00" saved or "$0.00/h" for the baseline.
    QVERIFY2(!c.out.contains("$0.00"), c.out.constData());
    QVERIFY2(c.out.contains("cost per hour saved: unknown (no prices known for these nodes)"), c.out.constData());
    QVERIFY2(c.out.contains("pods moved, saving unknown"), c.out.constData());
    const QString pdf = m_dir.filePath(QStringLiteral("openb.pdf"));
    const Run r = runFleetscope(QStringList { QStringLiteral("report") } + input + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QString text = pdfText(pdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("Karpenter multi-node baseline")), qPrintable(text.left(3000)));
    QVERIFY2(!text.contains(QStringLiteral("$0.00")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("Cost per hour unknown: no prices known for these nodes")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("Savings are unknown: no prices known for these nodes")), qPrintable(text.left(4000)));
}

void TstCliReport::failureWhatIfSaysLost()
{
    // A failure what-if (a zone and a node fail) is no consolidation: nodes are failed (lost),
    // the cost change is capacity lost, and budgets and do-not-disrupt pods are left out
    // (budgets do not apply to failures, plan-v1).
    QFile consolidation(m_consolidation);
    QVERIFY(consolidation.open(QIODevice::ReadOnly));
    QString drained;
    for (const QJsonValue v : QJsonDocument::fromJson(consolidation.readAll()).object().value(QStringLiteral("actions")).toArray())
        if (v.toObject().value(QStringLiteral("type")).toString() == QLatin1String("drain-node")) {
            drained = v.toObject().value(QStringLiteral("node")).toString();
            break;
        }
    QVERIFY(!drained.isEmpty());
    QJsonArray actions;
    actions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("fail-domain") },
        { QStringLiteral("domain"), QStringLiteral("topology.kubernetes.io/zone=us-west-2d") } });
    actions.append(QJsonObject { { QStringLiteral("type"), QStringLiteral("fail-node") }, { QStringLiteral("node"), drained } });
    const QString plan = m_dir.filePath(QStringLiteral("failure.json"));
    QFile out(plan);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(QJsonObject { { QStringLiteral("fleetscopePlan"), 1 }, { QStringLiteral("actions"), actions } }).toJson());
    out.close();
    const QJsonObject check = runJson({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
    const std::int64_t lost = check.value(QStringLiteral("before")).toObject().value(QStringLiteral("nodes")).toInteger()
        - check.value(QStringLiteral("after")).toObject().value(QStringLiteral("nodes")).toInteger();
    QVERIFY2(lost > 10, qPrintable(QString::number(lost)));
    const QString pdf = m_dir.filePath(QStringLiteral("failure.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    // The failures strand pods, so their actions do not hold (plan-v1): plan check's status 1, the report written.
    QVERIFY2(r.exitCode == 1 && r.out.contains("wrote "), r.err.constData());
    QString text = pdfText(pdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("Nodes failed %1 ").arg(lost)), qPrintable(text.left(3000)));
    QVERIFY2(!text.contains(QStringLiteral("Nodes freed")) && !text.contains(QStringLiteral("nodes freed")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("(capacity lost)")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("What the failures cost")), qPrintable(text));
    for (const char* absent : { "PodDisruptionBudgets spent", "allowed)", "Do-not-disrupt pods evicted", "What the plan risks", "the 1 domains" })
        QVERIFY2(!text.contains(QLatin1String(absent)), absent);
    QVERIFY2(QRegularExpression(QStringLiteral("GPUs lost with failed nodes [\\d.]+")).match(text).hasMatch(), qPrintable(text));
}

void TstCliReport::longTitleAndExamplesAreWhole()
{
    // Text is never cut: a long --title is whole in the title block and, in the footer, kept
    // clear of "page N of M" on every page; the examples of why nodes stay are whole
    // (`plan consolidate`'s messages), wrapped, with no ellipsis.
    const QString title = QStringLiteral("Quarterly consolidation review of the simulated two-thousand-node fleet for the infrastructure "
                                         "steering committee, with every action and its reasons");
    const QString pdf = m_dir.filePath(QStringLiteral("long-title.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("--title"), title, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // Whole in the title block (it wraps: compared without white space).
    QString flat = pdfText(pdf);
    flat.remove(QRegularExpression(QStringLiteral("\\s+")));
    QVERIFY2(flat.contains(QString(title).remove(QLatin1Char(' '))), qPrintable(flat.left(1500)));
    const auto pages = pdfWords(pdf);
    QVERIFY(pages.size() > 3);
    for (std::size_t p = 0; p < pages.size(); ++p) {
        // The footer's line: the words below the page's text (A4, 40 pt margins).
        const PdfWord* pageWord = nullptr;
        for (const PdfWord& w : pages[p])
            if (w.box.top() > 842 - 40 && w.text == QLatin1String("page"))
                pageWord = &w;
        QVERIFY2(pageWord, qPrintable(QString::number(p + 1)));
        for (const PdfWord& w : pages[p])
            if (w.box.top() > 842 - 40 && w.box.left() < pageWord->box.left())
                QVERIFY2(w.box.right() < pageWord->box.left() - 2,
                    qPrintable(QStringLiteral("page %1: footer word \"%2\" runs into the page number").arg(p + 1).arg(w.text)));
    }

    const QString text = pdfText(m_consolidationPdf);
    const qsizetype from = text.indexOf(QStringLiteral("Why nodes stay"));
    const qsizetype to = text.indexOf(QStringLiteral("What the plan risks"), from);
    QVERIFY(from >= 0 && to > from);
    QString section = text.mid(from, to - from);
    QVERIFY2(!section.contains(QChar(0x2026)), qPrintable(section));
    section.remove(QRegularExpression(QStringLiteral("\\s+")));
    // The first kept node's message, whole.
    const QJsonArray kept = m_consolidate.value(QStringLiteral("kept")).toArray();
    QVERIFY(!kept.isEmpty());
    QString message = kept.first().toObject().value(QStringLiteral("message")).toString();
    QVERIFY2(!message.isEmpty(), qPrintable(QString::fromUtf8(QJsonDocument(kept.first().toObject()).toJson())));
    message = fleet::tests::withoutThousandsSeparators(message).remove(QRegularExpression(QStringLiteral("\\s+")));
    QVERIFY2(section.contains(message), qPrintable(message + QStringLiteral("\n") + section.left(3000)));
}

void TstCliReport::gpuLessClusterMapsByCpu()
{
    // cluster.json without its GPU node and the GPU pod: the maps under the plan are coloured
    // by CPU requested, as the loaded map falls back to (the window's gpu metric), not by GPU.
    QFile in(kPlanData + QStringLiteral("/cluster.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject list = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray kept;
    for (const QJsonValue& v : list.value(QStringLiteral("items")).toArray()) {
        const QJsonObject o = v.toObject();
        const bool gpuNode = o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString() == QLatin1String("gpu-b2");
        const bool onGpuNode = o.value(QStringLiteral("spec")).toObject().value(QStringLiteral("nodeName")).toString() == QLatin1String("gpu-b2");
        if (!gpuNode && !onGpuNode)
            kept.append(o);
    }
    QVERIFY(kept.size() < list.value(QStringLiteral("items")).toArray().size());
    list.insert(QStringLiteral("items"), kept);
    const QString cluster = m_dir.filePath(QStringLiteral("cpu-only.json"));
    {
        QFile out(cluster);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(list).toJson());
    }
    const QString pdf = m_dir.filePath(QStringLiteral("cpu-only.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), cluster, QStringLiteral("--plan"), kPlanData + QStringLiteral("/plan.json"),
        QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // Paragraphs and captions wrap: read with single spaces.
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QString text = pdfText(pdf).replace(space, QStringLiteral(" "));
    QVERIFY2(text.contains(QStringLiteral("Colours: CPU requested (no GPU nodes)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("After the plan (CPU requested with the plan)")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("GPU requested with the plan")));
    // With GPUs, the maps stay on GPUs.
    QVERIFY(pdfText(m_pdf).replace(space, QStringLiteral(" ")).contains(QStringLiteral("After the plan (GPU requested with the plan)")));
}

void TstCliReport::legendMarkersAreScreenshots()
{
    // The report's marker key (NotReady, Cordoned, other problems, with counts) is what the
    // legend of `screenshot` counts for the same fleet, and has no window-only entry.
    const Run shot = runFleetscope({ QStringLiteral("screenshot"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--map-only"),
        QStringLiteral("--print-legend"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("legend.png")) });
    QVERIFY2(shot.exitCode == 0, shot.err.constData());
    QStringList key;
    for (const QByteArray& line : shot.out.split('\n'))
        if (line.startsWith("legend-marker "))
            key << QString::fromUtf8(line.mid(14));
    QVERIFY2(key.size() >= 3, shot.out.constData());
    // Nothing is dragged in a screenshot: the drag's mark has no row (it has one during a drag, tst_planmap).
    QVERIFY(!key.contains(QStringLiteral("Fits dragged pod")));
    // Counts are not all zero: the simulated fleet has NotReady and cordoned nodes.
    QVERIFY2(key.filter(QRegularExpression(QStringLiteral(": [1-9]"))).size() >= 2, qPrintable(key.join(QStringLiteral(", "))));
    // pdftotext joins a paragraph's wrapped lines with a line break: compare without them.
    QString text = pdfText(m_consolidationPdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QString expected = QStringLiteral("Markers drawn over the cells, as in the window: ") + key.join(QStringLiteral(", ")) + QLatin1Char('.');
    expected.replace(QRegularExpression(QStringLiteral("(\\d),(\\d{3})")), QStringLiteral("\\1\\2"));
    QVERIFY2(text.contains(expected), qPrintable(expected));
    QVERIFY(!text.contains(QStringLiteral("Fits dragged pod")));
}

void TstCliReport::zoomedDomainMaps()
{
    // The consolidation's report zooms to the domains it changes most, before and after, with
    // the domain and what the plan does there in the captions, and the zoomed maps are maps.
    QString text = pdfText(m_consolidationPdf);
    QVERIFY(text.contains(QStringLiteral("Where the plan changes most")));
    // Captions are centred and wrap (a domain's path breaks at a slash): read without spaces.
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    static const QRegularExpression caption(QStringLiteral("Beforetheplan:([^():]+)\\((\\d+)nodes\\):(\\d+)nodesfreed,(\\d+)podsmoved"));
    int zoomed = 0;
    std::int64_t lastFreed = std::numeric_limits<std::int64_t>::max();
    for (auto it = caption.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        ++zoomed;
        QVERIFY(m.captured(2).toLongLong() <= 2000);
        QVERIFY(m.captured(3).toLongLong() <= lastFreed); // most nodes freed first
        lastFreed = m.captured(3).toLongLong();
        QVERIFY2(text.contains(QStringLiteral("Aftertheplan:") + m.captured(1)), qPrintable(m.captured(1)));
    }
    QVERIFY2(zoomed >= 2 && zoomed <= 4, qPrintable(QString::number(zoomed)));
    QVERIFY(lastFreed > 0);
}

void TstCliReport::differenceScaleIsTheData()
{
    // The consolidation's difference map, from a real screenshot: its legend states the scale,
    // chosen from the changes (views/map/colormap.h, divergingExtent()), and the changed cells
    // spread over the scale rather than sit at its ends or in the unchanged grey.
    const QString png = m_dir.filePath(QStringLiteral("difference.png"));
    const Run shot = runFleetscope({ QStringLiteral("screenshot"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("--metric"), QStringLiteral("plan-diff-cpu"), QStringLiteral("--map-only"), QStringLiteral("--size"),
        QStringLiteral("1200x800"), QStringLiteral("--print-legend"), QStringLiteral("-o"), png });
    QVERIFY2(shot.exitCode == 0, shot.err.constData());
    const auto m = QRegularExpression(QStringLiteral("legend-scale Changed: ([\\d,]+) nodes\nlegend-scale Scale \u00b1(\\d+(?:\\.\\d+)?)%: ([\\d,]+) beyond, at the ends"))
                       .match(QString::fromUtf8(shot.out));
    QVERIFY2(m.hasMatch(), shot.out.constData());
    const int changed = m.captured(1).remove(QLatin1Char(',')).toInt();
    const double extent = m.captured(2).toDouble();
    const int beyond = m.captured(3).remove(QLatin1Char(',')).toInt();
    QVERIFY2(changed > 100 && extent > 0 && beyond * 100 <= changed * 6, shot.out.constData());

    // The map's pixels (the legend, 170 px at the right, left out) in the diverging table's colours.
    const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(image.size(), QSize(1200, 800));
    QHash<QRgb, int> index;
    const fleet::views::ColorTable& table = fleet::views::divergingColorTable();
    for (int i = 0; i < int(table.size()); ++i)
        index.insert(table[std::size_t(i)] | 0xff000000u, i);
    int coloured = 0, ends = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width() - 170; ++x) {
            const auto it = index.constFind(line[x] | 0xff000000u);
            if (it == index.constEnd() || std::abs(*it - 127.5) < 8) // not a scale colour, or the unchanged grey
                continue;
            ++coloured;
            ends += *it <= 2 || *it >= int(table.size()) - 3;
        }
    }
    const QString counts = QStringLiteral("%1 changed pixels, %2 at the ends; %3").arg(coloured).arg(ends).arg(QString::fromUtf8(shot.out));
    QVERIFY2(coloured > 500, qPrintable(counts));
    QVERIFY2(ends * 5 <= coloured, qPrintable(counts));

    // The report says the same scale in the difference map's caption.
    QString text = pdfText(m_consolidationPdf);
    text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("Scale \u00b1[\\d.]+ % of allocatable: the 95th percentile of \\|after - before\\| "
                                                             "over the [\\d,]+ nodes the plan changes"))),
        qPrintable(text.left(4000)));
}

QTEST_GUILESS_MAIN(TstCliReport)
#include "tst_clireport.moc"
