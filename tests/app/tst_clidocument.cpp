// SPDX-License-Identifier: Apache-2.0
// `fleetscope save` and the .fleet document as every subcommand's input, run as a user runs
// them (real processes, real files): summary of a document equals summary of its source byte
// for byte; a plan saved in it re-checks on it as on its source; a newer document is refused;
// kill -9 during a large save, a full disk and a read-only folder leave the previous document
// whole; opening leaves the file as it was.

#include "app/fleetscoperun.h"
#include "common/tmpfsmount.h"
#include "shareddata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>

using fleet::tests::runFleetscope;

namespace {

const QString kData = QStringLiteral(FLEET_TEST_DATA_DIR);
const QString kShared = QStringLiteral(FLEET_SHARED_DATA_DIR);

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

QString runText(const fleet::tests::FleetscopeRun& r)
{
    return QStringLiteral("exit %1, stderr: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err.left(2000)));
}

// Files other than `keep` in `folder`, hidden ones included.
QStringList otherFiles(const QString& folder, const QString& keep)
{
    QStringList files = QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System);
    files.removeAll(keep);
    return files;
}

} // namespace

class TestCliDocument : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { FLEET_REQUIRE_SHARED_DATA(); }
    void summaryOfDocumentEqualsSource_data();
    void summaryOfDocumentEqualsSource();
    void planRoundTrip();
    void newerDocumentRefused();
    void otherOutputsNeverReplaceADocument();
    void saveNeverReplacesAnotherKindOfFile();
    void diffOfTwoStates();
    void diffWarnsWhenTheStatesShareFewNodes();
    void diffCountsPodsStrandedByARemovedNode();
    void plansOfADocumentByName();
    void plansSaysWhyItCannotRead();
    void saveOfADocumentKeepsItsPlans();
    void diffNamesDocumentsPlans();
    void diffNotesAPlanMadeOnAnotherState();
    void planAgainstWhatHappened();
    void drainOfANodeAlreadyEmptyIsNotCarriedOut();
    void killDuringLargeSaveKeepsPrevious();
    void fullDiskKeepsPrevious();
    void readOnlyFolderKeepsPrevious();
    void writeProtectedDocumentIsNotReplaced();
    void damagedDocumentsSaidPlainly_data();
    void damagedDocumentsSaidPlainly();
    void documentGivenAsPlan();
    void savePlanOfAnotherCluster();
    void saveOverADocumentWithPlansAsksForForce();
    void diffNamesAMissingState();
    void diffOfTwoClustersWarnsWithoutAPlan();
};

void TestCliDocument::summaryOfDocumentEqualsSource_data()
{
    QTest::addColumn<QStringList>("source");
    const QString kube = kData + QStringLiteral("/kube/");
    QTest::newRow("scheduling fixtures") << QStringList { kube + "scheduling-nodes.json", kube + "scheduling-pods.json",
                                                          kube + "scheduling-pdbs.json", kube + "scheduling-pvs.json",
                                                          kube + "scheduling-namespaces.json" };
    QTest::newRow("mixed list") << QStringList { kube + "mixed-list.json" };
    QTest::newRow("paginated") << QStringList { kube + "paginated.json" };
    QTest::newRow("small cluster") << QStringList { kData + "/app/small-cluster.json" };
    QTest::newRow("plan cluster") << QStringList { kData + "/plan/cluster.json" };
    QTest::newRow("pending cluster") << QStringList { kData + "/plan/cluster-pending.json" };
    QTest::newRow("honeycomb EKS") << QStringList { kShared + "/k8s-fixture-honeycomb-eks/nodes.json",
                                                    kShared + "/k8s-fixture-honeycomb-eks/pods.json" };
    QTest::newRow("alibaba openb trace") << QStringList { kShared + "/alibaba-gpu-v2023-openb/csv/openb_node_list_gpu_node.csv",
                                                          kShared + "/alibaba-gpu-v2023-openb/csv/openb_pod_list_cpu050.csv" };
    QTest::newRow("simulated 2000") << QStringList { "--simulate", "2000", "--seed", "7" };
}

void TestCliDocument::summaryOfDocumentEqualsSource()
{
    QFETCH(QStringList, source);
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope(QStringList { QStringLiteral("save") } + source + QStringList { QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    QCOMPARE(otherFiles(dir.path(), QStringLiteral("state.fleet")), QStringList());
    // It says where the document went and what it holds, as the other verbs that write do.
    QVERIFY2(saved.out.startsWith("saved " + QFile::encodeName(doc) + ": ") && saved.out.contains(" nodes, ")
            && saved.out.endsWith(" pods, 0 plans\n"),
        saved.out.constData());

    const auto expected = runFleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json") } + source);
    QVERIFY2(expected.exitCode == 0, qPrintable(runText(expected)));
    // Opening is read-only: bytes, mtime and the folder's files stay as they were.
    const QByteArray before = fileBytes(doc);
    const QDateTime mtime = QFileInfo(doc).lastModified();
    const auto got = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), doc });
    QVERIFY2(got.exitCode == 0, qPrintable(runText(got)));
    QVERIFY(got.out.size() > 100);
    QVERIFY2(got.out == expected.out, "summary --format json of the document differs from its source's");
    // A document named without .fleet is told by its header.
    const QString renamed = dir.filePath(QStringLiteral("state.json"));
    QVERIFY(QFile::copy(doc, renamed));
    const auto byHeader = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), renamed });
    QVERIFY2(byHeader.exitCode == 0 && byHeader.out == expected.out, qPrintable(runText(byHeader)));
    QCOMPARE(fileBytes(doc), before);
    QCOMPARE(QFileInfo(doc).lastModified(), mtime);
    QCOMPARE(otherFiles(dir.path(), QStringLiteral("state.fleet")), QStringList { QStringLiteral("state.json") });
}

void TestCliDocument::planRoundTrip()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString plan = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), plan });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), plan, QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    // The plan names the source files; the document is that state: checking the plan on the
    // document says the same as on the files, with no note that the state differs.
    const QStringList check { QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--format"), QStringLiteral("json"),
                              QStringLiteral("--plan"), plan };
    const auto onFiles = runFleetscope(check + QStringList { cluster });
    const auto onDoc = runFleetscope(check + QStringList { doc });
    QVERIFY2(onFiles.exitCode == 0, qPrintable(runText(onFiles)));
    QVERIFY2(onDoc.exitCode == 0, qPrintable(runText(onDoc)));
    QVERIFY2(!onDoc.err.contains("note:"), onDoc.err.constData());
    QCOMPARE(onDoc.out, onFiles.out);
    // A plan made on the document names the files it was saved from.
    const QString plan2 = dir.filePath(QStringLiteral("again.json"));
    const auto again = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), doc, QStringLiteral("-o"), plan2 });
    QVERIFY2(again.exitCode == 0, qPrintable(runText(again)));
    QVERIFY2(fileBytes(plan2).contains("\"" + QFile::encodeName(cluster) + "\""), fileBytes(plan2).left(400).constData());
    QCOMPARE(fileBytes(plan2), fileBytes(plan));
    // An unreadable plan fails the save and writes nothing.
    const QString none = dir.filePath(QStringLiteral("none.fleet"));
    const auto bad = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), cluster, QStringLiteral("-o"), none });
    QCOMPARE(bad.exitCode, 1);
    QVERIFY(!QFile::exists(none));
}

