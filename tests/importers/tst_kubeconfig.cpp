// SPDX-License-Identifier: Apache-2.0
// Tests of importers/kube/kubeconfig.h: file precedence, merging, context choice, path
// resolution and errors, with the real kubectl (1.33) as the oracle where it is installed:
// `kubectl config view --minify --flatten --raw -o json` on the same files and environment
// must name the same context, server, user and credential as loadKubeconfig.

#include "importers/kube/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace fleet::importers::kube;

namespace {

const char* kKubectl = "/usr/lib/google-cloud-sdk/bin/kubectl.1.33";

void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

const char* kA = R"(apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.crt
    tls-server-name: api.internal
users:
- name: u1
  user:
    token: secret-token-abc
contexts:
- name: ctx1
  context: {cluster: c1, user: u1, namespace: ml}
current-context: ctx1
)";

const char* kB = R"(apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: https://other.example:1
- name: c2
  cluster:
    server: https://10.0.0.2
    certificate-authority-data: aGVsbG8=
    insecure-skip-tls-verify: false
    proxy-url: http://proxy:3128
users:
- name: u1
  user:
    token: token-from-b
- name: u2
  user:
    client-certificate: ../pki/client.crt
    client-key: ../pki/client.key
- name: u3
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./bin/get-token
      args: [eks, get-token]
      env: [{name: AWS_PROFILE, value: prod}]
      provideClusterInfo: true
- name: u4
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: aws
      interactiveMode: Never
contexts:
- name: ctx2
  context: {cluster: c2, user: u2}
- name: ctx3
  context: {cluster: c2, user: u3}
- name: ctx4
  context: {cluster: c1, user: u1}
- name: ctx5
  context: {cluster: c2, user: u4}
current-context: ctx2
)";

} // namespace

class TstKubeconfig : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void resolves_data();
    void resolves();
    void homeDefault();
    void listsContexts();
    void errors_data();
    void errors();
    void manyContextsNameTheClosest();
    void unreadableFiles();
    void errorsNameWhereTheUserIs();

private:
    // What kubectl resolves for the same request, or an empty object when kubectl is absent.
    QJsonObject kubectlView(const KubeconfigRequest& r);
    QTemporaryDir m_dir;
    QString a, b;
};

void TstKubeconfig::initTestCase()
{
    QVERIFY(m_dir.isValid());
    a = m_dir.filePath("a.yaml");
    b = m_dir.filePath("sub/b.yaml");
    writeFile(a, kA);
    writeFile(b, kB);
    writeFile(m_dir.filePath("certs/ca.crt"), "CA-FROM-A-DIR");
    writeFile(m_dir.filePath("sub/certs/ca.crt"), "CA-FROM-B-DIR");
    writeFile(m_dir.filePath("pki/client.crt"), "CLIENT-CERT");
    writeFile(m_dir.filePath("pki/client.key"), "CLIENT-KEY");
}

