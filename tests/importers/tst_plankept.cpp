// SPDX-License-Identifier: Apache-2.0
// The consolidation's kept-node reasons recorded in a plan file (plan-v1.md, "consolidation";
// importers/plan/plankept.h): a real search over a simulated fleet writes them, they are read
// back whole and are the search's own list (and the replay's), and a record that is stale (other
// actions, another state) or hostile (unknown nodes, pods, codes, a node twice, too big, wrong
// types) is ignored with a sentence naming what is wrong, or refuses the file with its JSON path.

#include "importers/clusterloader.h"
#include "importers/plan/plankept.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "model/plan/planprices.h"
#include "model/search/consolidation.h"
#include "model/search/keptreplay.h"

#include <QRegularExpression>
#include <tuple>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <string>

using namespace fleet;

namespace {

// "" when `a` and `b` are the same entries, else the first difference.
std::string keptDifference(const std::vector<model::KeptNode>& a, const std::vector<model::KeptNode>& b)
{
    if (a.size() != b.size())
        return std::to_string(a.size()) + " entries, " + std::to_string(b.size()) + " entries";
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string at = "entry " + std::to_string(i) + ": ";
        if (a[i].node != b[i].node || a[i].pod != b[i].pod)
            return at + "node or pod " + std::to_string(a[i].node.value) + "/" + std::to_string(a[i].pod.value) + " vs "
                + std::to_string(b[i].node.value) + "/" + std::to_string(b[i].pod.value);
        if (!(a[i].reason == b[i].reason))
            return at + a[i].reason.code() + " \"" + a[i].reason.message + "\" vs " + b[i].reason.code() + " \"" + b[i].reason.message + "\"";
        if (!(a[i].blocking == b[i].blocking))
            return at + "blocking " + a[i].blocking.code + " " + std::to_string(a[i].blocking.nodes) + " vs " + b[i].blocking.code + " "
                + std::to_string(b[i].blocking.nodes);
    }
    return {};
}

void replaceOnce(std::string& text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    text.replace(at, from.size(), to);
}

} // namespace

class TestPlanKept : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void recordedIsTheSearchsList();
    void oldPlanWithoutRecordStillReads();
    void editedPlanDropsTheRecord();
    void staleOrHostileRecordIsIgnored_data();
    void staleOrHostileRecordIsIgnored();
    void malformedRecordRefusesTheFile_data();
    void malformedRecordRefusesTheFile();
    void laterRecordVersionIsNotRead();
    void lpBoundIsReadWhereBelieved();

private:
    importers::LoadedCluster m_cluster;
    importers::PlanSource m_source;
    model::ConsolidationResult m_result;
    importers::PlanDocument m_plan; // as `plan consolidate` writes it
    std::string m_json;
    QTemporaryDir m_dir;
};

void TestPlanKept::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cluster = importers::loadSimulatedCluster({ 600, 3 });
    m_source = importers::sourceOfSimulation(600, 3);
    model::ConsolidationInput input;
    input.nodePricePerHour = model::planNodePrices(*m_cluster.store, nullptr);
    m_result = model::consolidate(*m_cluster.store, *m_cluster.topology, input);
    QVERIFY2(!m_result.actions.empty() && m_result.kept.size() > 10, "the simulated fleet has nodes to drain and nodes that stay");
    m_plan.source = m_source;
    m_plan.actions = m_result.pendingPlaced;
    m_plan.actions.insert(m_plan.actions.end(), m_result.actions.begin(), m_result.actions.end());
    m_plan.consolidation = importers::planKeptRecord(*m_cluster.store, m_result);
    m_json = importers::planJson(m_plan);
}

