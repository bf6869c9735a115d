// SPDX-License-Identifier: Apache-2.0
// Tests of the live LIST (importers/kube/kubeapiclient.h, kubelist.h, clusterloader's
// loadLiveCluster) against a fake API server on loopback HTTPS (fakekubeapiserver.h) that the
// real kubectl 1.33 accepts: the same cluster as from the same objects in files, page by page;
// 410 Gone on a continue relists; 429 waits and retries; 403 on an optional list warns; a wrong
// token and an untrusted CA are clear errors that never quote the token; a client certificate
// (files or data) authenticates, one another CA signed gets the server's 401.

#include "connectproxy.h"
#include "common/fakekubeapiserver.h"

#include "importers/clusterloader.h"
#include "importers/export/summaryjson.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <sstream>

using namespace fleet;
using namespace fleet::importers;
using fleet::tests::FakeKubeApiServer;

namespace {

const char* kKubectl = "/usr/lib/google-cloud-sdk/bin/kubectl.1.33";

QString dataFile(const char* name) { return QStringLiteral(FLEET_TEST_DATA_DIR "/kube/") + name; }

const char* kFiles[] = {"scheduling-nodes.json", "scheduling-pods.json", "scheduling-namespaces.json", "scheduling-pdbs.json",
                        "scheduling-pvs.json"};
const char* kPaths[] = {"/api/v1/nodes", "/api/v1/pods", "/api/v1/namespaces", "/apis/policy/v1/poddisruptionbudgets",
                        "/api/v1/persistentvolumes"};

std::string summary(const LoadedCluster& c)
{
    std::ostringstream out;
    SummaryParts parts;
    writeSummaryJson(*c.store, ImportReport{}, out, parts); // warnings differ by source name
    return out.str();
}

} // namespace

class TstKubeLive : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void listMatchesFiles();
    void kubectlAcceptsTheServer();
    void expiredContinueRelists();
    void throttledListRetries();
    void forbiddenOptionalListWarns();
    void podsByNamespaceWhenClusterWideIsRefused();
    void readOnlyClusterRoleCoversTheList();
    void wrongTokenIsAClearError();
    void gzipAnswersAreInflated();
    void metricsServerGivesNodeUsage();
    void proxyUrlTunnelsThroughConnect();
    void unsupportedProxyIsRefused();
    void untrustedCaIsRefused();
    void serverNameIsChecked();
    void clientCertificateAuthenticates();

private:
    kube::ResolvedKubeconfig config(const FakeKubeApiServer& server, const std::string& token, const std::string& caFile);
    /// The same kubeconfig with `user` as the user's fields (YAML lines indented by four).
    kube::ResolvedKubeconfig configWithUser(const FakeKubeApiServer& server, const QString& user);
    std::map<std::string, QJsonArray> lists() const;
    QTemporaryDir m_dir;
    fleet::tests::TestPki m_pki;
    LoadedCluster m_fromFiles;
};

void TstKubeLive::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pki = fleet::tests::TestPki::create(m_dir.path().toStdString());
    QVERIFY2(!m_pki.caPem.empty(), "the openssl command failed or is missing (installer/install-deps.sh installs it)");
    std::vector<std::string> files;
    for (const char* f : kFiles)
        files.push_back(dataFile(f).toStdString());
    m_fromFiles = loadClusterFiles(files);
    QCOMPARE(m_fromFiles.store->nodeCount(), 2u);
    QCOMPARE(m_fromFiles.store->podCount(), 4u);
}

std::map<std::string, QJsonArray> TstKubeLive::lists() const
{
    std::map<std::string, QJsonArray> out;
    for (std::size_t i = 0; i < std::size(kFiles); ++i)
        out[kPaths[i]] = fleet::tests::itemsOfListFile(dataFile(kFiles[i]));
    return out;
}

kube::ResolvedKubeconfig TstKubeLive::config(const FakeKubeApiServer& server, const std::string& token, const std::string& caFile)
{
    // Through a real kubeconfig file, so that the path from kubeconfig to LIST is the user's.
    const QString path = m_dir.filePath("kubeconfig");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write the kubeconfig");
    f.write(QString("apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: %1\n    certificate-authority: %2\n"
                    "users:\n- name: tester\n  user:\n    token: %3\ncontexts:\n- name: fake\n  context: {cluster: fake, user: tester}\n"
                    "current-context: fake\n")
                .arg(QString::fromStdString(server.url()), QString::fromStdString(caFile), QString::fromStdString(token))
                .toUtf8());
    f.close();
    kube::KubeconfigRequest r;
    r.explicitPath = path.toStdString();
    return kube::loadKubeconfig(r);
}

