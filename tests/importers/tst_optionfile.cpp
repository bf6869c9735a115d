// SPDX-License-Identifier: Apache-2.0
// The one reader of option files (importers/optionfile.h) on real files, FIFOs, folders,
// symbolic links and sparse files in a temporary folder; and every importer entry point that
// reads an option file, handed a FIFO: each refuses it at once, naming the file, where a
// plain open() would wait for a writer forever. The cluster input (kubectl JSON, trace CSV)
// has its own reader and refuses a FIFO too.

#include "importers/clusterloader.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/optionfile.h"
#include "importers/plan/nodegroupsettings.h"
#include "importers/plan/planfile.h"
#include "importers/plan/podtemplate.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/prometheus/usageconfig.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

using namespace fleet;
using importers::OptionFileKind;

namespace {

std::string writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// The message `call` fails with, or "" when it returns. When it is still blocked after 20 s
// (a FIFO opened without O_NONBLOCK waits for a writer), the FIFO is opened for writing and
// closed, which lets it return, and the result says so.
QString failureOf(const std::function<void()>& call, const std::string& fifo)
{
    auto done = std::async(std::launch::async, [&]() -> QString {
        try {
            call();
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    });
    if (done.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
        (void)done.get();
        return QStringLiteral("BLOCKED on the FIFO");
    }
    return done.get();
}

const OptionFileKind kKinds[] = { OptionFileKind::BearerToken, OptionFileKind::PemFile, OptionFileKind::Kubeconfig,
    OptionFileKind::PodTemplate, OptionFileKind::NodeGroups, OptionFileKind::UsageConfig, OptionFileKind::Prices, OptionFileKind::Plan };

} // namespace

class TestOptionFile : public QObject {
    Q_OBJECT
private slots:
    void init();
    void readsARegularFile();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void sizeLimitPerKind_data();
    void sizeLimitPerKind();
    void nameThatIsNotUtf8();
    void everyReaderRefusesAFifo_data();
    void everyReaderRefusesAFifo();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string path(const char* name) const { return m_dir->filePath(QString::fromLatin1(name)).toStdString(); }
    std::string fifo() const
    {
        const std::string p = path("fifo");
        if (::access(p.c_str(), F_OK) != 0 && ::mkfifo(p.c_str(), 0600) != 0)
            qFatal("mkfifo failed");
        return p;
    }
};

void TestOptionFile::init() { m_dir = std::make_unique<QTemporaryDir>(); }

void TestOptionFile::readsARegularFile()
{
    std::string bytes = "token\n";
    bytes += '\0';
    bytes += "\xff after a NUL";
    writeFile(path("token"), bytes);
    QCOMPARE(importers::readOptionFile(path("token"), OptionFileKind::BearerToken), bytes);
    writeFile(path("empty"), "");
    QCOMPARE(importers::readOptionFile(path("empty"), OptionFileKind::Plan), std::string());
    // Through a symbolic link, as ~/.kube/config often is.
    QCOMPARE(::symlink(path("token").c_str(), path("link").c_str()), 0);
    QCOMPARE(importers::readOptionFile(path("link"), OptionFileKind::BearerToken), bytes);
}

void TestOptionFile::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("missing");
    QTest::newRow("fifo") << "fifo" << "is a pipe (FIFO), not a regular file" << false;
    QTest::newRow("folder") << "folder" << "is a folder, not a file" << false;
    QTest::newRow("symlink loop") << "loop" << "is a symbolic link loop" << false;
    QTest::newRow("missing") << "missing" << "does not exist" << true;
    QTest::newRow("dangling symlink") << "dangling" << "is a symbolic link to a file that does not exist" << true;
    QTest::newRow("device") << "/dev/zero" << "is a character device, not a regular file" << false;
    QTest::newRow("socket") << "socket" << "is a socket, not a regular file" << false;
    QTest::newRow("under a file") << "file/x" << "a part of the path before the file name is not a folder" << false;
    QTest::newRow("empty name") << "" << "no file name given for the bearer token file" << true;
}

