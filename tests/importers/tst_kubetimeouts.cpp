// SPDX-License-Identifier: Apache-2.0
// How long a live LIST may wait on a server that goes wrong in time (importers/kube/
// kubeapiclient.h, kubelist.h), against loopback servers that accept and never answer, stop in
// the middle of the body, or trickle it a byte at a time (stallingserver.h): the request timeout
// (--request-timeout, kubeconfig.h's requestTimeout) bounds the whole request, retries included,
// and a request still waiting is reported (RequestObserver) after a few seconds, then regularly.

#include "stallingserver.h"

#include "importers/clusterloader.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/live/kubewatchfeed.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <mutex>

using namespace fleet;
using namespace fleet::importers;
using fleet::tests::StallingServer;

namespace {

// Records what a slow request was said to be doing, as the CLI and the window are told.
class RecordingObserver final : public ImportProgress, public kube::RequestObserver {
public:
    void progress(std::size_t, std::size_t) override { }
    bool isCancelled() const override { return false; }
    void requestWaiting(const kube::RequestWait& wait) override
    {
        std::lock_guard lock(m_mutex);
        m_waits.push_back(wait);
    }
    std::vector<kube::RequestWait> waits() const
    {
        std::lock_guard lock(m_mutex);
        return m_waits;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<kube::RequestWait> m_waits;
};

// Keeps the last status a feed gave.
class StatusSink final : public live::LiveFeedSink {
public:
    void batchReady(model::ClusterChangeBatch) override { }
    void statusChanged(const live::LiveFeedStatus& status) override
    {
        std::lock_guard lock(m_mutex);
        m_status = status;
    }
    live::LiveFeedStatus status() const
    {
        std::lock_guard lock(m_mutex);
        return m_status;
    }

private:
    mutable std::mutex m_mutex;
    live::LiveFeedStatus m_status;
};

} // namespace

class TstKubeTimeouts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void stalledServerGivesUpAtTheRequestTimeout_data();
    void stalledServerGivesUpAtTheRequestTimeout();
    void slowRequestIsReported();
    void retriesStayInsideTheRequestTimeout();
    void requestTimeoutComesFromTheRequest();
    void watchSaysWhatItWaitsFor();
    void answerPastItsLimitIsRefused_data();
    void answerPastItsLimitIsRefused();
    void endlessBodyStopsAtTheRequestTimeout();
    void connectDialogNamesNoFlag();

private:
    kube::ResolvedKubeconfig config(const std::string& server, std::chrono::milliseconds timeout,
                                    kube::KubeconfigInput input = kube::KubeconfigInput::CommandLine);
    QTemporaryDir m_dir;
};

void TstKubeTimeouts::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

kube::ResolvedKubeconfig TstKubeTimeouts::config(const std::string& server, std::chrono::milliseconds timeout, kube::KubeconfigInput input)
{
    // Through a real kubeconfig file and KubeconfigRequest, as --request-timeout goes.
    const QString path = m_dir.filePath("kubeconfig");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write the kubeconfig");
    f.write(QString("apiVersion: v1\nkind: Config\nclusters:\n- name: slow\n  cluster:\n    server: %1\n"
                    "users:\n- name: tester\n  user:\n    token: fleet-test-token\ncontexts:\n- name: slow\n  context: {cluster: "
                    "slow, user: tester}\n"
                    "current-context: slow\n")
                .arg(QString::fromStdString(server))
                .toUtf8());
    f.close();
    kube::KubeconfigRequest r;
    r.explicitPath = path.toStdString();
    r.requestTimeout = timeout;
    r.input = input;
    return kube::loadKubeconfig(r);
}

void TstKubeTimeouts::stalledServerGivesUpAtTheRequestTimeout_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("said");
    QTest::newRow("accepts, never answers") << int(StallingServer::Mode::Silent)
                                            << "the server accepted the request and sent nothing";
    QTest::newRow("stops mid-body") << int(StallingServer::Mode::MidBody)
                                    << "bytes of the answer had come, and it had not ended";
    QTest::newRow("trickles") << int(StallingServer::Mode::Trickle)
                              << "bytes of the answer had come, and it had not ended";
}