kube::ResolvedKubeconfig TstKubeLive::configWithUser(const FakeKubeApiServer& server, const QString& user)
{
    const QString path = m_dir.filePath("kubeconfig");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write the kubeconfig");
    f.write(QString("apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: %1\n    certificate-authority: %2\n"
                    "users:\n- name: tester\n  user:\n%3\ncontexts:\n- name: fake\n  context: {cluster: fake, user: tester}\n"
                    "current-context: fake\n")
                .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile), user)
                .toUtf8());
    f.close();
    kube::KubeconfigRequest r;
    r.explicitPath = path.toStdString();
    return kube::loadKubeconfig(r);
}

void TstKubeLive::listMatchesFiles()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QCOMPARE(live.store->nodeCount(), m_fromFiles.store->nodeCount());
    QCOMPARE(live.store->podCount(), m_fromFiles.store->podCount());
    QCOMPARE(live.store->disruptionBudgets().size(), m_fromFiles.store->disruptionBudgets().size());
    QCOMPARE(summary(live), summary(m_fromFiles)); // every node, pod and figure
    QCOMPARE(live.resourceVersion, std::string("4242")); // what a plan made on it names as its source
    QCOMPARE(live.server, server.url());
    QVERIFY2(live.report.warnings.empty(), live.report.warnings.empty() ? "" : live.report.warnings.front().c_str());
    // One item per page: every page was followed with its continue token, at limit=500.
    std::size_t pages = 0;
    for (const auto& t : server.requests())
        if (t.find("limit=500") != std::string::npos)
            ++pages;
    std::size_t items = 0;
    for (const auto& [path, list] : lists())
        items += std::max<qsizetype>(1, list.size());
    QCOMPARE(pages, items);
}

void TstKubeLive::kubectlAcceptsTheServer()
{
    if (!QFile::exists(kKubectl))
        QSKIP("kubectl 1.33 is not installed here");
    FakeKubeApiServer server(m_pki, lists(), {});
    (void)config(server, "fleet-test-token", m_pki.caFile);
    QProcess p;
    QProcessEnvironment env;
    env.insert("HOME", m_dir.path());
    env.insert("PATH", "/usr/bin:/bin");
    p.setProcessEnvironment(env);
    p.start(kKubectl, {"--kubeconfig", m_dir.filePath("kubeconfig"), "--cache-dir", m_dir.filePath("cache"), "get", "nodes", "-o", "name"});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QStringList names = QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QStringList expected;
    for (std::uint32_t i = 0; i < m_fromFiles.store->nodeCount(); ++i)
        expected << "node/" + QString::fromStdString(std::string(m_fromFiles.store->nodeName(model::NodeId(i))));
    names.sort();
    expected.sort();
    QCOMPARE(names, expected);
}

void TstKubeLive::expiredContinueRelists()
{
    FakeKubeApiServer::Options o;
    o.expireContinue = 1;
    FakeKubeApiServer server(m_pki, lists(), o);
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QCOMPARE(summary(live), summary(m_fromFiles)); // nothing twice, nothing lost
    QCOMPARE(live.report.warnings.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(live.report.warnings[0]).contains("restarted 1 time because a continue token expired (410 Gone)"));
}

void TstKubeLive::throttledListRetries()
{
    FakeKubeApiServer::Options o;
    o.throttle = 2;
    FakeKubeApiServer server(m_pki, lists(), o);
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QCOMPARE(summary(live), summary(m_fromFiles));
    const auto log = server.requests();
    QCOMPARE(std::count(log.begin(), log.end(), std::string("/api/v1/nodes?limit=500")), 3); // 429, 429, 200
}

