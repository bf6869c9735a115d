// SPDX-License-Identifier: Apache-2.0
// File > Export Report in the real window, driven as a person does (desktopsession.h: Xvfb,
// openbox, xdotool), on a 300-node simulated fleet: Plan > Consolidate, the plan saved (File >
// Save Plan) for the command line, then File > Export Report (Alt+F, E) into the window's own
// file dialog, the path typed; the PDF is waited for and read with Debian's poppler-utils
// (pdftotext): its figures are `plan check --format json`'s for the saved plan on the same
// fleet and `summary --format json`'s pending pods, as tests/app/tst_clireport.cpp compares
// the command line's report. Its maps are the command line's for the same fleet and plan: the
// same images, of the same pixel size at the same resolution on the page (pdfimages -list, at
// print resolution whatever the screen's), and the page of the map after the plan shows the
// drained nodes' black crosses over their grey cells (pdftoppm). Then an export over a .fleet
// document is refused (a warning, the document unchanged).

#include "common/pdftext.h"
#include "common/reportchecks.h"
#include "e2e/desktopsession.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using namespace fleet::e2e;

namespace {

const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("3") };
const QSize kWindow(1280, 860);

using fleet::tests::pdfText;
using fleet::tests::runTool;

/// The JSON object `fleetscope ARGS...` writes; {} when it does not exit 0.
QJsonObject runJson(const QStringList& args)
{
    int code = -1;
    const QByteArray out = runTool(DesktopSession::executable(), args, &code);
    return code == 0 ? QJsonDocument::fromJson(out).object() : QJsonObject();
}

/// The images of `pdf` as `pdfimages -list` lists them: "page WIDTHxHEIGHT x-ppi y-ppi" each,
/// in order; empty when it fails.
QStringList pdfImages(const QString& pdf)
{
    int code = -1;
    const QString list = QString::fromUtf8(runTool(QStringLiteral("pdfimages"), { QStringLiteral("-list"), pdf }, &code));
    QStringList images;
    if (code != 0)
        return images;
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    for (const QString& line : list.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() >= 14 && f.at(2) == QLatin1String("image"))
            images << QStringLiteral("%1 %2x%3 %4 %5").arg(f.at(0), f.at(3), f.at(4), f.at(12), f.at(13));
    }
    return images;
}

QByteArray digest(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256) : QByteArray();
}

} // namespace

class TestE2eReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void exportReportOfConsolidation();

private:
    bool answer(DesktopSession& s, const QString& title, const QString& keys);
    /// File > Export Report (Alt+F, E: the menu, as a keyboard user opens it), `path` typed
    /// into its dialog.
    bool exportReport(DesktopSession& s, const QString& path);
};

void TestE2eReport::initTestCase()
{
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext", "pdfimages", "pdftoppm", "pdfinfo" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
}

bool TestE2eReport::answer(DesktopSession& s, const QString& title, const QString& keys)
{
    const quint32 box = s.waitForWindow(title);
    return box && s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(box) }) && s.key(keys);
}

bool TestE2eReport::exportReport(DesktopSession& s, const QString& path)
{
    return s.key(QStringLiteral("alt+f")) && s.key(QStringLiteral("e")) && answer(s, QStringLiteral("^Export Report$"), QStringLiteral("ctrl+a")) && s.type(path)
        && s.key(QStringLiteral("Return"));
}

