// SPDX-License-Identifier: Apache-2.0
// What a credential may hold and what of it may be shown (importers/kube/secrets.h,
// kubeapiclient.h), against the fake API server on loopback HTTPS (fakekubeapiserver.h) and the
// real kubectl 1.33 as the oracle where it is installed:
// - a bearer token with a control character (kubeconfig token, tokenFile, an exec plugin's) is
//   refused before anything is sent, and the refusal never quotes the token;
// - a server URL with userinfo or a query is refused, and every message redacts them;
// - a certificate-authority that is empty, a folder or holds no certificate is an error, never
//   "the system's CAs"; insecure-skip-tls-verify with a CA is an error, as kubectl makes it;
// - an exec plugin cut at its timeout is killed with the processes it started;
// - credentials for a plain http:// server or Prometheus get a warning on stderr, once.

#include "common/kubeconfigfile.h"
#include "common/fakekubeapiserver.h"

#include "importers/clusterloader.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/kube/secrets.h"
#include "importers/prometheus/prometheusclient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <functional>
#include <sys/types.h>
#include <unistd.h>

using namespace fleet;
using namespace fleet::importers;
using fleet::tests::FakeKubeApiServer;

namespace {

const char* kKubectl = "/usr/lib/google-cloud-sdk/bin/kubectl.1.33";
const char* kSecret = "s3cr3t-part";

// The two nodes and four pods of tests/data/kube/scheduling-*.json.
std::map<std::string, QJsonArray> fixtureLists()
{
    const QString dir = QStringLiteral(FLEET_TEST_DATA_DIR "/kube/");
    return { { "/api/v1/nodes", fleet::tests::itemsOfListFile(dir + "scheduling-nodes.json") },
        { "/api/v1/pods", fleet::tests::itemsOfListFile(dir + "scheduling-pods.json") }, { "/api/v1/namespaces", {} },
        { "/apis/policy/v1/poddisruptionbudgets", {} }, { "/api/v1/persistentvolumes", {} } };
}

bool writeFile(const QString& path, const QByteArray& bytes, bool executable = false)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return false;
    f.close();
    return !executable || f.setPermissions(f.permissions() | QFile::ExeOwner | QFile::ExeUser);
}

// True once process `pid` is gone (or a zombie no one reaped yet: it runs no more).
bool processGone(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text))
        return true;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

// What `run` writes on the process's standard error (file descriptor 2, as the warning goes).
QString stderrOf(const std::function<void()>& run)
{
    std::fflush(stderr);
    QTemporaryFile capture;
    if (!capture.open())
        qFatal("cannot make a file to capture stderr in");
    const int saved = ::dup(2);
    ::dup2(capture.handle(), 2);
    try {
        run();
    } catch (...) {
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        throw;
    }
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    capture.seek(0);
    return QString::fromUtf8(capture.readAll());
}

} // namespace

class TstKubeCredentials : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void redactedUrl_data();
    void redactedUrl();
    void tokenWithControlCharacterIsRefused_data();
    void tokenWithControlCharacterIsRefused();
    void execPluginTokenIsChecked();
    void execPluginCutAtItsTimeoutTakesItsChildren();
    void serverUrlSecretsAreRefusedAndRedacted_data();
    void serverUrlSecretsAreRefusedAndRedacted();
    void prometheusUrlSecretsAreRedacted();
    void unusableCertificateAuthorityIsAnError_data();
    void unusableCertificateAuthorityIsAnError();
    void insecureWithCertificateAuthorityIsAnError();
    void cleartextCredentialsAreWarnedAbout_data();
    void cleartextCredentialsAreWarnedAbout();
    void cleartextPrometheusTokenIsWarnedAbout();

private:
    /// Writes a kubeconfig whose cluster has `clusterFields` and whose user has `userFields`
    /// (YAML lines, indented by four) and resolves it.
    kube::ResolvedKubeconfig config(const QString& clusterFields, const QString& userFields);
    QString kubeconfigPath() const { return m_dir.filePath("kubeconfig"); }
    /// kubectl 1.33 on the kubeconfig last written: exit code and stderr.
    std::pair<int, QString> kubectl();
    QTemporaryDir m_dir;
    fleet::tests::TestPki m_pki;
};

