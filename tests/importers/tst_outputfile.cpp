// SPDX-License-Identifier: Apache-2.0
// The output writer (importers/output/outputfile.h) that every command and the window use: a
// full disk on a real tmpfs, targets that are not regular files, outputs that are inputs, kept
// modes, symbolic links and standard output.

#include "common/specialfiles.h"
#include "common/tmpfsmount.h"
#include "importers/output/documentheader.h"
#include "importers/output/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

using namespace fleet;
using fleet::importers::OutputFileError;
using fleet::importers::OutputFileOptions;
using fleet::tests::modeOf;
using fleet::tests::readAll;
using fleet::tests::writeBytes;

namespace {

mode_t currentUmask()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

// The text of the exception writeOutputFile throws, or "" when it wrote.
QString writeError(const QString& path, const QByteArray& bytes, const OutputFileOptions& options = {})
{
    try {
        importers::writeOutputFile(
            path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), options);
    } catch (const OutputFileError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QByteArray bigText(int bytes)
{
    QByteArray text;
    while (text.size() < bytes)
        text += "kubectl drain node-" + QByteArray::number(text.size()) + " --ignore-daemonsets --delete-emptydir-data\n";
    return text;
}

} // namespace

class TestOutputFile : public QObject {
    Q_OBJECT

private slots:
    void writesNewFileWithUmaskMode();
    void replacesAndKeepsMode();
    void refusesWriteProtectedFile();
    void errorWordsSaidOnce();
    void diskFullKeepsPreviousFile_data();
    void diskFullKeepsPreviousFile();
    void diskFullNewFileLeavesNothing();
    void refusesNonRegularTarget_data();
    void refusesNonRegularTarget();
    void followsLinkToRegularFile();
    void refusesInput_data();
    void refusesInput();
    void refusesMissingFolder();
    void refusesDocumentUnlessADocument();
    void distinctOutputs();
    void standardOutput();
    void standardOutputFull();
    void removesTemporariesOfDeadWriters();
    void cancelledWriteKeepsThePreviousFile_data();
    void cancelledWriteKeepsThePreviousFile();
};

void TestOutputFile::writesNewFileWithUmaskMode()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString text = dir.filePath(QStringLiteral("out.csv"));
    QCOMPARE(writeError(text, "a,b\n"), QString());
    QCOMPARE(readAll(text), QByteArray("a,b\n"));
    QCOMPARE(modeOf(text) & 07777, 0666 & ~currentUmask());
    OutputFileOptions script;
    script.executable = true;
    const QString sh = dir.filePath(QStringLiteral("drain.sh"));
    QCOMPARE(writeError(sh, "#!/bin/bash\n", script), QString());
    QCOMPARE(modeOf(sh) & 07777, 0777 & ~currentUmask());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
        QStringList({ "drain.sh", "out.csv" }));
}

void TestOutputFile::replacesAndKeepsMode()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("drain.sh"));
    QVERIFY(writeBytes(path, "old"));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
    QCOMPARE(writeError(path, "new text"), QString());
    QCOMPARE(readAll(path), QByteArray("new text"));
    QCOMPARE(modeOf(path) & 07777, mode_t(0640));
    OutputFileOptions script;
    script.executable = true; // a script stays runnable by its owner
    QCOMPARE(writeError(path, "#!/bin/bash\n", script), QString());
    QCOMPARE(modeOf(path) & 07777, mode_t(0740));
}

// A file the user write-protected (chmod a-w) is not replaced, though its folder is writable and
// the rename beside it would go through (root's access() ignores the mode bits: the mode is
// read). checkOutputTarget() says so before any work; the file is as it was.
void TestOutputFile::refusesWriteProtectedFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(writeBytes(path, "old"));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0444) == 0);
    const QString expected = path + QStringLiteral(": cannot write: it is write-protected (mode 0444); make it writable (chmod u+w) to "
                                                   "replace it, or name another file; the previous file is unchanged");
    QCOMPARE(writeError(path, "new text"), expected);
    try {
        fleet::importers::checkOutputTarget(path.toStdString());
        QFAIL("checkOutputTarget() accepted a write-protected file");
    } catch (const OutputFileError& e) {
        QCOMPARE(QString::fromStdString(e.what()), expected);
    }
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(modeOf(path) & 07777, mode_t(0444));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Hidden | QDir::Files), QStringList { QStringLiteral("plan.json") });
    // Writable by its owner only: replaced, as any file of ours.
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
    QCOMPARE(writeError(path, "new text"), QString());
    QCOMPARE(readAll(path), QByteArray("new text"));
}