void TestCliDocument::newerDocumentRefused()
{
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("new.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    QByteArray bytes = fileBytes(doc);
    bytes[63] = 4; // user_version 4
    QFile f(doc);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
    f.close();
    const auto r = runFleetscope({ QStringLiteral("summary"), doc });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QFile::encodeName(doc) + ": written by a newer Fleetscope (document version 4)"), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

// A plan, CSV, script, image or report written over a .fleet would lose the saved cluster and
// its plans: every output but save's refuses it, and the document stays byte-identical.
void TestCliDocument::otherOutputsNeverReplaceADocument()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString doc = dir.filePath(QStringLiteral("keep.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const QByteArray before = fileBytes(doc);
    const auto r = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), doc });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is a Fleetscope document"), r.err.constData());
    QCOMPARE(fileBytes(doc), before);
    // save itself replaces a document (of this version).
    const auto again = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), doc });
    QVERIFY2(again.exitCode == 0, qPrintable(runText(again)));
}

void TestCliDocument::saveNeverReplacesAnotherKindOfFile()
{
    // A kubectl JSON named as -o by mistake stays as it was; a document is replaced as before.
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("cluster-week.json"));
    QVERIFY(QFile::copy(kData + QStringLiteral("/plan/cluster-changed.json"), json));
    const QByteArray before = fileBytes(json);
    const auto refused = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), json });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("exists and is not a Fleetscope document"), refused.err.constData());
    QCOMPARE(fileBytes(json), before);
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    for (int i = 0; i < 2; ++i) {
        const auto saved = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
        QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    }
}