void TestPlanKept::recordedIsTheSearchsList()
{
    const std::string path = m_dir.filePath(QStringLiteral("plan.json")).toStdString();
    importers::writePlanFile(m_plan, path);
    const importers::PlanDocument back = importers::readPlanFile(path);
    QVERIFY(back.consolidation.has_value());
    QCOMPARE(back.consolidation->kept.size(), m_result.kept.size());
    QCOMPARE(back.consolidation->actionsSha256, importers::planActionsSha256(m_plan.actions));
    QCOMPARE(back.consolidation->order, m_result.order);
    const importers::RecordedKept recorded = importers::recordedKept(*m_cluster.store, back, m_source);
    QVERIFY2(recorded.kept.has_value(), recorded.problem.c_str());
    QVERIFY(recorded.problem.empty());
    QCOMPARE(recorded.kept->order, m_result.order);
    const std::string ownDifference = keptDifference(recorded.kept->kept, m_result.kept);
    QVERIFY2(ownDifference.empty(), ownDifference.c_str());
    // The replay of the search (what a report of an old plan runs) finds the same list.
    model::ConsolidationInput input;
    input.nodePricePerHour = model::planNodePrices(*m_cluster.store, nullptr);
    const auto replayed = model::replayConsolidationKept(*m_cluster.store, *m_cluster.topology, input, back.actions);
    QVERIFY(replayed.has_value());
    // The replay (what a report of an old plan runs) keeps the same nodes for the same reasons;
    // its blocking-filter counts may differ (judged under the state of one pass, not the
    // search's), which is why the search's own list is recorded.
    QCOMPARE(replayed->kept.size(), recorded.kept->kept.size());
    for (std::size_t i = 0; i < replayed->kept.size(); ++i) {
        QCOMPARE(replayed->kept[i].node, recorded.kept->kept[i].node);
        QCOMPARE(replayed->kept[i].reason.code(), recorded.kept->kept[i].reason.code());
    }
    // Written again, the file is the same bytes (the digest is of the actions, not the layout).
    QCOMPARE(importers::planJson(back), m_json);
}

void TestPlanKept::oldPlanWithoutRecordStillReads()
{
    importers::PlanDocument old = m_plan;
    old.consolidation.reset();
    const std::string json = importers::planJson(old);
    QVERIFY(json.find("\"consolidation\"") == std::string::npos);
    const importers::PlanDocument back = importers::parsePlanText(json, "old.json");
    QVERIFY(!back.consolidation);
    const importers::RecordedKept recorded = importers::recordedKept(*m_cluster.store, back, m_source);
    QVERIFY(!recorded.kept);
    QVERIFY(recorded.problem.empty()); // nothing to say: the report replays, as it always did
}

void TestPlanKept::editedPlanDropsTheRecord()
{
    // A record stamped for the search's actions is not written beside other actions.
    importers::PlanDocument stamped = importers::parsePlanText(m_json, "plan.json");
    stamped.actions.pop_back();
    const std::string json = importers::planJson(stamped);
    QVERIFY(json.find("\"consolidation\"") == std::string::npos);
    // A file edited by hand (a drain removed, the record left) is read, and its record ignored.
    std::string edited = m_json;
    const std::string lastDrain = "\"node\": \"" + m_plan.actions.back().node + "\"";
    replaceOnce(edited, lastDrain, "\"node\": \"" + m_plan.actions.front().node + "\"");
    const importers::PlanDocument back = importers::parsePlanText(edited, "edited.json");
    QVERIFY(back.consolidation.has_value());
    const importers::RecordedKept recorded = importers::recordedKept(*m_cluster.store, back, m_source);
    QVERIFY(!recorded.kept);
    QVERIFY2(recorded.problem.find("are of other actions (the plan was changed after its search)") != std::string::npos, recorded.problem.c_str());
}

void TestPlanKept::staleOrHostileRecordIsIgnored_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("problem");
    QTest::newRow("another state") << 0 << QStringLiteral("are of the state the plan was made on, not this one");
    QTest::newRow("no source") << 1 << QStringLiteral("cannot be shown to be this state's: the plan names no source");
    QTest::newRow("unknown node") << 2 << QStringLiteral("name node \"no-such-node\", which this state lacks (entry 0)");
    QTest::newRow("node twice") << 3 << QStringLiteral("twice (entry 1)");
    QTest::newRow("drained node") << 4 << QStringLiteral("which the plan drains (entry 0)");
    QTest::newRow("unknown pod") << 5 << QStringLiteral("name pod \"ns/no-such-pod\", which this state lacks (entry 0)");
    QTest::newRow("unknown code") << 6 << QStringLiteral("give an unknown reason code \"made-up-reason\" (entry 0)");
    QTest::newRow("unknown order") << 7 << QStringLiteral("name an unknown search order \"random\"");
    QTest::newRow("more entries than nodes") << 8 << QStringLiteral("more than the state's 600");
    QTest::newRow("unknown blocking code") << 9 << QStringLiteral("unknown blocking filter code \"nope\" (entry 0)");
}