void TstKubeLive::forbiddenOptionalListWarns()
{
    FakeKubeApiServer::Options o;
    o.forbidden = {"/apis/policy/v1/poddisruptionbudgets"};
    FakeKubeApiServer server(m_pki, lists(), o);
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QCOMPARE(live.store->disruptionBudgets().size(), std::size_t(0));
    QCOMPARE(live.store->podCount(), m_fromFiles.store->podCount());
    QCOMPARE(live.report.warnings.size(), std::size_t(1));
    const QString w = QString::fromStdString(live.report.warnings[0]);
    QVERIFY2(w.contains("cannot list PodDisruptionBudgets (403:") && w.contains("not checked against disruption budgets"), qPrintable(w));

    // On pods (with no namespace list to fall back on), the same 403 is an error with the
    // server's message.
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces"};
    FakeKubeApiServer strict(m_pki, lists(), o);
    try {
        (void)loadLiveCluster(config(strict, "fleet-test-token", m_pki.caFile));
        QFAIL("expected a KubeApiError");
    } catch (const kube::KubeApiError& e) {
        QCOMPARE(e.status(), 403u);
        QVERIFY2(QString(e.what()).contains("/api/v1/pods: 403: /api/v1/pods is forbidden") && QString(e.what()).contains("namespaces cannot be listed"), e.what());
    }

    // A server that echoes the request's bearer token in its error never gets it into a message.
    o.echoCredentials = true;
    FakeKubeApiServer echoing(m_pki, lists(), o);
    try {
        (void)loadLiveCluster(config(echoing, "fleet-test-token", m_pki.caFile));
        QFAIL("expected a KubeApiError");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(!QString(e.what()).contains("fleet-test-token") && QString(e.what()).contains("Bearer REDACTED"), e.what());
    }
}

void TstKubeLive::podsByNamespaceWhenClusterWideIsRefused()
{
    // Namespaces shop and cache exist; the user may list pods in shop only (ml is not a listed
    // namespace, so its pod is out of reach as it would be in a real cluster).
    FakeKubeApiServer::Options o;
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces/cache/pods"};
    FakeKubeApiServer server(m_pki, lists(), o);
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QCOMPARE(live.store->podCount(), 3u); // the three pods of shop
    for (std::uint32_t i = 0; i < live.store->podCount(); ++i)
        QCOMPARE(std::string(live.store->podNamespace(model::PodId(i))), std::string("shop"));
    QCOMPARE(live.report.warnings.size(), std::size_t(1));
    const QString w = QString::fromStdString(live.report.warnings[0]);
    QVERIFY2(w.contains("partial view: pods listed in 1 of 2 namespaces") && w.contains("not listed: cache")
                 && w.contains("/api/v1/pods is forbidden"),
             qPrintable(w));

    // Refused everywhere: an error, not an empty cluster.
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces/cache/pods", "/api/v1/namespaces/shop/pods"};
    FakeKubeApiServer none(m_pki, lists(), o);
    QVERIFY_THROWS_EXCEPTION(kube::KubeApiError, (void)loadLiveCluster(config(none, "fleet-test-token", m_pki.caFile)));
}

