// SPDX-License-Identifier: Apache-2.0
// Tests of the Kubernetes WATCH (importers/live/watchstream.h, kubewatchfeed.h) against the
// fake API server on loopback HTTPS (fakekubeapiserver.h): events split at any byte read the
// same; the feed's batches, applied in order, always end at the server's state (nothing lost or
// doubled) whatever the batching; a watch the server ends resumes from the last resourceVersion;
// 410 (HTTP or ERROR event) relists with replacesAll, deleting what vanished; a dropped
// connection reconnects and replays; a wrong token fails with the server's message, never the
// token; a user refused the cluster-wide pods gets each allowed namespace watched, with the
// partial view said; the real kubectl 1.33 watches the same server.

#include "common/fakekubeapiserver.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/kube/kubelist.h"
#include "importers/live/kubewatchfeed.h"
#include "importers/live/watchstream.h"
#include "model/clusterchange.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <condition_variable>
#include <map>
#include <set>
#include <mutex>

using namespace fleet;
using namespace fleet::importers;
using fleet::tests::FakeKubeApiServer;
using live::WatchEvent;

namespace {

const char* kKubectl = "/usr/lib/google-cloud-sdk/bin/kubectl.1.33";

QString dataFile(const char* name) { return QStringLiteral(FLEET_TEST_DATA_DIR "/kube/") + name; }

// What a window would hold: every node (name -> cordoned) and pod (ns/name -> node name and
// phase), kept by applying batches in order as applyChanges() would.
struct State {
    std::map<std::string, bool> nodes;
    std::map<std::string, std::string> pods;
    bool operator==(const State&) const = default;

    void apply(const model::ClusterChangeBatch& b)
    {
        if (b.replacesAll) {
            nodes.clear();
            pods.clear();
        }
        for (const std::string& n : b.deletedNodes)
            nodes.erase(n);
        for (const auto& [ns, name] : b.deletedPods)
            pods.erase(ns + "/" + name);
        add(b.upserted);
    }
    void add(const model::ClusterStore& s)
    {
        for (std::uint32_t i = 0; i < s.nodeCount(); ++i)
            nodes[std::string(s.nodeName(model::NodeId(i)))] = s.nodeUnschedulable(model::NodeId(i));
        for (std::uint32_t i = 0; i < s.podCount(); ++i) {
            const model::PodId p(i);
            pods[std::string(s.podNamespace(p)) + "/" + std::string(s.podName(p))]
                = std::string(s.podNodeName(p)) + " " + std::string(model::podPhaseName(s.podPhase(p)));
        }
    }
};

class Sink final : public live::LiveFeedSink {
public:
    void batchReady(model::ClusterChangeBatch batch) override
    {
        std::lock_guard lock(m_mutex);
        ++m_batches;
        if (batch.replacesAll)
            ++m_relistBatches;
        m_events += batch.events;
        m_state.apply(batch);
        if (m_storeFollows)
            model::applyChanges(m_store, batch);
        m_cv.notify_all();
    }
    void statusChanged(const live::LiveFeedStatus& s) override
    {
        std::lock_guard lock(m_mutex);
        m_status = s;
        m_cv.notify_all();
    }
    // Waits (up to 30 s: the condition, not the time, is what is tested) until `pred` holds;
    // when it does not, says what the feed last reported.
    template <class Pred>
    bool waitFor(Pred pred)
    {
        std::unique_lock lock(m_mutex);
        if (m_cv.wait_for(lock, std::chrono::seconds(30), [&] { return pred(*this); }))
            return true;
        qWarning("feed state %d, events %zu, retries %llu, relists %llu, batches %d, last error: %s", int(m_status.state), m_events,
                 (unsigned long long)m_status.retries, (unsigned long long)m_status.relists, m_batches, m_status.lastError.c_str());
        return false;
    }
    State state() { std::lock_guard lock(m_mutex); return m_state; }
    live::LiveFeedStatus status() { std::lock_guard lock(m_mutex); return m_status; }

