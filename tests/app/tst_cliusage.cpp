// SPDX-License-Identifier: Apache-2.0
// The usage options of the command line (app/cli/clustersource.h): `summary` and
// `screenshot --metric gpu-idle` of a kubectl JSON file with its usage from a real Prometheus
// (tests/importers/prometheusserver.h), the simulated cluster's own usage, and the errors: a
// Prometheus that cannot be reached is a warning and the usage metric then refuses; options
// that need --prometheus; a bad --usage-time; --usage-config and its errors.

#include "fleetscoperun.h"
#include "importers/prometheusserver.h"
#include "importers/stallingserver.h"

#include <QDateTime>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using fleet::tests::runFleetscope;

namespace {
const QString kSmall = QStringLiteral(FLEET_TEST_DATA_DIR "/app/small-cluster.json");

// gpu-node-a holds ml/train-0 (4 GPUs): GPUs 0-1 busy, 2-3 idle for the whole hour.
QByteArray history(qint64 last)
{
    QByteArray om = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int i = 60; i >= 0; --i)
        for (int gpu = 0; gpu < 4; ++gpu)
            om += QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"gpu-node-a\",exported_namespace=\"ml\",exported_pod=\"train-0\"} "
                                 "%2 %3\n")
                      .arg(gpu)
                      .arg(gpu < 2 ? 90 : 1)
                      .arg(last - i * 60)
                      .toUtf8();
    return om + "# EOF\n";
}
} // namespace

class TstCliUsage : public QObject {
    Q_OBJECT
private slots:
    void fromPrometheus();
    void fromUsageConfig();
    void badUsageConfig();
    void simulatedHasUsage();
    void unreachableIsAWarning();
    void silentPrometheusIsBounded();
    void oversizedPrometheusAnswerIsAWarning_data();
    void oversizedPrometheusAnswerIsAWarning();
    void badOptions_data();
    void badOptions();
};

void TstCliUsage::fromPrometheus()
{
    const qint64 last = QDateTime::currentSecsSinceEpoch() - 60;
    PrometheusServer server(history(last));
    QVERIFY2(!server.url().isEmpty(), qPrintable(server.error()));
    const QStringList usage { QStringLiteral("--prometheus"), server.url(), QStringLiteral("--usage-time"), QString::number(last) };
    const auto summary = runFleetscope(QStringList { QStringLiteral("summary"), kSmall } + usage);
    QCOMPARE(summary.exitCode, 0);
    QVERIFY2(summary.out.contains("usage (Prometheus " + server.url().toUtf8() + "): 2 of 4 allocated GPUs idle for 1 h (below 5%)"),
        summary.out.constData());

    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("idle.png"));
    const auto shot = runFleetscope(QStringList { QStringLiteral("screenshot"), kSmall, QStringLiteral("--metric"), QStringLiteral("gpu-idle"),
                                        QStringLiteral("-o"), png }
        + usage);
    QVERIFY2(shot.exitCode == 0, shot.err.constData());
    QVERIFY(!QImage(png).isNull());
}

