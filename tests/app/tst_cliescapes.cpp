// SPDX-License-Identifier: Apache-2.0
// Names from the input never drive the operator's terminal nor forge a line: the fleetscope
// executable, run as a user runs it (QProcess, no display), with names that hold an ESC
// sequence, CR, LF and BEL: in a cluster file (refused, the name quoted escaped: no Kubernetes
// name holds a control character), in plan files, kubeconfigs, pod templates, file names and
// arguments, through every subcommand's text output and its messages on standard error. Only
// the output's own line breaks and tabs may be control bytes; no line may start with the text
// that followed a newline in a name. The JSON forms escape as JSON does and stay valid JSON;
// the CSV writes control characters as \xNN, to a file and to standard output alike.

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include "fleetscoperun.h"

namespace {

const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");

using Run = fleet::tests::FleetscopeRun;

// What follows each name: clears the screen, returns to the line's start, starts a forged
// line and rings the bell. As JSON text (for the files) and as raw bytes (for the arguments).
constexpr const char* kHostileJson = "\\u001b[2J\\r\\nFORGED line\\u0007";
const QString kHostile = QString::fromUtf8("\x1b[2J\r\nFORGED line\x07");

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// A fixture of tests/data/plan with `names` (each as a JSON string, with its quotes) followed
/// by the hostile text everywhere they occur.
QByteArray hostile(const QString& fixture, const QList<QByteArray>& names)
{
    QByteArray json = readFile(kPlanData + QLatin1Char('/') + fixture);
    for (const QByteArray& name : names)
        json.replace("\"" + name + "\"", "\"" + name + kHostileJson + "\"");
    return json;
}

/// The first control byte in `text` that is not a line break or a tab, as "0xNN at offset
/// N", or an empty string; then a line that starts with the forged text.
QString terminalProblem(const QByteArray& text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text.at(i));
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
            return QStringLiteral("raw control byte 0x%1 at offset %2").arg(c, 2, 16, QLatin1Char('0')).arg(i);
    }
    for (const QByteArray& line : text.split('\n'))
        if (line.startsWith("FORGED"))
            return QStringLiteral("a forged line: ") + QString::fromUtf8(line);
    return {};
}

} // namespace

class TestCliEscapes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void textOutputsAndMessages_data();
    void textOutputsAndMessages();
    void jsonOutputsStayJson_data();
    void jsonOutputsStayJson();
    void csvNeutralisesControlCharacters();
    void nonUtf8FileNameKeepsJsonValid();

private:
    QTemporaryDir m_dir;
    QString m_clean;
    QString m_cleanPending;
    QString m_nul;
    QString m_cluster;
    QString m_pending;
    QString m_plan;
    QString m_foreignPlan;
    QString m_template;
    QString m_kubeconfig;
    QString m_twice;
};