    std::mutex m_mutex;
    std::condition_variable m_cv;
    // The pods of namespace `ns` a window's store holds now (tombstones left out).
    std::set<std::string> storePods(const std::string& ns)
    {
        std::set<std::string> names;
        for (std::uint32_t i = 0; i < m_store.podCount(); ++i)
            if (!m_store.podIsDeleted(model::PodId(i)) && m_store.podNamespace(model::PodId(i)) == ns)
                names.emplace(m_store.podName(model::PodId(i)));
        return names;
    }

    std::set<std::string> podsOf(const std::string& ns) { std::lock_guard lock(m_mutex); return storePods(ns); }

    State m_state;
    model::ClusterStore m_store; // a window's store, when m_storeFollows: each batch applied with applyChanges()
    bool m_storeFollows = false;
    live::LiveFeedStatus m_status;
    int m_batches = 0, m_relistBatches = 0;
    std::size_t m_events = 0;
};

QJsonObject podObject(const QString& ns, const QString& name, const QString& node, const QString& phase)
{
    QJsonObject spec{{"containers", QJsonArray{QJsonObject{{"name", "c"}, {"image", "x"},
                                                           {"resources", QJsonObject{{"requests", QJsonObject{{"cpu", "100m"}}}}}}}}};
    if (!node.isEmpty())
        spec["nodeName"] = node;
    return {{"kind", "Pod"}, {"apiVersion", "v1"},
            {"metadata", QJsonObject{{"namespace", ns}, {"name", name}, {"uid", ns + "-" + name + "-uid"}}},
            {"spec", spec}, {"status", QJsonObject{{"phase", phase}}}};
}

std::vector<WatchEvent> readAll(std::string_view text, std::size_t split)
{
    live::WatchStreamReader r("test");
    std::vector<WatchEvent> out;
    auto on = [&](WatchEvent&& e) { out.push_back(std::move(e)); };
    r.append(text.substr(0, split), on);
    r.append(text.substr(split), on);
    return out;
}

} // namespace

class TstKubeWatch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void readerSplitsAtAnyByte();
    void readerRefusesBadStreams_data();
    void readerRefusesBadStreams();
    void feedFollowsTheServer();
    void endedWatchResumesFromLastVersion();
    void goneStatusRelists();
    void expiredEventRelistsAndDeletesWhatVanished();
    void droppedConnectionReconnectsAndReplays();
    void wrongTokenFailsWithoutQuotingIt();
    void partialViewWatchesEachNamespace();
    void partialViewFollowsNamespaces();
    void kubectlWatchesTheServer();

private:
    kube::ResolvedKubeconfig config(const FakeKubeApiServer& server, const std::string& token);
    std::map<std::string, QJsonArray> lists() const;
    State listed(const FakeKubeApiServer& server);
    QTemporaryDir m_dir;
    fleet::tests::TestPki m_pki;
};

void TstKubeWatch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pki = fleet::tests::TestPki::create(m_dir.path().toStdString());
    QVERIFY2(!m_pki.caPem.empty(), "the openssl command failed or is missing (installer/install-deps.sh installs it)");
}

std::map<std::string, QJsonArray> TstKubeWatch::lists() const
{
    return {{"/api/v1/nodes", fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json"))},
            {"/api/v1/pods", fleet::tests::itemsOfListFile(dataFile("scheduling-pods.json"))}};
}

kube::ResolvedKubeconfig TstKubeWatch::config(const FakeKubeApiServer& server, const std::string& token)
{
    const QString path = m_dir.filePath("kubeconfig");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write the kubeconfig");
    f.write(QString("apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: %1\n    certificate-authority: %2\n"
                    "users:\n- name: tester\n  user:\n    token: %3\ncontexts:\n- name: fake\n  context: {cluster: fake, user: tester}\n"
                    "current-context: fake\n")
                .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile), QString::fromStdString(token))
                .toUtf8());
    f.close();
    kube::KubeconfigRequest r;
    r.explicitPath = path.toStdString();
    return kube::loadKubeconfig(r);
}

