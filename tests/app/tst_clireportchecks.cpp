// SPDX-License-Identifier: Apache-2.0
// What `fleetscope report` says about its own figures and inputs, as a user's trial met them:
// which GPUs the figures count (summary's allocatable.gpu) beside the window's status bar
// (summary's accelerators.gpus), a plan that does not hold on the state (a banner on page 1 and
// plan check's exit status, the report written all the same), and the command line's messages
// for --size and a plan file cut short. The PDF is read back with pdftotext and pdfinfo.

#include "common/pdftext.h"
#include "reportrun.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using namespace fleet::tests; // common/pdftext.h, reportrun.h: fleetscope run, its PDF read back
using Run = FleetscopeRun;

} // namespace

class TstCliReportChecks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void gpusAreSummarysAllocatableAndTheStatusBarsIsNamed();
    void planFromAnotherClusterIsFlagged();
    void sizeKeepsA4AndSaysWxH();
    void truncatedPlanSaysWhere();

private:
    QTemporaryDir m_dir;
    QString m_plan; // `plan consolidate --simulate 2000` (seed 1)
    QString m_pdf;  // its report on the same state
};

void TstCliReportChecks::initTestCase()
{
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext", "pdfinfo" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(m_dir.isValid());
    m_plan = m_dir.filePath(QStringLiteral("P.json"));
    m_pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    // The report exits 0: every action holds on the state it was made on.
    const QString failed = fleet::tests::consolidateAndReport({ QStringLiteral("--simulate"), QStringLiteral("2000") }, m_plan, m_pdf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

// The figures' GPUs are summary's allocatable.gpu (and plan check's); the simulated fleet's
// MIG-partitioned GPUs, which the status bar counts (summary's accelerators.gpus: 7,638 against
// 7,334 in the trial), are said under the table with both of the status bar's numbers.
void TstCliReportChecks::gpusAreSummarysAllocatableAndTheStatusBarsIsNamed()
{
    const QJsonObject totals = runFleetscopeJson({ QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("2000"),
                                                   QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("totals") })
                                   .value(QStringLiteral("totals"))
                                   .toObject();
    const qint64 gpus = totals.value(QStringLiteral("allocatable")).toObject().value(QStringLiteral("gpu")).toInteger();
    const QJsonObject accelerators = totals.value(QStringLiteral("accelerators")).toObject();
    const qint64 physical = accelerators.value(QStringLiteral("gpus")).toInteger();
    const qint64 physicalInUse = accelerators.value(QStringLiteral("gpus_requested")).toInteger();
    const qint64 partitioned = accelerators.value(QStringLiteral("mig_partitioned_gpus")).toInteger();
    QVERIFY2(gpus > 0 && partitioned > 0 && physical == gpus + partitioned, qPrintable(QJsonDocument(totals).toJson()));
    const QString text = oneLine(pdfText(m_pdf, 1, 2));
    QVERIFY2(QRegularExpression(QStringLiteral(" GPUs %1 ").arg(gpus)).match(text).hasMatch(), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("GPUs: allocatable nvidia.com/gpu, whole GPUs (summary's allocatable.gpu, plan check's gpus). "
                                          "%1 more GPUs are partitioned into MIG slices")
                               .arg(partitioned)),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("the window's status bar counts each physical GPU once, MIG-partitioned or not: %1 in use / %2 "
                                          "(summary's accelerators.gpus_requested / gpus)")
                               .arg(physicalInUse)
                               .arg(physical)),
        qPrintable(text));
}