void TestOptionFile::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, what);
    QFETCH(QString, message);
    QFETCH(bool, missing);
    std::string target;
    if (what == QLatin1String("fifo")) {
        target = fifo();
    } else if (what == QLatin1String("folder")) {
        target = m_dir->path().toStdString();
    } else if (what == QLatin1String("loop")) {
        target = path("loop-a");
        QCOMPARE(::symlink(path("loop-b").c_str(), path("loop-a").c_str()), 0);
        QCOMPARE(::symlink(path("loop-a").c_str(), path("loop-b").c_str()), 0);
    } else if (what == QLatin1String("missing")) {
        target = path("missing");
    } else if (what == QLatin1String("dangling")) {
        target = path("dangling");
        QCOMPARE(::symlink(path("nowhere").c_str(), target.c_str()), 0);
    } else if (what == QLatin1String("socket")) {
        target = path("socket");
        QProcess nc;
        // A socket file needs a listener to exist only while it is made; Python's is at hand.
        nc.start(QStringLiteral("python3"), { QStringLiteral("-c"),
                                               QStringLiteral("import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])"),
                                               QString::fromStdString(target) });
        QVERIFY(nc.waitForFinished(20000));
        QCOMPARE(nc.exitCode(), 0);
    } else if (what == QLatin1String("file/x")) {
        writeFile(path("file"), "x");
        target = path("file/x");
    } else {
        target = what.toStdString();
    }
    for (const OptionFileKind kind : kKinds) {
        try {
            const QString failure = failureOf([&] { (void)importers::readOptionFile(target, kind); }, target);
            QVERIFY2(failure.contains(message), qPrintable(failure));
            QVERIFY2(failure.startsWith(QString::fromStdString(target) + QStringLiteral(": ")), qPrintable(failure));
            (void)importers::readOptionFile(target, kind);
            QFAIL("no error");
        } catch (const importers::OptionFileError& e) {
            QCOMPARE(e.missing(), missing);
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(target));
        }
        if (what.isEmpty())
            break; // the message names one kind
    }
}

void TestOptionFile::sizeLimitPerKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<qulonglong>("limit");
    QTest::addColumn<QString>("name");
    QTest::newRow("bearer token") << int(OptionFileKind::BearerToken) << qulonglong(64) * 1024 << "bearer token file";
    QTest::newRow("PEM") << int(OptionFileKind::PemFile) << (qulonglong(4) << 20) << "PEM file";
    QTest::newRow("kubeconfig") << int(OptionFileKind::Kubeconfig) << (qulonglong(16) << 20) << "kubeconfig file";
    QTest::newRow("pod template") << int(OptionFileKind::PodTemplate) << (qulonglong(3) << 20) << "pod template file";
    QTest::newRow("node groups") << int(OptionFileKind::NodeGroups) << (qulonglong(1) << 20) << "node groups file";
    QTest::newRow("usage config") << int(OptionFileKind::UsageConfig) << (qulonglong(1) << 20) << "usage config file";
    QTest::newRow("prices") << int(OptionFileKind::Prices) << (qulonglong(64) << 20) << "prices file";
    QTest::newRow("plan") << int(OptionFileKind::Plan) << (qulonglong(512) << 20) << "plan file";
}

// At the limit a file is read; one byte more, or a sparse 2 GiB file (a 2 GB file given as a
// token file), is refused before a byte is read, naming the kind and its limit.
void TestOptionFile::sizeLimitPerKind()
{
    QFETCH(int, kind);
    QFETCH(qulonglong, limit);
    QFETCH(QString, name);
    const auto k = static_cast<OptionFileKind>(kind);
    QCOMPARE(qulonglong(importers::optionFileMaxBytes(k)), limit);
    QCOMPARE(QString::fromLatin1(importers::optionFileKindName(k)), name);
    const std::string file = path("big");
    const auto sized = [&](qulonglong bytes) {
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, static_cast<off_t>(bytes)), 0);
        ::close(fd);
    };
    if (limit <= qulonglong(64) << 20) { // reading 512 MiB of zeros would only measure the disk
        sized(limit);
        QCOMPARE(importers::readOptionFile(file, k).size(), std::size_t(limit));
    }
    for (const qulonglong bytes : { limit + 1, qulonglong(2) << 30 }) {
        sized(bytes);
        try {
            (void)importers::readOptionFile(file, k);
            QFAIL("no error");
        } catch (const importers::OptionFileError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.contains(QStringLiteral("more than a %1 may hold").arg(name)), qPrintable(what));
            QVERIFY(!e.missing());
        }
    }
}