// The server's state now, through a real LIST.
State TstKubeWatch::listed(const FakeKubeApiServer& server)
{
    kube::KubeApiClient client(config(server, "fleet-test-token"));
    model::ClusterStore store;
    ImportReport report;
    kube::listCluster(client, store, report);
    State s;
    s.add(store);
    return s;
}

void TstKubeWatch::readerSplitsAtAnyByte()
{
    const std::string text = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"a\",\"name\":\"p{1}\",\"resourceVersion\":\"7\"}}}\n"
                             "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"9\"}}}"
                             "  {\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"message\":\"too old \\\"}\\\" version\"}}\r\n";
    for (std::size_t split = 0; split <= text.size(); ++split) {
        const std::vector<WatchEvent> e = readAll(text, split);
        QCOMPARE(e.size(), 3u);
        QCOMPARE(e[0].name, std::string("p{1}")); // braces inside strings do not end the event
        QCOMPARE(e[0].namespaceName, std::string("a"));
        QCOMPARE(e[0].resourceVersion, std::string("7"));
        QVERIFY(e[0].object.starts_with("{\"kind\":\"Pod\""));
        QVERIFY(e[1].type == WatchEvent::Type::Bookmark);
        QCOMPARE(e[1].resourceVersion, std::string("9"));
        QVERIFY(e[2].type == WatchEvent::Type::Error);
        QCOMPARE(e[2].errorCode, 410);
        QCOMPARE(e[2].errorMessage, std::string("too old \"}\" version"));
    }
}

void TstKubeWatch::readerRefusesBadStreams_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("expected");
    QTest::newRow("garbage between events") << QByteArray("{\"type\":\"BOOKMARK\",\"object\":{}}\nHTTP/1.1") << "test:2: bytes between events";
    QTest::newRow("not JSON") << QByteArray("{\"type\":\"ADDED\",\"object\":{\"a\":tru}}") << "test:1: an event that is not valid JSON";
    QTest::newRow("no type") << QByteArray("{\"object\":{}}") << "test:1: type: an event without a string \"type\"";
    QTest::newRow("unknown type") << QByteArray("{\"type\":\"RENAMED\",\"object\":{}}") << "test:1: type: an unknown event type \"RENAMED\"";
    QTest::newRow("no object") << QByteArray("{\"type\":\"ADDED\"}") << "test:1: object: an event without an \"object\"";
    QTest::newRow("no name") << QByteArray("{\"type\":\"DELETED\",\"object\":{\"metadata\":{}}}")
                             << "test:1: object.metadata.name: a DELETED event whose object has no metadata.name";
}

void TstKubeWatch::readerRefusesBadStreams()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, expected);
    live::WatchStreamReader r("test");
    std::size_t events = 0;
    try {
        r.append(stream.toStdString(), [&](WatchEvent&&) { ++events; });
        QFAIL("no error");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).startsWith(expected), e.what());
    }
    QCOMPARE(r.pendingBytes(), 0u); // reset: the next stream starts clean
    // An event that never closes is refused at the bound, not held without end.
    live::WatchStreamReader small("test", 1 << 20);
    QVERIFY_THROWS_EXCEPTION(ImportError, small.append("{\"type\":\"ADDED\",\"object\":{\"x\":\"" + std::string(2 << 20, 'a'), [](WatchEvent&&) {}));
}

