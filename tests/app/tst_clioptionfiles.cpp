// SPDX-License-Identifier: Apache-2.0
// Option files through the fleetscope executable, run as a user runs it (QProcess, no display):
// every option that names a file (--plan, --prices, --node-groups, --pod-template, --kubeconfig,
// KUBECONFIG, --usage-config, --prometheus-token-file, --prometheus-ca, and a kubeconfig's
// tokenFile, certificate-authority, client-key and client-certificate) given a FIFO ends at
// once, naming the file as a pipe, where it used to wait for a writer forever; and a file whose
// name is not UTF-8 is opened (given through /bin/sh, since QProcess arguments are text).

#include "fleetscoperun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using Run = fleet::tests::FleetscopeRun;
const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");

} // namespace

class TstCliOptionFiles : public QObject {
    Q_OBJECT
private slots:
    void init();
    void fifoIsRefusedAtOnce_data();
    void fifoIsRefusedAtOnce();
    void nameThatIsNotUtf8();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_fifo;
};

void TstCliOptionFiles::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_fifo = m_dir->filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(m_fifo).constData(), 0600), 0);
}

void TstCliOptionFiles::fifoIsRefusedAtOnce_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("kubeconfigEntry"); // a kubeconfig file field set to the FIFO, or "KUBECONFIG"
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    const QString plan = kPlanData + QStringLiteral("/plan.json");
    const QString out = QStringLiteral("@DIR@/out.json");
    QTest::newRow("--plan") << QStringList { "plan", "check", cluster, "--plan", "@FIFO@" } << QString();
    QTest::newRow("--prices") << QStringList { "plan", "check", cluster, "--plan", plan, "--prices", "@FIFO@" } << QString();
    QTest::newRow("--node-groups") << QStringList { "plan", "consolidate", cluster, "--node-groups", "@FIFO@", "-o", out } << QString();
    QTest::newRow("--pod-template") << QStringList { "plan", "place", cluster, "--pods", "1", "--pod-template", "@FIFO@", "-o", out } << QString();
    QTest::newRow("screenshot --prices") << QStringList { "screenshot", cluster, "-o", "@DIR@/map.png", "--prices", "@FIFO@" } << QString();
    QTest::newRow("--usage-config") << QStringList { "summary", cluster, "--usage-config", "@FIFO@" } << QString();
    QTest::newRow("--prometheus-token-file")
        << QStringList { "summary", cluster, "--prometheus", "http://127.0.0.1:1", "--prometheus-token-file", "@FIFO@" } << QString();
    // A Prometheus that cannot be read is a warning, not a failed import: the CA is named there.
    QTest::newRow("--prometheus-ca") << QStringList { "summary", cluster, "--prometheus", "https://127.0.0.1:1", "--prometheus-ca", "@FIFO@" }
                                     << QString();
    QTest::newRow("--kubeconfig") << QStringList { "summary", "--kubeconfig", "@FIFO@" } << QString();
    QTest::newRow("KUBECONFIG") << QStringList { "summary", "--context", "x" } << QStringLiteral("KUBECONFIG");
    for (const char* field : { "tokenFile", "certificate-authority", "client-key", "client-certificate" })
        QTest::newRow(field) << QStringList { "summary", "--kubeconfig", "@DIR@/config" } << QString::fromLatin1(field);
}

void TstCliOptionFiles::fifoIsRefusedAtOnce()
{
    QFETCH(QStringList, args);
    QFETCH(QString, kubeconfigEntry);
    for (QString& a : args)
        a.replace(QStringLiteral("@FIFO@"), m_fifo).replace(QStringLiteral("@DIR@"), m_dir->path());
    QProcessEnvironment env = fleet::tests::headlessEnvironment();
    if (kubeconfigEntry == QLatin1String("KUBECONFIG")) {
        env.insert(QStringLiteral("KUBECONFIG"), m_dir->filePath(QStringLiteral("missing")) + QLatin1Char(':') + m_fifo);
    } else if (!kubeconfigEntry.isEmpty()) {
        const bool cluster = kubeconfigEntry == QLatin1String("certificate-authority");
        std::ofstream(m_dir->filePath(QStringLiteral("config")).toStdString())
            << "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n"
            << (cluster ? "    certificate-authority: fifo\n" : "")
            << "users:\n- name: u\n  user:\n    " << (cluster ? std::string("token: t") : kubeconfigEntry.toStdString() + ": fifo") << "\n"
            << "contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n";
    }
    // A minute is far more than any of these takes; a FIFO that is opened blocks until then.
    const Run r = fleet::tests::runFleetscope(args, env, 60'000);
    QVERIFY2(r.exitCode >= 0, r.err.constData());
    const QByteArray all = r.err + r.out;
    QVERIFY2(all.contains(QFile::encodeName(m_fifo) + ": is a pipe (FIFO), not a regular file")
                 || all.contains(QFile::encodeName(m_fifo) + " file " + QFile::encodeName(m_fifo) + ": it is a pipe (FIFO)")
                 || all.contains("file " + QFile::encodeName(m_fifo) + ": it is a pipe (FIFO)")
                 || all.contains("\"" + QFile::encodeName(m_fifo) + "\" is a pipe (FIFO)"),
        all.constData());
}

// A cluster file and a plan whose names are Latin-1 bytes (not UTF-8) are read: `plan check`
// holds, as it does for the same files under plain names.
void TstCliOptionFiles::nameThatIsNotUtf8()
{
    const std::string dir = QFile::encodeName(m_dir->path()).toStdString();
    for (const char* name : { "/caf\xE9-cluster.json", "/caf\xE9-plan.json" }) {
        const bool isPlan = std::string(name).find("plan") != std::string::npos;
        QFile in(kPlanData + (isPlan ? QStringLiteral("/plan.json") : QStringLiteral("/cluster.json")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        std::ofstream(dir + name, std::ios::binary) << in.readAll().toStdString();
    }
    // The plan names its source files; plan check only notes a different source, it still holds.
    QProcess sh;
    sh.setProcessEnvironment(fleet::tests::headlessEnvironment());
    sh.start(QStringLiteral("/bin/sh"),
        { QStringLiteral("-c"),
            QStringLiteral("c=$(printf '%s/caf\\351-cluster.json' \"$1\"); p=$(printf '%s/caf\\351-plan.json' \"$1\"); "
                           "\"$0\" plan check \"$c\" --plan \"$p\" && \"$0\" plan check \"$c\" --plan=\"$p\""),
            QStringLiteral(FLEETSCOPE_EXECUTABLE), m_dir->path() });
    QVERIFY(sh.waitForFinished(120'000));
    const QByteArray err = sh.readAllStandardError();
    QVERIFY2(sh.exitStatus() == QProcess::NormalExit && sh.exitCode() == 0, err.constData());
    QVERIFY2(!err.contains("No such file") && !err.contains("does not exist"), err.constData());
    // QTemporaryDir cannot remove names that are not UTF-8.
    for (const char* name : { "/caf\xE9-cluster.json", "/caf\xE9-plan.json" })
        QCOMPARE(::unlink((dir + name).c_str()), 0);
}

QTEST_GUILESS_MAIN(TstCliOptionFiles)
#include "tst_clioptionfiles.moc"
