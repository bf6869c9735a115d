// SPDX-License-Identifier: Apache-2.0
// `fleetscope report` of a consolidation (`plan consolidate --simulate 2000`: hundreds of actions,
// a baseline and bounds), run as a user runs it, its PDF read back with Debian's poppler-utils
// (pdftotext, pdftoppm): the bounds, the baseline and why nodes stay are the figures `plan
// consolidate` printed (read from the plan file's record, or the search replayed when the record
// is not the plan's), the actions' table repeats its header on every page it spans, a failure
// what-if counts nodes lost, and no text is cut, painted over or split (wrapped cells, the
// "pod -> node" arrows, a long title).

#include "common/pdftext.h"
#include "common/reportchecks.h"
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

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace {

using namespace fleet::tests; // common/pdftext.h, reportrun.h: fleetscope run, its PDF read back
using Run = FleetscopeRun;

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

// Where text is painted over text, or under a fill painted later (the next row's), on the
// report's pages: each word must have ink (a pixel darker than any fill) inside its box, and
// the lines of one column must be a line apart (the same cell) or a row apart, never closer.
QString textCutOrOverlapping(const QString& pdf, const QString& prefix)
{
    const auto pages = pdfWords(pdf);
    constexpr int kDpi = 150;
    const std::vector<QImage> images = fleet::tests::pdfPageImages(pdf, prefix, kDpi);
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

class TstCliReportConsolidation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tableRepeatsHeaderAcrossPages();
    void wrappedTextIsWhole();
    void arrowStaysWithItsNode();
    void boundAndBaselineArePlanConsolidates();
    void whyNodesStayIsPlanConsolidates();
    void recordedReasonsAreReadNotSearched();
    void staleRecordedReasonsAreReplayed_data();
    void staleRecordedReasonsAreReplayed();
    void schedulerMessageCountsHaveSeparators();
    void failureWhatIfSaysLost();
    void zoneFailureKeepsHeadingsWithTheirBlocks();
    void longTitleAndExamplesAreWhole();
    void figuresWithUsageAreSummaryAndPlanCheck();

private:
    QTemporaryDir m_dir;
    QString m_pdf; // cluster.json + plan.json + prices.csv (the plan fixtures), beside the consolidation's
    // `plan consolidate --simulate 2000 --format json`: its plan, its JSON, the report of it.
    QString m_consolidation;
    QJsonObject m_consolidate;
    QString m_consolidationPdf;
};

void TstCliReportConsolidation::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(FLEETSCOPE_EXECUTABLE)).isExecutable(), FLEETSCOPE_EXECUTABLE);
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext", "pdftoppm", "pdfinfo" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY(m_dir.isValid());
    m_pdf = m_dir.filePath(QStringLiteral("review.pdf"));
    const QString failed = reportOfPlanFixtures(m_pdf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));

    // A consolidation of a simulated 2,000-node fleet: hundreds of actions (pending pods placed
    // first, "ns/pod -> node", then drains), a table over pages, a baseline and a bound.
    m_consolidation = m_dir.filePath(QStringLiteral("consolidation.json"));
    m_consolidationPdf = m_dir.filePath(QStringLiteral("consolidation.pdf"));
    Run c;
    const QString consolidated = fleet::tests::consolidateAndReport({ QStringLiteral("--simulate"), QStringLiteral("2000") }, m_consolidation,
        m_consolidationPdf, { QStringLiteral("--format"), QStringLiteral("json") }, &c);
    QVERIFY2(consolidated.isEmpty(), qPrintable(consolidated));
    m_consolidate = QJsonDocument::fromJson(c.out).object();
    QVERIFY2(m_consolidate.contains(QStringLiteral("lowerBound")), c.out.constData());
}