void TstKubeWatch::feedFollowsTheServer()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    Sink sink;
    sink.m_state = listed(server); // what the first LIST gave the window
    const std::string rv = std::to_string(server.resourceVersion());
    live::KubeWatchOptions options;
    options.batchInterval = std::chrono::milliseconds(20);
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), rv, rv, options);
    feed->start(sink);
    QVERIFY(sink.waitFor([&](Sink&) { return server.openWatches() == 2; }));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_status.state == live::LiveFeedStatus::State::Watching || s.m_status.events == 0; }));
    // Adds, updates, deletes of pods, a node cordoned; a pod added and deleted at once.
    server.addEvent("/api/v1/pods", "MODIFIED", podObject("ml", "train-0", "node-2", "Running"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("ml", "train-1", "node-1", "Pending"));
    server.addEvent("/api/v1/pods", "DELETED", podObject("shop", "web-b", "node-2", "Running"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("tmp", "short", "", "Pending"));
    server.addEvent("/api/v1/pods", "DELETED", podObject("tmp", "short", "", "Pending"));
    QJsonObject node = fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json")).at(1).toObject();
    QJsonObject spec = node.value("spec").toObject();
    spec["unschedulable"] = true;
    node["spec"] = spec;
    node["kind"] = "Node";
    server.addEvent("/api/v1/nodes", "MODIFIED", node);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 6; }));
    const State expected = listed(server);
    QCOMPARE(expected.pods.count("shop/web-b"), 0u);
    QCOMPARE(expected.pods.at("ml/train-0"), std::string("node-2 Running"));
    QVERIFY(expected.nodes.at("node-2"));
    QVERIFY(sink.state() == expected);
    feed->stop();
    QVERIFY(sink.status().state == live::LiveFeedStatus::State::Stopped);
    QCOMPARE(sink.status().resourceVersion, std::to_string(server.resourceVersion() - 1)); // the last pod event's
    QCOMPARE(sink.m_relistBatches, 0);
}

void TstKubeWatch::endedWatchResumesFromLastVersion()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    Sink sink;
    sink.m_state = listed(server);
    const std::string rv = std::to_string(server.resourceVersion());
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), rv, rv);
    feed->start(sink);
    QVERIFY(sink.waitFor([&](Sink&) { return server.openWatches() == 2; }));
    const long long first = server.addEvent("/api/v1/pods", "ADDED", podObject("a", "one", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 1; }));
    server.sendBookmarks();
    server.endWatches(); // as the server's timeoutSeconds does
    QVERIFY(sink.waitFor([&](Sink&) { return server.watchesServed() == 4 && server.openWatches() == 2; }));
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "two", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 2; }));
    feed->stop();
    // The pods' second watch started where the first ended: at the event, or at the bookmark after it.
    std::vector<std::string> podWatches;
    for (const std::string& t : server.requests())
        if (t.starts_with("/api/v1/pods?watch=1"))
            podWatches.push_back(t);
    QCOMPARE(podWatches.size(), 2u);
    QVERIFY2(podWatches[1].find("resourceVersion=" + std::to_string(first) + "&") != std::string::npos, podWatches[1].c_str());
    QVERIFY(podWatches[0].find("allowWatchBookmarks=true") != std::string::npos);
    QVERIFY(sink.state() == listed(server));
    QCOMPARE(sink.status().retries, 0u); // a clean end is not a failure
}

void TstKubeWatch::goneStatusRelists()
{
    FakeKubeApiServer::Options o;
    o.watchGone = 1; // the first WATCH is answered 410 Gone
    FakeKubeApiServer server(m_pki, lists(), o);
    Sink sink;
    sink.m_state = listed(server);
    const std::string rv = std::to_string(server.resourceVersion());
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), rv, rv);
    feed->start(sink);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_relistBatches == 1 && s.m_status.relists == 1; }));
    // (The watches start again from the relist's resourceVersion: an event added before they
    // are open is replayed to them, so there is nothing to wait for. A watch the relist
    // interrupted may still count as open on the server until it writes to it.)
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "after", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 1; }));
    feed->stop();
    QVERIFY(sink.state() == listed(server));
}