void TestCliEscapes::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A node (its name, hostname label and the pods on it), a zone, a namespace; and pods
    // whose node is not in the input (a warning names them).
    QByteArray cluster = hostile(QStringLiteral("cluster.json"), { "cpu-b1", "us-east-1b", "kube-system", "web-7f9c-aaaaa" });
    QVERIFY(cluster.contains("FORGED"));
    cluster.replace("\"nodeName\": \"cpu-a2\"", QByteArray("\"nodeName\": \"gone") + kHostileJson + "\"");
    QVERIFY(cluster.contains("\"gone\\u001b"));
    m_cluster = m_dir.filePath(QStringLiteral("cluster.json"));
    QVERIFY(writeFile(m_cluster, cluster));
    m_clean = kPlanData + QStringLiteral("/cluster.json");
    m_cleanPending = kPlanData + QStringLiteral("/cluster-pending.json");
    // A NUL in a node name (JSON's \u0000): refused like any control character.
    m_nul = m_dir.filePath(QStringLiteral("nul.json"));
    QVERIFY(writeFile(m_nul, readFile(m_clean).replace("\"cpu-b1\"", "\"cpu-b1\\u0000x\"")));
    m_pending = m_dir.filePath(QStringLiteral("pending.json"));
    QVERIFY(writeFile(m_pending, hostile(QStringLiteral("cluster-pending.json"), { "ml", "gpu-job-0", "cpu-b1" })));
    // A plan naming the hostile node and pod, and a node and a pod that are not there.
    const QByteArray plan = QByteArray("{\"fleetscopePlan\": 1, \"source\": {\"files\": []}, \"actions\": [")
        + "{\"type\": \"move-pod\", \"pod\": {\"namespace\": \"default\", \"name\": \"web-7f9c-aaaaa" + kHostileJson + "\"}, \"node\": \"cpu-b1"
        + kHostileJson + "\"}," + "{\"type\": \"drain-node\", \"node\": \"nowhere" + kHostileJson + "\"},"
        + "{\"type\": \"move-pod\", \"pod\": {\"namespace\": \"ns" + kHostileJson + "\", \"name\": \"p" + kHostileJson
        + "\"}, \"node\": \"cpu-a1\"}]}";
    m_plan = m_dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(writeFile(m_plan, plan));
    // A plan made on another cluster, whose source names hostile files, server and simulation:
    // the note that says so quotes them.
    m_foreignPlan = m_dir.filePath(QStringLiteral("foreign.json"));
    QVERIFY(writeFile(m_foreignPlan,
        QByteArray("{\"fleetscopePlan\": 1, \"source\": {\"files\": [{\"name\": \"f") + kHostileJson + "\", \"sha256\": \""
            + QByteArray(64, 'a') + "\"}], \"server\": \"https://s" + kHostileJson + "\", \"simulated\": \"sim" + kHostileJson
            + "\"}, \"actions\": [{\"type\": \"drain-node\", \"node\": \"cpu-b1\"}]}"));
    // Two nodes of one hostile name: the error quotes it.
    m_twice = m_dir.filePath(QStringLiteral("twice.json"));
    QVERIFY(writeFile(m_twice, hostile(QStringLiteral("cluster.json"), { "cpu-a1", "cpu-a2" }).replace("cpu-a2", "cpu-a1")));
    // A kubeconfig whose context, cluster and user names hold the hostile text.
    m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
    QVERIFY(writeFile(m_kubeconfig,
        QByteArray("apiVersion: v1\nkind: Config\nclusters:\n- name: \"c") + kHostileJson + "\"\n  cluster: {server: \"https://127.0.0.1:1\"}\n"
            + "contexts:\n- name: \"ctx" + kHostileJson + "\"\n  context: {cluster: \"gone" + kHostileJson + "\", user: u}\n"
            + "current-context: \"ctx" + kHostileJson + "\"\nusers:\n- name: u\n  user: {token: x}\n"));
    // A pod template whose namespace and name hold the hostile text.
    m_template = m_dir.filePath(QStringLiteral("pod.json"));
    QVERIFY(writeFile(m_template,
        QByteArray("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"namespace\": \"tns") + kHostileJson + "\", \"name\": \"tmpl" + kHostileJson
            + "\"}, \"spec\": {\"containers\": [{\"name\": \"main\", \"resources\": {\"requests\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}}}]}}"));
}

