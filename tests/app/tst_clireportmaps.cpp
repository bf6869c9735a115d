// SPDX-License-Identifier: Apache-2.0
// The maps of `fleetscope report`, read back from the PDF as a user's trial read them: the map
// images themselves (pdfimages, Debian's poppler-utils, at the resolution they were embedded)
// and the captions and keys beside them (pdftotext). The whole-fleet maps name no domain, the
// legends count what each map shows (nodes, not pods; the zoomed domain, not the fleet), pending
// pods placed are not "moved", and the map's nesting is the topology's own.

#include "common/pdftext.h"
#include "fleetscoperun.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <vector>

namespace {

using Run = fleet::tests::FleetscopeRun;
using fleet::tests::pdfText;
using fleet::tests::runFleetscope;
using fleet::tests::runTool;

const QString kAlibaba = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb/csv");

// The images embedded in `pdf`, in page order, at their own resolution (pdfimages -png).
std::vector<QImage> pdfEmbeddedImages(const QString& pdf, const QString& prefix)
{
    int code = -1;
    runTool(QStringLiteral("pdfimages"), { QStringLiteral("-png"), pdf, prefix }, &code);
    if (code != 0)
        return {};
    const QFileInfo info(prefix);
    std::vector<QImage> images;
    for (const QString& f : QDir(info.path()).entryList({ info.fileName() + QStringLiteral("-*.png") }, QDir::Files, QDir::Name))
        images.push_back(QImage(info.path() + QLatin1Char('/') + f).convertToFormat(QImage::Format_RGB32));
    return images;
}

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

private:
    QTemporaryDir m_dir;
    QString m_plan; // `plan consolidate --simulate 2000`
    QString m_pdf;  // its report
};

void TstCliReportMaps::initTestCase()
{
    for (const char* tool : { "pdftotext", "pdfimages" })
        QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(),
            "poppler-utils is not installed (installer/install-deps.sh installs it)");
    QVERIFY(m_dir.isValid());
    m_plan = m_dir.filePath(QStringLiteral("P.json"));
    const Run c = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("-o"), m_plan });
    QVERIFY2(c.exitCode == 0, c.err.constData());
    m_pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), m_plan,
        QStringLiteral("-o"), m_pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

// The whole fleet before, after and the difference carry no breadcrumb strip (the trial: the
// after and difference maps were headed "us-west-2 > us-west-2c", the last zoomed domain,
// drawn before them on the same map); the zoomed maps carry theirs.
void TstCliReportMaps::wholeFleetMapsNameNoDomain()
{
    const std::vector<QImage> images = pdfEmbeddedImages(m_pdf, m_dir.filePath(QStringLiteral("img")));
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
    static const QRegularExpression wholeKey(QStringLiteral("themapsunderit,insidethecellssothattheircoloursstayreadable:Removed:(\\d+),"
                                                            "Nodeswithpodsmovedinorout:(\\d+)\\."));
    const auto whole = wholeKey.match(text);
    QVERIFY2(whole.hasMatch(), qPrintable(text.left(4000)));
    const qint64 removed = whole.captured(1).toLongLong();
    // Plan consolidate's drains are the removed nodes; the nodes with moves are fewer than the pods moved.
    const QJsonObject check = QJsonDocument::fromJson(runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"),
                                                          QStringLiteral("2000"), QStringLiteral("--plan"), m_plan, QStringLiteral("--format"),
                                                          QStringLiteral("json") })
                                                          .out)
                                  .object();
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
    static const QRegularExpression zoomedKey(QStringLiteral("Aftertheplan:([^():]+)\\((\\d+)nodes\\):(\\d+)nodesfreed,[^.]*\\.Planmarkshere:Removed:(\\d+)"));
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
    const Run c = runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + trace + QStringList { QStringLiteral("-o"), plan });
    QVERIFY2(c.exitCode == 0, c.err.constData());
    const QString pdf = m_dir.filePath(QStringLiteral("alibaba.pdf"));
    const Run r = runFleetscope(QStringList { QStringLiteral("report") } + trace + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // The pending pods the plan places: its move-pod actions of pods without a node.
    const QJsonObject check = QJsonDocument::fromJson(
        runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + trace
            + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") })
            .out)
                                  .object();
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
    static const QRegularExpression caption(QStringLiteral("Beforetheplan:([^():]+)\\((\\d+)nodes\\):(\\d+)nodesfreed,(\\d+)podsmoved,(\\d+)pendingpodsplaced\\."));
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

QTEST_GUILESS_MAIN(TstCliReportMaps)
#include "tst_clireportmaps.moc"
