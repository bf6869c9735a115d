// SPDX-License-Identifier: Apache-2.0
// File > Export Report in the real window, driven as a person does (desktopsession.h: Xvfb,
// openbox, xdotool), on a 300-node simulated fleet: Plan > Consolidate, the plan saved (File >
// Save Plan) for the command line, then File > Export Report (Alt+F, E) into the window's own
// file dialog, the path typed; the PDF is waited for and read with Debian's poppler-utils
// (pdftotext): its figures are `plan check --format json`'s for the saved plan on the same
// fleet and `summary --format json`'s pending pods, as tests/app/tst_clireport.cpp compares
// the command line's report. Then an export over a .fleet document is refused (a warning, the
// document unchanged).

#include "common/pdftext.h"
#include "e2e/desktopsession.h"

#include <QCryptographicHash>
#include <QFile>
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
    for (const char* tool : { "pdftotext" })
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
