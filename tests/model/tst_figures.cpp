// SPDX-License-Identifier: Apache-2.0
// Tests of model/figures.h: the one rule for writing figures that the status bar, the map's
// tooltip and `summary` text share. Each row is a figure an operator reads somewhere; the
// user trial's disagreements (0.5 vs 0.45 cores, GiB vs MiB, PiB vs EiB) are rows too.

#include "model/figures.h"

#include "common/units.h"

#include <QtTest>

#include <cmath>
#include <limits>

namespace {
using fleet::testing::kGi;
using fleet::testing::kKi;
using fleet::testing::kMi;
using fleet::testing::kTi;
constexpr qint64 kPi = kTi * 1024;
constexpr qint64 kEi = kPi * 1024;
} // namespace

class TestFigures : public QObject {
    Q_OBJECT
private slots:
    void count_data();
    void count();
    void cpu_data();
    void cpu();
    void bytes_data();
    void bytes();
    void gpu_data();
    void gpu();
    void share_data();
    void share();
    void dollars_data();
    void dollars();
    void significant_data();
    void significant();
};

void TestFigures::count_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << 0LL << "0";
    QTest::newRow("999") << 999LL << "999";
    QTest::newRow("1,000") << 1000LL << "1,000";
    QTest::newRow("pods at 100k") << 1683908LL << "1,683,908";
    QTest::newRow("negative") << -1234LL << "-1,234";
    QTest::newRow("int64 min") << std::numeric_limits<qint64>::min() << "-9,223,372,036,854,775,808";
}

void TestFigures::count()
{
    QFETCH(qint64, n);
    QTEST(QString::fromStdString(fleet::model::formatCount(n)), "text");
}

void TestFigures::cpu_data()
{
    QTest::addColumn<qint64>("millicores");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0LL << "0 cores";
    QTest::newRow("1m") << 1LL << "0.001 cores";
    QTest::newRow("450m, not 0.5") << 450LL << "0.45 cores";
    QTest::newRow("195.3m") << 195LL << "0.195 cores";
    QTest::newRow("one core") << 1000LL << "1 core";
    QTest::newRow("15.82 cores") << 15820LL << "15.8 cores";
    QTest::newRow("rounds to 10") << 9996LL << "10 cores";
    QTest::newRow("304") << 304000LL << "304 cores";
    QTest::newRow("999.6 is 1k") << 999600LL << "1k cores";
    QTest::newRow("1.23k") << 1234000LL << "1.23k cores";
    QTest::newRow("8.44M") << 8437551250LL << "8.44M cores";
    QTest::newRow("12.8M") << 12800000000LL << "12.8M cores";
    QTest::newRow("negative") << -500LL << "-0.5 cores";
}

void TestFigures::cpu()
{
    QFETCH(qint64, millicores);
    QTEST(QString::fromStdString(fleet::model::formatCpuMillicores(millicores)), "text");
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(fleet::model::formatCores(millicores)), text.section(QLatin1Char(' '), 0, 0));
}

void TestFigures::bytes_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << 0LL << "0 B";
    QTest::newRow("100 B") << 100LL << "100 B";
    QTest::newRow("1000 B") << 1000LL << "1000 B";
    QTest::newRow("1023 B") << 1023LL << "1023 B";
    QTest::newRow("1 KiB") << kKi << "1 KiB";
    QTest::newRow("1.5 KiB") << 1536LL << "1.5 KiB";
    QTest::newRow("200 MiB, as summary and status bar") << 200 * kMi << "200 MiB";
    QTest::newRow("1023.9 MiB is 1 GiB") << 1024 * kMi - 100 * kKi << "1 GiB";
    QTest::newRow("1.5 GiB") << 1610612736LL << "1.5 GiB";
    QTest::newRow("EKS fixture") << 2 * 31127824LL * 1024 << "59.4 GiB";
    QTest::newRow("2 TiB") << 2 * kTi << "2 TiB";
    QTest::newRow("69.9 PiB, not EiB") << static_cast<qint64>(69.9 * static_cast<double>(kPi)) << "69.9 PiB";
    QTest::newRow("111 PiB") << 111 * kPi << "111 PiB";
    QTest::newRow("7 EiB") << 7 * kEi << "7 EiB";
    QTest::newRow("int64 max") << std::numeric_limits<qint64>::max() << "8 EiB";
    QTest::newRow("negative") << -3 * kGi << "-3 GiB";
}