void TestCliEscapes::textOutputsAndMessages_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("expected"); // what the output must show (escaped) of a name
    const QString out = m_dir.filePath(QStringLiteral("out.json"));
    const QString hostileNode = QStringLiteral("cpu-b1") + kHostile;
    const QByteArray escaped = "\\x1B[2J\\x0D\\x0AFORGED line\\x07";
    // A cluster file whose names hold control characters is refused, the name quoted escaped.
    QTest::newRow("summary: hostile names refused") << QStringList { QStringLiteral("summary"), m_cluster } << escaped;
    QTest::newRow("summary: a node name twice") << QStringList { QStringLiteral("summary"), m_twice } << QByteArray("cpu-a1" + escaped);
    QTest::newRow("summary: NUL in a node name") << QStringList { QStringLiteral("summary"), m_nul }
                                                 << QByteArray("the name \"cpu-b1\\x00x\" holds the control character \\x00");
    QTest::newRow("plan consolidate: hostile names refused") << QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), m_cluster,
        QStringLiteral("-o"), out } << escaped;
    QTest::newRow("plan add-nodes: hostile names refused") << QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes"), m_pending,
        QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("--fit-pending"), QStringLiteral("-o"), out } << escaped;
    // Names from arguments, plan files, kubeconfigs and pod templates, on a clean cluster.
    QTest::newRow("check-move") << QStringList { QStringLiteral("check-move"), m_clean, QStringLiteral("--pod"),
        QStringLiteral("default/api-0"), QStringLiteral("--to"), hostileNode } << QByteArray("cpu-b1" + escaped);
    QTest::newRow("check-move: pod not in the input") << QStringList { QStringLiteral("check-move"), m_clean, QStringLiteral("--pod"),
        QStringLiteral("default/x") + kHostile, QStringLiteral("--to"), hostileNode } << QByteArray("x" + escaped);
    QTest::newRow("plan check") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_clean, QStringLiteral("--plan"), m_plan }
                                << QByteArray("nowhere" + escaped);
    QTest::newRow("plan check: plan of another cluster") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_clean,
        QStringLiteral("--plan"), m_foreignPlan } << QByteArray("f" + escaped);
    QTest::newRow("plan check: plan path") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_clean, QStringLiteral("--plan"),
        m_dir.filePath(QStringLiteral("no")) + kHostile } << QByteArray("no" + escaped);
    QTest::newRow("plan export") << QStringList { QStringLiteral("plan"), QStringLiteral("export"), m_clean, QStringLiteral("--plan"), m_plan,
        QStringLiteral("--csv"), m_dir.filePath(QStringLiteral("out.csv")), QStringLiteral("--force") } << QByteArray();
    QTest::newRow("plan place") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_clean, QStringLiteral("--pods"),
        QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("--name"),
        QStringLiteral("evil") + kHostile, QStringLiteral("--required-level"), QStringLiteral("topology.kubernetes.io/zone"), QStringLiteral("-o"), out }
                                << QByteArray("evil" + escaped);
    QTest::newRow("plan place: does not fit") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_clean, QStringLiteral("--pods"),
        QStringLiteral("50"), QStringLiteral("--cpu"), QStringLiteral("4"), QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("--name"),
        QStringLiteral("evil") + kHostile, QStringLiteral("-o"), out } << QByteArray("evil" + escaped);
    QTest::newRow("plan place: pod template") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_clean, QStringLiteral("--pods"),
        QStringLiteral("2"), QStringLiteral("--pod-template"), m_template, QStringLiteral("-o"), out } << QByteArray("tns" + escaped);
    QTest::newRow("summary: kubeconfig context not there") << QStringList { QStringLiteral("summary"), QStringLiteral("--kubeconfig"), m_kubeconfig,
        QStringLiteral("--context"), QStringLiteral("nope") } << QByteArray("ctx" + escaped);
    QTest::newRow("summary: kubeconfig cluster not there") << QStringList { QStringLiteral("summary"), QStringLiteral("--kubeconfig"), m_kubeconfig }
                                                          << QByteArray("gone" + escaped);
    QTest::newRow("plan add-nodes: unknown instance type") << QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes"), m_cleanPending,
        QStringLiteral("--instance-type"), QStringLiteral("m5") + kHostile, QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("-o"), out }
                                                          << QByteArray("m5" + escaped);
    // save, diff and report: file names and the input's names in their messages.
    const QString hostileFolder = m_dir.filePath(QStringLiteral("no")) + kHostile;
    QTest::newRow("save: output folder") << QStringList { QStringLiteral("save"), m_clean, QStringLiteral("-o"),
        hostileFolder + QStringLiteral("/state.fleet") } << QByteArray("no" + escaped);
    QTest::newRow("save: input file") << QStringList { QStringLiteral("save"), hostileFolder, QStringLiteral("-o"),
        m_dir.filePath(QStringLiteral("state.fleet")) } << QByteArray("no" + escaped);
    QTest::newRow("save: hostile names refused") << QStringList { QStringLiteral("save"), m_cluster, QStringLiteral("-o"),
        m_dir.filePath(QStringLiteral("state.fleet")) } << escaped;
    QTest::newRow("save: plan file") << QStringList { QStringLiteral("save"), m_clean, QStringLiteral("--plan"), hostileFolder,
        QStringLiteral("-o"), m_dir.filePath(QStringLiteral("state.fleet")) } << QByteArray("no" + escaped);
    QTest::newRow("diff: after file") << QStringList { QStringLiteral("diff"), m_clean, hostileFolder } << QByteArray("no" + escaped);
    QTest::newRow("diff: before file") << QStringList { QStringLiteral("diff"), hostileFolder, m_clean } << QByteArray("no" + escaped);
    QTest::newRow("diff: hostile names refused") << QStringList { QStringLiteral("diff"), m_clean, m_cluster } << escaped;
    QTest::newRow("report: output folder") << QStringList { QStringLiteral("report"), m_clean, QStringLiteral("-o"),
        hostileFolder + QStringLiteral("/report.pdf") } << QByteArray("no" + escaped);
    QTest::newRow("report: input file") << QStringList { QStringLiteral("report"), hostileFolder, QStringLiteral("-o"),
        m_dir.filePath(QStringLiteral("report.pdf")) } << QByteArray("no" + escaped);
    QTest::newRow("report: plan file") << QStringList { QStringLiteral("report"), m_clean, QStringLiteral("--plan"), hostileFolder,
        QStringLiteral("-o"), m_dir.filePath(QStringLiteral("report.pdf")) } << QByteArray("no" + escaped);
}