void TstKubeWatch::expiredEventRelistsAndDeletesWhatVanished()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    Sink sink;
    sink.m_state = listed(server);
    const std::string rv = std::to_string(server.resourceVersion());
    // While nobody watched: a pod deleted, a pod added, and the history compacted past them.
    server.addEvent("/api/v1/pods", "DELETED", podObject("shop", "db-0", "node-1", "Running"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "new", "node-2", "Running"));
    server.compact();
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), rv, rv);
    feed->start(sink);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_relistBatches >= 1; }));
    feed->stop();
    const State s = sink.state();
    QCOMPARE(s.pods.count("shop/db-0"), 0u); // the relist deleted what vanished meanwhile
    QCOMPARE(s.pods.count("a/new"), 1u);
    QVERIFY(s == listed(server));
    QCOMPARE(sink.status().relists, 1u);
}

void TstKubeWatch::droppedConnectionReconnectsAndReplays()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    Sink sink;
    sink.m_state = listed(server);
    const std::string rv = std::to_string(server.resourceVersion());
    live::KubeWatchOptions options;
    options.backoffStartSeconds = 0.05;
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), rv, rv, options);
    feed->start(sink);
    QVERIFY(sink.waitFor([&](Sink&) { return server.openWatches() == 2; }));
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "one", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 1; }));
    server.dropConnections(); // as a restarting server does: no clean end
    // Events the feed could not see while it reconnects are replayed from its resourceVersion.
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "two", "node-1", "Running"));
    server.addEvent("/api/v1/pods", "MODIFIED", podObject("a", "one", "node-1", "Succeeded"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 3; })); // each once: nothing doubled
    feed->stop();
    QVERIFY(sink.status().retries >= 1);
    QVERIFY(!sink.status().lastError.empty());
    QVERIFY(sink.state() == listed(server));
}

void TstKubeWatch::wrongTokenFailsWithoutQuotingIt()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    Sink sink;
    auto feed = live::makeKubeWatchFeed(config(server, "wrong-secret-token"), "4242", "4242");
    feed->start(sink);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_status.state == live::LiveFeedStatus::State::Failed; }));
    feed->stop();
    const std::string error = sink.status().lastError;
    QVERIFY2(error.find("401") != std::string::npos, error.c_str());
    QVERIFY2(error.find("credentials") != std::string::npos, error.c_str());
    QVERIFY(error.find("wrong-secret-token") == std::string::npos);
    QCOMPARE(sink.m_batches, 0);
}

// The user may list and watch pods in shop only (cluster-wide and in cache: 403): the feed's
// cluster-wide pods watch is refused, it relists once (namespace by namespace) and then watches
// shop's pods from that list's resourceVersion; cache's events never arrive.
void TstKubeWatch::partialViewWatchesEachNamespace()
{
    FakeKubeApiServer::Options o;
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces/cache/pods"};
    auto withNamespaces = lists();
    withNamespaces["/api/v1/namespaces"] = fleet::tests::itemsOfListFile(dataFile("scheduling-namespaces.json"));
    FakeKubeApiServer server(m_pki, withNamespaces, o);
    kube::KubeApiClient client(config(server, "fleet-test-token"));
    model::ClusterStore store;
    ImportReport report;
    const kube::LiveListResult first = kube::listCluster(client, store, report);
    QVERIFY(first.partialView);
    QCOMPARE(first.podNamespaces.size(), 1u);
    QCOMPARE(first.podNamespaces[0].first, std::string("shop"));
    QCOMPARE(first.podNamespacesRefused, std::vector<std::string>{"cache"});
    Sink sink;
    sink.m_state.add(store);
    live::KubeWatchOptions options;
    options.batchInterval = std::chrono::milliseconds(20);
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), first.nodesResourceVersion, first.resourceVersion, options);
    feed->start(sink);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_relistBatches == 1 && !s.m_status.partialView.empty(); }));
    QCOMPARE(sink.status().partialView, std::string("pods of 1 of 2 namespaces (not listed: cache), each watched on its own"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("cache", "hidden", "node-1", "Running")); // out of the view
    server.addEvent("/api/v1/pods", "ADDED", podObject("shop", "web-new", "node-1", "Running"));
    server.addEvent("/api/v1/pods", "DELETED", podObject("shop", "web-b", "node-2", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_events == 2; }));
    const State state = sink.state();
    QCOMPARE(state.pods.count("shop/web-new"), 1u);
    QCOMPARE(state.pods.count("shop/web-b"), 0u);
    QCOMPARE(state.pods.count("cache/hidden"), 0u);
    QVERIFY(state == listed(server)); // what a (partial) LIST gives now
    QVERIFY(sink.status().state != live::LiveFeedStatus::State::Failed);
    feed->stop();
    const std::vector<std::string> requests = server.requests();
    QVERIFY(std::any_of(requests.begin(), requests.end(), [](const std::string& t) { return t.starts_with("/api/v1/namespaces/shop/pods?watch=1"); }));
    QVERIFY(std::none_of(requests.begin(), requests.end(), [](const std::string& t) { return t.starts_with("/api/v1/namespaces/cache/pods?watch=1"); }));
}