void TestPlanKept::staleOrHostileRecordIsIgnored()
{
    QFETCH(int, kind);
    QFETCH(QString, problem);
    importers::PlanDocument plan = importers::parsePlanText(m_json, "plan.json");
    importers::PlanSource current = m_source;
    auto& kept = plan.consolidation->kept;
    switch (kind) {
    case 0: current = importers::sourceOfSimulation(600, 4); break;
    case 1: plan.source = {}; break;
    case 2: kept[0].node = "no-such-node"; break;
    case 3: kept[1].node = kept[0].node; break;
    case 4: kept[0].node = plan.actions.back().node; break;
    case 5: kept[0].pod = "ns/no-such-pod"; break;
    case 6: kept[0].code = "made-up-reason"; break;
    case 7: plan.consolidation->order = "random"; break;
    case 8: while (kept.size() <= 600) kept.push_back(kept[0]); break;
    case 9: kept[0].blocking.code = "nope"; break;
    }
    // Each case survives the file: written and read back (a hostile file is no different).
    const importers::PlanDocument back = importers::parsePlanText(importers::planJson(plan), "plan.json");
    QVERIFY(back.consolidation.has_value());
    const importers::RecordedKept recorded = importers::recordedKept(*m_cluster.store, back, current);
    QVERIFY(!recorded.kept);
    QVERIFY2(QString::fromStdString(recorded.problem).contains(problem), recorded.problem.c_str());
    QVERIFY(recorded.problem.starts_with("the plan's recorded reasons why nodes stay "));
}

void TestPlanKept::malformedRecordRefusesTheFile_data()
{
    // `from` is a pattern: its first match in the record's text becomes `to`.
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("error");
    QTest::newRow("digest not hex") << QStringLiteral("\"actionsSha256\": \"") << QStringLiteral("\"actionsSha256\": \"XY")
                                    << QStringLiteral("at $.consolidation.actionsSha256: expected 64 lowercase hex digits");
    QTest::newRow("order not a string") << QStringLiteral("\"order\": \"[a-z-]+\"") << QStringLiteral("\"order\": 5")
                                        << QStringLiteral("at $.consolidation.order: expected a string");
    QTest::newRow("kept not an array") << QStringLiteral("\"kept\": \\[") << QStringLiteral("\"kept\": 5, \"x\": [")
                                       << QStringLiteral("at $.consolidation: unknown field \"x\"");
    QTest::newRow("unknown entry field") << QStringLiteral("\"code\": ") << QStringLiteral("\"evil\": 1, \"code\": ")
                                         << QStringLiteral("at $.consolidation.kept[0]: unknown field \"evil\"");
    QTest::newRow("node not a string") << QStringLiteral("(\"kept\": \\[\\s*\\{\\s*\"node\": )\"[^\"]*\"") << QStringLiteral("\\1true")
                                       << QStringLiteral("at $.consolidation.kept[0].node: expected a string");
    QTest::newRow("message too long") << QStringLiteral("\"message\": \"") << QStringLiteral("\"message\": \"") + QString(5000, QLatin1Char('m'))
                                      << QStringLiteral("at $.consolidation.kept[0].message: longer than 4096 bytes");
    QTest::newRow("field twice") << QStringLiteral("\"order\": ") << QStringLiteral("\"order\": \"a\", \"order\": ")
                                 << QStringLiteral("at $.consolidation: the field \"order\" is given twice");
}