// The words of a write error, then the system's text only when it says more: "permission
// denied", not "permission denied (Permission denied)".
void TestOutputFile::errorWordsSaidOnce()
{
    QCOMPARE(QString::fromStdString(fleet::importers::writeErrorText(EACCES)), QStringLiteral("permission denied"));
    QCOMPARE(QString::fromStdString(fleet::importers::writeErrorText(EPERM)), QStringLiteral("permission denied (Operation not permitted)"));
    QCOMPARE(QString::fromStdString(fleet::importers::writeErrorText(EROFS)), QStringLiteral("read-only file system"));
    QCOMPARE(QString::fromStdString(fleet::importers::writeErrorText(ENOSPC)), QStringLiteral("disk full (No space left on device)"));
    QCOMPARE(QString::fromStdString(fleet::importers::writeErrorText(EIO)), QStringLiteral("input/output error"));
}

void TestOutputFile::diskFullKeepsPreviousFile_data()
{
    QTest::addColumn<qint64>("freeBytes");
    QTest::addColumn<int>("size");
    // Nothing free: the first write fails.
    QTest::newRow("0 free, 40 KB") << qint64(0) << 40'000;
    // One page free: the write is cut after 4 KiB (Qt's QSaveFile took that for success when
    // the text fit its 16 KB buffer, and renamed the cut file over the old one).
    QTest::newRow("4 KiB free, 10 KB") << qint64(4096) << 10'000;
    QTest::newRow("4 KiB free, 40 KB") << qint64(4096) << 40'000;
    QTest::newRow("64 KiB free, 500 KB") << qint64(65536) << 500'000;
}

void TestOutputFile::diskFullKeepsPreviousFile()
{
    QFETCH(qint64, freeBytes);
    QFETCH(int, size);
    fleet::tests::TmpfsMount disk;
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString path = disk.filePath(QStringLiteral("drain.sh"));
    const QByteArray old = bigText(2000);
    QVERIFY(writeBytes(path, old));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0755) == 0);
    const QString filled = disk.fill(freeBytes);
    QVERIFY2(filled.isEmpty(), qPrintable(filled));
    OutputFileOptions script;
    script.executable = true;
    const QString error = writeError(path, bigText(size), script);
    QVERIFY2(error.contains(QStringLiteral("disk full (No space left on device)")), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("the previous file is unchanged")), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("Unknown error")), qPrintable(error));
    QCOMPARE(readAll(path), old);
    QCOMPARE(modeOf(path) & 07777, mode_t(0755));
    QCOMPARE(disk.entries(), QStringList { QStringLiteral("drain.sh") }); // no temporary file left
}

void TestOutputFile::diskFullNewFileLeavesNothing()
{
    fleet::tests::TmpfsMount disk;
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString filled = disk.fill(4096);
    QVERIFY2(filled.isEmpty(), qPrintable(filled));
    const QString error = writeError(disk.filePath(QStringLiteral("plan.json")), bigText(12'000));
    QVERIFY2(
        error.contains(QStringLiteral("disk full")) && error.contains(QStringLiteral("no file was written")), qPrintable(error));
    QCOMPARE(disk.entries(), QStringList());
}

void TestOutputFile::refusesNonRegularTarget_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("says");
    QTest::newRow("FIFO") << "fifo"
                          << "a FIFO (named pipe), not a regular file";
    QTest::newRow("folder") << "folder"
                            << "a folder, not a regular file";
    QTest::newRow("character device like /dev/null") << "chardev"
                                                     << "a character device, not a regular file";
    QTest::newRow("symbolic link to a FIFO") << "link-to-fifo"
                                             << "a FIFO (named pipe), not a regular file";
    QTest::newRow("symbolic link to nothing") << "dangling-link"
                                              << "a symbolic link to a file that does not exist";
}

void TestOutputFile::refusesNonRegularTarget()
{
    QFETCH(QString, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("out"));
    const QString made = fleet::tests::makeSpecialFile(path, kind);
    QVERIFY2(made.isEmpty(), qPrintable(made));
    const mode_t before = modeOf(path);
    const QStringList entriesBefore
        = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    // Checked before any work, and again when writing.
    try {
        importers::checkOutputTarget(path.toStdString());
        QFAIL("checkOutputTarget accepted it");
    } catch (const OutputFileError& e) {
        QVERIFY2(QString::fromLatin1(e.what()).contains(says), e.what());
    }
    const QString error = writeError(path, "x");
    QVERIFY2(error.contains(says) && error.contains(path), qPrintable(error));
    QCOMPARE(modeOf(path), before); // still the FIFO, folder, device or link it was
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), entriesBefore);
}