void TstKubeCredentials::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pki = fleet::tests::TestPki::create(m_dir.path().toStdString());
    QVERIFY2(!m_pki.caPem.empty(), "the openssl command failed or is missing (installer/install-deps.sh installs it)");
}

kube::ResolvedKubeconfig TstKubeCredentials::config(const QString& clusterFields, const QString& userFields)
{
    fleet::tests::KubeconfigSpec spec;
    spec.clusterFields = clusterFields;
    spec.userFields = userFields;
    spec.contexts = { QStringLiteral("fake") };
    spec.currentContext = QStringLiteral("fake");
    if (fleet::tests::writeKubeconfig(kubeconfigPath(), spec).isEmpty())
        qFatal("cannot write the kubeconfig");
    kube::KubeconfigRequest r;
    r.explicitPath = kubeconfigPath().toStdString();
    return kube::loadKubeconfig(r);
}

std::pair<int, QString> TstKubeCredentials::kubectl()
{
    QProcess p;
    QProcessEnvironment env;
    env.insert("HOME", m_dir.path());
    env.insert("PATH", "/usr/bin:/bin");
    p.setProcessEnvironment(env);
    p.start(kKubectl,
        { "--kubeconfig", kubeconfigPath(), "--cache-dir", m_dir.filePath("cache"), "--request-timeout", "5s", "get", "nodes" });
    if (!p.waitForFinished(60000))
        return { -1, "kubectl did not finish" };
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardError()) };
}

void TstKubeCredentials::redactedUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << "https://10.0.0.1:6443"
                           << "https://10.0.0.1:6443";
    QTest::newRow("path") << "https://h/k8s/clusters/c-1"
                          << "https://h/k8s/clusters/c-1";
    QTest::newRow("userinfo") << "https://bob:pa55@h:6443/x"
                              << "https://REDACTED@h:6443/x";
    QTest::newRow("user only") << "http://bob@h"
                               << "http://REDACTED@h";
    QTest::newRow("@ in the password") << "https://bob:p@ss@h"
                                       << "https://REDACTED@h";
    QTest::newRow("query") << "https://h/?token=s3cret&x=1"
                           << "https://h/?REDACTED";
    QTest::newRow("query without a path") << "https://h?token=s3cret"
                                          << "https://h?REDACTED";
    QTest::newRow("@ in the query only") << "https://h/?u=a@b"
                                         << "https://h/?REDACTED";
    QTest::newRow("fragment") << "https://h/#s3cret"
                              << "https://h/#REDACTED";
    QTest::newRow("both") << "https://a:b@h/p?q=1"
                          << "https://REDACTED@h/p?REDACTED";
    QTest::newRow("request target") << "/api/v1/pods?limit=500&continue=abc"
                                    << "/api/v1/pods?REDACTED";
    QTest::newRow("control bytes") << "https://h/\r\nX: y"
                                   << "https://h/\\x0D\\x0AX: y";
    QTest::newRow("IPv6") << "https://u:p@[::1]:6443"
                          << "https://REDACTED@[::1]:6443";
}

void TstKubeCredentials::redactedUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, shown);
    QCOMPARE(QString::fromStdString(kube::redactedUrl(url.toStdString())), shown);
}

void TstKubeCredentials::tokenWithControlCharacterIsRefused_data()
{
    QTest::addColumn<QString>("user"); // the user's YAML lines
    QTest::addColumn<QString>("tokenFile"); // written first when not empty: its bytes (C escapes decoded)
    QTest::addColumn<QString>("expected");
    QTest::newRow("token CR LF") << QString("    token: \"%1\\r\\nX-Injected: yes\"").arg(kSecret) << QString()
                                 << "the token of user \"tester\" holds a control character (0x0D at byte 11)";
    QTest::newRow("token LF") << QString("    token: \"%1\\nX-Injected: yes\"").arg(kSecret) << QString() << "(0x0A at byte 11)";
    QTest::newRow("token tab") << QString("    token: \"%1\\tmore\"").arg(kSecret) << QString() << "(0x09 at byte 11)";
    QTest::newRow("token NUL") << QString("    token: \"%1\\0more\"").arg(kSecret) << QString() << "(0x00 at byte 11)";
    QTest::newRow("token DEL") << QString("    token: \"%1\\x7fmore\"").arg(kSecret) << QString() << "(0x7F at byte 11)";
    QTest::newRow("tokenFile CR LF") << QString("    tokenFile: token.txt") << QString("%1\r\nX-Injected: yes\n").arg(kSecret)
                                     << "the tokenFile " + m_dir.filePath("token.txt")
            + " of user \"tester\" holds a control character (0x0D at byte 11)";
    QTest::newRow("tokenFile empty") << QString("    tokenFile: token.txt") << QString("\n")
                                     << "the tokenFile " + m_dir.filePath("token.txt") + " of user \"tester\" is empty";
}