// --usage-config: the node joined by another label, another window and threshold, a token
// file named relative to the config.
void TstCliUsage::fromUsageConfig()
{
    const qint64 last = QDateTime::currentSecsSinceEpoch() - 60;
    PrometheusServer server(history(last).replace("Hostname=", "node_name="));
    QVERIFY2(!server.url().isEmpty(), qPrintable(server.error()));
    QTemporaryDir dir;
    QFile token(dir.filePath(QStringLiteral("token")));
    QVERIFY(token.open(QIODevice::WriteOnly) && token.write("not-a-secret\n") > 0);
    token.close();
    QFile config(dir.filePath(QStringLiteral("usage.yaml")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("prometheus:\n  url: " + server.url().toUtf8() + "\n  bearerTokenFile: token\nqueries:\n  gpuNodeLabel: node_name\n"
                 "idle:\n  window: 30m\n  threshold: 95%\ntime: " + QByteArray::number(last) + "\n");
    config.close();
    const auto summary = runFleetscope({ QStringLiteral("summary"), kSmall, QStringLiteral("--usage-config"), config.fileName() });
    QVERIFY2(summary.exitCode == 0, summary.err.constData());
    QVERIFY2(summary.out.contains("usage (Prometheus " + server.url().toUtf8() + "): 4 of 4 allocated GPUs idle for 30 min (below 95%)"),
        summary.out.constData());
    // The token went to a plain http:// Prometheus: the operator is told, once, never shown it.
    QVERIFY2(summary.err.contains("warning: user \"prometheus\" of " + server.url().toUtf8()
                 + ": the server URL is plain http://, so the bearer token travels in cleartext"),
        summary.err.constData());
    QCOMPARE(summary.err.count("plain http://"), 1);
    QVERIFY2(!summary.err.contains("not-a-secret"), summary.err.constData());
}

void TstCliUsage::badUsageConfig()
{
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("usage.yaml")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("prometheus:\n  url: http://127.0.0.1:1\nidle:\n  windw: 1h\n");
    config.close();
    auto r = runFleetscope({ QStringLiteral("summary"), kSmall, QStringLiteral("--usage-config"), config.fileName() });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("--usage-config: %1:4: idle.windw: unknown setting").arg(config.fileName())),
        r.err.constData());
    // The window reads the same options: the same error, before any window opens.
    r = runFleetscope({ kSmall, QStringLiteral("--usage-config"), config.fileName() });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("fleetscope: --usage-config: %1:4: idle.windw: unknown setting").arg(config.fileName())),
        r.err.constData());
    r = runFleetscope({ QStringLiteral("summary"), kSmall, QStringLiteral("--usage-config"), config.fileName(), QStringLiteral("--prometheus"),
        QStringLiteral("http://x") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--usage-config names the Prometheus itself"), r.err.constData());
}

void TstCliUsage::simulatedHasUsage()
{
    const auto summary = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("500") });
    QCOMPARE(summary.exitCode, 0);
    QVERIFY2(summary.out.contains("usage (simulated): "), summary.out.constData());
    QVERIFY(summary.out.contains("allocated GPUs idle for 1 h (below 5%)"));
}

