// SPDX-License-Identifier: Apache-2.0
// Names from the input never drive the operator's terminal nor forge a line: the fleetscope
// executable, run as a user runs it (QProcess, no display), on a cluster whose node, label,
// namespace and pod names hold an ESC sequence, CR, LF and BEL, through every subcommand's
// text output and its messages on standard error. Only the output's own line breaks and tabs
// may be control bytes; no line may start with the text that followed a newline in a name.
// The JSON forms escape as JSON does and stay valid JSON.

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

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
    void csvKeepsTheNameInOneQuotedField();

private:
    QTemporaryDir m_dir;
    QString m_cluster;
    QString m_pending;
    QString m_plan;
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
    QTest::newRow("summary: warning naming pods on unknown nodes") << QStringList { QStringLiteral("summary"), m_cluster }
                                                                   << QByteArray("gone" + escaped);
    QTest::newRow("summary: a node name twice") << QStringList { QStringLiteral("summary"), m_twice } << QByteArray("cpu-a1" + escaped);
    QTest::newRow("check-move") << QStringList { QStringLiteral("check-move"), m_cluster, QStringLiteral("--pod"),
        QStringLiteral("default/api-0"), QStringLiteral("--to"), hostileNode } << QByteArray("cpu-b1" + escaped);
    QTest::newRow("check-move: pod not in the input") << QStringList { QStringLiteral("check-move"), m_cluster, QStringLiteral("--pod"),
        QStringLiteral("default/x") + kHostile, QStringLiteral("--to"), hostileNode } << QByteArray("x" + escaped);
    QTest::newRow("plan check") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_cluster, QStringLiteral("--plan"), m_plan }
                                << QByteArray("nowhere" + escaped);
    QTest::newRow("plan check: plan path") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_cluster, QStringLiteral("--plan"),
        m_dir.filePath(QStringLiteral("no")) + kHostile } << QByteArray("no" + escaped);
    QTest::newRow("plan export") << QStringList { QStringLiteral("plan"), QStringLiteral("export"), m_cluster, QStringLiteral("--plan"), m_plan,
        QStringLiteral("--csv"), m_dir.filePath(QStringLiteral("out.csv")), QStringLiteral("--force") } << QByteArray();
    QTest::newRow("plan consolidate") << QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), m_cluster, QStringLiteral("-o"), out }
                                      << QByteArray(escaped);
    QTest::newRow("plan place") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_cluster, QStringLiteral("--pods"),
        QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("--name"),
        QStringLiteral("evil") + kHostile, QStringLiteral("--required-level"), QStringLiteral("topology.kubernetes.io/zone"), QStringLiteral("-o"), out }
                                << QByteArray("evil" + escaped);
    QTest::newRow("plan place: does not fit") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_cluster, QStringLiteral("--pods"),
        QStringLiteral("50"), QStringLiteral("--cpu"), QStringLiteral("4"), QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("--name"),
        QStringLiteral("evil") + kHostile, QStringLiteral("-o"), out } << QByteArray("evil" + escaped);
    QTest::newRow("plan place: pod template") << QStringList { QStringLiteral("plan"), QStringLiteral("place"), m_cluster, QStringLiteral("--pods"),
        QStringLiteral("2"), QStringLiteral("--pod-template"), m_template, QStringLiteral("-o"), out } << QByteArray("tns" + escaped);
    QTest::newRow("summary: kubeconfig context not there") << QStringList { QStringLiteral("summary"), QStringLiteral("--kubeconfig"), m_kubeconfig,
        QStringLiteral("--context"), QStringLiteral("nope") } << QByteArray("ctx" + escaped);
    QTest::newRow("summary: kubeconfig cluster not there") << QStringList { QStringLiteral("summary"), QStringLiteral("--kubeconfig"), m_kubeconfig }
                                                          << QByteArray("gone" + escaped);
    QTest::newRow("plan add-nodes") << QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes"), m_pending, QStringLiteral("--instance-type"),
        QStringLiteral("m5.xlarge"), QStringLiteral("--fit-pending"), QStringLiteral("-o"), out } << QByteArray("ml" + escaped);
    QTest::newRow("plan add-nodes: unknown instance type") << QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes"), m_pending,
        QStringLiteral("--instance-type"), QStringLiteral("m5") + kHostile, QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("-o"), out }
                                                          << QByteArray("m5" + escaped);
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
    QTest::newRow("summary") << QStringList { QStringLiteral("summary"), m_cluster, QStringLiteral("--format"), QStringLiteral("json") };
    QTest::newRow("check-move") << QStringList { QStringLiteral("check-move"), m_cluster, QStringLiteral("--pod"), QStringLiteral("default/api-0"),
        QStringLiteral("--to"), QStringLiteral("cpu-b1") + kHostile, QStringLiteral("--format"), QStringLiteral("json") };
    QTest::newRow("plan check") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), m_cluster, QStringLiteral("--plan"), m_plan,
        QStringLiteral("--format"), QStringLiteral("json") };
    QTest::newRow("plan consolidate") << QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), m_cluster, QStringLiteral("-o"),
        m_dir.filePath(QStringLiteral("c.json")), QStringLiteral("--format"), QStringLiteral("json") };
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

// The CSV is data, not terminal text: the name is kept as it is, whole, inside one quoted field
// (RFC 4180: a field holding CR, LF or a quote is quoted), so a CSV reader gets it back and no
// row is forged; the text output of the same run escapes it.
void TestCliEscapes::csvKeepsTheNameInOneQuotedField()
{
    const QString csv = m_dir.filePath(QStringLiteral("plan.csv"));
    const Run r = fleet::tests::runFleetscope({ QStringLiteral("plan"), QStringLiteral("export"), m_cluster, QStringLiteral("--plan"), m_plan,
        QStringLiteral("--csv"), csv, QStringLiteral("--force") });
    QVERIFY2(r.exitCode == 1, r.err.constData()); // two of the plan's actions do not hold
    QVERIFY2(terminalProblem(r.err).isEmpty(), qPrintable(terminalProblem(r.err)));
    const QByteArray rows = readFile(csv);
    const QByteArray field = "\"cpu-b1" + kHostile.toUtf8() + "\"";
    QVERIFY2(rows.contains("," + field + ","), rows.constData());
    // Outside quoted fields, the only line breaks are the rows' CRLF: a header and three rows.
    QByteArray outside;
    bool quoted = false;
    for (const char c : rows) {
        if (c == '"')
            quoted = !quoted;
        else if (!quoted)
            outside += c;
    }
    QCOMPARE(outside.count("\r\n"), 4);
    QCOMPARE(outside.count('\n'), 4);
}

QTEST_GUILESS_MAIN(TestCliEscapes)
#include "tst_cliescapes.moc"