void TstKubeTimeouts::stalledServerGivesUpAtTheRequestTimeout()
{
    QFETCH(int, mode);
    QFETCH(QString, said);
    // A byte every 200 ms: each wait for a byte is short, only the whole request is long.
    StallingServer server(static_cast<StallingServer::Mode>(mode), 200);
    QVERIFY(server.port() != 0);
    const auto timeout = std::chrono::milliseconds(2000);
    QElapsedTimer clock;
    clock.start();
    try {
        (void)loadLiveCluster(config(server.url(), timeout));
        QFAIL("a stalled server gave a cluster");
    } catch (const kube::KubeApiError& e) {
        const qint64 ms = clock.elapsed();
        qInfo("gave up after %lld ms (request timeout 2000 ms): %s", static_cast<long long>(ms), e.what());
        QVERIFY2(QString(e.what()).contains(
                     "/api/v1/nodes?REDACTED: gave up after 2 s (the request timeout; --request-timeout sets it): "),
            e.what());
        QVERIFY2(QString(e.what()).endsWith(said), e.what());
        // The upper bound only tells a request that ended at its timeout from one that hangs; it is
        // wide because CI runs the suite two at a time on two loaded cores.
        QVERIFY2(ms >= 1900 && ms < 6000, qPrintable(QString::number(ms)));
    }
    QCOMPARE(server.requests(), 1); // no attempt begins once the bound is spent
}

void TstKubeTimeouts::slowRequestIsReported()
{
    StallingServer server(StallingServer::Mode::Silent);
    RecordingObserver observer;
    QElapsedTimer clock;
    clock.start();
    QVERIFY_THROWS_EXCEPTION(
        kube::KubeApiError, (void)loadLiveCluster(config(server.url(), std::chrono::milliseconds(9000)), &observer));
    const qint64 ms = clock.elapsed();
    QVERIFY2(ms >= 8900 && ms < 14000, qPrintable(QString::number(ms)));
    const auto waits = observer.waits();
    // At 3 s, then every 5 s: 3 and 8 s.
    QCOMPARE(waits.size(), std::size_t(2));
    QVERIFY(waits[0].waited >= kube::kRequestWaitReportAfter && waits[0].waited < std::chrono::milliseconds(4500));
    QVERIFY(waits[1].waited >= std::chrono::milliseconds(8000) && waits[1].waited < std::chrono::milliseconds(9000));
    QCOMPARE(waits[0].phase, std::string("waiting for the answer"));
    QCOMPARE(waits[0].bytesReceived, std::size_t(0));
    QCOMPARE(waits[0].limit, std::chrono::milliseconds(9000));
    QCOMPARE(QString::fromStdString(waits[0].describe()),
        QString("waiting for %1 /api/v1/nodes?REDACTED: no answer yet, 3 s so far (gives up at 9 s, --request-timeout)")
            .arg(QString::fromStdString(server.url())));
}

// A cluster connected from the window's Connect dialog, which has no request timeout field:
// what a slow request is doing, the request that gave up and the retry that had no time left
// name the request timeout without the command line's --request-timeout.
void TstKubeTimeouts::connectDialogNamesNoFlag()
{
    {
        StallingServer server(StallingServer::Mode::Silent);
        RecordingObserver observer;
        try {
            (void)loadLiveCluster(config(server.url(), std::chrono::milliseconds(4000), kube::KubeconfigInput::WindowDialog), &observer);
            QFAIL("a silent server gave a cluster");
        } catch (const kube::KubeApiError& e) {
            QVERIFY2(QString(e.what()).contains("gave up after 4 s (the request timeout): the server accepted the request and sent nothing"),
                e.what());
            QVERIFY2(!QString(e.what()).contains("--"), e.what());
        }
        const auto waits = observer.waits();
        QCOMPARE(waits.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(waits[0].describe()),
            QString("waiting for %1 /api/v1/nodes?REDACTED: no answer yet, 3 s so far (gives up at 4 s)").arg(QString::fromStdString(server.url())));
    }
    int port = 0;
    {
        StallingServer closed(StallingServer::Mode::Silent);
        port = closed.port();
    }
    try {
        (void)loadLiveCluster(config("http://127.0.0.1:" + std::to_string(port), std::chrono::milliseconds(1500), kube::KubeconfigInput::WindowDialog));
        QFAIL("a refused connection gave a cluster");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(QString(e.what()).contains("no time is left for another within the request timeout of 1.5 s)"), e.what());
        QVERIFY2(!QString(e.what()).contains("--"), e.what());
    }
}

void TstKubeTimeouts::retriesStayInsideTheRequestTimeout()
{
    // A port nothing listens on: every attempt is refused at once, and the retries back off
    // 0.5, 1, 2, 4 s (with jitter): five attempts would take some 7.5 s.
    int port = 0;
    {
        StallingServer closed(StallingServer::Mode::Silent);
        port = closed.port();
    }
    QElapsedTimer clock;
    clock.start();
    try {
        (void)loadLiveCluster(config("http://127.0.0.1:" + std::to_string(port), std::chrono::milliseconds(1500)));
        QFAIL("a refused connection gave a cluster");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(QString(e.what()).contains("cannot connect to 127.0.0.1:" + QString::number(port)), e.what());
        QVERIFY2(QString(e.what()).contains("no time is left for another within the request timeout of 1.5 s"), e.what());
    }
    // Five attempts would take some 7.5 s: a bound of 4 s tells them apart with room for a loaded machine.
    QVERIFY2(clock.elapsed() < 4000, qPrintable(QString::number(clock.elapsed())));
}