// A plan made on seed 1 checked against seed 2: page 1 says so with the counts plan check
// gives, and the command exits 1 as plan check does, the report written all the same.
void TstCliReportChecks::planFromAnotherClusterIsFlagged()
{
    const QStringList state { QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--seed"), QStringLiteral("2") };
    const Run check = runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + state
        + QStringList { QStringLiteral("--plan"), m_plan, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(check.exitCode, 1);
    const QJsonArray actions = QJsonDocument::fromJson(check.out).object().value(QStringLiteral("actions")).toArray();
    qint64 broken = 0;
    for (const QJsonValue& a : actions)
        broken += a.toObject().value(QStringLiteral("holds")).toBool() ? 0 : 1;
    QVERIFY(broken > 0);
    const QString pdf = m_dir.filePath(QStringLiteral("seed2.pdf"));
    const Run r = runFleetscope(QStringList { QStringLiteral("report") } + state + QStringList { QStringLiteral("--plan"), m_plan, QStringLiteral("-o"), pdf });
    QCOMPARE(r.exitCode, check.exitCode);
    QVERIFY2(r.out.contains("wrote "), r.out.constData());
    const QLocale english(QLocale::English); // counts with thousands separators, as the text outputs write them
    QVERIFY2(r.err.contains(QStringLiteral("%1 of %2 actions do not hold").arg(english.toString(broken), english.toString(actions.size())).toUtf8()),
        r.err.constData());
    QVERIFY(pdfPages(pdf) > 1);
    const QString first = oneLine(pdfText(pdf, 1, 1));
    QVERIFY2(first.contains(QStringLiteral("This plan was made on another cluster state: %1 of %2 actions do not hold here.")
                                .arg(broken)
                                .arg(actions.size())),
        qPrintable(first));
    // The banner comes before the title block: the first thing under the title.
    QVERIFY(first.indexOf(QStringLiteral("This plan was made")) < first.indexOf(QStringLiteral("About this report")));
    QVERIFY(!oneLine(pdfText(m_pdf, 1, 1)).contains(QStringLiteral("do not hold here")));
}

// --size WxH: A4 at 300 dpi (2480x3508) is drawn at exactly that size (the trial got 2480x3510,
// the height silently ignored); a height off A4's proportions is refused saying so, and a
// width alone is refused saying WxH is needed.
void TstCliReportChecks::sizeKeepsA4AndSaysWxH()
{
    const QString png = m_dir.filePath(QStringLiteral("first.png"));
    auto report = [&](const QString& size) {
        return runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("-o"), png,
            QStringLiteral("--size"), size });
    };
    const Run a4 = report(QStringLiteral("2480x3508"));
    QVERIFY2(a4.exitCode == 0, a4.err.constData());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(2480, 3508));
    const Run off = report(QStringLiteral("2480x1000"));
    QCOMPARE(off.exitCode, 2);
    QVERIFY2(off.err.contains("keeps A4's proportions") && off.err.contains("3510"), off.err.constData());
    const Run widthOnly = report(QStringLiteral("300"));
    QCOMPARE(widthOnly.exitCode, 2);
    QVERIFY2(widthOnly.err.contains("expected WxH, the image's width and height in pixels"), widthOnly.err.constData());
    QVERIFY(!widthOnly.err.contains("with W from"));
    // The example the message gives is the default's size (A4 at 150 dpi), which it is.
    QVERIFY2(widthOnly.err.contains("1240x1754: A4 at 150 dpi"), widthOnly.err.constData());
    const QString byDefault = m_dir.filePath(QStringLiteral("default.png"));
    const Run plain = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("-o"), byDefault });
    QVERIFY2(plain.exitCode == 0, plain.err.constData());
    QCOMPARE(QImage(byDefault).size(), QSize(1240, 1754));
    QCOMPARE(QImage(png).size(), QSize(2480, 3508)); // a refused run leaves the previous file
}

// A plan file cut short says where its JSON ends (the trial's message gave simdjson's "improper
// structure" and no place), and a bad value inside gives its line and column.
void TstCliReportChecks::truncatedPlanSaysWhere()
{
    QFile whole(m_plan);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QByteArray bytes = whole.readAll();
    QVERIFY(bytes.size() > 20'000);
    const QString cut = m_dir.filePath(QStringLiteral("cut.json"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes.left(20'000));
    out.close();
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("--plan"), cut,
        QStringLiteral("-o"), m_dir.filePath(QStringLiteral("cut.pdf")) });
    QCOMPARE(r.exitCode, 2);
    const qint64 lines = bytes.left(20'000).count('\n') + 1;
    QVERIFY2(r.err.contains(QStringLiteral("not valid JSON at the end of the file, line %1 (byte 20,000)")
                                .arg(QLocale(QLocale::English).toString(lines))
                                .toUtf8())
            && r.err.contains("cut short"),
        r.err.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("cut.pdf"))));

    const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write("{\"fleetscopePlan\": 1,\n \"actions\": [ {\"type\": \"drain-node\", \"node\": x} ]}\n");
    b.close();
    const Run p = runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("200"),
        QStringLiteral("--plan"), bad });
    QCOMPARE(p.exitCode, 2);
    QVERIFY2(p.err.contains("bad.json: not valid JSON at line 2, column 46 (byte 67 of 73)"), p.err.constData());
}

QTEST_GUILESS_MAIN(TstCliReportChecks)
#include "tst_clireportchecks.moc"