void TestFigures::bytes()
{
    QFETCH(qint64, bytes);
    QTEST(QString::fromStdString(fleet::model::formatBytes(bytes)), "text");
}

void TestFigures::gpu_data()
{
    QTest::addColumn<qint64>("gpuMilli");
    QTest::addColumn<QString>("text");
    QTest::newRow("none") << 0LL << "0 GPUs";
    QTest::newRow("half") << 500LL << "0.5 GPU";
    QTest::newRow("one") << 1000LL << "1 GPU";
    QTest::newRow("eight") << 8000LL << "8 GPUs";
    QTest::newRow("shared, three digits") << 15555LL << "15.6 GPUs";
    QTest::newRow("999") << 999000LL << "999 GPUs";
    QTest::newRow("whole from 1,000") << 322935000LL << "322,935 GPUs";
    QTest::newRow("fraction at scale") << 360464400LL << "360,464 GPUs";
}

void TestFigures::gpu()
{
    QFETCH(qint64, gpuMilli);
    QTEST(QString::fromStdString(fleet::model::formatGpuMilli(gpuMilli)), "text");
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(fleet::model::formatGpus(gpuMilli)), text.section(QLatin1Char(' '), 0, 0));
    if (gpuMilli % 1000 == 0)
        QCOMPARE(QString::fromStdString(fleet::model::formatDevices(gpuMilli / 1000)), text.section(QLatin1Char(' '), 0, 0));
}

void TestFigures::share_data()
{
    QTest::addColumn<double>("share");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << "0.0%";
    QTest::newRow("45.3%") << 0.4531 << "45.3%";
    QTest::newRow("full") << 1.0 << "100.0%";
    QTest::newRow("over") << 1.25 << "125.0%";
    QTest::newRow("tiny negative") << -1e-9 << "0.0%";
    QTest::newRow("NaN") << std::nan("") << "n/a";
}

void TestFigures::share()
{
    QFETCH(double, share);
    QTEST(QString::fromStdString(fleet::model::formatShare(share)), "text");
}

void TestFigures::dollars_data()
{
    QTest::addColumn<double>("dollars");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << "$0.00/h";
    QTest::newRow("98.32") << 98.32 << "$98.32/h";
    QTest::newRow("999.99") << 999.99 << "$999.99/h";
    QTest::newRow("999.999 is 1k") << 999.999 << "$1k/h";
    QTest::newRow("12.3k") << 12345.6 << "$12.3k/h";
    QTest::newRow("4.56M") << 4560000.0 << "$4.56M/h";
    QTest::newRow("negative saving") << -12.5 << "-$12.50/h";
    QTest::newRow("NaN") << std::nan("") << "n/a";
}

void TestFigures::dollars()
{
    QFETCH(double, dollars);
    QTEST(QString::fromStdString(fleet::model::formatDollarsPerHour(dollars)), "text");
}

void TestFigures::significant_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("0.45") << 0.45 << "0.45";
    QTest::newRow("0.1953") << 0.1953125 << "0.195";
    QTest::newRow("304") << 304.0 << "304";
    QTest::newRow("999.4") << 999.4 << "999";
    QTest::newRow("999.6") << 999.6 << "1k";
    QTest::newRow("1234") << 1234.0 << "1.23k";
    QTest::newRow("12.8M") << 12800000.0 << "12.8M";
    QTest::newRow("1.2G") << 1.2e9 << "1.2G";
    QTest::newRow("T is the last suffix") << 5e15 << "5000T";
    QTest::newRow("negative") << -0.5 << "-0.5";
    QTest::newRow("NaN") << std::nan("") << "n/a";
}

void TestFigures::significant()
{
    QFETCH(double, value);
    QTEST(QString::fromStdString(fleet::model::formatSignificant(value)), "text");
}

QTEST_APPLESS_MAIN(TestFigures)
#include "tst_figures.moc"