void TstKubeTimeouts::requestTimeoutComesFromTheRequest()
{
    QCOMPARE(config("https://127.0.0.1:1", std::chrono::milliseconds(1234)).requestTimeout, std::chrono::milliseconds(1234));
    kube::KubeconfigRequest r;
    QCOMPARE(r.requestTimeout, kube::kDefaultRequestTimeout); // the API server's own default, 60 s
    QCOMPARE(kube::kDefaultRequestTimeout, std::chrono::milliseconds(60'000));
}

void TstKubeTimeouts::watchSaysWhatItWaitsFor()
{
    // The window's connection panel shows LiveFeedStatus: a watch whose server accepts and never
    // answers is said to be waiting after a few seconds, then given up at the request timeout
    // and retried.
    StallingServer server(StallingServer::Mode::Silent);
    StatusSink sink;
    auto feed = live::makeKubeWatchFeed(config(server.url(), std::chrono::milliseconds(5000)), "10", "10");
    QElapsedTimer clock;
    clock.start();
    feed->start(sink);
    QTRY_VERIFY_WITH_TIMEOUT(!sink.status().slowRequest.empty(), 6000);
    const qint64 saidAt = clock.elapsed();
    const QString said = QString::fromStdString(sink.status().slowRequest);
    QVERIFY2(saidAt >= 2900, qPrintable(QString::number(saidAt)));
    QVERIFY2(said.startsWith("waiting for " + QString::fromStdString(server.url()) + " /api/v1/")
            && said.contains("?REDACTED: no answer yet, 3 s so far (gives up at 5 s, --request-timeout)"),
        qPrintable(said));
    QTRY_VERIFY_WITH_TIMEOUT(QString::fromStdString(sink.status().lastError).contains("gave up after 5 s"), 6000);
    QVERIFY(sink.status().retries >= 1);
    feed->stop();
}

void TstKubeTimeouts::answerPastItsLimitIsRefused_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("said");
    QTest::newRow("Content-Length: 99999999999999") << int(StallingServer::Mode::HugeLength)
                                                    << "(its Content-Length says 99999999999999 bytes)";
    QTest::newRow("chunked without end") << int(StallingServer::Mode::Endless) << "bytes had come)";
}

void TstKubeTimeouts::answerPastItsLimitIsRefused()
{
    // No request timeout: only the size bounds the answer. A LIST page may be 1 GiB
    // (kube::kListPageLimit); a Content-Length above it is refused before the body is read,
    // and a chunked body is cut when it passes it. Never an allocation the header sizes.
    QFETCH(int, mode);
    QFETCH(QString, said);
    StallingServer server(static_cast<StallingServer::Mode>(mode));
    QVERIFY(server.port() != 0);
    QElapsedTimer clock;
    clock.start();
    try {
        (void)loadLiveCluster(config(server.url(), std::chrono::milliseconds(0)));
        QFAIL("an answer past its limit gave a cluster");
    } catch (const kube::KubeApiError& e) {
        qInfo("after %lld ms: %s", static_cast<long long>(clock.elapsed()), e.what());
        QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(server.url()) + ": /api/v1/nodes?REDACTED: the answer is larger than "
                                                                                      "1024 MiB, the limit for a LIST page "),
            e.what());
        QVERIFY2(QString(e.what()).contains(said), e.what());
        QVERIFY(!e.transient()); // trying again would read as much again
    }
    QCOMPARE(server.requests(), 1);
}

void TstKubeTimeouts::endlessBodyStopsAtTheRequestTimeout()
{
    // A body that keeps coming (a part every 5 ms) never makes the client wait long for a
    // byte: the request timeout must still end it. Paced so that the size limit (1 GiB) is
    // never reached first on a fast machine; answerPastItsLimitIsRefused covers that limit.
    StallingServer server(StallingServer::Mode::EndlessPaced, 5);
    QVERIFY(server.port() != 0);
    QElapsedTimer clock;
    clock.start();
    try {
        (void)loadLiveCluster(config(server.url(), std::chrono::milliseconds(1000)));
        QFAIL("an endless answer gave a cluster");
    } catch (const kube::KubeApiError& e) {
        const qint64 ms = clock.elapsed();
        qInfo("after %lld ms: %s", static_cast<long long>(ms), e.what());
        const QString what = e.what();
        QVERIFY2(what.contains("gave up after 1 s (the request timeout; --request-timeout sets it): ")
                && what.contains(" bytes of the answer had come, and it had not ended"),
            e.what());
        QVERIFY2(ms < 6000, qPrintable(QString::number(ms))); // ends at 1 s; without the timeout it never would
    }
}

QTEST_GUILESS_MAIN(TstKubeTimeouts)
#include "tst_kubetimeouts.moc"