void TestOutputFile::followsLinkToRegularFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid() && QDir(dir.path()).mkdir(QStringLiteral("real")));
    const QString real = dir.filePath(QStringLiteral("real/plan.json"));
    const QString link = dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(writeBytes(real, "old"));
    QVERIFY(::symlink(QFile::encodeName(real).constData(), QFile::encodeName(link).constData()) == 0);
    QCOMPARE(writeError(link, "new"), QString());
    QVERIFY(S_ISLNK(modeOf(link))); // the link stays a link
    QCOMPARE(readAll(real), QByteArray("new"));
    QCOMPARE(QDir(dir.filePath(QStringLiteral("real"))).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
        QStringList { QStringLiteral("plan.json") });
}

void TestOutputFile::refusesInput_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("same path") << "same";
    QTest::newRow("another spelling of the path") << "dotted";
    QTest::newRow("a hard link to the input") << "hardlink";
    QTest::newRow("a symbolic link to the input") << "symlink";
}

void TestOutputFile::refusesInput()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString input = dir.filePath(QStringLiteral("nodes.json"));
    const QByteArray cluster = "{\"kind\": \"NodeList\", \"items\": []}\n";
    QVERIFY(writeBytes(input, cluster));
    QString output = input;
    if (how == QLatin1String("dotted"))
        output = dir.path() + QStringLiteral("/./nodes.json");
    else if (how == QLatin1String("hardlink")) {
        output = dir.filePath(QStringLiteral("plan.json"));
        QVERIFY(::link(QFile::encodeName(input).constData(), QFile::encodeName(output).constData()) == 0);
    } else if (how == QLatin1String("symlink")) {
        output = dir.filePath(QStringLiteral("plan.json"));
        QVERIFY(::symlink(QFile::encodeName(input).constData(), QFile::encodeName(output).constData()) == 0);
    }
    OutputFileOptions options;
    options.inputs = { dir.filePath(QStringLiteral("pods.json")).toStdString(), input.toStdString() }; // the first does not exist
    const QString error = writeError(output, "{\"fleetscopePlan\": 1}\n", options);
    QVERIFY2(error.contains(QStringLiteral("same file as the input ") + input), qPrintable(error));
    QCOMPARE(readAll(input), cluster);
    // Another file beside it is fine.
    QCOMPARE(writeError(dir.filePath(QStringLiteral("other.json")), "{}", options), QString());
}

// A plan, CSV, script or image written over a .fleet would lose the saved cluster and its
// plans: only an output that is itself a document replaces one; a link to one is refused too.
void TestOutputFile::refusesDocumentUnlessADocument()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray header(100, '\0');
    header.replace(0, 16, QByteArray("SQLite format 3", 16));
    header.replace(68, 4, QByteArray("FSCP"));
    const QString document = dir.filePath(QStringLiteral("state.fleet"));
    QVERIFY(writeBytes(document, header));
    QVERIFY(importers::isFleetDocumentFile(document.toStdString()));
    const QString error = writeError(document, "{}\n");
    QVERIFY2(error.startsWith(document + QStringLiteral(": cannot write: it is a Fleetscope document (a saved cluster with its plans)")),
        qPrintable(error));
    QCOMPARE(readAll(document), header);
    const QString link = dir.filePath(QStringLiteral("link.json"));
    QVERIFY(QFile::link(document, link));
    QVERIFY2(writeError(link, "{}\n").contains(QStringLiteral("it is a Fleetscope document")), "a link to a document");
    try {
        importers::checkOutputTarget(document.toStdString());
        QFAIL("checkOutputTarget took a document");
    } catch (const OutputFileError& e) {
        QVERIFY2(std::string(e.what()).find("Fleetscope document") != std::string::npos, e.what());
    }
    QCOMPARE(readAll(document), header);
    // Another SQLite database is a file like any other.
    QByteArray other = header;
    other.replace(68, 4, QByteArray(4, '\0'));
    const QString database = dir.filePath(QStringLiteral("other.db"));
    QVERIFY(writeBytes(database, other));
    QCOMPARE(writeError(database, "x"), QString());
    OutputFileOptions documentOutput;
    documentOutput.replacesDocument = true;
    QCOMPARE(writeError(document, "new document", documentOutput), QString());
    QCOMPARE(readAll(document), QByteArray("new document"));
}

void TestOutputFile::refusesMissingFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("missing/plan.json"));
    const QString error = writeError(path, "{}");
    QVERIFY2(error.contains(
                 QStringLiteral("the folder ") + dir.filePath(QStringLiteral("missing")) + QStringLiteral(" does not exist")),
        qPrintable(error));
}

