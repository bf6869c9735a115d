// SPDX-License-Identifier: Apache-2.0
// The FGD paper's experiment on the real trace (model/search/tracereplay.h over
// ../shared/data/alibaba-gpu-v2023-openb): the workload generation of PROTOCOL.md section 2
// and, for each of the paper's six policies, one seed of the default trace within 1.5
// points of that seed's row in expected_results/analysis_allo_discrete.csv (unallocated GPU %
// at 100% arrived). Our random stream is not Go's, so a seed's run differs from the
// reference's; 1.5 points is several standard deviations of every policy (PROTOCOL.md's
// Table A), while the policies lie 1.1 to 9 points apart, so a wrong rule fails.

#include "shareddata.h"

#include "importers/traces/fgdtrace.h"
#include "model/search/tracereplay.h"
#include "model/placement/typicalpods.h"

#include <QtTest>

using namespace fleet;

namespace {
const std::string kData = std::string(FLEET_SHARED_DATA_DIR) + "/alibaba-gpu-v2023-openb";
}

class TestFgdReplay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void workloadFollowsTheProtocol();
    void typicalPodsOfTheDefaultTrace();
    void seedMatchesTheReference_data();
    void seedMatchesTheReference();
    void badFolderAndTraceAreErrors();

private:
    model::ClusterStore m_store;
    importers::FgdReference m_reference;
};

void TestFgdReplay::initTestCase()
{
    FLEET_REQUIRE_SHARED_DATA();
    m_store = importers::loadFgdTrace(kData, "default");
    m_reference = importers::loadFgdReference(kData);
}

void TestFgdReplay::workloadFollowsTheProtocol()
{
    QCOMPARE(m_store.nodeCount(), std::size_t(1213));
    QCOMPARE(m_store.podCount(), std::size_t(8152));
    QCOMPARE(m_store.totalAllocatable()[model::CoreResource::Gpu], std::int64_t(6212000));
    const model::TraceWorkload w = model::generateTraceWorkload(m_store, 42);
    // Tune up: the whole list first (each pod once), then about 2.6 k drawn copies up to 130%.
    QCOMPARE(w.podsRemoved, std::size_t(0));
    QVERIFY2(w.podsAdded > 2300 && w.podsAdded < 3000, qPrintable(QString::number(w.podsAdded)));
    QCOMPARE(w.pods.size(), m_store.podCount() + w.podsAdded);
    std::vector<int> seen(m_store.podCount());
    std::int64_t total = 0;
    for (std::size_t i = 0; i < w.pods.size(); ++i) {
        if (i < m_store.podCount())
            ++seen[w.pods[i].index()];
        total += model::podShape(m_store, w.pods[i]).gpuRequestMilli();
    }
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
    QVERIFY2(total <= 8075600 + 8000 && total > 8075600 - 1000, qPrintable(QString::number(total)));
    // Shuffled: not in name order.
    QVERIFY(m_store.podName(w.pods[0]) != "openb-pod-0000" || m_store.podName(w.pods[1]) != "openb-pod-0001");
    // The node order is a permutation; another seed gives another one.
    std::vector<std::uint32_t> ranks = w.nodeRank;
    std::sort(ranks.begin(), ranks.end());
    for (std::uint32_t i = 0; i < ranks.size(); ++i)
        QCOMPARE(ranks[i], i);
    QVERIFY(model::generateTraceWorkload(m_store, 43).nodeRank != w.nodeRank);
    QCOMPARE(model::generateTraceWorkload(m_store, 42).pods, w.pods);
    // Tune down on multigpu50 (its list asks for more than 130%).
    const model::ClusterStore multi = importers::loadFgdTrace(kData, "multigpu50");
    const model::TraceWorkload down = model::generateTraceWorkload(multi, 42);
    QCOMPARE(down.podsAdded, std::size_t(0));
    QVERIFY(down.podsRemoved > 0);
    QCOMPARE(down.pods.size() + down.podsRemoved, multi.podCount());
}

void TestFgdReplay::typicalPodsOfTheDefaultTrace()
{
    // PROTOCOL.md 4.1: 35 keys kept, 7,766 of 8,152 pods, CPU-only keys about 0.136.
    const auto all = model::traceTypicalPods(m_store);
    QCOMPARE(all.size(), std::size_t(91));
    const auto typical = model::limitCoverage(all, 0.95);
    QCOMPARE(typical.size(), std::size_t(35));
    std::size_t kept = 0;
    double cpuOnly = 0;
    for (const model::TypicalPod& t : typical) {
        kept += t.count;
        if (t.shape.gpuCount == 0)
            cpuOnly += t.probability;
    }
    QCOMPARE(kept, std::size_t(7766));
    QVERIFY2(std::abs(cpuOnly - 0.136) < 0.005, qPrintable(QString::number(cpuOnly)));
}

void TestFgdReplay::seedMatchesTheReference_data()
{
    QTest::addColumn<QString>("policy");
    for (const std::string& p : model::paperPolicyNames())
        QTest::newRow(p.c_str()) << QString::fromStdString(p);
}

void TestFgdReplay::seedMatchesTheReference()
{
    QFETCH(QString, policy);
    const std::uint64_t seed = 42;
    const auto row = m_reference["default"][policy.toStdString()];
    QVERIFY2(row.count(seed) == 1, "expected_results has no row for the seed");
    const double expected = row.at(seed);
    const auto typical = model::traceTypicalPods(m_store);
    const model::ReplayResult r = model::replayTracePolicy(m_store, typical, policy.toStdString(), seed);
    qInfo("%s seed %llu: %.2f%% unallocated (reference %.2f%%), %zu placed, %zu failed, %.2f s", qPrintable(policy),
        static_cast<unsigned long long>(seed), r.unallocatedGpuPercent, expected, r.podsPlaced, r.podsFailed, r.seconds);
    QVERIFY2(std::abs(r.unallocatedGpuPercent - expected) <= 1.5,
        qPrintable(QStringLiteral("%1: %2 vs the reference's %3").arg(policy).arg(r.unallocatedGpuPercent).arg(expected)));
    // Up to about 90% arrived every policy but Random places everything (Table D).
    if (policy != QLatin1String("Random"))
        QVERIFY(std::abs(r.allocatedPercent[80] - 80.0) < 0.5);
}

void TestFgdReplay::badFolderAndTraceAreErrors()
{
    try {
        (void)importers::loadFgdTrace("/nonexistent", "default");
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("no csv/openb_node_list_gpu_node.csv")));
    }
    try {
        (void)importers::loadFgdTrace(kData, "nosuch");
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("unknown trace \"nosuch\"")));
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("multigpu50")));
    }
}

QTEST_GUILESS_MAIN(TestFgdReplay)
#include "tst_fgdreplay.moc"