void TestCliDocument::diffWarnsWhenTheStatesShareFewNodes()
{
    // Two simulations (seeds 3 and 4) share no node name: a plan of the first would read as
    // carried out against the second. The diff says so on stderr; its output is unchanged.
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.fleet")), b = dir.filePath(QStringLiteral("b.fleet"));
    for (const auto& [path, seed] : { std::pair { a, QStringLiteral("3") }, std::pair { b, QStringLiteral("4") } }) {
        const auto saved = runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), seed,
            QStringLiteral("-o"), path });
        QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    }
    const auto other = runFleetscope({ QStringLiteral("diff"), a, b, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(other.exitCode == 0, qPrintable(runText(other)));
    QVERIFY2(other.err.contains("fleetscope diff: warning: the later state has only 0 of the earlier state's 300 nodes (by name)"),
        other.err.constData());
    QVERIFY(!QJsonDocument::fromJson(other.out).object().isEmpty());
    // The same cluster a node short: no warning.
    const auto same = runFleetscope({ QStringLiteral("diff"), kData + QStringLiteral("/plan/cluster.json"), kData + QStringLiteral("/plan/cluster-changed.json") });
    QVERIFY2(same.exitCode == 0, qPrintable(runText(same)));
    QVERIFY2(!same.err.contains("warning"), same.err.constData());
}

void TestCliDocument::diffOfTwoStates()
{
    QTemporaryDir dir;
    const QString before = dir.filePath(QStringLiteral("before.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), before });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    // cpu-b1 went away with its DaemonSet pod (tests/data/plan/README.md).
    const auto r = runFleetscope({ QStringLiteral("diff"), before, kData + QStringLiteral("/plan/cluster-changed.json"),
                                   QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.exitCode == 0, qPrintable(runText(r)));
    const QJsonObject d = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(d[QStringLiteral("before")][QStringLiteral("nodes")].toInt(), 4);
    QCOMPARE(d[QStringLiteral("after")][QStringLiteral("nodes")].toInt(), 3);
    QCOMPARE(d[QStringLiteral("nodes")][QStringLiteral("removed")].toArray(), QJsonArray { QStringLiteral("cpu-b1") });
    QCOMPARE(d[QStringLiteral("nodes")][QStringLiteral("added")].toArray(), QJsonArray());
    QCOMPARE(d[QStringLiteral("pods")][QStringLiteral("deleted")].toInt(), 1);
    QCOMPARE(d[QStringLiteral("pods")][QStringLiteral("moved")].toInt(), 0);
    const QJsonArray byWorkload = d[QStringLiteral("pods")][QStringLiteral("by_workload")].toArray();
    QCOMPARE(byWorkload.size(), 1);
    QCOMPARE(byWorkload[0][QStringLiteral("kind")].toString(), QStringLiteral("DaemonSet"));
    QCOMPARE(byWorkload[0][QStringLiteral("name")].toString(), QStringLiteral("node-agent"));
    QVERIFY(d[QStringLiteral("before")][QStringLiteral("dollars_per_hour")].toDouble() > 32.7);
    // Labels added to every node: relabelled, nothing else.
    const auto relabelled = runFleetscope({ QStringLiteral("diff"), before, kData + QStringLiteral("/plan/cluster-nodegroups.json") });
    QVERIFY2(relabelled.exitCode == 0, qPrintable(runText(relabelled)));
    QVERIFY2(relabelled.out.contains("nodes: 0 added, 0 removed, 4 relabelled, 0 tainted\n"), relabelled.out.constData());
    QVERIFY2(relabelled.out.contains("pods: 0 moved, 0 created, 0 deleted, 0 stranded on removed nodes\n"), relabelled.out.constData());
    const auto same = runFleetscope({ QStringLiteral("diff"), before, kData + QStringLiteral("/plan/cluster.json") });
    QVERIFY2(same.out.contains("nodes: 0 added, 0 removed, 0 relabelled, 0 tainted\n"), same.out.constData());
}

void TestCliDocument::diffCountsPodsStrandedByARemovedNode()
{
    // cpu-a1 removed, its three pods left naming it (tests/data/plan/README.md).
    const QString before = kData + QStringLiteral("/plan/cluster.json");
    const QString after = kData + QStringLiteral("/plan/cluster-stranded.json");
    const auto json = runFleetscope({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(json.exitCode == 0, qPrintable(runText(json)));
    const QJsonObject d = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(d[QStringLiteral("nodes")][QStringLiteral("removed")].toArray(), QJsonArray { QStringLiteral("cpu-a1") });
    QCOMPARE(d[QStringLiteral("pods")][QStringLiteral("stranded")].toInt(), 3);
    QCOMPARE(d[QStringLiteral("pods")][QStringLiteral("deleted")].toInt(), 0);
    QCOMPARE(d[QStringLiteral("pods")][QStringLiteral("moved")].toInt(), 0);
    int web = 0;
    for (const QJsonValue w : d[QStringLiteral("pods")][QStringLiteral("by_workload")].toArray())
        if (w[QStringLiteral("kind")].toString() == QStringLiteral("Deployment"))
            web = w[QStringLiteral("stranded")].toInt();
    QCOMPARE(web, 2);
    const auto text = runFleetscope({ QStringLiteral("diff"), before, after });
    QVERIFY2(text.exitCode == 0, qPrintable(runText(text)));
    QVERIFY2(text.out.contains("pods: 0 moved, 0 created, 0 deleted, 3 stranded on removed nodes\n"), text.out.constData());
    QVERIFY2(text.out.contains("after:  3 nodes, 7 pods,"), text.out.constData());
    QVERIFY2(text.out.contains("default/Deployment/web: 0 moved, 0 created, 0 deleted, 2 stranded\n"), text.out.constData());
    // Figures follow model/figures.h: separators, and one node is "1 node".
    QTemporaryDir dir;
    const QString big = dir.filePath(QStringLiteral("big.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("1000"), QStringLiteral("-o"), big });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const auto figures = runFleetscope({ QStringLiteral("diff"), big, kData + QStringLiteral("/app/small-cluster.json") });
    QVERIFY2(figures.exitCode == 0, qPrintable(runText(figures)));
    QVERIFY2(QRegularExpression(QStringLiteral("before: 1,000 nodes, \\d{1,3}(,\\d{3})+ pods, ")).match(QString::fromUtf8(figures.out)).hasMatch(),
             figures.out.left(400).constData());
    QVERIFY2(QRegularExpression(QStringLiteral("nodes: \\d+ added, 1,000 removed")).match(QString::fromUtf8(figures.out)).hasMatch(),
             figures.out.left(400).constData());
    const QString one = dir.filePath(QStringLiteral("one-node.json"));
    QFile f(one);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "16Gi"}, "capacity": {"cpu": "4", "memory": "16Gi"}}}]})");
    f.close();
    const auto single = runFleetscope({ QStringLiteral("diff"), one, one });
    QVERIFY2(single.exitCode == 0, qPrintable(runText(single)));
    QVERIFY2(single.out.startsWith("before: 1 node, 0 pods, 0 GPUs allocated, $0.00/h\n"), single.out.constData());
}

// `--plan NAME` takes a plan kept in the .fleet input; `plans` lists the names.
void TestCliDocument::plansOfADocumentByName()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString planFile = kData + QStringLiteral("/plan/plan.json");
    const QString consolidate = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), consolidate });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    // The fixture plan.json names a placeholder source (sha256 000...): save keeps a plan made
    // on another cluster only with --force.
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), planFile, QStringLiteral("--plan"),
                                       consolidate, QStringLiteral("--notes"), QStringLiteral("for review"), QStringLiteral("-o"), doc,
                                       QStringLiteral("--force") });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));

    const auto listed = runFleetscope({ QStringLiteral("plans"), doc, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(listed.exitCode == 0, qPrintable(runText(listed)));
    const QJsonArray plans = QJsonDocument::fromJson(listed.out).object()[QStringLiteral("plans")].toArray();
    QCOMPARE(plans.size(), 2);
    QCOMPARE(plans[0][QStringLiteral("name")].toString(), QStringLiteral("plan"));
    QCOMPARE(plans[0][QStringLiteral("actions")].toInt(), 4);
    QCOMPARE(plans[0][QStringLiteral("notes")].toString(), QStringLiteral("for review"));
    QCOMPARE(plans[0][QStringLiteral("evaluation_kept")].toBool(), true);
    QCOMPARE(plans[1][QStringLiteral("name")].toString(), QStringLiteral("consolidate"));
    const auto text = runFleetscope({ QStringLiteral("plans"), doc });
    QVERIFY2(text.exitCode == 0, qPrintable(runText(text)));
    QVERIFY2(text.out.contains(": 2 plans\n  plan: 4 actions, saved "), text.out.constData());
    const auto notADocument = runFleetscope({ QStringLiteral("plans"), cluster });
    QCOMPARE(notADocument.exitCode, 1);
    QVERIFY2(notADocument.err.contains("not a .fleet document"), notADocument.err.constData());

    // The plan by name checks as the same plan from its file.
    const QStringList check { QStringLiteral("plan"), QStringLiteral("check"), doc, QStringLiteral("--format"), QStringLiteral("json"),
                              QStringLiteral("--plan") };
    const auto byName = runFleetscope(check + QStringList { QStringLiteral("plan") });
    const auto byFile = runFleetscope(check + QStringList { planFile });
    QVERIFY2(byName.exitCode == 0, qPrintable(runText(byName)));
    QVERIFY2(byFile.exitCode == 0, qPrintable(runText(byFile)));
    const QJsonObject a = QJsonDocument::fromJson(byName.out).object(), b = QJsonDocument::fromJson(byFile.out).object();
    QCOMPARE(a[QStringLiteral("actions")], b[QStringLiteral("actions")]);
    QCOMPARE(a[QStringLiteral("after")], b[QStringLiteral("after")]);
    QCOMPARE(a[QStringLiteral("plan")].toString(), doc + QStringLiteral(":plan"));
    // An unknown name says which names there are.
    const auto unknown = runFleetscope(check + QStringList { QStringLiteral("nope") });
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--plan \"nope\": \"" + doc.toUtf8() + "\" holds no plan of that name (its plans: \"plan\", \"consolidate\")"),
             unknown.err.constData());
    QVERIFY(unknown.out.isEmpty());
    // Not a document: --plan is a file, as before, and a name says where names are kept.
    const auto onFile = runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), cluster, QStringLiteral("--plan"), QStringLiteral("plan") });
    QCOMPARE(onFile.exitCode, 2);
    QVERIFY2(onFile.err.contains("--plan \"plan\": no file of that name exists, and no input is a .fleet document"), onFile.err.constData());
    // diff looks names up in BEFORE only, and says so when AFTER is the document.
    const auto diffAfter = runFleetscope({ QStringLiteral("diff"), cluster, doc, QStringLiteral("--plan"), QStringLiteral("consolidate") });
    QCOMPARE(diffAfter.exitCode, 2);
    QVERIFY2(diffAfter.err.contains("(diff looks plan names up in BEFORE"), diffAfter.err.constData());
    // screenshot --plan takes files only, and says so for a name.
    const auto shot = runFleetscope({ QStringLiteral("screenshot"), doc, QStringLiteral("--plan"), QStringLiteral("consolidate"),
                                      QStringLiteral("-o"), dir.filePath(QStringLiteral("shot.png")) });
    QCOMPARE(shot.exitCode, 2);
    QVERIFY2(shot.err.contains("screenshot --plan takes a plan file, not the name of a plan a .fleet document keeps"), shot.err.constData());
    // A file in the working folder named as a kept plan wins, with a note that says so.
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    QVERIFY(QFile::copy(planFile, QStringLiteral("consolidate")));
    const auto shadowed = runFleetscope(check + QStringList { QStringLiteral("consolidate") });
    const auto byPath = runFleetscope(check + QStringList { QStringLiteral("./consolidate") });
    QVERIFY(QDir::setCurrent(previous));
    QVERIFY2(shadowed.exitCode == 0, qPrintable(runText(shadowed)));
    QVERIFY2(shadowed.err.contains("note: --plan \"consolidate\" is the file \"consolidate\" in the working folder, not the plan of that name"),
             shadowed.err.constData());
    QCOMPARE(QJsonDocument::fromJson(shadowed.out).object()[QStringLiteral("actions")], b[QStringLiteral("actions")]);
    QVERIFY2(byPath.exitCode == 0 && !byPath.err.contains("in the working folder"), qPrintable(runText(byPath)));
    // export takes the name too.
    const QString csv = dir.filePath(QStringLiteral("plan.csv"));
    const auto exported = runFleetscope({ QStringLiteral("plan"), QStringLiteral("export"), doc, QStringLiteral("--plan"),
                                          QStringLiteral("consolidate"), QStringLiteral("--csv"), csv });
    QVERIFY2(exported.exitCode == 0, qPrintable(runText(exported)));
    QVERIFY(fileBytes(csv).count('\n') > 1);
}

