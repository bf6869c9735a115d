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
#include "common/pixelchecks.h"
#include "e2e/desktopsession.h"
#include "views/map/colormap.h"
#include "views/map/layers/planlayer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

using namespace fleet::e2e;

namespace {

const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("3") };
const QSize kWindow(1280, 860);

QByteArray run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(program, args);
    p.waitForFinished(120000);
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
}

QJsonObject runJson(const QStringList& args)
{
    return QJsonDocument::fromJson(run(DesktopSession::executable(), args)).object();
}

using fleet::tests::pdfText;
using fleet::tests::runTool;
using fleet::testing::near;

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

/// The first page of `pdf` whose text holds `text` (0: none).
int pageWith(const QString& pdf, const QString& text)
{
    const int pages = fleet::tests::pdfPages(pdf);
    for (int p = 1; p <= pages; ++p)
        if (pdfText(pdf, p, p).contains(text))
            return p;
    return 0;
}

/// The first image on page `page` of `pdf` at its own pixels (pdfimages -png), written under
/// `dir`; null when it fails.
QImage pageImage(const QString& pdf, int page, const QDir& dir, const QString& name)
{
    int code = -1;
    runTool(QStringLiteral("pdfimages"), { QStringLiteral("-png"), QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
        QString::number(page), pdf, dir.filePath(name) }, &code);
    return code == 0 ? QImage(dir.filePath(name + QStringLiteral("-000.png"))).convertToFormat(QImage::Format_RGB32) : QImage();
}

QString dollars(double v)
{
    return QStringLiteral("$") + QString::number(v, 'f', 2);
}

QString milli(double v)
{
    QString s = QString::number(v, 'f', 3);
    while (s.endsWith(QLatin1Char('0')))
        s.chop(1);
    if (s.endsWith(QLatin1Char('.')))
        s.chop(1);
    return s;
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
    for (const char* tool : { "pdftotext", "pdfimages", "pdftoppm", "pdfinfo" })
        QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(),
            qPrintable(QStringLiteral("%1 is needed (poppler-utils)").arg(QString::fromLatin1(tool))));
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
    auto row = [&](const QString& label, const QString& b, const QString& a) {
        const QRegularExpression re(QStringLiteral("^\\s*") + QRegularExpression::escape(label) + QStringLiteral("\\s{2,}")
                + QRegularExpression::escape(b) + QStringLiteral("\\s{2,}") + QRegularExpression::escape(a) + QStringLiteral("(\\s|$)"),
            QRegularExpression::MultilineOption);
        return re.match(text).hasMatch();
    };
    auto n = [](const QJsonObject& o, const char* key) { return QString::number(o.value(QLatin1String(key)).toInteger()); };
    QVERIFY(before.value(QStringLiteral("nodes")).toInteger() > after.value(QStringLiteral("nodes")).toInteger()
        || before.value(QStringLiteral("nodesInUse")).toInteger() > after.value(QStringLiteral("nodesInUse")).toInteger());
    QVERIFY2(row(QStringLiteral("Nodes"), n(before, "nodes"), n(after, "nodes")), qPrintable(text.left(4000)));
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
    QVERIFY(QRegularExpression(QStringLiteral("Pending pods\\s{2,}") + QString::number(summary.value(QStringLiteral("pending_pods")).toInteger())
                + QStringLiteral("\\s"))
                .match(text)
                .hasMatch());
    // Every action of the saved plan is in the report's plan section, numbered.
    QVERIFY2(QRegularExpression(QStringLiteral("^\\s*%1\\s+drain-node\\s").arg(actions - 1), QRegularExpression::MultilineOption)
                 .match(text)
                 .hasMatch(),
        qPrintable(QString::number(actions)));

    // The maps are the command line's for the same fleet and plan: the same number of images,
    // each of the same pixel size and resolution on the page, at print resolution (the whole
    // fleet 2,160 pixels across, about 300 ppi), not the screen's pixel ratio.
    const QString cliPdf = s.path(QStringLiteral("cli.pdf"));
    QStringList reportArgs { QStringLiteral("report") };
    reportArgs << kSource << QStringLiteral("--plan") << plan << QStringLiteral("-o") << cliPdf;
    QVERIFY2(!run(DesktopSession::executable(), reportArgs).isEmpty(), qPrintable(reportArgs.join(QLatin1Char(' '))));
    const QStringList windowImages = pdfImages(pdf);
    const QStringList cliImages = pdfImages(cliPdf);
    QVERIFY(cliImages.size() >= 3); // before, after, difference (and the zoomed maps)
    QCOMPARE(windowImages, cliImages);
    const QStringList whole = cliImages.first().split(QLatin1Char(' '));
    QCOMPARE(whole.at(1), QStringLiteral("2160x1500"));
    QVERIFY2(whole.at(2).toInt() >= 300, qPrintable(cliImages.first()));
    // The map after the plan: the window's image is the command line's (JPEG-encoded alike: at
    // most a few pixels differ), and its page shows the drained nodes' black crosses over their
    // grey (not applicable) cells, as tests/app/tst_clireport.cpp checks the command line's.
    const int afterPage = pageWith(pdf, QStringLiteral("After the plan ("));
    QVERIFY(afterPage > 0);
    QCOMPARE(pageWith(cliPdf, QStringLiteral("After the plan (")), afterPage);
    const QDir dir(s.path(QString()));
    const QImage windowAfter = pageImage(pdf, afterPage, dir, QStringLiteral("window-after"));
    const QImage cliAfter = pageImage(cliPdf, afterPage, dir, QStringLiteral("cli-after"));
    QVERIFY(!windowAfter.isNull() && windowAfter.size() == cliAfter.size());
    qsizetype differing = 0;
    for (int y = 0; y < cliAfter.height(); ++y)
        for (int x = 0; x < cliAfter.width(); ++x)
            differing += near(windowAfter.pixel(x, y), cliAfter.pixel(x, y), 24) ? 0 : 1;
    QVERIFY2(differing * 1000 < qsizetype(cliAfter.width()) * cliAfter.height(), qPrintable(QStringLiteral("%1 pixels differ").arg(differing)));
    int code = -1;
    const QString prefix = dir.filePath(QStringLiteral("page"));
    runTool(QStringLiteral("pdftoppm"), { QStringLiteral("-r"), QStringLiteral("150"), QStringLiteral("-png"), QStringLiteral("-f"),
        QString::number(afterPage), QStringLiteral("-l"), QString::number(afterPage), pdf, prefix }, &code);
    QCOMPARE(code, 0);
    const QStringList pages = dir.entryList({ QStringLiteral("page-*.png") }, QDir::Files, QDir::Name);
    QCOMPARE(pages.size(), 1);
    const QImage page = QImage(dir.filePath(pages.first())).convertToFormat(QImage::Format_RGB32);
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
        15000));
    QVERIFY(s.key(QStringLiteral("alt+y")));
    QVERIFY2(answer(s, QStringLiteral("^Cannot Export Report$"), QStringLiteral("Escape")), qPrintable(s.error()));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Cannot Export Report$")));
    QCOMPARE(digest(document), saved);
    QVERIFY(s.appRunning());
}

QTEST_GUILESS_MAIN(TestE2eReport)
#include "tst_e2e_report.moc"
