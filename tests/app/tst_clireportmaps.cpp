// SPDX-License-Identifier: Apache-2.0
// The maps of `fleetscope report`, read back from the PDF as a user's trial read them: the map
// images themselves (pdfimages, Debian's poppler-utils, at the resolution they were embedded),
// the pages as images (pdftoppm) and the captions and keys beside them (pdftotext). The
// whole-fleet maps name no domain, the legends count what each map shows (nodes, not pods; the
// zoomed domain, not the fleet), pending pods placed are not "moved", the map's nesting is the
// topology's own, removed nodes are black crosses over their grey cells, the marker key is
// `screenshot`'s, the zoomed domains are those the plan changes most, and the difference map's
// scale is chosen from the data (a real screenshot's pixels).

#include "common/pdftext.h"
#include "common/reportchecks.h"
#include "reportrun.h"
#include "views/map/colormap.h"

#include <QFile>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using namespace fleet::tests; // common/pdftext.h, reportrun.h: fleetscope run, its PDF read back
using Run = FleetscopeRun;

const QString kAlibaba = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv");

// The share of the pixels of `rect` darker than the map's background and its domain frames:
// the breadcrumb strip is nearly black (12, 14, 20 at 84 %), the map's background mid grey.
double darkShare(const QImage& image, const QRect& rect)
{
    int dark = 0, all = 0;
    const QRect r = rect & image.rect();
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            ++all;
            dark += qGray(image.pixel(x, y)) < 50 ? 1 : 0;
        }
    return all > 0 ? static_cast<double>(dark) / all : 0.0;
}

} // namespace

class TstCliReportMaps : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void wholeFleetMapsNameNoDomain();
    void legendCountsNodesAndTheZoomedDomain();
    void pendingPodsPlacedAreNotMoved();
    void legendMarkersAreScreenshots();
    void zoomedDomainMaps();
    void planMarksOverTheCells();
    void differenceScaleIsTheData();
    void placementIsZoomedAndSaysWhatChanged();
    void mapsAtPrintResolution();

private:
    QTemporaryDir m_dir;
    QString m_plan;            // `plan consolidate --simulate 2000 --format json`
    QJsonObject m_consolidate; // what it printed
    QString m_pdf;             // its report
};

void TstCliReportMaps::initTestCase()
{
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext", "pdfimages", "pdftoppm", "pdfinfo" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(m_dir.isValid());
    m_plan = m_dir.filePath(QStringLiteral("P.json"));
    m_pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    Run c;
    const QString failed = fleet::tests::consolidateAndReport({ QStringLiteral("--simulate"), QStringLiteral("2000") }, m_plan, m_pdf,
        { QStringLiteral("--format"), QStringLiteral("json") }, &c);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    m_consolidate = QJsonDocument::fromJson(c.out).object();
    QVERIFY2(m_consolidate.contains(QStringLiteral("ours")), c.out.constData());
}

// The whole fleet before, after and the difference carry no breadcrumb strip (the trial: the
// after and difference maps were headed "us-west-2 > us-west-2c", the last zoomed domain,
// drawn before them on the same map); the zoomed maps carry theirs.
void TstCliReportMaps::wholeFleetMapsNameNoDomain()
{
    const std::vector<QImage> images = fleet::tests::pdfEmbeddedImages(m_pdf, m_dir.filePath(QStringLiteral("img")));
    QVERIFY(!images.empty());
    int widest = 0;
    for (const QImage& i : images)
        widest = std::max(widest, i.width());
    int whole = 0, zoomed = 0;
    for (std::size_t k = 0; k < images.size(); ++k) {
        const QImage& image = images[k];
        // The strip is 22 logical pixels at the top of the map (66 at the report's scale of 3,
        // half that in a zoomed map, printed at half size); its middle third is away from the
        // region's label and from the legend at the right.
        const int strip = image.width() == widest ? 60 : 30;
        const double share = darkShare(image, QRect(image.width() / 3, 2, image.width() / 3, strip - 4));
        const QString what = QStringLiteral("image %1 (%2x%3): %4 of its top strip dark")
                                 .arg(k).arg(image.width()).arg(image.height()).arg(share);
        if (image.width() == widest) {
            ++whole;
            QVERIFY2(share < 0.05, qPrintable(what + QStringLiteral(": a whole-fleet map names a domain")));
        } else {
            ++zoomed;
            QVERIFY2(share > 0.6, qPrintable(what + QStringLiteral(": a zoomed map without its breadcrumb")));
        }
    }
    QCOMPARE(whole, 3); // before, after, difference
    QVERIFY2(zoomed >= 4, qPrintable(QString::number(zoomed)));
}