// A plan kept in a document, against a later state where part of it was carried out
// (tests/data/plan/README.md, cluster-after-plan.json).
// `plans` on something that is not a document says what it is, as every other reader does
// (it said "not a .fleet document" for a missing file, a folder and a symbolic link loop).
void TestCliDocument::plansSaysWhyItCannotRead()
{
    QTemporaryDir dir;
    const QString loop = dir.filePath(QStringLiteral("loop.fleet"));
    QVERIFY(QFile::link(loop, loop));
    const std::vector<std::pair<QString, QString>> cases = {
        { dir.filePath(QStringLiteral("missing.fleet")), QStringLiteral("missing.fleet: does not exist") },
        { dir.path(), QStringLiteral(": is a folder, not a .fleet document") },
        { loop, QStringLiteral("loop.fleet: is a symbolic link loop") },
        { kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("cluster.json: is not a .fleet document") },
    };
    for (const auto& [path, expected] : cases) {
        const auto r = runFleetscope({ QStringLiteral("plans"), path });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), qPrintable(runText(r)));
    }
}

// `diff BEFORE AFTER --plan` says when BEFORE is not the state the plan was made on (its
// "carried out" would be judged against the wrong baseline), and says nothing for a plan kept
// in the BEFORE document.
void TestCliDocument::saveOfADocumentKeepsItsPlans()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString consolidate = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), consolidate });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), consolidate, QStringLiteral("--notes"),
                                       QStringLiteral("first"), QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));

    // The document saved again, with the same plan file once more: its plan is kept as it was
    // (notes, time, evaluation), the new one gets a name of its own.
    const QString copy = dir.filePath(QStringLiteral("copy.fleet"));
    const auto again = runFleetscope({ QStringLiteral("save"), doc, QStringLiteral("--plan"), consolidate, QStringLiteral("-o"), copy });
    QVERIFY2(again.exitCode == 0, qPrintable(runText(again)));
    QVERIFY2(again.err.contains("keeping the 1 plan of "), again.err.constData());
    auto plansOf = [&](const QString& file) {
        const auto listed = runFleetscope({ QStringLiteral("plans"), file, QStringLiteral("--format"), QStringLiteral("json") });
        return listed.exitCode == 0 ? QJsonDocument::fromJson(listed.out).object()[QStringLiteral("plans")].toArray() : QJsonArray();
    };
    const QJsonArray before = plansOf(doc), after = plansOf(copy);
    QCOMPARE(before.size(), 1);
    QCOMPARE(after.size(), 2);
    QCOMPARE(after[0].toObject(), before[0].toObject());
    QCOMPARE(after[1][QStringLiteral("name")].toString(), QStringLiteral("consolidate (2)"));
    QCOMPARE(after[1][QStringLiteral("actions")], before[0][QStringLiteral("actions")]);
    QCOMPARE(after[1][QStringLiteral("evaluation_kept")].toBool(), true);
    // The same state, node for node and pod for pod.
    const auto a = runFleetscope({ QStringLiteral("summary"), doc, QStringLiteral("--format"), QStringLiteral("json") });
    const auto b = runFleetscope({ QStringLiteral("summary"), copy, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(a.exitCode == 0 && b.exitCode == 0, qPrintable(runText(b)));
    QCOMPARE(b.out, a.out);
}

void TestCliDocument::diffNamesDocumentsPlans()
{
    // Two documents of one state, one keeping a plan the other lacks and one plan of the same
    // name with other actions: the clusters' diff has no change, and a note names the plans.
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString consolidate = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), consolidate });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString planFile = kData + QStringLiteral("/plan/plan.json");
    const QString bare = dir.filePath(QStringLiteral("bare.fleet"));
    const QString planned = dir.filePath(QStringLiteral("planned.fleet"));
    const QString other = dir.filePath(QStringLiteral("other.fleet"));
    QVERIFY(runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), bare }).exitCode == 0);
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), consolidate, QStringLiteral("-o"), planned });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    // "consolidate" in other.fleet is another plan under the same name.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("other")));
    const QString renamed = dir.filePath(QStringLiteral("other/consolidate"));
    QVERIFY(QFile::copy(planFile, renamed + QStringLiteral(".json")));
    const auto savedOther = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), renamed + QStringLiteral(".json"),
                                            QStringLiteral("-o"), other, QStringLiteral("--force") });
    QVERIFY2(savedOther.exitCode == 0, qPrintable(runText(savedOther)));

    const auto added = runFleetscope({ QStringLiteral("diff"), bare, planned });
    QVERIFY2(added.exitCode == 0, qPrintable(runText(added)));
    QVERIFY2(added.err.contains("note: plans kept only in AFTER: \"consolidate\""), added.err.constData());
    QVERIFY2(!added.err.contains("only in BEFORE"), added.err.constData());
    const auto json = runFleetscope({ QStringLiteral("diff"), planned, bare, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(json.exitCode == 0, qPrintable(runText(json)));
    QVERIFY2(!QJsonDocument::fromJson(json.out).isNull(), json.out.constData()); // the output stays JSON alone
    QVERIFY2(json.err.contains("note: plans kept only in BEFORE: \"consolidate\""), json.err.constData());
    const auto changed = runFleetscope({ QStringLiteral("diff"), planned, other });
    QVERIFY2(changed.err.contains("plans of the same name with other actions: \"consolidate\""), changed.err.constData());
    // The same plans, or a state that is not a document: no note.
    const auto same = runFleetscope({ QStringLiteral("diff"), planned, planned });
    QVERIFY2(!same.err.contains("plans"), same.err.constData());
    const auto file = runFleetscope({ QStringLiteral("diff"), planned, cluster });
    QVERIFY2(file.exitCode == 0 && !file.err.contains("plans"), qPrintable(runText(file)));
}

void TestCliDocument::diffNotesAPlanMadeOnAnotherState()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), plan }).exitCode == 0);
    const QString note = QStringLiteral("note: BEFORE is not the state the plan was made on");
    const auto other = runFleetscope({ QStringLiteral("diff"), kData + QStringLiteral("/plan/cluster-pending.json"),
        kData + QStringLiteral("/plan/cluster-changed.json"), QStringLiteral("--plan"), plan });
    QCOMPARE(other.exitCode, 0);
    QVERIFY2(QString::fromUtf8(other.err).contains(note), qPrintable(runText(other)));
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    QVERIFY(runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), plan, QStringLiteral("-o"), doc }).exitCode == 0);
    const auto kept = runFleetscope({ QStringLiteral("diff"), doc, kData + QStringLiteral("/plan/cluster-changed.json"), QStringLiteral("--plan"),
        QStringLiteral("plan") });
    QCOMPARE(kept.exitCode, 0);
    QVERIFY2(!QString::fromUtf8(kept.err).contains(note), qPrintable(runText(kept)));
}