void TstKubeLive::readOnlyClusterRoleCoversTheList()
{
    // The ClusterRole shipped for users to bind: read-only, and enough for every list above.
    QFile f(QStringLiteral(FLEET_SOURCE_DIR "/resources/kubernetes/fleetscope-readonly-clusterrole.yaml"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.contains("kind: ClusterRole"));
    const QRegularExpression verbs("verbs:\\s*\\[([^\\]]*)\\]");
    int rules = 0;
    for (auto m = verbs.globalMatch(text); m.hasNext(); ++rules) {
        const QStringList v = m.next().captured(1).split(',', Qt::SkipEmptyParts);
        for (const QString& verb : v)
            QVERIFY2(QStringList({"get", "list", "watch"}).contains(verb.trimmed().remove('"')), qPrintable(verb));
    }
    QVERIFY(rules >= 2);
    for (const char* resource : {"nodes", "pods", "namespaces", "persistentvolumes", "poddisruptionbudgets"})
        QVERIFY2(text.contains(QString(resource)), resource);
    QVERIFY(text.contains("\"policy\""));
}

void TstKubeLive::metricsServerGivesNodeUsage()
{
    auto all = lists();
    auto metrics = [](const char* node, const char* cpu, const char* memory) {
        return QJsonObject{{"metadata", QJsonObject{{"name", node}}}, {"timestamp", "2026-12-02T04:00:00Z"}, {"window", "20.05s"},
                           {"usage", QJsonObject{{"cpu", cpu}, {"memory", memory}}}};
    };
    all["/apis/metrics.k8s.io/v1beta1/nodes"] = QJsonArray{metrics("node-1", "1500000000n", "2Gi"), metrics("node-gone", "1", "1Ki")};
    FakeKubeApiServer server(m_pki, all, {});
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QVERIFY(live.usage);
    const auto n1 = live.store->findNode("node-1"), n2 = live.store->findNode("node-2");
    QCOMPARE(live.usage->cpuUsedMilli[n1.index()], 1500.0);
    QCOMPARE(live.usage->memoryUsedBytes[n1.index()], 2.0 * 1024 * 1024 * 1024);
    QVERIFY(std::isnan(live.usage->cpuUsedMilli[n2.index()])); // not in the answer: unknown, not 0
    QVERIFY(std::isnan(live.usage->gpuUtilization[n1.index()])); // the API has no GPU figures
    QCOMPARE(live.report.warnings.size(), 1u);
    QVERIFY2(QString::fromStdString(live.report.warnings[0]).contains("node-gone"), live.report.warnings[0].c_str());
    // Without metrics-server (404): no usage and no warning.
    FakeKubeApiServer bare(m_pki, lists(), {});
    const LoadedCluster none = loadLiveCluster(config(bare, "fleet-test-token", m_pki.caFile));
    QVERIFY(!none.usage);
    QVERIFY(none.report.warnings.empty());
    // A bad quantity is refused with where: a warning, and the list still loads.
    all["/apis/metrics.k8s.io/v1beta1/nodes"] = QJsonArray{metrics("node-1", "12 cores", "1Ki")};
    FakeKubeApiServer bad(m_pki, all, {});
    const LoadedCluster refused = loadLiveCluster(config(bad, "fleet-test-token", m_pki.caFile));
    QVERIFY(!refused.usage);
    QCOMPARE(refused.store->nodeCount(), 2u);
    QVERIFY2(refused.report.warnings.size() == 1 && refused.report.warnings[0].find("items[0].usage") != std::string::npos,
             refused.report.warnings.empty() ? "" : refused.report.warnings[0].c_str());
}

void TstKubeLive::gzipAnswersAreInflated()
{
    FakeKubeApiServer::Options o;
    o.gzip = true;
    FakeKubeApiServer server(m_pki, lists(), o);
    const LoadedCluster live = loadLiveCluster(config(server, "fleet-test-token", m_pki.caFile));
    QVERIFY(server.gzipped() >= 7); // every page was compressed, so the client asked for gzip
    QCOMPARE(summary(live), summary(m_fromFiles));
}

void TstKubeLive::proxyUrlTunnelsThroughConnect()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    fleet::tests::ConnectProxy proxy;
    kube::ResolvedKubeconfig c = config(server, "fleet-test-token", m_pki.caFile);
    c.cluster.proxyUrl = "http://alice:s3cret@127.0.0.1:" + std::to_string(proxy.port());
    const LoadedCluster live = loadLiveCluster(c);
    QCOMPARE(summary(live), summary(m_fromFiles));
    const std::vector<std::string> seen = proxy.seen();
    QVERIFY(!seen.empty());
    QCOMPARE(seen[0], "CONNECT 127.0.0.1:" + std::to_string(server.port()));
    QCOMPARE(seen[1], std::string("Proxy-Authorization: Basic YWxpY2U6czNjcmV0")); // alice:s3cret
    // TLS went through the tunnel end to end: the server's certificate was checked against the CA.
    c.cluster.certificateAuthority = m_pki.otherCaFile;
    c.cluster.certificateAuthorityData.clear();
    QVERIFY_THROWS_EXCEPTION(kube::KubeApiError, loadLiveCluster(c));
}

void TstKubeLive::unsupportedProxyIsRefused()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    kube::ResolvedKubeconfig c = config(server, "fleet-test-token", m_pki.caFile);
    c.cluster.proxyUrl = "socks5://127.0.0.1:1080";
    try {
        kube::KubeApiClient client(c);
        QFAIL("a socks5 proxy was accepted");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(QString(e.what()).contains("only http:// proxies"), e.what());
    }
}

void TstKubeLive::wrongTokenIsAClearError()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    try {
        (void)loadLiveCluster(config(server, "wrong-secret-token", m_pki.caFile));
        QFAIL("expected a KubeApiError");
    } catch (const kube::KubeApiError& e) {
        const QString what = e.what();
        QCOMPARE(e.status(), 401u);
        QVERIFY2(what.startsWith(QString::fromStdString(server.url())) && what.contains("401: Unauthorized"), e.what());
        QVERIFY2(!what.contains("wrong-secret-token"), e.what());
    }
}

void TstKubeLive::untrustedCaIsRefused()
{
    FakeKubeApiServer server(m_pki, lists(), {});
    try {
        (void)loadLiveCluster(config(server, "fleet-test-token", m_pki.otherCaFile));
        QFAIL("expected a KubeApiError");
    } catch (const kube::KubeApiError& e) {
        QCOMPARE(e.status(), 0u);
        QVERIFY2(QString(e.what()).contains("TLS handshake failed: the server's certificate was not accepted"), e.what());
    }
    QVERIFY(server.requests().empty()); // nothing was sent to a server that was not trusted
}

