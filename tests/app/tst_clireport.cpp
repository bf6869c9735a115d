// SPDX-License-Identifier: Apache-2.0
// `fleetscope report` run as a user runs it (QProcess, DISPLAY removed: it starts its own Xvfb)
// on the plan fixtures (tests/data/plan), its PDF read back with Debian's poppler-utils: the text
// (pdftotext) holds the same figures as `summary --format json` and `plan check --format json` on
// the same input and plan (thousands separators taken out), the footer says "page N of M" on
// every page (M from pdfinfo), the pages as images (pdftoppm) show the maps and the legend's
// colours, a PNG report is the first page, a failed run leaves the previous file, and names and
// prices from the input are shown as they are. The report of a consolidation is
// tst_clireportconsolidation.cpp's, its maps tst_clireportmaps.cpp's.

#include "common/pdftext.h"
#include "common/reportchecks.h"
#include "reportrun.h"
#include "views/map/colormap.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <vector>

namespace {

const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");

using namespace fleet::tests; // common/pdftext.h, reportrun.h: fleetscope run, its PDF read back
using Run = FleetscopeRun;

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A figure as the report prints it ("$80,399.96", "−222.50", "3975 (86.2%)", "+$1.20
// (capacity lost)", "0"), exactly, in millionths; nothing when the cell holds no number.
std::optional<qint64> printedMillionths(const QString& cell)
{
    static const QRegularExpression number(QStringLiteral("^([+\u2212-]?)\\$?([0-9,]+)(?:\\.([0-9]{1,6}))?(?:\\s|$)"));
    const QRegularExpressionMatch m = number.match(cell.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 whole = QString(m.captured(2)).remove(QLatin1Char(',')).toLongLong();
    const qint64 fraction = m.captured(3).leftJustified(6, QLatin1Char('0')).toLongLong();
    const qint64 v = whole * 1'000'000 + fraction;
    return m.captured(1).isEmpty() || m.captured(1) == QStringLiteral("+") ? v : -v;
}

// "" when every row of the figures table in `text` (pdfText()) that gives a Before, an After and
// a Change has Change = After - Before as the three are printed; else the rows that do not.
// `checked` receives the labels of the rows compared.
QString printedChangeMismatch(const QString& text, QStringList* checked)
{
    const QStringList labels { QStringLiteral("Nodes"), QStringLiteral("Nodes in use"), QStringLiteral("GPUs"), QStringLiteral("GPUs allocated"),
        QStringLiteral("Fragmented GPUs (FGD)"), QStringLiteral("Pending pods"), QStringLiteral("Pods without a node"),
        QStringLiteral("DaemonSet pods removed with their nodes"), QStringLiteral("Cost per hour"), QStringLiteral("Cost per month (730 h)") };
    QStringList out;
    static const QRegularExpression columns(QStringLiteral("\\s{2,}"));
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QStringList cells = line.trimmed().split(columns);
        if (cells.size() < 4 || !labels.contains(cells[0]) || checked->contains(cells[0]))
            continue;
        const auto before = printedMillionths(cells[1]);
        const auto after = printedMillionths(cells[2]);
        const auto change = printedMillionths(cells[3]);
        if (!before || !after || !change)
            continue;
        *checked << cells[0];
        if (*after - *before != *change)
            out << line.trimmed();
    }
    return out.join(QLatin1Char('\n'));
}


} // namespace

class TstCliReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void figuresAreSummaryAndPlanCheck();
    void pagesAsImages();
    void notHoldingActionsAreMarked();
    void pngIsTheFirstPage();
    void failureKeepsThePreviousFile_data();
    void failureKeepsThePreviousFile();
    void screenshotUnderPlan();
    void unknownPricesAreNotZero();
    void pendingPodsThePlanPlacesHoldNoNode();
    void gpuFiguresArePlanChecks();
    void differenceMapNamesARemovedNode();
    void gpuLessClusterMapsByCpu();
    void namesFromTheInputAddNoLines();
    void charactersWithoutAFontAreNamed();
    void nodeNamesWrapBetweenTheirParts();
    void groupedActionsNameTheTopologyLevel();
    void groupedActionsSumToThePlansTypes();
    void changeIsAfterMinusBeforeAsPrinted();
    void nodesKeptBeyondASearchAreSaidPlainly();

private:
    QTemporaryDir m_dir;
    QString m_pdf; // cluster.json + plan.json + prices.csv
};