void TestCliDocument::planAgainstWhatHappened()
{
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("before.fleet"));
    // The fixture plan.json names a placeholder source: --force keeps it.
    const auto saved = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("--plan"),
                                       kData + QStringLiteral("/plan/plan.json"), QStringLiteral("-o"), doc, QStringLiteral("--force") });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const QString after = kData + QStringLiteral("/plan/cluster-after-plan.json");
    // prices.csv prices m5.xlarge at $0.25/h and m5.2xlarge at $0.50/h.
    const auto r = runFleetscope({ QStringLiteral("diff"), doc, after, QStringLiteral("--plan"), QStringLiteral("plan"), QStringLiteral("--prices"),
                                   kData + QStringLiteral("/plan/prices.csv"), QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.exitCode == 0, qPrintable(runText(r)));
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    // Named by file name, whatever folder they were given in: as the window's export names them.
    QCOMPARE(o[QStringLiteral("plan")].toString(), QStringLiteral("before.fleet:plan"));
    QCOMPARE(o[QStringLiteral("before")].toString(), QStringLiteral("before.fleet"));
    QCOMPARE(o[QStringLiteral("after")].toString(), QStringLiteral("cluster-after-plan.json"));
    const QJsonArray actions = o[QStringLiteral("actions")].toArray();
    QCOMPARE(actions.size(), 4);
    QStringList outcomes;
    for (const QJsonValue a : actions)
        outcomes << a[QStringLiteral("outcome")].toString();
    QCOMPARE(outcomes, (QStringList { QStringLiteral("carried-out"), QStringLiteral("carried-out"), QStringLiteral("not-carried-out"),
                                      QStringLiteral("no-longer-possible") }));
    QCOMPARE(actions[0][QStringLiteral("evidence")].toString(), QStringLiteral("default/web-7f9c-aaaaa runs on cpu-b1"));
    QCOMPARE(actions[1][QStringLiteral("evidence")].toString(), QStringLiteral("cpu-a1 is gone"));
    QVERIFY(actions[2][QStringLiteral("reasons")].toArray().isEmpty());
    const QJsonArray reasons = actions[3][QStringLiteral("reasons")].toArray();
    QVERIFY(!reasons.isEmpty());
    QVERIFY2(reasons[0][QStringLiteral("code")].toString().startsWith(QStringLiteral("not-found")),
             qPrintable(reasons[0][QStringLiteral("code")].toString()));
    const QJsonObject totals = o[QStringLiteral("totals")].toObject();
    QCOMPARE(totals[QStringLiteral("carried_out")].toInt(), 2);
    QCOMPARE(totals[QStringLiteral("not_carried_out")].toInt(), 1);
    QCOMPARE(totals[QStringLiteral("no_longer_possible")].toInt(), 1);
    // Realised: cpu-a1 is gone, cpu-a2 and cpu-b1 stay and nothing was added.
    const QJsonObject savings = o[QStringLiteral("savings")].toObject();
    QCOMPARE(savings[QStringLiteral("touched_nodes")].toArray(),
             (QJsonArray { QStringLiteral("cpu-a1"), QStringLiteral("cpu-a2"), QStringLiteral("cpu-b1") }));
    const double then = savings[QStringLiteral("then_dollars_per_hour")].toDouble();
    const double now = savings[QStringLiteral("now_dollars_per_hour")].toDouble();
    const double realised = savings[QStringLiteral("realised_dollars_per_hour")].toDouble();
    QCOMPARE(then, 1.0);  // cpu-a1, cpu-a2, cpu-b1
    QCOMPARE(now, 0.75);  // cpu-a2, cpu-b1
    QCOMPARE(realised, 0.25);
    // Planned: cpu-a1 drained ($0.25/h less), one m5.xlarge added ($0.25/h more).
    QCOMPARE(savings[QStringLiteral("planned_dollars_per_hour")].toDouble(), 0.0);
    // The same from the plan file, in text.
    const auto text = runFleetscope({ QStringLiteral("diff"), doc, after, QStringLiteral("--plan"), kData + QStringLiteral("/plan/plan.json") });
    QVERIFY2(text.exitCode == 0, qPrintable(runText(text)));
    QVERIFY2(text.out.contains(": 2 carried out, 1 not carried out, 1 no longer possible (of 4 actions)\n"), text.out.constData());
    QVERIFY2(text.out.contains("#2 drain-node cpu-a1: carried-out (cpu-a1 is gone)\n"), text.out.constData());
    QVERIFY2(text.out.contains("savings: planned $0.00/h, realised $0.00/h (the 3 nodes the plan touched: "), text.out.constData());
    const auto priced = runFleetscope({ QStringLiteral("diff"), doc, after, QStringLiteral("--plan"), QStringLiteral("plan"),
                                        QStringLiteral("--prices"), kData + QStringLiteral("/plan/prices.csv") });
    QVERIFY2(priced.out.contains("savings: planned $0.00/h, realised $0.25/h (the 3 nodes the plan touched: $1.00/h then, $0.75/h now)\n"),
             priced.out.constData());
    // Unchanged state: nothing carried out, all still possible.
    const auto same = runFleetscope({ QStringLiteral("diff"), doc, kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("--plan"),
                                      QStringLiteral("plan"), QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(same.exitCode == 0, qPrintable(runText(same)));
    QCOMPARE(QJsonDocument::fromJson(same.out).object()[QStringLiteral("totals")][QStringLiteral("not_carried_out")].toInt(), 4);
    // An unknown name lists the document's plans.
    const auto unknown = runFleetscope({ QStringLiteral("diff"), doc, after, QStringLiteral("--plan"), QStringLiteral("other") });
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("(its plans: \"plan\")"), unknown.err.constData());
}

// A drain-node action removes its node. A node still there counts as drained only when it held
// pods a drain moves in BEFORE and holds none in AFTER; one that held none in BEFORE (cpu-b1
// runs only its DaemonSet pod) and is still there shows nothing done: against the unchanged
// state no action is carried out, as the realised savings ($0) say.
void TestCliDocument::drainOfANodeAlreadyEmptyIsNotCarriedOut()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString plan = dir.filePath(QStringLiteral("drains.json"));
    {
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"fleetscopePlan": 1, "source": {"files": [{"name": "cluster.json", "sha256": ")"
                "0000000000000000000000000000000000000000000000000000000000000000"
                R"("}]}, "actions": [{"type": "drain-node", "node": "cpu-b1"}, {"type": "drain-node", "node": "cpu-a1"}]})");
    }
    auto outcomes = [&](const QString& after, QJsonObject* totals) {
        const auto r = runFleetscope({ QStringLiteral("diff"), cluster, after, QStringLiteral("--plan"), plan, QStringLiteral("--format"),
            QStringLiteral("json") });
        QStringList list;
        if (r.exitCode != 0) {
            list << runText(r);
            return list;
        }
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const QJsonValue a : o[QStringLiteral("actions")].toArray())
            list << a[QStringLiteral("outcome")].toString() + QStringLiteral(": ") + a[QStringLiteral("evidence")].toString();
        *totals = o[QStringLiteral("totals")].toObject();
        return list;
    };

    QJsonObject totals;
    const QStringList same = outcomes(cluster, &totals);
    QCOMPARE(same.size(), 2);
    QCOMPARE(same[0], QStringLiteral("not-carried-out: cpu-b1 is still there (it held no pod a drain moves before either)"));
    QVERIFY2(same[1].endsWith(QLatin1String(": cpu-a1 still runs pods")) && !same[1].startsWith(QLatin1String("carried-out")), qPrintable(same[1]));
    QCOMPARE(totals[QStringLiteral("carried_out")].toInt(), 0);
    const auto text = runFleetscope({ QStringLiteral("diff"), cluster, cluster, QStringLiteral("--plan"), plan });
    QVERIFY2(text.out.contains(": 0 carried out, "), text.out.constData());

    // The web pods moved off cpu-a1, which is still there: its drain was carried out (only its
    // DaemonSet pod, which a drain leaves, runs on it); cpu-b1 now runs them, not drained.
    QFile in(cluster);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject list = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray items = list[QStringLiteral("items")].toArray();
    int moved = 0;
    for (qsizetype i = 0; i < items.size(); ++i) {
        QJsonObject item = items[i].toObject();
        if (item[QStringLiteral("kind")].toString() != QLatin1String("Pod")
            || !item[QStringLiteral("metadata")][QStringLiteral("name")].toString().startsWith(QLatin1String("web-")))
            continue;
        QJsonObject spec = item[QStringLiteral("spec")].toObject();
        spec[QStringLiteral("nodeName")] = QStringLiteral("cpu-b1");
        item[QStringLiteral("spec")] = spec;
        items[i] = item;
        ++moved;
    }
    QCOMPARE(moved, 2);
    list[QStringLiteral("items")] = items;
    const QString after = dir.filePath(QStringLiteral("after.json"));
    QFile out(after);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(list).toJson());
    out.close();
    const QStringList emptied = outcomes(after, &totals);
    QCOMPARE(emptied.size(), 2);
    QVERIFY2(!emptied[0].startsWith(QLatin1String("carried-out")), qPrintable(emptied[0]));
    QCOMPARE(emptied[1], QStringLiteral("carried-out: cpu-a1 was emptied (it held pods a drain moves, now none) but is still there"));
    QCOMPARE(totals[QStringLiteral("carried_out")].toInt(), 1);
}