void TstKubeCredentials::tokenWithControlCharacterIsRefused()
{
    QFETCH(QString, user);
    QFETCH(QString, tokenFile);
    QFETCH(QString, expected);
    if (!tokenFile.isEmpty())
        QVERIFY(writeFile(m_dir.filePath("token.txt"), tokenFile.toUtf8()));
    FakeKubeApiServer server(m_pki, fixtureLists(), {});
    const auto c = config(QString("    server: %1\n    certificate-authority: %2")
                              .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile)),
        user);
    try {
        (void)loadLiveCluster(c);
        QFAIL("a token with a control character was sent");
    } catch (const kube::KubeApiError& e) {
        const QString what = e.what();
        QVERIFY2(what.contains(expected), e.what());
        QVERIFY2(!what.contains(kSecret) && !what.contains("X-Injected"), e.what()); // the token is never shown
        QCOMPARE(e.status(), 0u);
    }
    QVERIFY(server.requests().empty()); // nothing reached the wire
}

void TstKubeCredentials::execPluginTokenIsChecked()
{
    // A plugin that works, then the same plugin giving a token with CR LF inside.
    FakeKubeApiServer server(m_pki, fixtureLists(), {});
    const QString plugin = m_dir.filePath("plugin.sh");
    const QString cluster = QString("    server: %1\n    certificate-authority: %2")
                                .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile));
    const QString user
        = QString("    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: %1").arg(plugin);
    auto writePlugin = [&](const QString& token) {
        return writeFile(plugin,
            QString(
                "#!/bin/sh\nprintf '%s' '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\","
                "\"status\":{\"token\":\"%1\"}}'\n")
                .arg(token)
                .toUtf8(),
            true);
    };
    QVERIFY(writePlugin("fleet-test-token"));
    QCOMPARE(loadLiveCluster(config(cluster, user)).store->nodeCount(), 2u);
    const std::size_t served = server.requests().size();
    QVERIFY(served > 0);

    QVERIFY(writePlugin(QString("%1\\r\\nX-Injected: yes").arg(kSecret)));
    try {
        (void)loadLiveCluster(config(cluster, user));
        QFAIL("an exec plugin's token with a control character was sent");
    } catch (const kube::KubeApiError& e) {
        const QString what = e.what();
        QVERIFY2(what.contains("the token given by exec plugin " + plugin
                     + " of user \"tester\" holds a control character (0x0D at byte 11)"),
            e.what());
        QVERIFY2(!what.contains(kSecret) && !what.contains("X-Injected"), e.what());
    }
    QCOMPARE(server.requests().size(), served);
}