QJsonObject TstKubeconfig::kubectlView(const KubeconfigRequest& r)
{
    if (!QFile::exists(kKubectl))
        return {};
    QProcess p;
    QProcessEnvironment env;
    env.insert("HOME", r.homeDir.empty() ? m_dir.path() : QString::fromStdString(r.homeDir));
    env.insert("PATH", "/usr/bin:/bin");
    if (!r.kubeconfigEnv.empty())
        env.insert("KUBECONFIG", QString::fromStdString(r.kubeconfigEnv));
    p.setProcessEnvironment(env);
    QStringList args{"config", "view", "--minify", "--flatten", "--raw", "-o", "json"};
    if (!r.explicitPath.empty())
        args << "--kubeconfig" << QString::fromStdString(r.explicitPath);
    if (!r.context.empty())
        args << "--context" << QString::fromStdString(r.context);
    p.start(kKubectl, args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        qWarning() << "kubectl failed:" << p.readAllStandardError();
        return {};
    }
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

void TstKubeconfig::resolves_data()
{
    QTest::addColumn<QString>("kubeconfigEnv");
    QTest::addColumn<QString>("explicitPath");
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("expectContext");
    QTest::addColumn<QString>("expectServer");
    QTest::addColumn<QString>("expectUser");
    // a first: its current-context and its c1/u1 win.
    QTest::newRow("a:b current") << "A:B" << "" << "" << "ctx1" << "https://127.0.0.1:6443" << "u1";
    QTest::newRow("b:a current") << "B:A" << "" << "" << "ctx2" << "https://10.0.0.2" << "u2";
    QTest::newRow("a:b --context ctx3") << "A:B" << "" << "ctx3" << "ctx3" << "https://10.0.0.2" << "u3";
    // ctx4 is b's, but names c1 and u1, which a defined first: a's entries are used whole.
    QTest::newRow("a:b ctx4 takes a's c1") << "A:B" << "" << "ctx4" << "ctx4" << "https://127.0.0.1:6443" << "u1";
    QTest::newRow("--kubeconfig b alone") << "A" << "B" << "ctx4" << "ctx4" << "https://other.example:1" << "u1";
    QTest::newRow("missing and duplicate entries skipped") << "MISSING:B:B:A" << "" << "" << "ctx2" << "https://10.0.0.2" << "u2";
    QTest::newRow("v1 exec") << "B" << "" << "ctx5" << "ctx5" << "https://10.0.0.2" << "u4";
}

void TstKubeconfig::resolves()
{
    QFETCH(QString, kubeconfigEnv);
    QFETCH(QString, explicitPath);
    QFETCH(QString, context);
    // Token by token: a temp dir's random name may itself hold an "A" or a "B".
    auto expand = [&](const QString& s) {
        QStringList out;
        for (const QString& t : s.split(':', Qt::SkipEmptyParts))
            out << (t == "A" ? a : t == "B" ? b : t == "MISSING" ? m_dir.filePath("nope.yaml") : t);
        return out.join(':').toStdString();
    };
    KubeconfigRequest r;
    r.kubeconfigEnv = expand(kubeconfigEnv);
    r.explicitPath = expand(explicitPath);
    r.context = context.toStdString();
    r.homeDir = m_dir.path().toStdString();
    const ResolvedKubeconfig k = loadKubeconfig(r);
    QFETCH(QString, expectContext);
    QFETCH(QString, expectServer);
    QFETCH(QString, expectUser);
    QCOMPARE(QString::fromStdString(k.contextName), expectContext);
    QCOMPARE(QString::fromStdString(k.cluster.server), expectServer);
    QCOMPARE(QString::fromStdString(k.user.name), expectUser);

    // Paths resolved against the file holding the entry; data decoded.
    if (k.cluster.name == "c1" && k.cluster.origin == a.toStdString()) {
        QCOMPARE(QString::fromStdString(k.cluster.certificateAuthority), m_dir.filePath("certs/ca.crt"));
        QCOMPARE(k.cluster.tlsServerName, std::string("api.internal"));
        QCOMPARE(k.namespaceName, std::string(k.contextName == "ctx1" ? "ml" : ""));
    }
    if (k.cluster.name == "c2") {
        QCOMPARE(k.cluster.certificateAuthorityData, std::string("hello"));
        QCOMPARE(k.cluster.proxyUrl, std::string("http://proxy:3128"));
    }
    if (k.user.name == "u2") {
        QCOMPARE(QString::fromStdString(k.user.clientCertificate), m_dir.filePath("pki/client.crt"));
        QCOMPARE(QString::fromStdString(k.user.clientKey), m_dir.filePath("pki/client.key"));
    }
    if (k.user.name == "u3") {
        QVERIFY(k.user.exec);
        QCOMPARE(QString::fromStdString(k.user.exec->command), m_dir.filePath("sub/bin/get-token"));
        QCOMPARE(k.user.exec->args, (std::vector<std::string>{"eks", "get-token"}));
        QCOMPARE(k.user.exec->env.size(), std::size_t(1));
        QCOMPARE(k.user.exec->env[0].second, std::string("prod"));
        QVERIFY(k.user.exec->provideClusterInfo);
        QCOMPARE(k.user.exec->interactiveMode, std::string("IfAvailable")); // v1beta1 default
    }
    if (k.user.name == "u4") {
        QCOMPARE(k.user.exec->command, std::string("aws")); // PATH-based: left alone
        QCOMPARE(k.user.exec->interactiveMode, std::string("Never"));
    }

    const QJsonObject view = kubectlView(r);
    if (view.isEmpty())
        QSKIP("kubectl 1.33 is not installed here: the oracle half of this test did not run");
    QCOMPARE(view["current-context"].toString(), expectContext);
    const QJsonObject cluster = view["clusters"].toArray().at(0).toObject()["cluster"].toObject();
    const QJsonObject user = view["users"].toArray().at(0).toObject();
    QCOMPARE(cluster["server"].toString(), expectServer);
    QCOMPARE(user["name"].toString(), expectUser);
    // --flatten reads each file from where kubectl resolved it: the same bytes as ours.
    auto fileBytes = [](const std::string& path) {
        QFile f(QString::fromStdString(path));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray ca = k.cluster.certificateAuthority.empty() ? QByteArray::fromStdString(k.cluster.certificateAuthorityData)
                                                                 : fileBytes(k.cluster.certificateAuthority);
    QCOMPARE(QByteArray::fromBase64(cluster["certificate-authority-data"].toString().toLatin1()), ca);
    const QJsonObject u = user["user"].toObject();
    QCOMPARE(u["token"].toString().toStdString(), k.user.token);
    if (!k.user.clientCertificate.empty())
        QCOMPARE(QByteArray::fromBase64(u["client-certificate-data"].toString().toLatin1()), fileBytes(k.user.clientCertificate));
    if (k.user.exec) {
        const QJsonObject e = u["exec"].toObject();
        QCOMPARE(e["interactiveMode"].toString().toStdString(), k.user.exec->interactiveMode);
        QCOMPARE(e["provideClusterInfo"].toBool(), k.user.exec->provideClusterInfo);
        const QString cmd = e["command"].toString();
        QCOMPARE(cmd.contains('/') ? QDir::cleanPath(QFileInfo(QString::fromStdString(k.user.origin)).absolutePath() + "/" + cmd) : cmd,
                 QString::fromStdString(k.user.exec->command));
    }
}

void TstKubeconfig::homeDefault()
{
    QTemporaryDir home;
    writeFile(home.filePath(".kube/config"), kA);
    writeFile(home.filePath(".kube/certs/ca.crt"), "X");
    KubeconfigRequest r;
    r.homeDir = home.path().toStdString();
    const ResolvedKubeconfig k = loadKubeconfig(r);
    QCOMPARE(k.contextName, std::string("ctx1"));
    QCOMPARE(k.files, std::vector<std::string>{home.filePath(".kube/config").toStdString()});
    QCOMPARE(QString::fromStdString(k.cluster.certificateAuthority), home.filePath(".kube/certs/ca.crt"));
}

void TstKubeconfig::listsContexts()
{
    KubeconfigRequest r;
    r.kubeconfigEnv = (a + ":" + b).toStdString();
    auto [names, current] = listKubeconfigContexts(r);
    QCOMPARE(names, (std::vector<std::string>{"ctx1", "ctx2", "ctx3", "ctx4", "ctx5"}));
    QCOMPARE(current, std::string("ctx1"));
    r.kubeconfigEnv = m_dir.filePath("none.yaml").toStdString();
    QVERIFY(listKubeconfigContexts(r).first.empty());
    // --kubeconfig naming a missing file is an error (KUBECONFIG's missing entries are not).
    r.explicitPath = m_dir.filePath("none.yaml").toStdString();
    QVERIFY_THROWS_EXCEPTION(KubeconfigError, listKubeconfigContexts(r));
}

void TstKubeconfig::errors_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("expected"); // a piece of what()
    const QByteArray good = kA;
    QTest::newRow("unknown context") << good << "prod" << "context \"prod\" does not exist";
    QTest::newRow("no current context") << QByteArray("clusters: []\n") << "" << "no context: current-context is not set";
    QTest::newRow("bad YAML has a line") << QByteArray("clusters:\n- name: c1\n  cluster: {server: [\n") << "" << ":4: not valid YAML";
    QTest::newRow("clusters not a list") << QByteArray("clusters: {a: 1}\n") << "" << ":1: clusters: expected a list";
    QTest::newRow("bad base64, secret not echoed")
        << QByteArray("clusters:\n- name: c\n  cluster:\n    server: https://x\n    certificate-authority-data: \"s3cr@t!!\"\n"
                      "users: []\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n")
        << "" << ":5: clusters[0].cluster.certificate-authority-data: not valid base64";
    QTest::newRow("missing cluster") << QByteArray("contexts:\n- name: x\n  context: {cluster: gone, user: u}\ncurrent-context: x\n")
                                     << "" << "cluster \"gone\" of context \"x\" does not exist";
    QTest::newRow("missing user") << QByteArray("clusters:\n- name: c\n  cluster: {server: https://x}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n")
                                  << "" << "user \"u\" of context \"x\" does not exist";
    QTest::newRow("no server") << QByteArray("clusters:\n- name: c\n  cluster: {}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n")
                               << "" << "cluster \"c\" has no server";
    QTest::newRow("bad interactiveMode")
        << QByteArray("clusters:\n- name: c\n  cluster: {server: https://x}\nusers:\n- name: u\n  user:\n    token: tok-SECRET\n    exec: {command: aws, interactiveMode: Sometimes}\n"
                      "contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n")
        << "" << "\"Sometimes\" is not one of Never, IfAvailable, Always";
    QTest::newRow("auth-provider") << QByteArray("clusters:\n- name: c\n  cluster: {server: https://x}\nusers:\n- name: u\n  user:\n    auth-provider: {name: gcp}\n"
                                                 "contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n")
                                   << "" << "auth-provider plugins";
    QTest::newRow("top level a list") << QByteArray("- a\n- b\n") << "" << "expected a kubeconfig mapping";
}

void TstKubeconfig::errors()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, context);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString file = dir.filePath("config");
    writeFile(file, yaml);
    KubeconfigRequest r;
    r.explicitPath = file.toStdString();
    r.context = context.toStdString();
    try {
        (void)loadKubeconfig(r);
        QFAIL("expected a KubeconfigError");
    } catch (const KubeconfigError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(file), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
        QVERIFY2(!what.contains("s3cr") && !what.contains("SECRET"), qPrintable(what));
    }
}