void TestCliDocument::killDuringLargeSaveKeepsPrevious()
{
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto first = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(first.exitCode == 0, qPrintable(runText(first)));
    const QByteArray previous = fileBytes(doc);
    const auto expected = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), doc });
    QVERIFY(expected.exitCode == 0);
    // Killed at several points of a 100,000-node save: while it loads, once its temporary file
    // appears beside the target, and once that file has grown past 1 and 16 MB (of about 48).
    // The write is one call followed by fsync and rename: a save that ended before the poll saw
    // its file reach the point is run again (at most 5 times).
    const qint64 points[] = { -1, 0, 1 << 20, 16 << 20 };
    for (const qint64 point : points) {
        QProcess p;
        bool reached = false;
        for (int attempt = 0; attempt < 5 && !reached; ++attempt) {
            p.setProcessEnvironment(fleet::tests::headlessEnvironment());
            p.start(QStringLiteral(FLEETSCOPE_EXECUTABLE), { QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("100000"),
                                                             QStringLiteral("-o"), doc });
            QVERIFY(p.waitForStarted());
            reached = point < 0;
            QElapsedTimer clock;
            clock.start();
            while (!reached && p.state() == QProcess::Running && clock.elapsed() < 240'000) {
                for (const QString& name : otherFiles(dir.path(), QStringLiteral("state.fleet")))
                    if (name.startsWith(QStringLiteral(".state.fleet.")) && QFileInfo(dir.filePath(name)).size() >= point)
                        reached = true;
                if (!reached)
                    p.waitForFinished(1); // poll the folder every millisecond or so
            }
            if (!reached) { // the save ended first: put the previous document back and try again
                p.waitForFinished();
                QFile::remove(doc);
                QFile back(doc);
                QVERIFY(back.open(QIODevice::WriteOnly) && back.write(previous) == previous.size());
            }
        }
        QVERIFY2(reached, qPrintable(QStringLiteral("the save never reached %1 bytes of its temporary file").arg(point)));
        QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGKILL) == 0);
        QVERIFY(p.waitForFinished());
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(fileBytes(doc), previous);
        const auto opened = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), doc });
        QVERIFY2(opened.exitCode == 0 && opened.out == expected.out, qPrintable(runText(opened)));
        // What a killed process cannot remove is its own temporary file; never a -journal or -wal.
        const QStringList left = otherFiles(dir.path(), QStringLiteral("state.fleet"));
        for (const QString& name : left)
            QVERIFY2(name.startsWith(QStringLiteral(".state.fleet.")) && name.endsWith(QStringLiteral(".tmp")), qPrintable(name));
        if (left.isEmpty())
            continue;
        // The next save of the file removes it (docs/document.md): no process holds it, and it has
        // not changed for 10 s (set back two minutes here: a save made later).
        for (const QString& name : left) {
            const struct timeval times[2] = { { ::time(nullptr) - 120, 0 }, { ::time(nullptr) - 120, 0 } };
            QVERIFY(::utimes(QFile::encodeName(dir.filePath(name)).constData(), times) == 0);
        }
        const auto next = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
        QVERIFY2(next.exitCode == 0, qPrintable(runText(next)));
        QCOMPARE(otherFiles(dir.path(), QStringLiteral("state.fleet")), QStringList());
        QFile back(doc);
        QVERIFY(back.open(QIODevice::WriteOnly) && back.write(previous) == previous.size());
    }
}