void TstCliReport::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(FLEETSCOPE_EXECUTABLE)).isExecutable(), FLEETSCOPE_EXECUTABLE);
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext", "pdftoppm", "pdfinfo" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(m_dir.isValid());
    m_pdf = m_dir.filePath(QStringLiteral("review.pdf"));
    const QString failed = reportOfPlanFixtures(m_pdf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QVERIFY(QFileInfo(m_pdf).size() > 10'000);
}

void TstCliReport::figuresAreSummaryAndPlanCheck()
{
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    const QJsonObject summary
        = fleet::tests::runFleetscopeJson({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("totals"), cluster })
              .value(QStringLiteral("totals"))
              .toObject();
    const QJsonObject check = fleet::tests::runFleetscopeJson({ QStringLiteral("plan"), QStringLiteral("check"), cluster, QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--prices"), kPlanData + QStringLiteral("/prices.csv"),
        QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY(!summary.isEmpty());
    QVERIFY(!check.isEmpty());
    const QJsonObject before = check.value(QStringLiteral("before")).toObject();
    const QJsonObject after = check.value(QStringLiteral("after")).toObject();
    const QString text = pdfText(m_pdf);

    // The summary's node count is the plan check's "before" (both the loaded state).
    QCOMPARE(before.value(QStringLiteral("nodes")).toInteger(), summary.value(QStringLiteral("nodes")).toInteger());
    // Nodes, GPUs, cost per hour: plan check's; pending pods: the summary's count before the plan.
    const QString mismatch = fleet::tests::figuresTableMismatch(text, check, summary);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch + QLatin1Char('\n') + text));
    QVERIFY(fleet::tests::hasFiguresRow(text, QStringLiteral("Cost per month (730 h)"),
        dollars(before.value(QStringLiteral("costPerHour")).toDouble() * 730), dollars(after.value(QStringLiteral("costPerHour")).toDouble() * 730)));
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
    // Numbered from 1, as plan check's text ("#1") and the window's Plan panel ("1.").
    QVERIFY2(QRegularExpression(QStringLiteral("^\\s*1\\s+move-pod\\s+default/web-7f9c-aaaaa"), QRegularExpression::MultilineOption).match(text).hasMatch(),
        qPrintable(text));
    QVERIFY2(QRegularExpression(QStringLiteral("^\\s*4\\s+move-pod\\s+default/api-0"), QRegularExpression::MultilineOption).match(text).hasMatch(),
        qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("Actions are numbered from 1")));
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
    const std::vector<QImage> pages = fleet::tests::pdfPageImages(m_pdf, m_dir.filePath(QStringLiteral("page")), 60);
    QCOMPARE(int(pages.size()), pdfPages(m_pdf));
    // The maps' page: the legend's viridis ends (0 and 100% requested) and many colours (the
    // map is not blank). The GPU node is fully requested: the top of the scale is a cell too.
    const QRgb low = fleet::views::shareRgb(0.0);
    const QRgb high = fleet::views::shareRgb(1.0);
    bool mapsFound = false;
    for (const QImage& page : pages) {
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
    const std::vector<QImage> pages = fleet::tests::pdfPageImages(pdf, m_dir.filePath(QStringLiteral("changed")), 60);
    QVERIFY(!pages.empty());
    int filled = 0;
    for (const QImage& page : pages)
        filled += countNear(page, qRgb(0xf6, 0xd5, 0xc4), 6);
    QVERIFY2(filled > 200, qPrintable(QString::number(filled)));
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

void TstCliReport::unknownPricesAreNotZero()
{
    // A trace without instance types or regions (Alibaba's openb) has no price for any node:
    // its costs and savings are unknown, not $0.00.
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QStringList input { csv + QStringLiteral("openb_node_list_gpu_node.csv"), csv + QStringLiteral("openb_pod_list_default.csv") };
    const QString plan = m_dir.filePath(QStringLiteral("openb-consolidation.json"));
    const QString pdf = m_dir.filePath(QStringLiteral("openb.pdf"));
    Run c;
    const QString failed = fleet::tests::consolidateAndReport(input, plan, pdf, {}, &c);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    // plan consolidate's own summary says so too: no "$0.00" saved or "$0.00/h" for the baseline.
    QVERIFY2(!c.out.contains("$0.00"), c.out.constData());
    QVERIFY2(c.out.contains("cost per hour saved: unknown (no prices known for these nodes)"), c.out.constData());
    QVERIFY2(c.out.contains("pods moved, saving unknown"), c.out.constData());
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(text.contains(QStringLiteral("Karpenter multi-node baseline")), qPrintable(text.left(3000)));
    QVERIFY2(!text.contains(QStringLiteral("$0.00")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("Cost per hour unknown: no prices known for these nodes")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("Savings are unknown: no prices known for these nodes")), qPrintable(text.left(4000)));
}

void TstCliReport::pendingPodsThePlanPlacesHoldNoNode()
{
    // Every pod of Alibaba's openb trace is pending and has no controller: the consolidation
    // places them first and keeps the nodes they land on. Such a pod has not run, so no eviction
    // rule (no-controller) holds its node; the node stays because the plan places pods on it,
    // in plan consolidate's record and in the report made from it.
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QStringList input { csv + QStringLiteral("openb_node_list_gpu_node.csv"), csv + QStringLiteral("openb_pod_list_default.csv") };
    const QString plan = m_dir.filePath(QStringLiteral("openb-pending.json"));
    const QString pdf = m_dir.filePath(QStringLiteral("openb-pending.pdf"));
    Run c;
    const QString failed = fleet::tests::consolidateAndReport(input, plan, pdf, { QStringLiteral("--format"), QStringLiteral("json") }, &c);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const QJsonObject o = QJsonDocument::fromJson(c.out).object();
    const QJsonArray groups = o.value(QStringLiteral("keptByCode")).toArray();
    QVERIFY2(!groups.isEmpty(), c.out.left(2000).constData());
    for (const QJsonValue& g : groups)
        QVERIFY2(g.toObject().value(QStringLiteral("code")).toString() != QStringLiteral("no-controller"), c.out.left(2000).constData());
    const QString text = oneLine(pdfText(pdf));
    const qsizetype from = text.indexOf(QStringLiteral("Why nodes stay"));
    const qsizetype to = text.indexOf(QStringLiteral("What the plan risks"), from);
    QVERIFY2(from >= 0 && to > from, qPrintable(text.left(3000)));
    const QString section = text.mid(from, to - from);
    QVERIFY2(!section.contains(QStringLiteral("no-controller")) && !section.contains(QStringLiteral("has no controller")), qPrintable(section.left(3000)));
    QVERIFY2(section.contains(QStringLiteral("pending pods this plan places")), qPrintable(section.left(3000)));
}

void TstCliReport::gpuFiguresArePlanChecks()
{
    // Alibaba's openb trace asks for fractions of GPUs: the GPUs allocated are not whole. The
    // report writes them as `plan check` does (one rule, model::formatGpus()), and FGD's
    // fragmented GPUs always with two decimals.
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QStringList input { csv + QStringLiteral("openb_node_list_gpu_node.csv"), csv + QStringLiteral("openb_pod_list_default.csv") };
    const QString plan = m_dir.filePath(QStringLiteral("openb-gpus.json"));
    const QString pdf = m_dir.filePath(QStringLiteral("openb-gpus.pdf"));
    const QString failed = fleet::tests::consolidateAndReport(input, plan, pdf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const Run checked = runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + input + QStringList { QStringLiteral("--plan"), plan });
    QVERIFY2(checked.exitCode == 0, checked.err.constData());
    const QRegularExpression allocated(QStringLiteral("^(before|after): .*\\(allocated ([\\d,.]+)\\)"), QRegularExpression::MultilineOption);
    QStringList gpus;
    for (auto it = allocated.globalMatch(QString::fromUtf8(checked.out)); it.hasNext();)
        gpus << it.next().captured(2).remove(QLatin1Char(','));
    QCOMPARE(gpus.size(), 2);
    const QString text = pdfText(pdf);
    QVERIFY2(QRegularExpression(QStringLiteral("GPUs allocated\\s+") + QRegularExpression::escape(gpus[0]) + QStringLiteral(" \\([^)]*\\)\\s+")
                 + QRegularExpression::escape(gpus[1]) + QStringLiteral(" \\("))
                 .match(text)
                 .hasMatch(),
        qPrintable(gpus.join(QLatin1Char(' ')) + QLatin1Char('\n') + text.left(3000)));
    const QRegularExpression fgd(QStringLiteral("^\\s*Fragmented GPUs \\(FGD\\)\\s{2,}(\\S+)\\s{2,}(\\S+)\\s{2,}(\\S+)"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch row = fgd.match(text);
    QVERIFY2(row.hasMatch(), qPrintable(text.left(3000)));
    for (int i = 1; i <= 3; ++i)
        QVERIFY2(QRegularExpression(QStringLiteral("^[+\\x{2212}]?\\d+\\.\\d\\d$")).match(row.captured(i)).hasMatch(), qPrintable(row.captured(0)));
}

void TstCliReport::differenceMapNamesARemovedNode()
{
    // A drain of an empty node (every pod of openb is pending) moves nothing and changes no
    // node's value, but the node goes: the difference map's caption says so.
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QString plan = m_dir.filePath(QStringLiteral("openb-one-drain.json"));
    QVERIFY(writeFile(plan, QByteArrayLiteral("{\"fleetscopePlan\": 1, \"source\": {\"files\": []}, \"actions\": "
                                              "[{\"type\": \"drain-node\", \"node\": \"openb-node-0000\"}]}")));
    const QString pdf = m_dir.filePath(QStringLiteral("openb-one-drain.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), csv + QStringLiteral("openb_node_list_gpu_node.csv"),
        csv + QStringLiteral("openb_pod_list_default.csv"), QStringLiteral("--plan"), plan, QStringLiteral("--no-baseline"), QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(!text.contains(QStringLiteral("No node changes.")), qPrintable(text.left(6000)));
    QVERIFY2(text.contains(QStringLiteral("The plan removes 1 node (crossed on the map)")), qPrintable(text.left(6000)));
    // The caption names the black and the white cross: the legend keys both.
    QVERIFY2(text.contains(QStringLiteral("Removed: 1, Emptied: 0")), qPrintable(text.left(6000)));
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
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(text.contains(QStringLiteral("Colours: CPU requested (no GPU nodes)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("After the plan (CPU requested with the plan)")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("GPU requested with the plan")));
    // With GPUs, the maps stay on GPUs.
    QVERIFY(oneLine(pdfText(m_pdf)).contains(QStringLiteral("After the plan (GPU requested with the plan)")));
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

// A title in characters the report's font (DejaVu Sans) lacks: each is drawn by an installed
// font that has it (Qt's fallback), or shown as U+FFFD and named on standard error; none is
// dropped silently. Which fonts have them is fontconfig's answer (fc-list), so that the test
// holds on a machine with a CJK or emoji font as on one without.
void TstCliReport::charactersWithoutAFontAreNamed()
{
    const QString title = QStringLiteral("Fleet \u6771\u4eac review \U0001F680 done");
    const QString pdf = m_dir.filePath(QStringLiteral("cjk.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--title"), title, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString err = QString::fromUtf8(r.err);
    QString expected = QStringLiteral("Fleet ");
    auto shown = [&](char32_t c) {
        const QString hex = QString::number(static_cast<uint>(c), 16);
        const bool installed = !runTool(QStringLiteral("fc-list"), { QStringLiteral(":charset=") + hex, QStringLiteral("family") }).trimmed().isEmpty();
        const QString name = QStringLiteral("U+") + hex.toUpper() + QLatin1Char(' ') + QString::fromUcs4(&c, 1);
        if (installed) {
            QVERIFY2(!err.contains(name), qPrintable(err));
            expected += QString::fromUcs4(&c, 1);
        } else {
            QVERIFY2(err.contains(name), qPrintable(name + QStringLiteral(" not named: ") + err));
            expected += QChar(QChar::ReplacementCharacter);
        }
    };
    shown(0x6771);
    shown(0x4eac);
    expected += QStringLiteral(" review ");
    shown(0x1F680);
    expected += QStringLiteral(" done");
    // The title block's heading and every page's footer show the title, no character left out.
    const QString text = pdfText(pdf);
    QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral("\n") + text.left(1500)));
    QVERIFY2(pdfText(pdf, 1, 1).count(expected) >= 2, qPrintable(pdfText(pdf, 1, 1)));
    if (expected.contains(QChar(QChar::ReplacementCharacter)))
        QVERIFY2(err.contains(QStringLiteral("warning: ")) && err.contains(QStringLiteral("drawn as \uFFFD")), qPrintable(err));
    else
        QVERIFY2(!err.contains(QStringLiteral("warning")), qPrintable(err));
}

// A node's name wider than its column (an EC2 instance's FQDN) wraps after one of its '.' or '-',
// never inside a part of it: the piece of it that ends a line ends with a '.' or a '-'.
void TstCliReport::nodeNamesWrapBetweenTheirParts()
{
    // The first has no break opportunity at all by Unicode's rules (no '-' before a letter).
    const QStringList names { QStringLiteral("i-0123456789abcdef0.ip-10-0-123-45.ec2.internal"),
        QStringLiteral("ip-192-168-123-234.ap-southeast-2.compute.internal") };
    QByteArray cluster = readFile(kPlanData + QStringLiteral("/cluster.json"));
    QByteArray plan = readFile(kPlanData + QStringLiteral("/plan.json"));
    QVERIFY(!cluster.isEmpty() && !plan.isEmpty());
    for (QByteArray* file : { &cluster, &plan }) {
        file->replace("\"cpu-a1\"", "\"" + names[0].toUtf8() + "\"");
        file->replace("\"cpu-b1\"", "\"" + names[1].toUtf8() + "\"");
        file->replace("node-agent-cpu-a1", "node-agent-a1"); // a pod's name, not the node's
    }
    const QString clusterPath = m_dir.filePath(QStringLiteral("fqdn-cluster.json"));
    const QString planPath = m_dir.filePath(QStringLiteral("fqdn-plan.json"));
    QVERIFY(writeFile(clusterPath, cluster) && writeFile(planPath, plan));
    const QString pdf = m_dir.filePath(QStringLiteral("fqdn.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), clusterPath, QStringLiteral("--plan"), planPath, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString text = pdfText(pdf);
    // A name's first piece on a line (a word that is a proper prefix of it) ends after a '.' or a
    // '-': the next line goes on at the start of a part.
    int pieces = 0;
    for (QString word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        word.remove(QRegularExpression(QStringLiteral("^[(\"']+|[),:;\"']+$")));
        for (const QString& name : names) {
            if (word.size() < 3 || word.size() >= name.size() || !name.startsWith(word))
                continue;
            ++pieces;
            QVERIFY2(word.endsWith(QLatin1Char('.')) || word.endsWith(QLatin1Char('-')),
                qPrintable(QStringLiteral("\"%1\" breaks %2 inside a part:\n").arg(word, name) + text));
        }
    }
    QVERIFY2(pieces > 0, qPrintable(text)); // the names do wrap in the plan's table
}

// More actions than the plan section lists (1,000): they are grouped by type and by the topology's
// level, named by what it is. The Alibaba trace's nodes have no zone: its topology's one level is
// the GPU model, and the column says so (it was headed "Zone" over GPU models).
void TstCliReport::groupedActionsNameTheTopologyLevel()
{
    const QString csv = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv/");
    const QString nodes = csv + QStringLiteral("openb_node_list_gpu_node.csv");
    QSet<QString> models;
    QStringList drains;
    for (const QByteArray& line : readFile(nodes).split('\n').mid(1)) {
        const QList<QByteArray> f = line.trimmed().split(',');
        if (f.size() < 5)
            continue;
        models.insert(QString::fromUtf8(f[4]));
        if (drains.size() < 1001)
            drains << QStringLiteral("{\"type\": \"drain-node\", \"node\": \"%1\"}").arg(QString::fromUtf8(f[0]));
    }
    QCOMPARE(drains.size(), 1001);
    const QString plan = m_dir.filePath(QStringLiteral("openb-drains.json"));
    QVERIFY(writeFile(plan, QStringLiteral("{\"fleetscopePlan\": 1, \"source\": {\"files\": []}, \"actions\": [%1]}").arg(drains.join(QStringLiteral(",\n"))).toUtf8()));
    const QString pdf = m_dir.filePath(QStringLiteral("openb-drains.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), nodes, csv + QStringLiteral("openb_pod_list_default.csv"), QStringLiteral("--plan"), plan,
        QStringLiteral("--no-baseline"), QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData()); // 1: some drains do not hold, written all the same
    const QString text = pdfText(pdf);
    QVERIFY2(oneLine(text).contains(QStringLiteral("The actions by type and GPU model (the GPU model of the node each names")), qPrintable(text.left(8000)));
    static const QRegularExpression header(QStringLiteral("^\\s*Action\\s+(\\S.*\\S)\\s{2,}Actions\\s+Hold\\s"), QRegularExpression::MultilineOption);
    const auto h = header.match(text);
    QVERIFY2(h.hasMatch(), qPrintable(text.left(8000)));
    QCOMPARE(h.captured(1), QStringLiteral("GPU model"));
    // Each group's value is a GPU model of the trace.
    static const QRegularExpression row(QStringLiteral("^\\s*drain-node\\s+(\\S+)\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$"), QRegularExpression::MultilineOption);
    int groups = 0;
    for (auto it = row.globalMatch(text); it.hasNext();) {
        const QString value = it.next().captured(1);
        QVERIFY2(models.contains(value), qPrintable(value));
        ++groups;
    }
    QVERIFY2(groups >= 2, qPrintable(text.left(8000)));
}

// The grouped table of a consolidation (its drains' own moves before each drain): each type's rows
// sum to the plan's actions of that type. The drains' rows counted their own moves as drains
// (3,465 "drain-node" of 453 drains at 2,000 nodes).
void TstCliReport::groupedActionsSumToThePlansTypes()
{
    const QString plan = m_dir.filePath(QStringLiteral("consolidation-2000.json"));
    const Run made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("-o"), plan });
    QVERIFY2(made.exitCode == 0, made.err.constData());
    QMap<QString, qint64> inPlan;
    {
        QFile f(plan);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QJsonValue& a : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("actions")).toArray())
            ++inPlan[a.toObject().value(QStringLiteral("type")).toString()];
    }
    QVERIFY2(inPlan.value(QStringLiteral("drain-node")) > 0 && inPlan.value(QStringLiteral("move-pod")) > 0, qPrintable(QStringList(inPlan.keys()).join(',')));
    const QString pdf = m_dir.filePath(QStringLiteral("consolidation-2000.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("--no-baseline"), QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString text = pdfText(pdf);
    const qsizetype from = text.indexOf(QStringLiteral("The actions by type and"));
    const qsizetype to = text.indexOf(QStringLiteral("Appendix: every action of the plan"), from);
    QVERIFY2(from >= 0 && to > from, qPrintable(text.left(4000)));
    static const QRegularExpression row(QStringLiteral("^\\s*([a-z-]+)\\s+\\S.*?\\s{2,}([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s*$"),
        QRegularExpression::MultilineOption);
    QMap<QString, qint64> inTable;
    for (auto it = row.globalMatch(text.mid(from, to - from)); it.hasNext();) {
        const auto m = it.next();
        inTable[m.captured(1)] += m.captured(2).remove(QLatin1Char(',')).toLongLong();
    }
    QCOMPARE(inTable, inPlan);
}

// The Change column is the After minus the Before as the page prints them: a reader who checks
// the sums finds them exact. Taken from the unrounded values it was a cent or 0.01 off (a
// zone's failure at 2,000 simulated nodes: FGD 339.15 -> 116.66 printed as -222.50, cost
// $80,399.96 -> $69,581.37 as -$10,818.58).
void TstCliReport::changeIsAfterMinusBeforeAsPrinted()
{
    const QString plan = m_dir.filePath(QStringLiteral("fail-zone.json"));
    QVERIFY(writeFile(plan, R"({"fleetscopePlan": 1, "actions": [{"type": "fail-domain", "domain": "topology.kubernetes.io/zone=us-west-2a"}]})"));
    const QString pdf = m_dir.filePath(QStringLiteral("fail-zone.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData()); // 1: the failure strands pods
    for (const QString& report : { pdf, m_pdf }) {
        const QString text = pdfText(report);
        QStringList checked;
        const QString mismatch = printedChangeMismatch(text, &checked);
        QVERIFY2(mismatch.isEmpty(), qPrintable(report + QStringLiteral(":\n") + mismatch));
        // The rows that carry decimals are among those compared: the check cannot pass empty.
        for (const QString& label : { QStringLiteral("Nodes"), QStringLiteral("GPUs allocated"), QStringLiteral("Cost per hour"),
                 QStringLiteral("Cost per month (730 h)") })
            QVERIFY2(checked.contains(label), qPrintable(report + QStringLiteral(": no row ") + label + QStringLiteral(" compared in\n") + text.left(4000)));
        if (report == pdf)
            QVERIFY2(checked.contains(QStringLiteral("Fragmented GPUs (FGD)")), qPrintable(text.left(4000)));
    }
}

// Where no consolidation search's reasons fit the plan (its drains are not those a search gives
// on this state), the section says so plainly, without claiming that no search wrote it (a
// plan made on other files was); a node that only receives pending pods the plan places is said
// to receive placed pods, not moved ones, in the section and in the maps' key.
void TstCliReport::nodesKeptBeyondASearchAreSaidPlainly()
{
    // big-0 (pending) placed on cpu-b1, and a drain of gpu-b2, which a search would not make.
    const QString plan = m_dir.filePath(QStringLiteral("place-and-drain.json"));
    QVERIFY(writeFile(plan, R"({"fleetscopePlan": 1, "actions": [
        {"type": "move-pod", "pod": {"namespace": "default", "name": "big-0", "uid": "uid-big-0"}, "node": "cpu-b1"},
        {"type": "drain-node", "node": "gpu-b2"}]})"));
    const QString pdf = m_dir.filePath(QStringLiteral("place-and-drain.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), kPlanData + QStringLiteral("/cluster-pending.json"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
    const QString text = oneLine(pdfText(pdf));
    const qsizetype from = text.indexOf(QStringLiteral("What holds the nodes the plan keeps"));
    const qsizetype to = text.indexOf(QStringLiteral("What the plan risks"), from);
    QVERIFY2(from >= 0 && to > from, qPrintable(text.left(6000)));
    const QString section = text.mid(from, to - from);
    QVERIFY2(!section.contains(QStringLiteral("No consolidation search wrote")), qPrintable(section));
    QVERIFY2(section.contains(QStringLiteral("These are not the reasons of a consolidation search")), qPrintable(section));
    QVERIFY2(section.contains(QStringLiteral("cpu-b1: receives pending pods the plan places")), qPrintable(section));
    QVERIFY2(!section.contains(QStringLiteral("cpu-b1: receives pods the plan moves")), qPrintable(section));
    // Nor does a node the plan leaves alone claim a search that kept it.
    QVERIFY2(!section.contains(QStringLiteral("does not record why its search kept")), qPrintable(section));
    // The maps' key names the outline for what it marks here.
    QVERIFY2(!text.contains(QStringLiteral("moved in or out")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Nodes with pods moved or placed: 1")), qPrintable(text));
}

QTEST_GUILESS_MAIN(TstCliReport)
#include "tst_clireport.moc"