void TstKubeLive::serverNameIsChecked()
{
    // The server's certificate names IP 127.0.0.1 and DNS kube.test (TestPki): tls-server-name
    // is the name checked (and sent as SNI) in place of the URL's host.
    FakeKubeApiServer server(m_pki, lists(), {});
    kube::ResolvedKubeconfig c = config(server, "fleet-test-token", m_pki.caFile);
    c.cluster.tlsServerName = "kube.test";
    QCOMPARE(summary(loadLiveCluster(c)), summary(m_fromFiles));
    c.cluster.tlsServerName = "other.test";
    try {
        (void)loadLiveCluster(c);
        QFAIL("a certificate for another name was accepted");
    } catch (const kube::KubeApiError& e) {
        QCOMPARE(e.status(), 0u);
        QVERIFY2(QString(e.what()).contains("the server's certificate was not accepted") && QString(e.what()).contains("\"other.test\""),
                 e.what());
    }
    // A wrong IP address is refused as a wrong DNS name is.
    c.cluster.tlsServerName = "127.0.0.2";
    QVERIFY_THROWS_EXCEPTION(kube::KubeApiError, loadLiveCluster(c));
    const std::size_t served = server.requests().size();
    // insecure-skip-tls-verify (without a CA: the pair is refused, tst_kubecredentials): neither
    // a CA nor the name is checked.
    c.cluster.insecureSkipTlsVerify = true;
    c.cluster.certificateAuthority.clear();
    c.cluster.certificateAuthorityData.clear();
    QCOMPARE(summary(loadLiveCluster(c)), summary(m_fromFiles));
    QVERIFY(server.requests().size() > served);
}

void TstKubeLive::clientCertificateAuthenticates()
{
    QVERIFY(!m_pki.clientCertFile.empty());
    FakeKubeApiServer::Options o;
    o.clientCertificates = true;
    FakeKubeApiServer server(m_pki, lists(), o);
    auto fileBase64 = [](const std::string& path) {
        QFile f(QString::fromStdString(path));
        return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll().toBase64()) : QString();
    };
    // Files, then the same as data: no token, the certificate alone authenticates.
    const QString files = QString("    client-certificate: %1\n    client-key: %2")
                              .arg(QString::fromStdString(m_pki.clientCertFile), QString::fromStdString(m_pki.clientKeyFile));
    QCOMPARE(summary(loadLiveCluster(configWithUser(server, files))), summary(m_fromFiles));
    const int byFiles = server.certificateConnections();
    QVERIFY(byFiles >= 1);
    const QString data = QString("    client-certificate-data: %1\n    client-key-data: %2")
                             .arg(fileBase64(m_pki.clientCertFile), fileBase64(m_pki.clientKeyFile));
    QCOMPARE(summary(loadLiveCluster(configWithUser(server, data))), summary(m_fromFiles));
    QVERIFY(server.certificateConnections() > byFiles);

    // The real kubectl with the same user, against the same server.
    if (!QFile::exists(kKubectl))
        qWarning("kubectl 1.33 is not installed here: the oracle half of %s did not run", QTest::currentTestFunction());
    if (QFile::exists(kKubectl)) {
        (void)configWithUser(server, files);
        QProcess p;
        QProcessEnvironment env;
        env.insert("HOME", m_dir.path());
        env.insert("PATH", "/usr/bin:/bin");
        p.setProcessEnvironment(env);
        p.start(kKubectl, {"--kubeconfig", m_dir.filePath("kubeconfig"), "--cache-dir", m_dir.filePath("cache-cert"), "get", "nodes", "-o", "name"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts).size(), qsizetype(m_fromFiles.store->nodeCount()));
    }

    // A certificate another CA signed: the handshake passes, the request gets the server's 401.
    const int before = server.certificateConnections();
    const QString stranger = QString("    client-certificate: %1\n    client-key: %2")
                                 .arg(QString::fromStdString(m_pki.strangerCertFile), QString::fromStdString(m_pki.strangerKeyFile));
    try {
        (void)loadLiveCluster(configWithUser(server, stranger));
        QFAIL("expected a KubeApiError");
    } catch (const kube::KubeApiError& e) {
        QCOMPARE(e.status(), 401u);
        QVERIFY2(QString(e.what()).contains("401: Unauthorized"), e.what());
    }
    QCOMPARE(server.certificateConnections(), before);
}

QTEST_GUILESS_MAIN(TstKubeLive)
#include "tst_kubelive.moc"