void TestOutputFile::distinctOutputs()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string a = dir.filePath(QStringLiteral("a.csv")).toStdString();
    const std::string b = dir.filePath(QStringLiteral("b.csv")).toStdString();
    importers::checkDistinctOutputs({ { "-o", a }, { "--csv", b } });
    importers::checkDistinctOutputs({ { "--csv", "-" }, { "--kubectl-script", b } }, true);
    auto refused = [](const std::vector<std::pair<std::string, std::string>>& outputs, bool allowStdout) {
        try {
            importers::checkDistinctOutputs(outputs, allowStdout);
        } catch (const OutputFileError& e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    };
    QVERIFY(refused({ { "-o", a }, { "--csv", a } }, false).contains(QStringLiteral("-o and --csv name the same file")));
    QVERIFY(
        refused({ { "--csv", "-" }, { "--kubectl-script", "-" } }, true).contains(QStringLiteral("the same standard output")));
    QVERIFY(writeBytes(QString::fromStdString(a), "x"));
    QVERIFY(::link(a.c_str(), b.c_str()) == 0); // existing files: by device and inode
    QVERIFY(refused({ { "-o", a }, { "--csv", b } }, false).contains(QStringLiteral("name the same file")));
}

void TestOutputFile::standardOutput()
{
    int pipeFds[2];
    QVERIFY(::pipe(pipeFds) == 0);
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    QVERIFY(::dup2(pipeFds[1], STDOUT_FILENO) == STDOUT_FILENO);
    OutputFileOptions options;
    options.allowStandardOutput = true;
    const QString error = writeError(QStringLiteral("-"), "pod,from,to\n", options);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    ::close(pipeFds[1]);
    QCOMPARE(error, QString());
    char buffer[64] = {};
    const ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
    ::close(pipeFds[0]);
    QCOMPARE(QByteArray(buffer, int(n)), QByteArray("pod,from,to\n"));
    // Without allowStandardOutput "-" is a file of that name (the command refuses it first).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir::setCurrent(dir.path()));
    QCOMPARE(writeError(QStringLiteral("-"), "x"), QString());
    QCOMPARE(readAll(dir.filePath(QStringLiteral("-"))), QByteArray("x"));
    QVERIFY(QDir::setCurrent(QDir::rootPath()));
}

// Standard output on a full device: the error says so, as for a file.
void TestOutputFile::standardOutputFull()
{
    const int full = ::open("/dev/full", O_WRONLY);
    QVERIFY2(full >= 0, std::strerror(errno));
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    QVERIFY(::dup2(full, STDOUT_FILENO) == STDOUT_FILENO);
    OutputFileOptions options;
    options.allowStandardOutput = true;
    const QString error = writeError(QStringLiteral("-"), "pod,from,to\n", options);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    ::close(full);
    QVERIFY2(error.contains(QStringLiteral("cannot write to standard output: disk full (No space left on device)")),
        qPrintable(error));
}

// A writer killed between creating its temporary file and the rename (SIGKILL, a power cut)
// leaves ".NAME.XXXXXXXX.tmp" beside the target. The next write of that target removes it
// when no process holds its lock (flock, taken by every writer) and it is older than a few
// seconds; a live writer's file, a fresh one and other files stay.
void TestOutputFile::removesTemporariesOfDeadWriters()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto make = [&](const QString& name, bool old) {
        const QString path = dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write("{\"cut") != 5)
            return QString();
        f.close();
        if (old) {
            const struct timeval times[2] = { { ::time(nullptr) - 120, 0 }, { ::time(nullptr) - 120, 0 } };
            if (::utimes(QFile::encodeName(path).constData(), times) != 0)
                return QString();
        }
        return path;
    };
    const QString dead = make(QStringLiteral(".plan.json.k3x9q0ab.tmp"), true);
    const QString deadToo = make(QStringLiteral(".plan.json.00000000.tmp"), true);
    const QString live = make(QStringLiteral(".plan.json.livewrtr.tmp"), true);
    const QString fresh = make(QStringLiteral(".plan.json.freshone.tmp"), false);
    const QString otherTarget = make(QStringLiteral(".other.json.k3x9q0ab.tmp"), true);
    const QString otherName = make(QStringLiteral(".plan.json.k3x9q0ab.tmp.bak"), true);
    const QString notOurs = make(QStringLiteral(".plan.json.K3X9Q0AB.tmp"), true);
    for (const QString& p : { dead, deadToo, live, fresh, otherTarget, otherName, notOurs })
        QVERIFY(!p.isEmpty());
    // A live writer: another process holds the lock (flock(1) takes the same flock(2) lock).
    QProcess holder;
    // --no-fork: one process (flock execs the shell, which execs sleep), ended by kill() below.
    holder.start(QStringLiteral("flock"), { QStringLiteral("--no-fork"), QStringLiteral("-x"), live, QStringLiteral("sh"), QStringLiteral("-c"),
                                              QStringLiteral("echo locked; exec sleep 300") });
    QVERIFY(holder.waitForStarted());
    QByteArray said;
    while (!said.contains("locked") && holder.waitForReadyRead(10000))
        said += holder.readAllStandardOutput();
    QVERIFY2(said.contains("locked"), said.constData());

    QCOMPARE(writeError(dir.filePath(QStringLiteral("plan.json")), "{}\n"), QString());
    QCOMPARE(readAll(dir.filePath(QStringLiteral("plan.json"))), QByteArray("{}\n"));
    QVERIFY(!QFile::exists(dead));
    QVERIFY(!QFile::exists(deadToo));
    QVERIFY(QFile::exists(live));
    QVERIFY(QFile::exists(fresh));
    QVERIFY(QFile::exists(otherTarget));
    QVERIFY(QFile::exists(otherName));
    QVERIFY(QFile::exists(notOurs));
    // No temporary of this write is left either.
    const QStringList left = QDir(dir.path()).entryList({ QStringLiteral(".plan.json.*.tmp") }, QDir::Hidden | QDir::Files);
    QCOMPARE(left.size(), 3); // live, fresh, and K3X9Q0AB (not a name Fleetscope makes)
    holder.kill();
    holder.waitForFinished();
}