void TstCliReportConsolidation::tableRepeatsHeaderAcrossPages()
{
    // The consolidation of a simulated 2,000-node fleet (initTestCase): a table over pages.
    const QString plan = m_consolidation;
    const QString pdf = m_consolidationPdf;
    const QString all = pdfText(pdf);
    QVERIFY(all.contains(QStringLiteral("simulated cluster, nodes=2000 seed=1")));
    const int pages = pdfPages(pdf);
    int tablePages = 0;
    // A drain's row is numbered from its first own move to the drain (1,204 to 1,210, an en dash): the
    // moves of its pods straight to nodes that stay are shown with it.
    static const QRegularExpression actionRow(QStringLiteral("^\\s*[\\d,]+(\u2013[\\d,]+)?\\s+drain-node\\s"), QRegularExpression::MultilineOption);
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
    // Numbered from 1, as `plan check` ("#1") and the window's Plan panel ("1.") number them.
    QString plain = all;
    plain.remove(QLatin1Char(',')); // thousands separators
    QVERIFY(QRegularExpression(QStringLiteral("^\\s*(\\d+\u2013)?%1\\s+drain-node\\s").arg(count), QRegularExpression::MultilineOption)
                .match(plain)
                .hasMatch());
    QVERIFY(!QRegularExpression(QStringLiteral("^\\s*0\\s+[a-z]+-[a-z]+\\s"), QRegularExpression::MultilineOption).match(all).hasMatch());
}

void TstCliReportConsolidation::wrappedTextIsWhole()
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

void TstCliReportConsolidation::arrowStaysWithItsNode()
{
    // A move's subject is "ns/pod -> node": the arrow is never split ("-" and ">" on two lines)
    // and stays with the node it points to. The pending pods the consolidation places first
    // are such moves, with long pod names in a narrow column.
    const QJsonObject check = runFleetscopeJson({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), m_consolidation, QStringLiteral("--format"), QStringLiteral("json") });
    const QString text = pdfText(m_consolidationPdf);
    int arrows = 0;
    for (const QJsonValue& v : check.value(QStringLiteral("actions")).toArray()) {
        const QString subject = v.toObject().value(QStringLiteral("subject")).toString();
        const qsizetype at = subject.indexOf(QStringLiteral(" -> "));
        if (at < 0)
            continue;
        // A move of a pod off a node the plan drains is shown in its drain's row, not by itself.
        if (!v.toObject().value(QStringLiteral("changes")).toArray().at(0).toObject().value(QStringLiteral("from")).isNull())
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

void TstCliReportConsolidation::boundAndBaselineArePlanConsolidates()
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
    QVERIFY2(text.contains(QStringLiteral("Beside the plan: the Karpenter baseline and the lower bounds")), qPrintable(text.left(4000)));

    // --no-baseline: neither the baseline's row nor its name in the heading.
    const QString pdf = m_dir.filePath(QStringLiteral("no-baseline.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("--no-baseline"), QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString without = pdfText(pdf);
    QVERIFY2(without.contains(QStringLiteral("Beside the plan: the lower bounds")), qPrintable(without.left(4000)));
    QVERIFY2(!without.contains(QStringLiteral("Karpenter multi-node baseline")) && !without.contains(QStringLiteral("the Karpenter baseline and")),
        qPrintable(without.left(4000)));
}

void TstCliReportConsolidation::whyNodesStayIsPlanConsolidates()
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

void TstCliReportConsolidation::recordedReasonsAreReadNotSearched()
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
    const QString text = oneLine(pdfText(m_consolidationPdf));
    QVERIFY2(text.contains(QStringLiteral("as the search recorded it in the plan file")), qPrintable(text.left(6000)));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"),
        m_consolidation, QStringLiteral("-o"), m_dir.filePath(QStringLiteral("again.png")) });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(!r.err.contains("recorded reasons"), r.err.constData());
}

void TstCliReportConsolidation::staleRecordedReasonsAreReplayed_data()
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

void TstCliReportConsolidation::staleRecordedReasonsAreReplayed()
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
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(text.contains(QStringLiteral("replayed on the loaded state")), qPrintable(text.left(6000)));
    const QJsonArray groups = m_consolidate.value(QStringLiteral("keptByCode")).toArray();
    QVERIFY(!groups.isEmpty());
    for (const QJsonValue& v : groups) {
        const QString code = v.toObject().value(QStringLiteral("code")).toString();
        const QString row = code + QStringLiteral(" ") + QString::number(v.toObject().value(QStringLiteral("nodes")).toInteger()) + QStringLiteral(" ");
        QVERIFY2(text.contains(row), qPrintable(row));
    }
}

void TstCliReportConsolidation::schedulerMessageCountsHaveSeparators()
{
    // A pending pod's kube-scheduler message ("0/2000 nodes are available: ...") is shown with
    // the report's own thousands separators, as every other count in it (pdftotext's own text:
    // pdfText() takes the separators out).
    const QString text = oneLine(QString::fromUtf8(runTool(QStringLiteral("pdftotext"), { m_consolidationPdf, QStringLiteral("-") })));
    QVERIFY2(text.contains(QStringLiteral("0/2,000 nodes are available")), qPrintable(text.left(8000)));
    QVERIFY2(!text.contains(QStringLiteral("0/2000 nodes")), qPrintable(text.left(8000)));
}

