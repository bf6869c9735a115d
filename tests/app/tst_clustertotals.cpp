// The status bar's figures: one compact number format (formatAmount), the shorter variants of
// the totals line, and its full details.

#include "app/clustertotals.h"

#include <QtTest>

using fleet::app::ClusterTotals;
Q_DECLARE_METATYPE(fleet::app::ClusterTotals)

class TestClusterTotals : public QObject {
    Q_OBJECT
private slots:
    void formatAmount_data();
    void formatAmount();
    void variants_data();
    void variants();
    void details();
};

void TestClusterTotals::formatAmount_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    // Three significant digits below 1,000, whole with separators below a million, then SI.
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("tiny") << 0.001 << "0.001";
    QTest::newRow("0.45") << 0.45 << "0.45";
    QTest::newRow("0.1953") << 0.1953125 << "0.195";
    QTest::newRow("whole") << 12.0 << "12";
    QTest::newRow("15.82") << 15.82 << "15.8";
    QTest::newRow("rounds up to 10") << 9.996 << "10";
    QTest::newRow("111.0 PiB") << 111.02 << "111";
    QTest::newRow("999.4") << 999.4 << "999";
    QTest::newRow("999.6 is 1,000") << 999.6 << "1,000";
    QTest::newRow("GPUs") << 322935.0 << "322,935";
    QTest::newRow("GPUs, fraction") << 360464.4 << "360,464";
    QTest::newRow("just below a million") << 999999.4 << "999,999";
    QTest::newRow("a million") << 999999.6 << "1M";
    QTest::newRow("CPU requested") << 8437551.25 << "8.44M";
    QTest::newRow("CPU allocatable") << 12800000.0 << "12.8M";
    QTest::newRow("hundreds of millions") << 128400000.0 << "128M";
    QTest::newRow("billions") << 1.2e9 << "1.2G";
    QTest::newRow("negative") << -0.5 << "-0.5";
}

void TestClusterTotals::formatAmount()
{
    QFETCH(double, value);
    QTEST(fleet::app::formatAmount(value), "text");
}

void TestClusterTotals::variants_data()
{
    QTest::addColumn<ClusterTotals>("totals");
    QTest::addColumn<QStringList>("variants");

    // The 100,000-node simulation of the user trial (figures rounded as the trial showed them).
    ClusterTotals big;
    big.nodes = 100000;
    big.nodesReady = 99000;
    big.nodesNotReady = 1000;
    big.nodesCordoned = 500;
    big.pods = 2000000;
    big.podsCounted = 1900000;
    big.podsPending = 1234;
    big.gpuRequestedMilli = 322'935'000;
    big.gpuAllocatableMilli = 360'464'000;
    big.cpuRequestedMillicores = 8'437'551'250;
    big.cpuAllocatableMillicores = 12'800'000'000;
    big.memoryRequestedBytes = static_cast<std::int64_t>(69.9 * double(1LL << 50));
    big.memoryAllocatableBytes = 111LL << 50;
    const QString resources = QStringLiteral("GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores | Memory 69.9 / 111 PiB");
    QTest::newRow("100k nodes") << big
                                << QStringList {
                                       QStringLiteral(
                                           "Nodes 100,000 (99,000 ready, 1,000 NotReady, 500 cordoned) | Pods 2,000,000 "
                                           "(1,900,000 counted, 1,234 pending) | ")
                                           + resources,
                                       QStringLiteral("Nodes 100,000 | Pods 2,000,000 | ") + resources,
                                       resources,
                                   };

    // tests/data/app/README.md: small-cluster.json.
    ClusterTotals small;
    small.nodes = 3;
    small.nodesReady = 3;
    small.pods = 5;
    small.podsCounted = 3;
    small.podsPending = 1;
    small.gpuRequestedMilli = 4000;
    small.gpuAllocatableMilli = 8000;
    small.cpuRequestedMillicores = 12000;
    small.cpuAllocatableMillicores = 76000;
    small.memoryRequestedBytes = 40LL << 30;
    small.memoryAllocatableBytes = 304LL << 30;
    QTest::newRow("small-cluster") << small
                                   << QStringList {
                                          QStringLiteral(
                                              "Nodes 3 (3 ready, 0 NotReady, 0 cordoned) | Pods 5 (3 counted, 1 pending) | "
                                              "GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 / 304 GiB"),
                                          QStringLiteral(
                                              "Nodes 3 | Pods 5 | GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 / 304 GiB"),
                                          QStringLiteral("GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 / 304 GiB"),
                                      };

    // TiB: 2,048 GiB allocatable.
    ClusterTotals tib;
    tib.memoryRequestedBytes = 512LL << 30;
    tib.memoryAllocatableBytes = 2048LL << 30;
    QTest::newRow("TiB") << tib
                         << QStringList {
                                QStringLiteral("Nodes 0 (0 ready, 0 NotReady, 0 cordoned) | Pods 0 (0 counted, 0 pending) | "
                                               "GPUs 0 / 0 | CPU 0 / 0 cores | Memory 0.5 / 2 TiB"),
                                QStringLiteral("Nodes 0 | Pods 0 | GPUs 0 / 0 | CPU 0 / 0 cores | Memory 0.5 / 2 TiB"),
                                QStringLiteral("GPUs 0 / 0 | CPU 0 / 0 cores | Memory 0.5 / 2 TiB"),
                            };
}

void TestClusterTotals::variants()
{
    QFETCH(ClusterTotals, totals);
    QFETCH(QStringList, variants);
    QCOMPARE(fleet::app::clusterTotalsVariants(totals), variants);
    QCOMPARE(fleet::app::formatClusterTotals(totals), variants.front());
    QCOMPARE(fleet::app::formatTotals(totals), variants.front() + QStringLiteral(" | 0 warnings"));
}

void TestClusterTotals::details()
{
    ClusterTotals t;
    t.nodes = 2;
    t.nodesReady = 2;
    t.pods = 11;
    t.podsCounted = 11;
    t.cpuRequestedMillicores = 450;
    t.cpuAllocatableMillicores = 15820;
    t.memoryRequestedBytes = 200LL << 20;
    t.memoryAllocatableBytes = 2 * 31127824LL * 1024;
    QCOMPARE(fleet::app::clusterTotalsDetails(t),
        QStringLiteral("Nodes 2: 2 ready, 0 NotReady, 0 cordoned\n"
                       "Pods 11: 11 counted, 0 pending\n"
                       "GPUs requested / allocatable: 0 / 0\n"
                       "CPU requested / allocatable: 0.45 / 15.82 cores\n"
                       "Memory requested / allocatable: 0.2 / 59.4 GiB"));
}

QTEST_APPLESS_MAIN(TestClusterTotals)
#include "tst_clustertotals.moc"