// OutputFileOptions::cancelled asked at each of its polls (before each 8 MiB write, after the
// fsync, before the rename): the previous file keeps its bytes and its modification time, no
// temporary file is left, and OutputCancelled says the file is unchanged. Never asked: written.
void TestOutputFile::cancelledWriteKeepsThePreviousFile_data()
{
    QTest::addColumn<int>("cancelAtPoll"); // 0: never
    QTest::addColumn<bool>("existed");
    QTest::newRow("before the first write") << 1 << true;
    QTest::newRow("between writes") << 3 << true;
    QTest::newRow("after the fsync") << 4 << true;
    QTest::newRow("before the rename") << 5 << true;
    QTest::newRow("before the rename, no previous file") << 5 << false;
    QTest::newRow("never") << 0 << true;
}

void TestOutputFile::cancelledWriteKeepsThePreviousFile()
{
    QFETCH(int, cancelAtPoll);
    QFETCH(bool, existed);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("doc.fleet"));
    struct stat before { };
    if (existed) {
        QVERIFY(writeBytes(path, "the document saved before"));
        const timeval past[2] { { 1000000000, 0 }, { 1000000000, 0 } }; // an mtime a rewrite could not keep by chance
        QVERIFY(::utimes(QFile::encodeName(path).constData(), past) == 0);
        QVERIFY(::stat(QFile::encodeName(path).constData(), &before) == 0);
    }
    const QByteArray bytes = bigText(20 << 20); // three writes of at most 8 MiB
    int polls = 0;
    OutputFileOptions options;
    options.replacesDocument = true;
    options.cancelled = [&] { return ++polls == cancelAtPoll; };
    bool cancelled = false;
    QString error;
    try {
        importers::writeOutputFile(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), options);
    } catch (const importers::OutputCancelled& e) {
        cancelled = true;
        error = QString::fromStdString(e.what());
    }
    const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    if (cancelAtPoll == 0) {
        QVERIFY(!cancelled);
        QCOMPARE(polls, 5);
        QCOMPARE(readAll(path), bytes);
        QCOMPARE(left, QStringList { QStringLiteral("doc.fleet") });
        return;
    }
    QVERIFY(cancelled);
    QCOMPARE(polls, cancelAtPoll); // nothing more done once cancelled
    QVERIFY2(error.startsWith(path + QStringLiteral(": cancelled")), qPrintable(error));
    if (!existed) {
        QVERIFY2(error.contains(QStringLiteral("no file was written")), qPrintable(error));
        QCOMPARE(left, QStringList());
        return;
    }
    QVERIFY2(error.contains(QStringLiteral("the previous file is unchanged")), qPrintable(error));
    QCOMPARE(left, QStringList { QStringLiteral("doc.fleet") }); // no temporary file
    QCOMPARE(readAll(path), QByteArray("the document saved before"));
    struct stat after { };
    QVERIFY(::stat(QFile::encodeName(path).constData(), &after) == 0);
    QCOMPARE(after.st_ino, before.st_ino); // the same file, never replaced
    QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

QTEST_GUILESS_MAIN(TestOutputFile)

#include "tst_outputfile.moc"