void TstKubeCredentials::execPluginCutAtItsTimeoutTakesItsChildren()
{
    // A plugin (a shell script) that starts a child in the background and then hangs.
    FakeKubeApiServer server(m_pki, fixtureLists(), {});
    const QString plugin = m_dir.filePath("hanging-plugin.sh");
    const QString pidFile = m_dir.filePath("child.pid");
    QFile::remove(pidFile);
    QVERIFY(writeFile(plugin, QString("#!/bin/sh\nsleep 300 &\necho $! > %1\nsleep 300\n").arg(pidFile).toUtf8(), true));
    auto c = config(QString("    server: %1\n    certificate-authority: %2")
                        .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile)),
        QString("    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: %1").arg(plugin));
    c.execTimeout = std::chrono::milliseconds(1500);
    QElapsedTimer clock;
    clock.start();
    try {
        (void)loadLiveCluster(c);
        QFAIL("a hanging exec plugin gave a cluster");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(
            QString(e.what()).contains("did not finish within 1.5 s; it and the processes it started were killed"), e.what());
    }
    QVERIFY(clock.elapsed() < 10'000);
    QFile f(pidFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    bool ok = false;
    const pid_t child = static_cast<pid_t>(f.readAll().trimmed().toLongLong(&ok));
    QVERIFY(ok && child > 0);
    // SIGKILL is delivered asynchronously: wait for the condition, with a bound.
    QTRY_VERIFY_WITH_TIMEOUT(processGone(child), 5000);
    QVERIFY(server.requests().empty());
}

void TstKubeCredentials::serverUrlSecretsAreRefusedAndRedacted_data()
{
    QTest::addColumn<QString>("server"); // %1 is the fake server's port
    QTest::addColumn<QString>("expected");
    QTest::newRow("userinfo")
        << "https://bob:%2@127.0.0.1:%1"
        << "https://REDACTED@127.0.0.1:%1: the server URL https://REDACTED@127.0.0.1:%1 holds a user name or password";
    QTest::newRow("user only") << "https://%2@127.0.0.1:%1"
                               << "holds a user name or password";
    QTest::newRow("query") << "https://127.0.0.1:%1/?token=%2"
                           << "https://127.0.0.1:%1/?REDACTED has a query or fragment";
    QTest::newRow("fragment") << "https://127.0.0.1:%1/#%2"
                              << "has a query or fragment";
    QTest::newRow("CR LF") << "https://127.0.0.1:%1/\r\nX-Injected: yes"
                           << "https://127.0.0.1:%1/\\x0D\\x0AX-Injected: yes holds a space or control character";
}

void TstKubeCredentials::serverUrlSecretsAreRefusedAndRedacted()
{
    QFETCH(QString, server);
    QFETCH(QString, expected);
    FakeKubeApiServer fake(m_pki, fixtureLists(), {});
    const QString port = QString::number(fake.port());
    kube::ResolvedKubeconfig c = config(QString("    server: https://127.0.0.1:%1\n    certificate-authority: %2")
                                            .arg(port, QString::fromStdString(m_pki.caFile)),
        "    token: fleet-test-token");
    c.cluster.server = QString(server).replace("%1", port).replace("%2", kSecret).toStdString();
    try {
        (void)loadLiveCluster(c);
        QFAIL("a server URL with a secret in it was used");
    } catch (const kube::KubeApiError& e) {
        const QString what = e.what();
        QVERIFY2(what.contains(QString(expected).replace("%1", port)), e.what());
        QVERIFY2(!what.contains(kSecret), e.what());
    }
    QVERIFY(fake.requests().empty());

    // A proxy URL's password (sent as Proxy-Authorization when used) is never shown either.
    c.cluster.server = "https://127.0.0.1:" + port.toStdString();
    c.cluster.proxyUrl = std::string("socks5://bob:") + kSecret + "@127.0.0.1:1080";
    try {
        kube::KubeApiClient client(c);
        QFAIL("a socks5 proxy was accepted");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(
            QString(e.what()).contains("socks5://REDACTED@127.0.0.1:1080") && !QString(e.what()).contains(kSecret), e.what());
    }
}

void TstKubeCredentials::prometheusUrlSecretsAreRedacted()
{
    for (const std::string& url :
        { std::string("http://bob:") + kSecret + "@127.0.0.1:9", std::string("http://127.0.0.1:9/?token=") + kSecret }) {
        try {
            prometheus::PrometheusSettings settings;
            settings.baseUrl = url;
            prometheus::PrometheusClient client(settings);
            QFAIL("a Prometheus URL with a secret in it was used");
        } catch (const prometheus::PrometheusError& e) {
            QVERIFY2(QString(e.what()).contains("REDACTED") && !QString(e.what()).contains(kSecret), e.what());
        }
    }
}

void TstKubeCredentials::unusableCertificateAuthorityIsAnError_data()
{
    QTest::addColumn<QString>("ca"); // the certificate-authority: a file written here, or a folder
    QTest::addColumn<QByteArray>("content"); // what the file holds (a null array: a folder)
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("kubectlRefuses"); // what kubectl 1.33 does with the same kubeconfig
    QTest::newRow("empty file") << "empty-ca.pem" << QByteArray("") << "holds no PEM certificate (it is empty)" << false;
    QTest::newRow("folder") << "ca-folder" << QByteArray() << "is a folder, not a PEM file of CA certificates" << true;
    QTest::newRow("text") << "text-ca.pem" << QByteArray("not a certificate\n")
                          << "holds no PEM certificate (no -----BEGIN CERTIFICATE----- block OpenSSL can read)" << true;
}

void TstKubeCredentials::unusableCertificateAuthorityIsAnError()
{
    QFETCH(QString, ca);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QFETCH(bool, kubectlRefuses);
    const QString path = m_dir.filePath(ca);
    if (content.isNull())
        QVERIFY(QDir().mkpath(path));
    else
        QVERIFY(writeFile(path, content));
    // The server's certificate is one a public CA could have signed as well: a fallback to the
    // system's CAs would be a silent widening of trust, so it must never be reached.
    FakeKubeApiServer server(m_pki, fixtureLists(), {});
    const auto c
        = config(QString("    server: %1\n    certificate-authority: %2").arg(QString::fromStdString(server.url()), path),
            "    token: fleet-test-token");
    try {
        (void)loadLiveCluster(c);
        QFAIL("an unusable certificate-authority was accepted");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(QString(e.what()).contains("the certificate-authority " + path + " of cluster \"fake\" " + expected), e.what());
    }
    QVERIFY(server.requests().empty());
    // The same CA as certificate-authority-data (base64 in the kubeconfig).
    if (!content.isNull() && !content.isEmpty()) {
        const auto d = config(QString("    server: %1\n    certificate-authority-data: %2")
                                  .arg(QString::fromStdString(server.url()), QString::fromLatin1(content.toBase64())),
            "    token: fleet-test-token");
        try {
            (void)loadLiveCluster(d);
            QFAIL("an unusable certificate-authority-data was accepted");
        } catch (const kube::KubeApiError& e) {
            QVERIFY2(QString(e.what()).contains("the certificate-authority-data of cluster \"fake\" holds no PEM certificate"),
                e.what());
        }
    }
    if (!QFile::exists(kKubectl)) {
        qWarning("kubectl 1.33 is not installed here: the oracle half of %s did not run", QTest::currentTestFunction());
        return; // the rule above is ours; kubectl only confirms it
    }
    (void)config(QString("    server: %1\n    certificate-authority: %2").arg(QString::fromStdString(server.url()), path),
        "    token: fleet-test-token");
    const auto [code, err] = kubectl();
    // kubectl 1.33 refuses a folder ("is a directory") and a file without a certificate ("unable
    // to load root certificates"), but takes an empty file for "no CA" and trusts the system's
    // CAs: Fleetscope is stricter there.
    QVERIFY2(
        (code != 0 && (err.contains("is a directory") || err.contains("unable to load root certificates"))) == kubectlRefuses,
        qPrintable(err));
}

void TstKubeCredentials::insecureWithCertificateAuthorityIsAnError()
{
    FakeKubeApiServer server(m_pki, fixtureLists(), {});
    const QString fields = QString("    server: %1\n    insecure-skip-tls-verify: true\n    certificate-authority: %2")
                               .arg(QString::fromStdString(server.url()), QString::fromStdString(m_pki.caFile));
    try {
        (void)loadLiveCluster(config(fields, "    token: fleet-test-token"));
        QFAIL("insecure-skip-tls-verify with a CA was accepted");
    } catch (const kube::KubeApiError& e) {
        QVERIFY2(
            QString(e.what()).contains("cluster \"fake\" sets insecure-skip-tls-verify together with a certificate-authority: "
                                       "specifying a root certificates file with the insecure flag is not allowed"),
            e.what());
    }
    QVERIFY(server.requests().empty());
    // Without the CA, insecure-skip-tls-verify alone connects.
    const QString insecure
        = QString("    server: %1\n    insecure-skip-tls-verify: true").arg(QString::fromStdString(server.url()));
    QCOMPARE(loadLiveCluster(config(insecure, "    token: fleet-test-token")).store->nodeCount(), 2u);
    if (!QFile::exists(kKubectl))
        qWarning("kubectl 1.33 is not installed here: the oracle half of %s did not run", QTest::currentTestFunction());
    if (QFile::exists(kKubectl)) {
        (void)config(fields, "    token: fleet-test-token");
        const auto [code, err] = kubectl();
        QVERIFY(code != 0);
        QVERIFY2(err.contains("specifying a root certificates file with the insecure flag is not allowed"), qPrintable(err));
    }
}

void TstKubeCredentials::cleartextCredentialsAreWarnedAbout_data()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("userFields");
    QTest::addColumn<QString>("expected"); // empty: no warning
    const QString cert = QString("    client-certificate: %1\n    client-key: %2")
                             .arg(QString::fromStdString(m_pki.clientCertFile), QString::fromStdString(m_pki.clientKeyFile));
    QTest::newRow("http token") << "http://127.0.0.1:18081" << QString("    token: %1").arg(kSecret)
                                << "warning: user \"tester\" of http://127.0.0.1:18081: the server URL is plain http://, so the "
                                   "bearer token travels in cleartext: anyone on the network path can read and reuse it; use an "
                                   "https:// server URL\n";
    QTest::newRow("http tokenFile") << "http://127.0.0.1:18082" << "    tokenFile: " + m_dir.filePath("token")
                                    << "so the bearer token (from the tokenFile " + m_dir.filePath("token")
            + ") travels in cleartext";
    QTest::newRow("http client certificate") << "http://127.0.0.1:18083" << cert
                                             << "plain http://, so the client certificate is not sent (it needs TLS)";
    QTest::newRow("http without credentials") << "http://127.0.0.1:18084" << "    {}" << "";
    QTest::newRow("https token") << "https://127.0.0.1:18085" << QString("    token: %1").arg(kSecret) << "";
}