void TestCliEscapes::textOutputsAndMessages()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, expected);
    const Run r = fleet::tests::runFleetscope(args);
    QVERIFY2(r.exitCode >= 0, r.err.constData());
    QVERIFY2(!r.out.isEmpty() || !r.err.isEmpty(), "no output at all");
    const QString outProblem = terminalProblem(r.out);
    QVERIFY2(outProblem.isEmpty(), qPrintable(outProblem + QStringLiteral(" on stdout:\n") + QString::fromUtf8(r.out.toPercentEncoding(" \n/:,.()[]="))));
    const QString errProblem = terminalProblem(r.err);
    QVERIFY2(errProblem.isEmpty(), qPrintable(errProblem + QStringLiteral(" on stderr:\n") + QString::fromUtf8(r.err.toPercentEncoding(" \n/:,.()[]="))));
    // The name is there, escaped: the reader still sees what the input holds.
    QVERIFY2((r.out + r.err).contains(expected), (r.out + r.err).constData());
}

void TestCliEscapes::jsonOutputsStayJson_data()
{
    QTest::addColumn<QStringList>("args");
    // Cluster files with such names are refused (textOutputsAndMessages); names from plan files
    // still reach the JSON.
    QTest::newRow("plan check") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_clean, QStringLiteral("--plan"), m_plan,
        QStringLiteral("--format"), QStringLiteral("json") };
}

void TestCliEscapes::jsonOutputsStayJson()
{
    QFETCH(QStringList, args);
    const Run r = fleet::tests::runFleetscope(args);
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
    QVERIFY2(terminalProblem(r.out).isEmpty(), qPrintable(terminalProblem(r.out)));
    QVERIFY2(terminalProblem(r.err).isEmpty(), qPrintable(terminalProblem(r.err)));
    QJsonParseError error {};
    QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.errorString(), QJsonParseError().errorString());
    QVERIFY2(r.out.contains("\\u001b") || r.out.contains("\\u001B") || r.out.contains("\\\\x1B"), r.out.constData());
}