// A kubeconfig of a whole fleet holds thousands of contexts: an unknown --context names the
// closest few (edit distance) and how many there are, on one short line, not all of them.
void TstKubeconfig::manyContextsNameTheClosest()
{
    QByteArray yaml = "clusters:\n- name: c\n  cluster: {server: https://x}\ncontexts:\n";
    for (int i = 0; i < 10000; ++i)
        yaml += QByteArray("- {name: ") + QByteArray::number(i).rightJustified(5, '0').prepend("ctx-") + ", context: {cluster: c}}\n";
    QTemporaryDir dir;
    const QString file = dir.filePath("config");
    writeFile(file, yaml);
    const auto failure = [&](const char* context) {
        KubeconfigRequest r;
        r.explicitPath = file.toStdString();
        r.context = context;
        try {
            (void)loadKubeconfig(r);
        } catch (const KubeconfigError& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    const QString typo = failure("ctx-0999");
    QVERIFY2(typo.contains("context \"ctx-0999\" does not exist") && typo.contains("10000 contexts; the closest: ctx-00999, ctx-01999, ctx-02999, ctx-03999, ctx-04999;"),
             qPrintable(typo));
    QVERIFY2(typo.size() < 400, qPrintable(typo));
    const QString nope = failure("nope");
    QVERIFY2(nope.contains("context \"nope\" does not exist") && nope.contains("10000 contexts; the closest: ") && nope.size() < 400, qPrintable(nope));
    const QString none = failure("");
    QVERIFY2(none.contains("no context: current-context is not set") && none.contains("10000 contexts; the first: ctx-00000, ctx-00001,") && none.size() < 400,
             qPrintable(none));
    // A few contexts are all listed.
    writeFile(file, "clusters:\n- name: c\n  cluster: {server: https://x}\ncontexts:\n- {name: a, context: {cluster: c}}\n- {name: b, context: {cluster: c}}\n");
    QVERIFY2(failure("nope").contains("contexts: a, b)"), qPrintable(failure("nope")));
}

// --kubeconfig and KUBECONFIG entries are read by the option file reader: a folder, a symbolic
// link loop and a FIFO are named as such (a loop was "does not exist"), a missing KUBECONFIG
// entry is skipped as kubectl skips it, and a file name that is not UTF-8 is read.
// The same errors from the command line and from the window's Connect dialog: each names
// what to change where the user is (--kubeconfig and --context, or the dialog's Kubeconfig and
// Context fields), never the other's words.
void TstKubeconfig::errorsNameWhereTheUserIs()
{
    QTemporaryDir dir;
    const QString noCurrent = dir.filePath("no-current.yaml");
    writeFile(noCurrent, "clusters:\n- name: c\n  cluster: {server: https://x}\ncontexts:\n- {name: a, context: {cluster: c}}\n");
    const auto failure = [&](KubeconfigInput input, const QString& explicitPath, bool list) {
        KubeconfigRequest r;
        r.explicitPath = explicitPath.toStdString();
        r.input = input;
        try {
            if (list)
                (void)listKubeconfigContexts(r);
            else
                (void)loadKubeconfig(r);
        } catch (const KubeconfigError& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    const QString missing = dir.filePath("none.yaml");
    for (const bool list : { true, false }) {
        QString what = failure(KubeconfigInput::CommandLine, missing, list);
        QVERIFY2(what.contains("none.yaml: does not exist (given with --kubeconfig)"), qPrintable(what));
        what = failure(KubeconfigInput::WindowDialog, missing, list);
        QVERIFY2(what.contains("none.yaml: does not exist (given in the Kubeconfig field)") && !what.contains("--"), qPrintable(what));
    }
    QString what = failure(KubeconfigInput::CommandLine, noCurrent, false);
    QVERIFY2(what.contains("no context: current-context is not set") && what.contains("pass --context NAME ("),
             qPrintable(what));
    what = failure(KubeconfigInput::WindowDialog, noCurrent, false);
    QVERIFY2(what.contains("no context: current-context is not set") && what.contains("name one in the Context field (")
                 && !what.contains("--"),
             qPrintable(what));
    QCOMPARE(requestTimeoutSetting(KubeconfigInput::CommandLine), std::string("; --request-timeout sets it"));
    QCOMPARE(requestTimeoutSetting(KubeconfigInput::WindowDialog), std::string());
}

void TstKubeconfig::unreadableFiles()
{
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    QCOMPARE(::symlink((base + "/loop-b").c_str(), (base + "/loop-a").c_str()), 0);
    QCOMPARE(::symlink((base + "/loop-a").c_str(), (base + "/loop-b").c_str()), 0);
    QCOMPARE(::mkfifo((base + "/fifo").c_str(), 0600), 0);
    const auto failure = [&](const std::string& explicitPath, const std::string& env) {
        KubeconfigRequest r;
        r.explicitPath = explicitPath;
        r.kubeconfigEnv = env;
        r.context = "x";
        try {
            (void)loadKubeconfig(r);
        } catch (const KubeconfigError& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    QString what = failure(base, {});
    QVERIFY2(what == QString::fromStdString(base + ": is a folder, not a file"), qPrintable(what));
    what = failure(base + "/loop-a", {});
    QVERIFY2(what.contains("loop-a: is a symbolic link loop"), qPrintable(what));
    what = failure({}, base + "/loop-a");
    QVERIFY2(what.contains("loop-a: is a symbolic link loop") && what.contains("(named by KUBECONFIG or ~/.kube/config)"), qPrintable(what));
    what = failure(base + "/fifo", {});
    QVERIFY2(what.contains("fifo: is a pipe (FIFO), not a regular file"), qPrintable(what));
    what = failure(base + "/none", {});
    QVERIFY2(what.contains("none: does not exist (given with --kubeconfig)"), qPrintable(what));
    const std::string latin1 = base + "/caf\xE9.yaml";
    std::ofstream(latin1) << "clusters:\n- name: c\n  cluster: {server: https://latin1}\ncontexts:\n- {name: x, context: {cluster: c}}\n";
    KubeconfigRequest r;
    r.kubeconfigEnv = base + "/none:" + latin1;
    r.context = "x";
    QCOMPARE(loadKubeconfig(r).cluster.server, std::string("https://latin1"));
    QCOMPARE(::unlink(latin1.c_str()), 0); // QTemporaryDir cannot remove a name that is not UTF-8
}

QTEST_APPLESS_MAIN(TstKubeconfig)
#include "tst_kubeconfig.moc"