void TstKubeCredentials::cleartextCredentialsAreWarnedAbout()
{
    QFETCH(QString, server);
    QFETCH(QString, userFields);
    QFETCH(QString, expected);
    QVERIFY(writeFile(m_dir.filePath("token"), QByteArray(kSecret) + "\n"));
    const kube::ResolvedKubeconfig c = config("    server: " + server, userFields);
    const QString first = stderrOf([&] { kube::KubeApiClient client(c); });
    if (expected.isEmpty()) {
        QVERIFY2(first.isEmpty(), qPrintable(first));
        return;
    }
    QVERIFY2(first.contains(expected), qPrintable(first));
    QVERIFY2(first.startsWith("warning: user \"tester\" of " + server + ": "), qPrintable(first));
    QCOMPARE(first.count('\n'), 1);
    QVERIFY2(!first.contains(kSecret), qPrintable(first));
    // A live session makes a client per watch and reconnect: the operator reads it once.
    const QString again = stderrOf([&] { kube::KubeApiClient client(c); });
    QVERIFY2(again.isEmpty(), qPrintable(again));
}

void TstKubeCredentials::cleartextPrometheusTokenIsWarnedAbout()
{
    prometheus::PrometheusSettings settings;
    settings.baseUrl = "http://127.0.0.1:19090";
    settings.bearerToken = kSecret;
    const QString text = stderrOf([&] { prometheus::PrometheusClient client(settings); });
    QVERIFY2(text.contains("http://127.0.0.1:19090: the server URL is plain http://, so the bearer token travels in cleartext"),
        qPrintable(text));
    QVERIFY2(!text.contains(kSecret), qPrintable(text));
    settings.baseUrl = "https://127.0.0.1:19090";
    const QString overTls = stderrOf([&] { prometheus::PrometheusClient client(settings); });
    QVERIFY2(overTls.isEmpty(), qPrintable(overTls));
}

QTEST_GUILESS_MAIN(TstKubeCredentials)
#include "tst_kubecredentials.moc"