// The plan key counts nodes and says so (the trial's "Pods moved: 508" counted the 508 nodes
// that 3,682 moved pods go to or come from); a zoomed map's key counts its domain (the trial's
// 952-node domain said "Removed: 22,944", the fleet's count).
void TstCliReportMaps::legendCountsNodesAndTheZoomedDomain()
{
    QString text = pdfText(m_pdf);
    QVERIFY(!text.contains(QStringLiteral("Pods moved:")));
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    // Both crosses are keyed where either is drawn: "Emptied" with its count, 0 here.
    static const QRegularExpression wholeKey(QStringLiteral("themapsunderit,insidethecellssothattheircoloursstayreadable:Removed:(\\d+),"
                                                            "Emptied:0,Nodeswithpodsmovedorplaced:(\\d+)\\."));
    const auto whole = wholeKey.match(text);
    QVERIFY2(whole.hasMatch(), qPrintable(text.left(4000)));
    const qint64 removed = whole.captured(1).toLongLong();
    // Plan consolidate's drains are the removed nodes; the nodes with moves are fewer than the pods moved.
    const QJsonObject check = runFleetscopeJson({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), m_plan, QStringLiteral("--format"), QStringLiteral("json") });
    qint64 drains = 0, pods = 0;
    for (const QJsonValue& a : check.value(QStringLiteral("actions")).toArray()) {
        drains += a.toObject().value(QStringLiteral("type")).toString() == QLatin1String("drain-node") ? 1 : 0;
        pods += a.toObject().value(QStringLiteral("changes")).toArray().size();
    }
    QVERIFY(drains > 0);
    QCOMPARE(removed, drains);
    QVERIFY2(whole.captured(2).toLongLong() > 0 && whole.captured(2).toLongLong() < pods,
        qPrintable(whole.captured(2) + QStringLiteral(" nodes, ") + QString::number(pods) + QStringLiteral(" pods")));
    // Each zoomed after map: its key's removed nodes are the nodes freed its caption gives, no
    // more than the domain holds and fewer than the fleet's.
    static const QRegularExpression zoomedKey(QStringLiteral("Aftertheplan:([^():]+)\\((\\d+)nodes?\\):(\\d+)nodes?freed,[^.]*\\.Planmarkshere:Removed:(\\d+)"));
    int zoomed = 0;
    for (auto it = zoomedKey.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        ++zoomed;
        QCOMPARE(m.captured(4).toLongLong(), m.captured(3).toLongLong());
        QVERIFY2(m.captured(4).toLongLong() <= m.captured(2).toLongLong(), qPrintable(m.captured(0)));
        QVERIFY2(m.captured(4).toLongLong() < removed, qPrintable(m.captured(0)));
    }
    QVERIFY2(zoomed >= 2, qPrintable(QString::number(zoomed)));
}