void TestE2eReport::exportReportOfConsolidation()
{
    DesktopSession s;
    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp(kSource, kWindow), qPrintable(s.error()));
    // Plan > Consolidate (the what-if is built on a worker after the window shows: retried).
    QElapsedTimer clock;
    clock.start();
    quint32 dialog = 0;
    while (!dialog && clock.elapsed() < 40000) {
        QVERIFY(s.key(QStringLiteral("alt+p")) && s.key(QStringLiteral("c")));
        dialog = s.waitForWindow(QStringLiteral("^Consolidation$"), 6000);
    }
    QVERIFY2(dialog, qPrintable(s.error()));
    QVERIFY(answer(s, QStringLiteral("^Consolidation$"), QStringLiteral("Escape")));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Consolidation$")));
    const QString plan = s.path(QStringLiteral("plan.json"));
    QVERIFY2(s.savePlanAs(plan), qPrintable(s.error()));
    const int actions = static_cast<int>(DesktopSession::planActions(plan).size());
    QVERIFY(actions > 0);

    const QString pdf = s.path(QStringLiteral("report.pdf"));
    QVERIFY2(exportReport(s, pdf), qPrintable(s.error()));
    // Written whole (a rename): once it exists it is complete.
    QVERIFY2(waitUntil([&] { return QFile::exists(pdf); }, 40000), qPrintable(s.appOutput()));
    QVERIFY(s.appRunning());

    QStringList checkArgs { QStringLiteral("plan"), QStringLiteral("check") };
    checkArgs << kSource << QStringLiteral("--plan") << plan << QStringLiteral("--format") << QStringLiteral("json");
    const QJsonObject check = runJson(checkArgs);
    QStringList summaryArgs { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--only"),
        QStringLiteral("totals") };
    summaryArgs << kSource;
    const QJsonObject summary = runJson(summaryArgs).value(QStringLiteral("totals")).toObject();
    QVERIFY(!check.isEmpty());
    QVERIFY(!summary.isEmpty());
    const QJsonObject before = check.value(QStringLiteral("before")).toObject();
    const QJsonObject after = check.value(QStringLiteral("after")).toObject();
    const QString text = pdfText(pdf);
    QVERIFY2(text.contains(QStringLiteral("Plan review:")), qPrintable(text.left(2000)));
    QVERIFY2(text.contains(QStringLiteral("simulated cluster")), qPrintable(text.left(2000)));
    QVERIFY(before.value(QStringLiteral("nodes")).toInteger() > after.value(QStringLiteral("nodes")).toInteger()
        || before.value(QStringLiteral("nodesInUse")).toInteger() > after.value(QStringLiteral("nodesInUse")).toInteger());
    const QString mismatch = fleet::tests::figuresTableMismatch(text, check, summary);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch + QLatin1Char('\n') + text.left(4000)));
    // Every action of the saved plan is in the report's plan section, numbered from 1.
    QVERIFY2(QRegularExpression(QStringLiteral("^\\s*%1\\s+drain-node\\s").arg(actions), QRegularExpression::MultilineOption)
                 .match(text)
                 .hasMatch(),
        qPrintable(QString::number(actions)));

    // The maps are the command line's for the same fleet and plan: the same number of images,
    // each of the same pixel size and resolution on the page, at print resolution (the whole
    // fleet 2,160 pixels across, about 300 ppi), not the screen's pixel ratio.
    const QString cliPdf = s.path(QStringLiteral("cli.pdf"));
    QStringList reportArgs { QStringLiteral("report") };
    reportArgs << kSource << QStringLiteral("--plan") << plan << QStringLiteral("-o") << cliPdf;
    int reportCode = -1;
    runTool(DesktopSession::executable(), reportArgs, &reportCode);
    QVERIFY2(reportCode == 0, qPrintable(reportArgs.join(QLatin1Char(' '))));
    const QStringList windowImages = pdfImages(pdf);
    const QStringList cliImages = pdfImages(cliPdf);
    QVERIFY(cliImages.size() >= 3); // before, after, difference (and the zoomed maps)
    QCOMPARE(windowImages, cliImages);
    const QStringList whole = cliImages.first().split(QLatin1Char(' '));
    QCOMPARE(whole.at(1), QStringLiteral("2160x1500"));
    QVERIFY2(whole.at(2).toInt() >= 300, qPrintable(cliImages.first()));
    // The map after the plan: the window's image is the command line's (JPEG-encoded alike: at
    // most a few pixels differ), and its page shows the drained nodes' black crosses over their
    // grey (not applicable) cells, as tests/app/tst_clireportmaps.cpp checks the command line's.
    const int afterPage = fleet::tests::firstPageWith(pdf, QStringLiteral("After the plan ("));
    QVERIFY(afterPage > 0);
    QCOMPARE(fleet::tests::firstPageWith(cliPdf, QStringLiteral("After the plan (")), afterPage);
    const QDir dir(s.path(QString()));
    const std::vector<QImage> windowMaps = fleet::tests::pdfEmbeddedImages(pdf, dir.filePath(QStringLiteral("window-after")), afterPage, afterPage);
    const std::vector<QImage> cliMaps = fleet::tests::pdfEmbeddedImages(cliPdf, dir.filePath(QStringLiteral("cli-after")), afterPage, afterPage);
    QVERIFY(!windowMaps.empty() && !cliMaps.empty());
    const QImage& windowAfter = windowMaps.front();
    const QImage& cliAfter = cliMaps.front();
    QVERIFY(!windowAfter.isNull() && windowAfter.size() == cliAfter.size());
    qsizetype differing = 0;
    for (int y = 0; y < cliAfter.height(); ++y)
        for (int x = 0; x < cliAfter.width(); ++x)
            differing += fleet::tests::nearRgb(windowAfter.pixel(x, y), cliAfter.pixel(x, y), 24) ? 0 : 1;
    QVERIFY2(differing * 1000 < qsizetype(cliAfter.width()) * cliAfter.height(), qPrintable(QStringLiteral("%1 pixels differ").arg(differing)));
    const std::vector<QImage> pages = fleet::tests::pdfPageImages(pdf, dir.filePath(QStringLiteral("page")), 150, afterPage, afterPage);
    QCOMPARE(pages.size(), std::size_t(1));
    const int crossed = fleet::tests::crossPixelsOnGreyCells(pages.front());
    QVERIFY2(crossed > 200, qPrintable(QStringLiteral("%1 cross pixels on grey cells").arg(crossed)));

    // A report never replaces a .fleet document: the writer refuses it, the window says so.
    const QString document = s.path(QStringLiteral("state.fleet"));
    QVERIFY(s.key(QStringLiteral("ctrl+s")) && answer(s, QStringLiteral("^Save Document$"), QStringLiteral("ctrl+a")) && s.type(document)
        && s.key(QStringLiteral("Return")));
    QVERIFY(waitUntil([&] { return QFile::exists(document); }, 30000));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Save Document$")));
    const QByteArray saved = digest(document);
    QVERIFY2(exportReport(s, document), qPrintable(s.error()));
    // The file dialog asks before replacing an existing file (a second window of its title, the
    // modal question with the focus): yes, then the writer refuses and the window says why.
    QVERIFY(waitUntil(
        [&] {
            QString ids;
            return s.xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), QStringLiteral("^Export Report$") }, &ids)
                && ids.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size() >= 2;
        },
        fleet::e2e::kAnswerTimeoutMs));
    QVERIFY(s.key(QStringLiteral("alt+y")));
    QVERIFY2(answer(s, QStringLiteral("^Cannot Export Report$"), QStringLiteral("Escape")), qPrintable(s.error()));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Cannot Export Report$")));
    QCOMPARE(digest(document), saved);
    QVERIFY(s.appRunning());
}

QTEST_GUILESS_MAIN(TestE2eReport)
#include "tst_e2e_report.moc"