void TestPlanKept::malformedRecordRefusesTheFile()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, error);
    QString json = QString::fromStdString(m_json);
    const qsizetype record = json.indexOf(QStringLiteral("\"consolidation\""));
    QVERIFY(record > 0);
    const QRegularExpressionMatch m = QRegularExpression(from).match(json, record);
    QVERIFY2(m.hasMatch(), qPrintable(from));
    QString replacement = to;
    replacement.replace(QStringLiteral("\\1"), m.captured(1));
    json.replace(m.capturedStart(), m.capturedLength(), replacement);
    try {
        (void)importers::parsePlanText(json.toStdString(), "bad.json");
        QFAIL("the file was read");
    } catch (const importers::PlanFileError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("bad.json: ")), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
    }
}

void TestPlanKept::laterRecordVersionIsNotRead()
{
    // A later Fleetscope's record: the plan is still read, the record is not, and the report says so.
    std::string json = m_json;
    replaceOnce(json, "\"version\": 1", "\"version\": 2, \"shape\": \"new\"");
    const importers::PlanDocument back = importers::parsePlanText(json, "later.json");
    QVERIFY(!back.consolidation);
    QCOMPARE(back.actions.size(), m_plan.actions.size());
    const importers::RecordedKept recorded = importers::recordedKept(*m_cluster.store, back, m_source);
    QVERIFY(!recorded.kept);
    QVERIFY2(recorded.problem.find("version 2 (this Fleetscope reads 1): not read") != std::string::npos, recorded.problem.c_str());
}

void TestPlanKept::lpBoundIsReadWhereBelieved()
{
    // Written and read back; believed beside a usable record when it is at most the nodes there.
    importers::PlanDocument plan = m_plan;
    plan.consolidation->lpBound = importers::PlanKeptRecord::LpBound { 421 };
    const importers::PlanDocument back = importers::parsePlanText(importers::planJson(plan), "lp.json");
    QVERIFY(back.consolidation && back.consolidation->lpBound);
    QCOMPARE(back.consolidation->lpBound->nodes, std::int64_t(421));
    QCOMPARE(importers::recordedKept(*m_cluster.store, back, m_source).lpBoundNodes, std::int64_t(421));
    // Without one (--lp-time-limit 0), none; above the state's 600 nodes, not believed.
    QCOMPARE(importers::recordedKept(*m_cluster.store, m_plan, m_source).lpBoundNodes, std::int64_t(-1));
    plan.consolidation->lpBound->nodes = 601;
    QCOMPARE(importers::recordedKept(*m_cluster.store, importers::parsePlanText(importers::planJson(plan), "lp.json"), m_source).lpBoundNodes,
        std::int64_t(-1));
    // On another state the whole record is stale, the bound with it.
    plan.consolidation->lpBound->nodes = 421;
    importers::PlanSource other = m_source;
    other.simulated = "nodes=600 seed=4 regions=1";
    QCOMPARE(importers::recordedKept(*m_cluster.store, importers::parsePlanText(importers::planJson(plan), "lp.json"), other).lpBoundNodes,
        std::int64_t(-1));
    // A malformed bound refuses the file with its path.
    const std::string good = importers::planJson(plan);
    for (const auto& [from, to, error] : { std::tuple { std::string("\"nodes\": 421"), std::string("\"nodes\": -3"), std::string("at $.consolidation.lpBound.nodes") },
             std::tuple { std::string("\"nodes\": 421"), std::string("\"nodes\": \"many\""), std::string("at $.consolidation.lpBound.nodes: expected an integer") },
             std::tuple { std::string("\"nodes\": 421"), std::string("\"nodes\": 421, \"x\": 1"), std::string("at $.consolidation.lpBound: unknown field \"x\"") } }) {
        std::string bad = good;
        const std::size_t at = bad.find(from, bad.find("\"lpBound\""));
        QVERIFY(at != std::string::npos);
        bad.replace(at, from.size(), to);
        try {
            (void)importers::parsePlanText(bad, "bad.json");
            QFAIL(qPrintable(QString::fromStdString("read: " + to)));
        } catch (const importers::PlanFileError& e) {
            QVERIFY2(std::string(e.what()).find(error) != std::string::npos, e.what());
        }
    }
}

QTEST_GUILESS_MAIN(TestPlanKept)
#include "tst_plankept.moc"