// A file name is bytes: a Latin-1 name (not UTF-8) is opened as it is.
void TestOptionFile::nameThatIsNotUtf8()
{
    const std::string file = m_dir->path().toStdString() + "/caf\xE9-token";
    writeFile(file, "abc");
    QCOMPARE(importers::readOptionFile(file, OptionFileKind::BearerToken), std::string("abc"));
    QCOMPARE(::unlink(file.c_str()), 0); // QTemporaryDir cannot remove a name that is not UTF-8
}

void TestOptionFile::everyReaderRefusesAFifo_data()
{
    QTest::addColumn<QString>("reader");
    for (const char* r : { "plan", "prices", "node groups", "pod template", "usage config", "usage config token", "kubeconfig",
             "KUBECONFIG entry", "kubeconfig tokenFile", "kubeconfig certificate-authority", "kubeconfig client-key",
             "kubeconfig client-certificate", "cluster file" })
        QTest::newRow(r) << QString::fromLatin1(r);
}

void TestOptionFile::everyReaderRefusesAFifo()
{
    QFETCH(QString, reader);
    const std::string f = fifo();
    std::function<void()> call;
    QString expected = QStringLiteral("is a pipe (FIFO), not a regular file");
    QString also = expected;
    if (reader == QLatin1String("plan")) {
        call = [&] { (void)importers::readPlanFile(f); };
    } else if (reader == QLatin1String("prices")) {
        call = [&] { (void)importers::loadPriceTable(f); };
    } else if (reader == QLatin1String("node groups")) {
        call = [&] { (void)importers::readNodeGroupSettings(f); };
    } else if (reader == QLatin1String("pod template")) {
        call = [&] { (void)importers::podTemplateFromFile(f, "p"); };
    } else if (reader == QLatin1String("usage config")) {
        call = [&] { (void)importers::prometheus::readUsageConfig(f); };
    } else if (reader == QLatin1String("usage config token")) {
        const std::string config = writeFile(path("usage.yaml"), "prometheus:\n  url: http://127.0.0.1:1\n  bearerTokenFile: fifo\n");
        call = [config] { (void)importers::prometheus::readUsageConfig(config); };
    } else if (reader == QLatin1String("kubeconfig")) {
        call = [&] {
            importers::kube::KubeconfigRequest r;
            r.explicitPath = f;
            (void)importers::kube::loadKubeconfig(r);
        };
    } else if (reader == QLatin1String("KUBECONFIG entry")) {
        call = [&] {
            importers::kube::KubeconfigRequest r;
            r.kubeconfigEnv = path("missing") + ":" + f;
            (void)importers::kube::loadKubeconfig(r);
        };
        also = QStringLiteral("(named by KUBECONFIG or ~/.kube/config)");
    } else if (reader == QLatin1String("cluster file")) {
        call = [&] { (void)importers::loadClusterFiles({ f }); };
        expected = also = QStringLiteral("is not a regular file");
    } else {
        // The files a kubeconfig's cluster or user names, read when the API client is made,
        // before it connects.
        importers::kube::ResolvedKubeconfig config;
        config.cluster.name = "c";
        config.cluster.server = "https://127.0.0.1:1";
        config.user.name = "u";
        if (reader.endsWith(QLatin1String("tokenFile")))
            config.user.tokenFile = f;
        else if (reader.endsWith(QLatin1String("certificate-authority")))
            config.cluster.certificateAuthority = f;
        else if (reader.endsWith(QLatin1String("client-key")))
            config.user.clientKey = f;
        else
            config.user.clientCertificate = f;
        call = [config] { importers::kube::KubeApiClient client(config); };
    }
    const QString failure = failureOf(call, f);
    QVERIFY2(failure.contains(expected) && failure.contains(also), qPrintable(failure));
    QVERIFY2(failure.contains(QString::fromStdString(f)), qPrintable(failure));
}

QTEST_GUILESS_MAIN(TestOptionFile)
#include "tst_optionfile.moc"