// The same user (pods of the namespaces shop and batch, not cache or secret): namespaces created
// after the list are followed through a watch of /api/v1/namespaces. batch, created later, gets
// its pods listed and then watched; secret, created later, is refused and named; shop, deleted,
// leaves the view with its pods, even those the server never sent a DELETED for.
void TstKubeWatch::partialViewFollowsNamespaces()
{
    FakeKubeApiServer::Options o;
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces/cache/pods", "/api/v1/namespaces/secret/pods"};
    auto withNamespaces = lists();
    withNamespaces["/api/v1/namespaces"] = fleet::tests::itemsOfListFile(dataFile("scheduling-namespaces.json"));
    FakeKubeApiServer server(m_pki, withNamespaces, o);
    auto namespaceObject = [](const QString& name) {
        return QJsonObject{{"kind", "Namespace"}, {"apiVersion", "v1"}, {"metadata", QJsonObject{{"name", name}, {"uid", name + "-uid"}}}};
    };
    kube::KubeApiClient client(config(server, "fleet-test-token"));
    model::ClusterStore store;
    ImportReport report;
    const kube::LiveListResult first = kube::listCluster(client, store, report);
    QVERIFY(first.partialView);
    QVERIFY(!first.namespacesResourceVersion.empty());
    store.finalize();
    Sink sink;
    sink.m_state.add(store);
    sink.m_store = std::move(store);
    sink.m_storeFollows = true;
    QCOMPARE(sink.podsOf("shop"), (std::set<std::string>{"db-0", "web-a", "web-b"}));
    live::KubeWatchOptions options;
    options.batchInterval = std::chrono::milliseconds(20);
    auto feed = live::makeKubeWatchFeed(config(server, "fleet-test-token"), first.nodesResourceVersion, first.resourceVersion, options);
    feed->start(sink);
    QVERIFY(sink.waitFor([](Sink& s) { return s.m_relistBatches == 1 && !s.m_status.partialView.empty(); }));

    // batch is created, and a pod in it at once: listed or watched, it arrives once.
    server.addEvent("/api/v1/namespaces", "ADDED", namespaceObject("batch"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("batch", "job-0", "node-1", "Running"));
    const std::string twoOfThree = "pods of 2 of 3 namespaces (not listed: cache), each watched on its own";
    QVERIFY(sink.waitFor([&](Sink& s) { return s.m_status.partialView == twoOfThree && s.storePods("batch").size() == 1; }));
    server.addEvent("/api/v1/pods", "ADDED", podObject("batch", "job-1", "node-2", "Pending")); // through batch's own watch now
    QVERIFY(sink.waitFor([](Sink& s) { return s.storePods("batch").size() == 2; }));
    QCOMPARE(sink.podsOf("batch"), (std::set<std::string>{"job-0", "job-1"}));

    // secret is created, but its pods may not be listed: named in the view, nothing read.
    server.addEvent("/api/v1/namespaces", "ADDED", namespaceObject("secret"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("secret", "vault-0", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) {
        return s.m_status.partialView == "pods of 2 of 4 namespaces (not listed: cache, secret), each watched on its own";
    }));

    // shop is deleted (its pods still in the server's pod list, no DELETED event for them):
    // they leave the store, and a later event of shop is not taken.
    server.addEvent("/api/v1/namespaces", "DELETED", namespaceObject("shop"));
    QVERIFY(sink.waitFor([](Sink& s) {
        return s.storePods("shop").empty() && s.m_status.partialView == "pods of 1 of 3 namespaces (not listed: cache, secret), each watched on its own";
    }));
    server.addEvent("/api/v1/pods", "ADDED", podObject("shop", "ghost", "node-1", "Running"));
    server.addEvent("/api/v1/pods", "ADDED", podObject("batch", "job-2", "node-1", "Running"));
    QVERIFY(sink.waitFor([](Sink& s) { return s.storePods("batch").size() == 3; }));
    QVERIFY(sink.podsOf("shop").empty());
    QVERIFY(sink.podsOf("secret").empty());
    QVERIFY(sink.state() == listed(server)); // what a (partial) LIST gives now
    QVERIFY(sink.status().state != live::LiveFeedStatus::State::Failed);
    feed->stop();
    QCOMPARE(sink.m_relistBatches, 1);
    const std::vector<std::string> requests = server.requests();
    QVERIFY(std::any_of(requests.begin(), requests.end(), [](const std::string& t) { return t.starts_with("/api/v1/namespaces?watch=1"); }));
    QVERIFY(std::any_of(requests.begin(), requests.end(), [](const std::string& t) { return t.starts_with("/api/v1/namespaces/batch/pods?watch=1"); }));
    QVERIFY(std::none_of(requests.begin(), requests.end(), [](const std::string& t) { return t.starts_with("/api/v1/namespaces/secret/pods?watch=1"); }));
}

void TstKubeWatch::kubectlWatchesTheServer()
{
    if (!QFile::exists(kKubectl))
        QSKIP("kubectl 1.33 is not installed here (google-cloud-cli-kubectl)");
    FakeKubeApiServer server(m_pki, lists(), {});
    (void)config(server, "fleet-test-token"); // writes the kubeconfig
    QProcess kubectl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", m_dir.path());
    env.insert("KUBECONFIG", m_dir.filePath("kubeconfig"));
    kubectl.setProcessEnvironment(env);
    kubectl.start(kKubectl, {"--cache-dir", m_dir.filePath("cache"), "get", "pods", "-A", "--watch", "-o",
                             "jsonpath={.metadata.namespace}/{.metadata.name} {.status.phase}{\"\\n\"}"});
    QVERIFY(kubectl.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(server.openWatches(), 1, 30000); // kubectl lists first, then watches
    server.addEvent("/api/v1/pods", "ADDED", podObject("a", "seen-by-kubectl", "node-1", "Running"));
    QByteArray out;
    for (int i = 0; i < 300 && !out.contains("a/seen-by-kubectl Running"); ++i) {
        kubectl.waitForReadyRead(100);
        out += kubectl.readAllStandardOutput();
    }
    kubectl.kill();
    kubectl.waitForFinished();
    // kubectl listed first (one line per pod), then watched: it took the chunked stream's event.
    QVERIFY2(out.left(out.indexOf("a/seen-by-kubectl")).count('\n') == 4, out.constData());
    QVERIFY2(out.contains("a/seen-by-kubectl Running"), (out + kubectl.readAllStandardError()).constData());
}

QTEST_GUILESS_MAIN(TstKubeWatch)
#include "tst_kubewatch.moc"