void TestCliDocument::fullDiskKeepsPrevious()
{
    fleet::tests::TmpfsMount disk(4 * 1024 * 1024);
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString doc = disk.filePath(QStringLiteral("state.fleet"));
    const auto first = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(first.exitCode == 0, qPrintable(runText(first)));
    const QByteArray previous = fileBytes(doc);
    const QString full = disk.fill(64 * 1024);
    QVERIFY2(full.isEmpty(), qPrintable(full));
    // About 1.5 MB: more than the 64 KB left.
    const auto r = runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("-o"), doc });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QFile::encodeName(doc) + ": cannot write: disk full"), r.err.constData());
    QCOMPARE(fileBytes(doc), previous);
    const auto opened = runFleetscope({ QStringLiteral("summary"), doc });
    QVERIFY2(opened.exitCode == 0, qPrintable(runText(opened)));
    QVERIFY(!otherFiles(disk.path(), QStringLiteral("state.fleet")).join(QLatin1Char(' ')).contains(QStringLiteral(".tmp")));
}

void TestCliDocument::readOnlyFolderKeepsPrevious()
{
    fleet::tests::TmpfsMount disk(4 * 1024 * 1024);
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString doc = disk.filePath(QStringLiteral("state.fleet"));
    const auto first = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(first.exitCode == 0, qPrintable(runText(first)));
    const QByteArray previous = fileBytes(doc);
    // Read-only for root too (permission bits would not stop the tests' root): the file system.
    QVERIFY(::mount(nullptr, QFile::encodeName(disk.path()).constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
    const auto r = runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("-o"), doc });
    QCOMPARE(r.exitCode, 1); // the output failed (docs/cli.md): 2 is a bad command line
    QVERIFY2(r.err.contains(QFile::encodeName(doc)) && r.err.contains("read-only file system"), r.err.constData());
    QVERIFY2(r.err.contains("; the previous file is unchanged"), r.err.constData()); // as docs/document.md says
    QCOMPARE(fileBytes(doc), previous);
    const auto opened = runFleetscope({ QStringLiteral("summary"), doc });
    QVERIFY2(opened.exitCode == 0, qPrintable(runText(opened)));
    QVERIFY(::mount(nullptr, QFile::encodeName(disk.path()).constData(), nullptr, MS_REMOUNT, nullptr) == 0);
}

// A document the user write-protected (chmod a-w) in a writable folder is not replaced: the
// rename beside it would go through and hand it to whoever saved. Refused, saying why and that
// the file is unchanged (the tests' root too: the mode is read, not only access()).
void TestCliDocument::writeProtectedDocumentIsNotReplaced()
{
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("keep.fleet"));
    const auto first = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(first.exitCode == 0, qPrintable(runText(first)));
    QVERIFY(::chmod(QFile::encodeName(doc).constData(), 0444) == 0);
    const QByteArray previous = fileBytes(doc);
    const auto r = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster-changed.json"), QStringLiteral("-o"), doc });
    QVERIFY2(r.exitCode != 0, qPrintable(runText(r)));
    QVERIFY2(r.err.contains(QFile::encodeName(doc) + ": cannot write: it is write-protected (mode 0444)"), r.err.constData());
    QVERIFY2(r.err.contains("the previous file is unchanged"), r.err.constData());
    QCOMPARE(fileBytes(doc), previous);
    QCOMPARE(QFileInfo(doc).permissions() & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther), QFile::Permissions());
    QCOMPARE(otherFiles(dir.path(), QStringLiteral("keep.fleet")), QStringList());
}

// A document another program changed or cut is said as such, in these exact words (it was a
// "binary file", "unable to open database file", or version 4294967295).
void TestCliDocument::damagedDocumentsSaidPlainly_data()
{
    QTest::addColumn<int>("offset");      // where `bytes` replace the saved document's; -1: cut to `cut` bytes
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("cut");
    QTest::addColumn<QByteArray>("message"); // after "FILE: "
    QTest::newRow("application_id changed") << 68 << QByteArray(4, '\0') << 0
        << QByteArray("a SQLite database that is not a Fleetscope document (application_id 0x00000000; a .fleet document has 0x46534350 \"FSCP\"), "
                      "not kubectl JSON or a trace CSV");
    QTest::newRow("cut at 50 bytes") << -1 << QByteArray() << 50
        << QByteArray("a truncated Fleetscope document (it ends after 50 bytes, inside SQLite's 100-byte header), not kubectl JSON or a trace CSV");
    QTest::newRow("WAL journal mode") << 18 << QByteArray("\x02\x02", 2) << 0
        << QByteArray("is in SQLite's WAL journal mode, which Fleetscope never writes (another program changed it): turn WAL off with  "
                      "sqlite3 FILE 'PRAGMA journal_mode=DELETE'  and open it again");
    QTest::newRow("user_version -1") << 60 << QByteArray("\xff\xff\xff\xff", 4) << 0
        << QByteArray("document version -1 is not one Fleetscope ever wrote (user_version -1)");
}