void TstCliReportConsolidation::failureWhatIfSaysLost()
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
    const QJsonObject check = runFleetscopeJson({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
    const std::int64_t lost = check.value(QStringLiteral("before")).toObject().value(QStringLiteral("nodes")).toInteger()
        - check.value(QStringLiteral("after")).toObject().value(QStringLiteral("nodes")).toInteger();
    QVERIFY2(lost > 10, qPrintable(QString::number(lost)));
    const QString pdf = m_dir.filePath(QStringLiteral("failure.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    // The failures strand pods, so their actions do not hold (plan-v1): plan check's status 1, the report written.
    QVERIFY2(r.exitCode == 1 && r.out.contains("wrote "), r.err.constData());
    const QString text = oneLine(pdfText(pdf));
    QVERIFY2(text.contains(QStringLiteral("Nodes failed %1 ").arg(lost)), qPrintable(text.left(3000)));
    QVERIFY2(!text.contains(QStringLiteral("Nodes freed")) && !text.contains(QStringLiteral("nodes freed")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("(capacity lost)")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("What the failures cost")), qPrintable(text));
    for (const char* absent : { "PodDisruptionBudgets spent", "allowed)", "Do-not-disrupt pods evicted", "What the plan risks", "the 1 domains" })
        QVERIFY2(!text.contains(QLatin1String(absent)), absent);
    QVERIFY2(QRegularExpression(QStringLiteral("GPUs lost with failed nodes [\\d.]+")).match(text).hasMatch(), qPrintable(text));
    // The banner says what the figures show: the failures that do not hold are applied (the
    // trial's banner said the figures left them out, over figures that applied them), and
    // names the row their stranded pods are counted in.
    const QString first = oneLine(pdfText(pdf, 1, 1));
    QVERIFY2(!first.contains(QStringLiteral("apply only the actions that hold")), qPrintable(first));
    QVERIFY2(QRegularExpression(QStringLiteral("(The failure that does not hold is|The \\d+ failures that do not hold are) applied all the "
                                               "same: (its|their) nodes are gone"))
                 .match(first)
                 .hasMatch(),
        qPrintable(first));
    // Plan check words each such action as the report's plan table does.
    const Run checkText = runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), plan });
    const QRegularExpressionMatch applied
        = QRegularExpression(QStringLiteral("DOES NOT HOLD, applied: ([\\d,]+) nodes fail, ([\\d,]+) pods left without a node")).match(QString::fromUtf8(checkText.out));
    QVERIFY2(applied.hasMatch(), checkText.out.constData());
    const QString raw = oneLine(withoutThousandsSeparators(QString::fromUtf8(runTool(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") }))));
    QVERIFY2(raw.contains(QStringLiteral("applied: %1 nodes fail, %2 pods left without a node")
                              .arg(withoutThousandsSeparators(applied.captured(1)), withoutThousandsSeparators(applied.captured(2)))),
        qPrintable(raw.left(6000)));
    // A failed node's emptyDir data is lost with it, not deleted by an eviction.
    QVERIFY2(!checkText.out.contains("deleted on eviction"), checkText.out.constData());
    // The DaemonSet pods that went with the failed nodes have a row of their own, plan check's.
    const qint64 daemonPods = check.value(QStringLiteral("after")).toObject().value(QStringLiteral("podsRemovedWithNodes")).toInteger();
    QVERIFY(daemonPods > 0);
    QVERIFY2(QRegularExpression(QStringLiteral("DaemonSet pods removed with their nodes\\s{2,}0\\s{2,}%1\\s{2,}\\+%1\\s").arg(daemonPods))
                 .match(pdfText(pdf, 1, 3))
                 .hasMatch(),
        qPrintable(text.left(3000)));
}

namespace {

// The text of `pdf`'s first page that holds `heading`, from the heading on ("" when none does).
QString pageFromHeading(const QString& pdf, const QString& heading)
{
    const int page = firstPageWith(pdf, heading);
    if (page == 0)
        return {};
    const QString text = pdfText(pdf, page, page);
    return text.mid(text.indexOf(heading));
}

} // namespace

void TstCliReportConsolidation::zoneFailureKeepsHeadingsWithTheirBlocks()
{
    // The trial's failure what-if: one zone fails, its action strands pods and does not hold.
    const QString plan = m_dir.filePath(QStringLiteral("zone.json"));
    QFile out(plan);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"fleetscopePlan": 1, "actions": [{"type": "fail-domain", "domain": "topology.kubernetes.io/zone=us-west-2c"}]})");
    out.close();
    const QString pdf = m_dir.filePath(QStringLiteral("zone.pdf"));
    const Run r = runFleetscope({ QStringLiteral("report"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--plan"), plan,
        QStringLiteral("-o"), pdf });
    QVERIFY2(r.exitCode == 1 && r.out.contains("wrote "), r.err.constData());
    QVERIFY2(r.err.contains("1 of 1 action does not hold"), r.err.constData());
    const QString first = oneLine(pdfText(pdf, 1, 1));
    QVERIFY2(first.contains(QStringLiteral("1 of 1 action does not hold here.")), qPrintable(first));
    QVERIFY2(first.contains(QStringLiteral("The failure that does not hold is applied all the same")), qPrintable(first));
    // A heading is never left alone at the bottom of a page: its page holds its first block
    // too (the trial: "Pending demand by shape" and the table's header on one page, the rows on
    // the next; "Where the plan changes most" and its introduction apart from the maps).
    for (const QString& report : { pdf, m_consolidationPdf }) {
        const QString pending = pageFromHeading(report, QStringLiteral("Pending demand by shape"));
        QVERIFY2(QRegularExpression(QStringLiteral("Why \\(most common\\)[\\s\\S]*\\n\\s*\\d+\\s{2,}\\S")).match(pending).hasMatch(),
            qPrintable(report + QStringLiteral(":\n") + pending));
        const QString zoomed = pageFromHeading(report, QStringLiteral("Where the plan changes most"));
        QVERIFY2(zoomed.contains(QStringLiteral("Before the plan:")), qPrintable(report + QStringLiteral(":\n") + zoomed));
    }
}

void TstCliReportConsolidation::longTitleAndExamplesAreWhole()
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

void TstCliReportConsolidation::figuresWithUsageAreSummaryAndPlanCheck()
{
    // A simulated fleet has GPU workloads and measured usage: every figure of the report's table
    // (FGD, idle allocated GPUs and pending pods among them) is in `summary --format json` and
    // `plan check --format json` on the same state and plan, and the same there.
    const QStringList source { QStringLiteral("--simulate"), QStringLiteral("2000") };
    const QJsonObject summary = fleet::tests::runFleetscopeJson(QStringList { QStringLiteral("summary"), QStringLiteral("--format"),
                                                                    QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("totals") }
                                                                + source)
                                    .value(QStringLiteral("totals"))
                                    .toObject();
    const QJsonObject check = fleet::tests::runFleetscopeJson(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + source
        + QStringList { QStringLiteral("--plan"), m_consolidation, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY(!summary.isEmpty());
    QVERIFY(!check.isEmpty());
    const QJsonObject before = check.value(QStringLiteral("before")).toObject();
    const QJsonObject after = check.value(QStringLiteral("after")).toObject();
    // The figures this fleet has: a GPU workload (FGD), measured usage, pending pods the plan places.
    QVERIFY2(summary.value(QStringLiteral("fragmented_gpus")).toDouble() > 0, qPrintable(QJsonDocument(summary).toJson()));
    QVERIFY2(summary.value(QStringLiteral("idle_allocated_gpus")).isDouble(), qPrintable(QJsonDocument(summary).toJson())); // measured
    QVERIFY2(before.value(QStringLiteral("pendingPods")).toInteger() > after.value(QStringLiteral("pendingPods")).toInteger(),
        qPrintable(QJsonDocument(before).toJson() + QJsonDocument(after).toJson()));
    QVERIFY(!after.contains(QStringLiteral("idleAllocatedGpus"))); // measured, not planned: given once
    const QString text = pdfText(m_consolidationPdf);
    const QString mismatch = fleet::tests::figuresTableMismatch(text, check, summary);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch + QLatin1Char('\n') + text.left(6000)));
}

QTEST_GUILESS_MAIN(TstCliReportConsolidation)
#include "tst_clireportconsolidation.moc"