// The CSV may go to a terminal (--csv -): a control character in a name (here from the plan
// file; cluster files with one are refused) is written as \xNN, to standard output and to a
// file alike, so no byte but the rows' CRLF is a control byte and no row is forged.
void TestCliEscapes::csvNeutralisesControlCharacters()
{
    const QString csv = m_dir.filePath(QStringLiteral("plan.csv"));
    const QStringList args { QStringLiteral("plan"), QStringLiteral("export"), m_clean, QStringLiteral("--plan"), m_plan, QStringLiteral("--force"),
        QStringLiteral("--csv") };
    const Run toFile = fleet::tests::runFleetscope(args + QStringList { csv });
    QVERIFY2(toFile.exitCode == 1, toFile.err.constData()); // the plan's actions do not hold
    const Run toStdout = fleet::tests::runFleetscope(args + QStringList { QStringLiteral("-") });
    QVERIFY2(toStdout.exitCode == 1, toStdout.err.constData());
    QVERIFY2(terminalProblem(toStdout.err).isEmpty(), qPrintable(terminalProblem(toStdout.err)));
    for (const QByteArray& rows : { readFile(csv), toStdout.out }) {
        QVERIFY2(rows.contains("nowhere\\x1B[2J\\x0D\\x0AFORGED line\\x07"), rows.constData());
        QByteArray lines = rows;
        lines.replace("\r\n", "\n");
        const QString problem = terminalProblem(lines);
        QVERIFY2(problem.isEmpty(), qPrintable(problem + QStringLiteral(":\n") + QString::fromUtf8(rows.toPercentEncoding(" \n/:,.()[]=\\"))));
        QCOMPARE(rows.count("\r\n"), rows.count('\n'));
    }
    QCOMPARE(readFile(csv), toStdout.out);
}

// A cluster file whose name is not UTF-8 (bytes FF FE, as Latin-1 names are): the plan JSON
// that names it as its source is still UTF-8 JSON (the bytes become U+FFFD), and Fleetscope
// reads it back. QProcess cannot pass such a name, so a shell does.
void TestCliEscapes::nonUtf8FileNameKeepsJsonValid()
{
    const QByteArray dir = QFile::encodeName(m_dir.filePath(QStringLiteral("latin1")));
    QVERIFY(QDir().mkpath(QString::fromUtf8(dir)));
    QVERIFY(::link(QFile::encodeName(m_clean).constData(), (dir + "/c\xff\xfe.json").constData()) == 0);
    const QString script = QStringLiteral(
        "cd \"$1\" || exit 9; n=$(printf 'c\\377\\376.json'); "
        "\"$0\" plan consolidate \"$n\" -o plan.json || exit 8; exec \"$0\" plan check \"$n\" --plan plan.json --format json");
    QProcess p;
    p.setProcessEnvironment(fleet::tests::headlessEnvironment());
    p.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script, QStringLiteral(FLEETSCOPE_EXECUTABLE), QString::fromUtf8(dir) });
    QVERIFY(p.waitForFinished(120'000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0 || p.exitCode() == 1, err.constData());
    QFile plan(QString::fromUtf8(dir) + QStringLiteral("/plan.json"));
    QVERIFY(plan.open(QIODevice::ReadOnly));
    const QByteArray text = plan.readAll();
    QJsonParseError error {};
    QJsonDocument::fromJson(text, &error);
    QCOMPARE(error.errorString(), QJsonParseError().errorString());
    QVERIFY2(text.contains("c\xEF\xBF\xBD\xEF\xBF\xBD.json"), text.left(400).constData());
    QVERIFY2(!err.contains("not valid JSON"), err.constData());
}

QTEST_GUILESS_MAIN(TestCliEscapes)
#include "tst_cliescapes.moc"