void TestCliDocument::damagedDocumentsSaidPlainly()
{
    QFETCH(int, offset);
    QFETCH(QByteArray, bytes);
    QFETCH(int, cut);
    QFETCH(QByteArray, message);
    QTemporaryDir dir;
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), kData + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    QByteArray image = fileBytes(doc);
    if (offset < 0)
        image.truncate(cut);
    else
        image.replace(offset, bytes.size(), bytes);
    const QString changed = dir.filePath(QStringLiteral("changed.db"));
    {
        QFile f(changed);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(image) == image.size());
    }
    const auto r = runFleetscope({ QStringLiteral("summary"), changed });
    QVERIFY2(r.exitCode != 0, qPrintable(runText(r)));
    QVERIFY2(r.err.contains(QFile::encodeName(changed) + ": " + message), r.err.constData());
    QCOMPARE(r.err.count(QFile::encodeName(changed)), 1);
}

// A .fleet given as --plan is said to be a document, with how to use it (it was "not valid JSON").
void TestCliDocument::documentGivenAsPlan()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const auto r = runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), cluster, QStringLiteral("--plan"), doc });
    QVERIFY2(r.exitCode == 2, qPrintable(runText(r)));
    const QByteArray name = QFile::encodeName(doc);
    QVERIFY2(r.err.contains(name + ": is a Fleetscope document (a saved cluster with its plans), not a plan file: give it as the cluster "
                                   "(fleetscope plan check " + name + " --plan PLAN.json), or open it in the window (fleetscope " + name
                 + ") to review the plans it keeps"),
        r.err.constData());
    QVERIFY2(!r.err.contains("JSON"), r.err.constData());
}

// As plan export: a plan made on another cluster is not kept in a document unless forced (it
// was kept silently, to be reviewed on the wrong cluster).
void TestCliDocument::savePlanOfAnotherCluster()
{
    QTemporaryDir dir;
    const QString plan = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), kData + QStringLiteral("/plan/cluster.json"),
                                      QStringLiteral("-o"), plan });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString other = kData + QStringLiteral("/plan/cluster-changed.json");
    const QString doc = dir.filePath(QStringLiteral("other.fleet"));
    const auto refused = runFleetscope({ QStringLiteral("save"), other, QStringLiteral("--plan"), plan, QStringLiteral("-o"), doc });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.startsWith("fleetscope save: refusing to keep --plan " + QFile::encodeName(plan) + ": "), refused.err.constData());
    QVERIFY2(refused.err.contains("; give --force to keep it anyway\n"), refused.err.constData());
    QVERIFY(!QFile::exists(doc));
    const auto forced = runFleetscope({ QStringLiteral("save"), other, QStringLiteral("--plan"), plan, QStringLiteral("-o"), doc,
                                        QStringLiteral("--force") });
    QVERIFY2(forced.exitCode == 0, qPrintable(runText(forced)));
    QVERIFY2(forced.err.startsWith("fleetscope save: note: --plan " + QFile::encodeName(plan) + ": "), forced.err.constData());
    QVERIFY(QFile::exists(doc));
}


// -o naming a document that keeps plans the new one would not: refused (exit 2) and left as it
// was, naming the plans; --force replaces it and says what went. The same plans saved again
// are no loss.
void TestCliDocument::saveOverADocumentWithPlansAsksForForce()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString consolidate = dir.filePath(QStringLiteral("consolidate.json"));
    const auto made = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), consolidate });
    QVERIFY2(made.exitCode == 0, qPrintable(runText(made)));
    const QString doc = dir.filePath(QStringLiteral("state.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), consolidate, QStringLiteral("-o"), doc });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const QByteArray previous = fileBytes(doc);

    const auto refused = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), doc });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("which holds 1 plan (\"consolidate\")") && refused.err.contains("--force"), refused.err.constData());
    QCOMPARE(fileBytes(doc), previous);

    // The same plan saved again: every plan the document held is kept, nothing to ask.
    const auto same = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("--plan"), consolidate, QStringLiteral("-o"), doc });
    QVERIFY2(same.exitCode == 0, qPrintable(runText(same)));
    QVERIFY2(!same.err.contains("replacing"), same.err.constData());

    const auto forced = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), doc, QStringLiteral("--force") });
    QVERIFY2(forced.exitCode == 0, qPrintable(runText(forced)));
    QVERIFY2(forced.err.contains("replacing " + QFile::encodeName(doc) + ", which held 1 plan (\"consolidate\")"), forced.err.constData());
    const auto listed = runFleetscope({ QStringLiteral("plans"), doc, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(listed.exitCode == 0, qPrintable(runText(listed)));
    QCOMPARE(QJsonDocument::fromJson(listed.out).object()[QStringLiteral("plans")].toArray().size(), 0);
}

// A BEFORE that does not exist is named as the missing state, with or without --plan (the plan
// name looked up in it was blamed).
void TestCliDocument::diffNamesAMissingState()
{
    QTemporaryDir dir;
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const QString after = dir.filePath(QStringLiteral("after.fleet"));
    const auto saved = runFleetscope({ QStringLiteral("save"), cluster, QStringLiteral("-o"), after });
    QVERIFY2(saved.exitCode == 0, qPrintable(runText(saved)));
    const QString missing = dir.filePath(QStringLiteral("missing.fleet"));
    for (const QStringList& extra : { QStringList {}, QStringList { QStringLiteral("--plan"), QStringLiteral("consolidate") } }) {
        const auto r = runFleetscope(QStringList { QStringLiteral("diff"), missing, after } + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QFile::encodeName(missing)) && r.err.contains("No such file"), r.err.constData());
        QVERIFY2(!r.err.contains("--plan"), r.err.constData());
    }
}

// Two states that share few nodes may be two clusters: diff warns either way, and speaks of a
// plan's outcome only when --plan was given (without one it warned about a plan).
void TestCliDocument::diffOfTwoClustersWarnsWithoutAPlan()
{
    const QString small = kData + QStringLiteral("/app/small-cluster.json");
    const QString cluster = kData + QStringLiteral("/plan/cluster.json");
    const auto r = runFleetscope({ QStringLiteral("diff"), cluster, small });
    QVERIFY2(r.exitCode == 0, qPrintable(runText(r)));
    QVERIFY2(r.err.contains("nodes (by name): it may be another cluster"), qPrintable(runText(r)));
    QVERIFY2(!r.err.contains("plan"), qPrintable(runText(r)));
}

QTEST_GUILESS_MAIN(TestCliDocument)
#include "tst_clidocument.moc"