// On the Alibaba trace the consolidation places pending pods first and moves none: the zoomed
// captions count the pending pods placed in each domain (the trial read "180 nodes freed, 0 pods
// moved" beside 3,524 move-pod actions), and the map's nesting is the trace's (by GPU model),
// not "region, zone and network layer".
void TstCliReportMaps::pendingPodsPlacedAreNotMoved()
{
    const QStringList trace { kAlibaba + QStringLiteral("/openb_node_list_all_node.csv"), kAlibaba + QStringLiteral("/openb_pod_list_default.csv") };
    const QString plan = m_dir.filePath(QStringLiteral("alibaba.json"));
    const QString pdf = m_dir.filePath(QStringLiteral("alibaba.pdf"));
    const QString failed = fleet::tests::consolidateAndReport(trace, plan, pdf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    // The pending pods the plan places: its move-pod actions of pods without a node.
    const QJsonObject check = runFleetscopeJson(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + trace
        + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
    qint64 moves = 0;
    for (const QJsonValue& a : check.value(QStringLiteral("actions")).toArray())
        moves += a.toObject().value(QStringLiteral("type")).toString() == QLatin1String("move-pod") ? 1 : 0;
    QVERIFY(moves > 0);

    QString text = pdfText(pdf);
    QVERIFY(!text.contains(QStringLiteral("region, zone and network layer")));
    // The levels the title block names are the ones the map's paragraph gives.
    static const QRegularExpression domainsRow(QStringLiteral("named by their labels' values, outermost first: ([^\\n]+)"));
    const auto keys = domainsRow.match(text);
    QVERIFY2(keys.hasMatch(), qPrintable(text.left(3000)));
    const QString levels = keys.captured(1).trimmed().replace(QStringLiteral(" > "), QStringLiteral(", "));
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    QVERIFY2(text.contains(QStringLiteral("Everynodeisonecell,nestedbythetopology'slevels,outermostfirst:") + QString(levels).remove(QLatin1Char(' '))
                 + QLatin1Char(';')),
        qPrintable(levels));
    static const QRegularExpression caption(QStringLiteral("Beforetheplan:([^():]+)\\((\\d+)nodes?\\):(\\d+)nodes?freed,(\\d+)pods?moved,(\\d+)pendingpods?placed\\."));
    qint64 placed = 0;
    int zoomed = 0;
    for (auto it = caption.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        ++zoomed;
        QVERIFY2(m.captured(5).toLongLong() > 0, qPrintable(m.captured(0)));
        placed += m.captured(5).toLongLong();
    }
    QVERIFY2(zoomed >= 1, qPrintable(text.left(6000)));
    QVERIFY2(placed <= moves, qPrintable(QStringLiteral("%1 placed in the zoomed domains, %2 move-pod actions").arg(placed).arg(moves)));
}

void TstCliReportMaps::legendMarkersAreScreenshots()
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
    const QString text = oneLine(pdfText(m_pdf));
    QString expected = QStringLiteral("Markers drawn over the cells, as in the window: ") + key.join(QStringLiteral(", ")) + QLatin1Char('.');
    expected.replace(QRegularExpression(QStringLiteral("(\\d),(\\d{3})")), QStringLiteral("\\1\\2"));
    QVERIFY2(text.contains(expected), qPrintable(expected));
    QVERIFY(!text.contains(QStringLiteral("Fits dragged pod")));
}

void TstCliReportMaps::zoomedDomainMaps()
{
    // The consolidation's report zooms to the domains it changes most, before and after, with
    // the domain and what the plan does there in the captions, and the zoomed maps are maps.
    QString text = pdfText(m_pdf);
    QVERIFY(text.contains(QStringLiteral("Where the plan changes most")));
    // Captions are centred and wrap (a domain's path breaks at a slash): read without spaces.
    text.remove(QRegularExpression(QStringLiteral("\\s+")));
    static const QRegularExpression caption(QStringLiteral("Beforetheplan:([^():]+)\\((\\d+)nodes?\\):(\\d+)nodes?freed,(\\d+)pods?moved"));
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

// The maps under a consolidation carry the plan's marks and say what they are: the legend's Plan
// key, also under the after map in words, counts the removed nodes as plan consolidate frees
// them, and the after map shows removed nodes as black crosses over their grey (not applicable)
// cells, not as red cells or marks like NotReady's.
void TstCliReportMaps::planMarksOverTheCells()
{
    const QString text = pdfText(m_pdf);
    const auto freed = m_consolidate.value(QStringLiteral("ours")).toObject().value(QStringLiteral("nodesFreed")).toInteger();
    QVERIFY(freed > 0);
    const QString removed = QStringLiteral("Removed: %1").arg(QLocale(QLocale::English).toString(freed));
    QVERIFY2(text.contains(removed), qPrintable(removed));
    QVERIFY(text.contains(QStringLiteral("black cross")));
    // The page of the after map, at 150 dpi: black pixels of the crosses next to grey cell pixels.
    const int afterPage = fleet::tests::firstPageWith(m_pdf, QStringLiteral("After the plan ("));
    QVERIFY(afterPage > 0);
    const std::vector<QImage> page = fleet::tests::pdfPageImages(m_pdf, m_dir.filePath(QStringLiteral("after")), 150, afterPage, afterPage);
    QCOMPARE(page.size(), std::size_t(1));
    const int crossed = fleet::tests::crossPixelsOnGreyCells(page.front());
    QVERIFY2(crossed > 200, qPrintable(QStringLiteral("%1 cross pixels on grey cells").arg(crossed)));
}

void TstCliReportMaps::differenceScaleIsTheData()
{
    // The consolidation's difference map, from a real screenshot: its legend states the scale,
    // chosen from the changes (views/map/colormap.h, divergingExtent()), and the changed cells
    // spread over the scale rather than sit at its ends or in the unchanged grey.
    const QString png = m_dir.filePath(QStringLiteral("difference.png"));
    const Run shot = runFleetscope({ QStringLiteral("screenshot"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_plan, QStringLiteral("--metric"), QStringLiteral("plan-diff-cpu"), QStringLiteral("--map-only"), QStringLiteral("--size"),
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
    const QString text = oneLine(pdfText(m_pdf));
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("Scale \u00b1[\\d.]+ % of allocatable: the 95th percentile of \\|after - before\\| "
                                                             "over the [\\d,]+ nodes the plan changes"))),
        qPrintable(text.left(4000)));
}

// A placement (`plan place`: one place-pods action of 8 one-GPU pods, all or nothing, in one
// network domain) changes one domain: the report zooms to it (the trial's had no zoomed map),
// its caption counts the new pods placed and no "0 nodes freed, 0 pods moved", and the
// difference map's caption says the one node that changed, not a range "from 0 %".
void TstCliReportMaps::placementIsZoomedAndSaysWhatChanged()
{
    const QString plan = m_dir.filePath(QStringLiteral("place.json"));
    QFile out(plan);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"fleetscopePlan": 1, "actions": [{"type": "place-pods", "pod": {"namespace": "default", "name": "placed"}, "count": 8,
 "requiredLevel": "topology.k8s.aws/network-node-layer-1", "gang": true,
 "podTemplate": {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "default", "name": "placed"},
   "spec": {"containers": [{"name": "main", "resources": {"requests": {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": "1"},
     "limits": {"nvidia.com/gpu": "1"}}}], "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]}}}]})");
    out.close();
    const QString pdf = m_dir.filePath(QStringLiteral("place.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(text.contains(QStringLiteral("Where the plan changes most")), qPrintable(text.left(6000)));
    QVERIFY2(QRegularExpression(QStringLiteral("Before the plan: [^():]+ \\([\\d,]+ nodes?\\): 8 new pods placed\\.")).match(text).hasMatch(),
        qPrintable(text.left(6000)));
    QVERIFY2(!text.contains(QStringLiteral("0 nodes freed")), qPrintable(text.left(6000)));
    QVERIFY2(QRegularExpression(QStringLiteral("Scale \u00b1[\\d.]+ % of allocatable: one node changes, by \\+[\\d.]+ ?%\\.")).match(text).hasMatch(),
        qPrintable(text.left(6000)));
    QVERIFY2(!text.contains(QStringLiteral("over the 1 nodes")) && !text.contains(QStringLiteral("range from 0")), qPrintable(text.left(6000)));
    // One action: said in the singular.
    QVERIFY2(text.contains(QStringLiteral(": 1 action, 1 holds, 0 do not hold.")), qPrintable(text));
}

// Every map is embedded at print resolution, the zoomed ones too (they were halved: 180 ppi):
// pdfimages -list gives each image's pixels per inch as the page prints it.
void TstCliReportMaps::mapsAtPrintResolution()
{
    const QString list = QString::fromUtf8(runTool(QStringLiteral("pdfimages"), { QStringLiteral("-list"), m_pdf }));
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+)\\s+\\d+\\s+image\\s+(\\d+)\\s+(\\d+)\\s+\\S+\\s+\\d+\\s+\\d+\\s+\\S+\\s+\\S+\\s+\\d+\\s+\\d+\\s+(\\d+)\\s+(\\d+)\\s"),
        QRegularExpression::MultilineOption);
    int maps = 0, zoomed = 0, widest = 0;
    for (auto it = row.globalMatch(list); it.hasNext();)
        widest = std::max(widest, it.next().captured(2).toInt());
    for (auto it = row.globalMatch(list); it.hasNext();) {
        const auto m = it.next();
        ++maps;
        zoomed += m.captured(2).toInt() < widest ? 1 : 0;
        QVERIFY2(m.captured(4).toInt() >= 295 && m.captured(5).toInt() >= 295,
            qPrintable(QStringLiteral("an image of %1 x %2 pixels on page %3 at %4 x %5 ppi:\n")
                           .arg(m.captured(2), m.captured(3), m.captured(1), m.captured(4), m.captured(5))
                + list));
    }
    QVERIFY2(maps >= 7 && zoomed >= 4, qPrintable(list)); // the whole fleet's three and the zoomed before and after
}

QTEST_GUILESS_MAIN(TstCliReportMaps)
#include "tst_clireportmaps.moc"