void TstCliUsage::unreachableIsAWarning()
{
    const QStringList usage { QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:1") };
    const auto summary = runFleetscope(QStringList { QStringLiteral("summary"), kSmall } + usage);
    QCOMPARE(summary.exitCode, 0);
    QVERIFY2(summary.out.contains("usage: http://127.0.0.1:1: /api/v1/query: "), summary.out.constData());
    QVERIFY(summary.out.contains("the usage metrics have no data"));
    QVERIFY(!summary.out.contains("allocated GPUs idle"));
    QTemporaryDir dir;
    const auto shot = runFleetscope(QStringList { QStringLiteral("screenshot"), kSmall, QStringLiteral("--metric"), QStringLiteral("gpu-idle"),
                                        QStringLiteral("-o"), dir.filePath(QStringLiteral("x.png")) }
        + usage);
    QCOMPARE(shot.exitCode, 1);
    QVERIFY2(shot.err.contains("--metric gpu-idle: ") && shot.err.contains("has no usage data"), shot.err.constData());
}

// A Prometheus that accepts the connection and never answers (a listening socket nobody
// accepts from: the kernel completes the handshake): the wait is said on stderr after 3 s,
// --request-timeout bounds it, and the command goes on without usage, saying so.
void TstCliUsage::silentPrometheusIsBounded()
{
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(listener >= 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    QVERIFY(::listen(listener, 16) == 0);
    socklen_t length = sizeof address;
    QVERIFY(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(ntohs(address.sin_port));
    QTemporaryDir dir;
    for (const QStringList& command : { QStringList { QStringLiteral("summary"), kSmall },
             QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), kSmall, QStringLiteral("-o"), dir.filePath(QStringLiteral("p.json")) } }) {
        QElapsedTimer clock;
        clock.start();
        const auto r = runFleetscope(command + QStringList { QStringLiteral("--prometheus"), url, QStringLiteral("--request-timeout"), QStringLiteral("4s") },
            fleet::tests::headlessEnvironment(), 60'000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(clock.elapsed() < 30'000, "--request-timeout did not bound the wait");
        QVERIFY2(r.err.contains("waiting for " + url.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("gave up after 4 s") && r.err.contains("going on without usage figures"), r.err.constData());
    }
    ::close(listener);
}

// A Prometheus whose answer has no end, or says it is 99999999999999 bytes long: the answer is
// bounded (1 GiB, kube::kPrometheusLimit) and read within --request-timeout; the command goes
// on without usage, naming the server, never "out of memory" against the cluster file.
void TstCliUsage::oversizedPrometheusAnswerIsAWarning_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("said");
    QTest::newRow("Content-Length: 99999999999999")
        << int(fleet::tests::StallingServer::Mode::HugeLength)
        << ": /api/v1/query: the answer is larger than 1024 MiB, the limit for a Prometheus answer (its Content-Length says 99999999999999 bytes)";
    // Paced (~430 KB every 5 ms, at most ~260 MB in 3 s): the request timeout ends it on any
    // machine; a body sent as fast as loopback goes may pass 1 GiB first, and the size limit
    // then ends it (tst_kubetimeouts covers that path).
    QTest::newRow("endless chunked body") << int(fleet::tests::StallingServer::Mode::EndlessPaced)
                                          << ": /api/v1/query: gave up after 3 s (the request timeout; --request-timeout sets it): ";
}

void TstCliUsage::oversizedPrometheusAnswerIsAWarning()
{
    QFETCH(int, mode);
    QFETCH(QString, said);
    fleet::tests::StallingServer server(static_cast<fleet::tests::StallingServer::Mode>(mode), 5);
    QVERIFY(server.port() != 0);
    const QString url = QString::fromStdString(server.url());
    QElapsedTimer clock;
    clock.start();
    const auto r = runFleetscope({ QStringLiteral("summary"), kSmall, QStringLiteral("--prometheus"), url, QStringLiteral("--request-timeout"),
                                     QStringLiteral("3s") },
        fleet::tests::headlessEnvironment(), 60'000);
    const QByteArray all = r.out + r.err;
    QVERIFY2(r.exitCode == 0, all.constData());
    QVERIFY2(clock.elapsed() < 20'000, "--request-timeout did not bound the answer");
    QVERIFY2(all.contains((url + said).toUtf8()), all.constData());
    QVERIFY2(!all.contains("out of memory"), all.constData());
    QVERIFY2(all.contains("going on without usage figures"), all.constData());
}

void TstCliUsage::badOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("token without URL") << QStringList { QStringLiteral("--prometheus-token-file"), QStringLiteral("/dev/null") }
                                       << "--prometheus-token-file needs --prometheus URL";
    QTest::newRow("not http") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("localhost:9090") }
                              << "--prometheus: expected an http:// or https:// URL, got \"localhost:9090\"";
    QTest::newRow("bad time") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("yesterday") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"yesterday\"";
    QTest::newRow("time 1e308") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("1e308") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"1e308\"";
    QTest::newRow("time 0x10") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("0x10") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"0x10\"";
    QTest::newRow("time 2^63") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("9223372036854775808") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"9223372036854775808\"";
    QTest::newRow("time 1e20") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("1e20") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"1e20\"";
    QTest::newRow("time inf") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("inf") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"inf\"";
    QTest::newRow("time before 2000") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("946684799") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"946684799\"";
    QTest::newRow("time next year") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("2100-01-01T00:00:00Z") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"2100-01-01T00:00:00Z\"";
    QTest::newRow("time -5") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"), QStringLiteral("--usage-time"),
        QStringLiteral("-5") } << "--usage-time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now, got \"-5\"";
    QTest::newRow("seed 2^63") << QStringList { QStringLiteral("--seed"), QStringLiteral("9223372036854775808") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"9223372036854775808\"";
    QTest::newRow("seed 2^64") << QStringList { QStringLiteral("--seed"), QStringLiteral("18446744073709551616") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"18446744073709551616\"";
    QTest::newRow("seed -1") << QStringList { QStringLiteral("--seed"), QStringLiteral("-1") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"-1\"";
    QTest::newRow("seed +5") << QStringList { QStringLiteral("--seed"), QStringLiteral("+5") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"+5\"";
    QTest::newRow("seed 0x10") << QStringList { QStringLiteral("--seed"), QStringLiteral("0x10") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"0x10\"";
    QTest::newRow("seed 1e3") << QStringList { QStringLiteral("--seed"), QStringLiteral("1e3") }
                          << "--seed: expected an integer from 0 to 9223372036854775807, got \"1e3\"";
    QTest::newRow("unreadable token") << QStringList { QStringLiteral("--prometheus"), QStringLiteral("http://x"),
        QStringLiteral("--prometheus-token-file"), QStringLiteral("/nonexistent/token") } << "--prometheus-token-file: /nonexistent/token: does not exist";
}

void TstCliUsage::badOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const auto r = runFleetscope(QStringList { QStringLiteral("summary"), kSmall } + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TstCliUsage)
#include "tst_cliusage.moc"
