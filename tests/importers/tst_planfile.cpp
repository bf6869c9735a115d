// SPDX-License-Identifier: Apache-2.0
// Plan files (importers/plan/planfile.h): every action type round-trips through write and
// read; every malformed file fails naming the file and the JSON path; a failed write leaves
// the previous file as it was; evaluatePlan against a changed state says what broke.

#include "importers/clusterloader.h"
#include "importers/export/evaluationformat.h"
#include "importers/export/planexport.h"
#include "importers/plan/planfile.h"
#include "importers/plan/podtemplate.h"
#include "importers/plan/plansource.h"
#include "importers/plan/plantextcheck.h"
#include "model/scheduling/reasons.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <malloc.h>
#include <cstring>

#include <sys/resource.h>

using namespace fleet;

namespace {

const std::string kPlanData = FLEET_TEST_DATA_DIR "/plan";

importers::PlanDocument everyAction()
{
    importers::PlanDocument plan;
    plan.source.files = { { "nodes.json", std::string(64, 'a') }, { "pods \"quoted\".json", std::string(64, 'b') } };
    plan.source.server = "https://example.eks.amazonaws.com";
    plan.source.resourceVersion = "123456";
    model::PlanAction move;
    move.type = model::ActionType::MovePod;
    move.pod = { "default", "web-0", "uid-1" };
    move.node = "node-b";
    move.override = true;
    model::PlanAction drain;
    drain.type = model::ActionType::DrainNode;
    drain.node = "node-a";
    model::PlanAction add;
    add.type = model::ActionType::AddNode;
    add.instanceType = "p5.48xlarge";
    add.capacityType = "reserved";
    add.domain = "topology.kubernetes.io/zone=us-east-1a";
    add.count = 3;
    model::PlanAction failNode;
    failNode.type = model::ActionType::FailNode;
    failNode.node = "node-c";
    model::PlanAction failDomain;
    failDomain.type = model::ActionType::FailDomain;
    failDomain.domain = "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1b";
    model::PlanAction place;
    place.type = model::ActionType::PlaceWorkload;
    place.workloadNamespace = "ml";
    place.workloadName = "train";
    place.workloadKind = "JobSet";
    place.domain = "topology.kubernetes.io/zone=us-east-1a";
    place.policy = "default";
    plan.actions = { move, drain, add, failNode, failDomain, place };
    return plan;
}

std::string writeText(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return path.toStdString();
}

} // namespace

class TestPlanFile : public QObject {
    Q_OBJECT
private slots:
    void roundTripsEveryActionType();
    void errorsNameTheFileAndPath_data();
    void errorsNameTheFileAndPath();
    void failedWriteKeepsThePreviousFile();
    void digestsNameChangedFiles();
    void sourceDifferenceSaysWhichState();
    void evaluationReportsWhatBroke();
    void csvNamesTheNodeOfAnActionWithoutPods();
    void templatePodIsNoPodOfTheCluster();
    void largePlanReadsInMemoryOfItsText();
    void readByPartsKeepsTheWholeFilesErrors_data();
    void readByPartsKeepsTheWholeFilesErrors();
    void readByPartsReadsWhatTheWholeFileSays();
};

void TestPlanFile::roundTripsEveryActionType()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
    const importers::PlanDocument plan = everyAction();
    importers::writePlanFile(plan, path);
    const importers::PlanDocument back = importers::readPlanFile(path);
    QCOMPARE(back.version, 1);
    QCOMPARE(back.actions.size(), plan.actions.size());
    for (std::size_t i = 0; i < plan.actions.size(); ++i)
        QVERIFY2(back.actions[i] == plan.actions[i], std::string(model::actionTypeName(plan.actions[i].type)).c_str());
    QCOMPARE(back.source.files.size(), std::size_t(2));
    QCOMPARE(back.source.files[1].name, plan.source.files[1].name);
    QCOMPARE(back.source.server, plan.source.server);
    QCOMPARE(back.source.resourceVersion, plan.source.resourceVersion);
    QCOMPARE(importers::planJson(back), importers::planJson(plan));
    // The text entry point (fuzz_planfile's) reads the same plan.
    QCOMPARE(importers::planJson(importers::parsePlanText(importers::planJson(plan), "text.json")), importers::planJson(plan));
}

void TestPlanFile::errorsNameTheFileAndPath_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << QByteArray("{\"fleetscopePlan\": 1, ") << QStringLiteral("not valid JSON");
    QTest::newRow("no version") << QByteArray("{\"actions\": []}") << QStringLiteral("at $: missing field \"fleetscopePlan\"");
    QTest::newRow("newer version") << QByteArray("{\"fleetscopePlan\": 2, \"actions\": []}") << QStringLiteral("at $.fleetscopePlan: version 2");
    QTest::newRow("a plan evaluation") << QByteArray("{\"plan\": \"plans/drain.json\", \"holds\": true, \"state\": {}, \"actions\": []}")
                                       << QStringLiteral("at $: this is a plan evaluation (from plan check), not a plan; give the plan file it "
                                                         "evaluated, \"plans/drain.json\"");
    QTest::newRow("unknown top field") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [], \"x\": 1}") << QStringLiteral("at $: unknown field \"x\"");
    QTest::newRow("actions not array") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": {}}") << QStringLiteral("at $.actions: expected an array");
    QTest::newRow("unknown type") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"teleport\"}]}")
                                  << QStringLiteral("at $.actions[0].type: unknown action type \"teleport\"");
    QTest::newRow("pod name missing")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"drain-node\", \"node\": \"a\"}, "
                      "{\"type\": \"move-pod\", \"pod\": {\"namespace\": \"d\"}, \"node\": \"b\"}]}")
        << QStringLiteral("at $.actions[1].pod: missing field \"name\"");
    QTest::newRow("count not integer")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"add-node\", \"instanceType\": \"m5\", \"count\": \"2\"}]}")
        << QStringLiteral("at $.actions[0].count: expected an integer");
    QTest::newRow("capacity type unknown")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"add-node\", \"instanceType\": \"m5\", \"capacityType\": \"prepaid\"}]}")
        << QStringLiteral("at $.actions[0].capacityType: expected \"on-demand\", \"spot\" or \"reserved\", got \"prepaid\"");
    QTest::newRow("count zero") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"add-node\", \"instanceType\": \"m5\", \"count\": 0}]}")
                                << QStringLiteral("at $.actions[0].count: expected a count from 1 to 100000");
    QTest::newRow("bad digest") << QByteArray("{\"fleetscopePlan\": 1, \"source\": {\"files\": [{\"name\": \"a\", \"sha256\": \"XYZ\"}]}, \"actions\": []}")
                                << QStringLiteral("at $.source.files[0].sha256: expected 64 lowercase hex digits");
    QTest::newRow("override not bool")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"move-pod\", \"pod\": {\"namespace\": \"d\", \"name\": \"p\"}, "
                      "\"node\": \"b\", \"override\": 1}]}")
        << QStringLiteral("at $.actions[0].override: expected true or false");
    QTest::newRow("unknown action field") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\", \"nodes\": []}]}")
                                          << QStringLiteral("at $.actions[0]: unknown field \"nodes\"");
    // A strict reader: a field given twice is refused wherever it is, since JSON readers differ
    // on which one they take (this reader took the first, jq and Python the last).
    QTest::newRow("node twice") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"drain-node\", \"node\": \"node-b\", \"node\": \"node-a\"}]}")
                                << QStringLiteral("at $.actions[0]: the field \"node\" is given twice");
    QTest::newRow("version twice") << QByteArray("{\"fleetscopePlan\": 1, \"fleetscopePlan\": 1, \"actions\": []}")
                                   << QStringLiteral("at $: the field \"fleetscopePlan\" is given twice");
    QTest::newRow("pod field twice")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"move-pod\", \"pod\": {\"namespace\": \"a\", \"name\": \"p\", \"name\": \"q\"}, \"node\": \"n\"}]}")
        << QStringLiteral("at $.actions[0].pod: the field \"name\" is given twice");
    QTest::newRow("source file twice")
        << QByteArray("{\"fleetscopePlan\": 1, \"source\": {\"simulated\": \"a\", \"simulated\": \"b\"}, \"actions\": []}")
        << QStringLiteral("at $.source: the field \"simulated\" is given twice");
    QTest::newRow("inside a pod template")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"place-pods\", \"pod\": {\"namespace\": \"a\", \"name\": \"p\"}, "
                      "\"count\": 1, \"podTemplate\": {\"kind\": \"Pod\", \"spec\": {\"nodeSelector\": {\"zone\": \"a\", \"zone\": \"b\"}}}}]}")
        << QStringLiteral("at $.actions[0].podTemplate.spec.nodeSelector: the field \"zone\" is given twice");
}

void TestPlanFile::errorsNameTheFileAndPath()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::string path = writeText(dir, "bad.json", text);
    try {
        (void)importers::readPlanFile(path);
        QFAIL("no error");
    } catch (const importers::PlanFileError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
    }
    // The same error from the text, named by the name given.
    try {
        (void)importers::parsePlanText(std::string_view(text.constData(), std::size_t(text.size())), "given.json");
        QFAIL("no error from the text");
    } catch (const importers::PlanFileError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QStringLiteral("given.json: ")) && what.contains(expected), qPrintable(what));
        // The check that keeps nothing (the .fleet document's) says the same.
        try {
            importers::checkPlanText(std::string_view(text.constData(), std::size_t(text.size())), "given.json");
            QFAIL("no error from the check");
        } catch (const importers::PlanFileError& c) {
            QCOMPARE(QString::fromUtf8(c.what()), what);
        }
    }
    QVERIFY_THROWS_EXCEPTION(importers::PlanFileError, (void)importers::readPlanFile(dir.filePath(QStringLiteral("missing.json")).toStdString()));
}

void TestPlanFile::failedWriteKeepsThePreviousFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
    importers::PlanDocument small;
    importers::writePlanFile(small, path);
    QFile before(QString::fromStdString(path));
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray old = before.readAll();
    before.close();
    // A plan bigger than the file size limit: the write fails part way (EFBIG; SIGXFSZ ignored).
    importers::PlanDocument big = everyAction();
    for (int i = 0; i < 2000; ++i)
        big.actions.push_back(big.actions.front());
    struct rlimit saved {};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = saved;
    limit.rlim_cur = 4096;
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limit), 0);
    bool threw = false;
    try {
        importers::writePlanFile(big, path);
    } catch (const importers::PlanFileError& e) {
        threw = true;
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QString::fromStdString(path)), e.what());
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);
    QVERIFY(threw);
    QFile after(QString::fromStdString(path));
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("plan.json") }); // no temporary left
}

void TestPlanFile::digestsNameChangedFiles()
{
    const std::string a = kPlanData + "/cluster.json", b = kPlanData + "/cluster-changed.json";
    const std::string digest = importers::fileSha256(a);
    QCOMPARE(digest.size(), std::size_t(64));
    QCOMPARE(importers::fileSha256(a), digest);
    QVERIFY(importers::fileSha256(b) != digest);
    const importers::PlanSource planned = importers::sourceOfFiles({ a });
    QVERIFY(importers::changedSourceFiles(planned, importers::sourceOfFiles({ a })).empty());
    importers::PlanSource renamed = importers::sourceOfFiles({ b });
    renamed.files[0].name = a; // same name, other bytes
    QCOMPARE(importers::changedSourceFiles(planned, renamed), std::vector<std::string> { a });
    QVERIFY_THROWS_EXCEPTION(importers::PlanFileError, (void)importers::fileSha256(kPlanData + "/missing.json"));
}

// The sentence plan check prints when the state is another source than the plan's: files by
// digest (a renamed file with the same bytes is the same state), a live cluster by server and
// resourceVersion, a simulation by its spec; nothing when the plan names no source.
void TestPlanFile::sourceDifferenceSaysWhichState()
{
    const std::string a = kPlanData + "/cluster.json", b = kPlanData + "/cluster-changed.json";
    const importers::PlanSource files = importers::sourceOfFiles({ a });
    QCOMPARE(importers::sourceDifference(files, files), std::string());
    importers::PlanSource moved = files;
    moved.files[0].name = "elsewhere/cluster.json";
    QCOMPARE(importers::sourceDifference(files, moved), std::string());
    const std::string changed = importers::sourceDifference(files, importers::sourceOfFiles({ b }));
    QVERIFY2(changed.find("the plan was made on " + a + " (sha256 ") == 0, changed.c_str());
    // Another file given in its place: the plan's is not given (it is still there), not changed.
    QVERIFY2(changed.find("(not given: " + a + "; given instead: " + b + ")") != std::string::npos, changed.c_str());
    QVERIFY2(changed.find("changed or missing") == std::string::npos, changed.c_str());
    // The same name with other bytes: changed.
    importers::PlanSource edited = importers::sourceOfFiles({ b });
    edited.files[0].name = a;
    const std::string edit = importers::sourceDifference(files, edited);
    QVERIFY2(edit.find("(changed since the plan was made: " + a + ")") != std::string::npos, edit.c_str());
    // A file of the plan that is no longer there, beside one that is, not given: each said as it is.
    importers::PlanSource two = importers::sourceOfFiles({ a });
    two.files.push_back({ kPlanData + "/gone-since.csv", std::string(64, '0') });
    const std::string gone = importers::sourceDifference(two, importers::sourceOfFiles({ b }));
    QVERIFY2(gone.find("(not given: " + a + "; missing (no such file here): " + kPlanData + "/gone-since.csv; given instead: " + b + ")")
                 != std::string::npos,
        gone.c_str());

    // Long paths of one folder: each file name said whole, so that two files never read alike
    // (cut at a fixed width, "openb_pod_list_default.csv" and "..._cpu050.csv" both read
    // ".../openb_pod_list...").
    const std::string deep = "/srv/cluster-states/alibaba-gpu-v2023-openb/2026-12-07/after-the-maintenance-of-the-week/racks/csv";
    importers::PlanSource madeOn, checkedOn;
    madeOn.files.push_back({ deep + "/openb_pod_list_default.csv", std::string(64, '1') });
    checkedOn.files.push_back({ deep + "/openb_pod_list_cpu050.csv", std::string(64, '2') });
    const std::string far = importers::sourceDifference(madeOn, checkedOn);
    QVERIFY2(far.find("(missing (no such file here): " + deep + "/openb_pod_list_default.csv; given instead: " + deep + "/openb_pod_list_cpu050.csv)")
                 != std::string::npos,
        far.c_str());
    // Longer still: from the folder on.
    const std::string deeper = deep + "/" + std::string(60, 'x') + "/csv";
    madeOn.files[0].name = deeper + "/openb_pod_list_default.csv";
    checkedOn.files[0].name = deeper + "/openb_pod_list_cpu050.csv";
    const std::string farther = importers::sourceDifference(madeOn, checkedOn);
    QVERIFY2(farther.find("(missing (no such file here): \u2026/csv/openb_pod_list_default.csv; given instead: \u2026/csv/openb_pod_list_cpu050.csv)")
                 != std::string::npos,
        farther.c_str());

    const importers::PlanSource live = importers::sourceOfLiveCluster("https://api.example:6443", "100");
    QCOMPARE(importers::sourceDifference(live, importers::sourceOfLiveCluster("https://api.example:6443", "100")), std::string());
    QCOMPARE(importers::sourceDifference(live, importers::sourceOfLiveCluster("https://api.example:6443", "250")),
        std::string("the plan was made on live cluster https://api.example:6443 at resourceVersion 100, checked against live cluster "
                    "https://api.example:6443 at resourceVersion 250 (a newer or older list of the same cluster)"));
    const std::string other = importers::sourceDifference(live, files);
    QVERIFY2(other.find("checked against " + a + " (sha256 ") != std::string::npos, other.c_str());
    QCOMPARE(importers::sourceDifference(importers::sourceOfSimulation(100, 1), importers::sourceOfSimulation(100, 2)),
        std::string("the plan was made on simulated cluster nodes=100 seed=1 regions=1, checked against simulated cluster nodes=100 seed=2 regions=1"));
    QCOMPARE(importers::sourceDifference(importers::PlanSource {}, files), std::string());

    // The cluster an export may target: a live cluster at any resourceVersion, the same files or
    // simulation; never another source, nor a plan that names none.
    QCOMPARE(importers::clusterDifference(live, importers::sourceOfLiveCluster("https://api.example:6443", "250")), std::string());
    QCOMPARE(importers::clusterDifference(files, importers::sourceOfFiles({ a })), std::string());
    QVERIFY(!importers::clusterDifference(live, importers::sourceOfLiveCluster("https://other.example:6443", "100")).empty());
    QVERIFY(!importers::clusterDifference(live, files).empty());
    QVERIFY(!importers::clusterDifference(files, importers::sourceOfFiles({ b })).empty());
    QVERIFY(!importers::clusterDifference(importers::sourceOfSimulation(100, 1), importers::sourceOfSimulation(100, 2)).empty());
    // The region count is part of the simulation: the four-region fleet is another cluster, and
    // so was every simulation whose source names no region count (made before the one-region default).
    QVERIFY(!importers::clusterDifference(importers::sourceOfSimulation(100, 1, 4), importers::sourceOfSimulation(100, 1)).empty());
    QCOMPARE(importers::clusterDifference(importers::sourceOfSimulation(100, 1, 4), importers::sourceOfSimulation(100, 1, 4)), std::string());
    importers::PlanSource before;
    before.simulated = "nodes=100 seed=1";
    QVERIFY(!importers::sourceDifference(before, importers::sourceOfSimulation(100, 1)).empty());
    QCOMPARE(importers::clusterDifference(importers::PlanSource {}, files), "the plan names no source, so it cannot be shown to be made on " + importers::sourceText(files));
}

void TestPlanFile::evaluationReportsWhatBroke()
{
    const importers::PlanDocument plan = importers::readPlanFile(kPlanData + "/plan.json");
    QCOMPARE(plan.actions.size(), std::size_t(4));
    const importers::LoadedCluster same = importers::loadClusterFiles({ kPlanData + "/cluster.json" });
    const importers::PlanEvaluation ok = importers::evaluatePlan(*same.store, *same.topology, plan);
    QVERIFY(ok.allHold());
    QCOMPARE(ok.addedNodeNames, std::vector<std::string> { "fleetscope-m5.xlarge-1" });
    const std::string csv = importers::planCsv(ok, *same.store);
    QVERIFY(csv.starts_with("action,type,namespace,pod,from,to,holds,reasons\r\n"));
    QVERIFY(csv.find("3,move-pod,default,api-0,cpu-a2,fleetscope-m5.xlarge-1,true,") != std::string::npos);
    const std::string script = importers::planKubectlScript(ok, *same.store);
    QVERIFY(script.find("Fleetscope never runs this script") != std::string::npos);
    QVERIFY(script.find("The scheduler, not this script, decides") != std::string::npos);
    // The drain that holds lists its node for the script's batches (tst_planscript runs them).
    QVERIFY2(script.find("\n    # #2 drain cpu-a1\n") != std::string::npos && script.find("\n    cpu-a1\n") != std::string::npos, script.c_str());
    QVERIFY(script.find("run drain --ignore-daemonsets --delete-emptydir-data --timeout=\"$drain_timeout\" -- \"$node\"") != std::string::npos);
    QVERIFY(script.find("#   default/web-7f9c-bbbbb -> cpu-b1") != std::string::npos);

    const importers::LoadedCluster changed = importers::loadClusterFiles({ kPlanData + "/cluster-changed.json" });
    const importers::PlanEvaluation broke = importers::evaluatePlan(*changed.store, *changed.topology, plan);
    QVERIFY(!broke.allHold());
    QCOMPARE(broke.actions.size(), std::size_t(4));
    QVERIFY(!broke.actions[0].holds);
    QCOMPARE(broke.actions[0].reasons.at(0).code(), std::string("not-found:node/cpu-b1"));
    QVERIFY(!broke.actions[1].holds);
    QCOMPARE(broke.actions[1].reasons.at(0).code(), std::string("no-feasible-node"));
    QVERIFY(broke.actions[2].holds && broke.actions[3].holds);
    const std::string json = importers::evaluationJson("plan.json", broke, *changed.store);
    QVERIFY(json.find("\"code\": \"not-found:node/cpu-b1\"") != std::string::npos);
    QVERIFY(json.find("\"index\": 3") != std::string::npos);
    // The drain that does not hold is a comment only; an action that does not hold says why.
    const std::string brokeScript = importers::planKubectlScript(broke, *changed.store);
    QVERIFY2(brokeScript.find("\n    # #2 drain cpu-a1: does not hold, left out\n") != std::string::npos, brokeScript.c_str());
    QVERIFY(brokeScript.find("\n    cpu-a1\n") == std::string::npos);
    QVERIFY2(brokeScript.find("# #1 move-pod default/web-7f9c-aaaaa -> cpu-b1: does not hold (not-found:node/cpu-b1), left out\n")
            != std::string::npos,
        brokeScript.c_str());
    // A row of a pod the action moved carries the action's own reasons (an overridden move that
    // breaks a rule is applied, holds false, and its CSV row must still say which rule).
    importers::PlanEvaluation overridden = ok;
    overridden.actions[3].holds = false;
    overridden.actions[3].reasons.push_back(model::makeReason(model::ReasonKind::NotFound, "node/x", "test"));
    const std::string overriddenCsv = importers::planCsv(overridden, *same.store);
    QVERIFY2(overriddenCsv.find("3,move-pod,default,api-0,cpu-a2,fleetscope-m5.xlarge-1,false,not-found:node/x\r\n") != std::string::npos,
        overriddenCsv.c_str());
    // A drain's reasons are the drain's: on a row of their own, never on the row of a pod that
    // moved as planned.
    importers::PlanEvaluation refusedDrain = ok;
    QCOMPARE(refusedDrain.actions[1].action.type, model::ActionType::DrainNode);
    QVERIFY(!refusedDrain.actions[1].changes.empty());
    refusedDrain.actions[1].holds = false;
    refusedDrain.actions[1].reasons.push_back(model::makeReason(model::ReasonKind::NotFound, "node/x", "test"));
    const std::string drainCsv = importers::planCsv(refusedDrain, *same.store);
    QVERIFY2(drainCsv.find("\r\n1,drain-node,,,cpu-a1,,false,not-found:node/x\r\n") != std::string::npos, drainCsv.c_str());
    QVERIFY2(drainCsv.find("1,drain-node,default,web-7f9c-bbbbb,cpu-a1,cpu-b1,false,\r\n") != std::string::npos, drainCsv.c_str());
}

// A drain or failure of a node with no pod to move (cpu-b1 holds only a DaemonSet pod) still
// has its row, and the row names the node in "from".
void TestPlanFile::csvNamesTheNodeOfAnActionWithoutPods()
{
    const importers::LoadedCluster c = importers::loadClusterFiles({ kPlanData + "/cluster.json" });
    importers::PlanDocument plan;
    model::PlanAction drain;
    drain.type = model::ActionType::DrainNode;
    drain.node = "cpu-b1";
    plan.actions.push_back(drain);
    model::PlanAction fail;
    fail.type = model::ActionType::FailNode;
    fail.node = "cpu-b1";
    plan.actions.push_back(fail);
    const importers::PlanEvaluation e = importers::evaluatePlan(*c.store, *c.topology, plan);
    QVERIFY(e.actions.at(0).changes.empty());
    const std::string csv = importers::planCsv(e, *c.store);
    QVERIFY2(csv.find("\r\n0,drain-node,,,cpu-b1,,true,\r\n") != std::string::npos, csv.c_str());
    QVERIFY2(csv.find("\r\n1,fail-node,,,cpu-b1,,") != std::string::npos, csv.c_str());
}

// The pod a place-pods action copies joins the store to be read by the filters, marked as a
// template: not pending, not counted.
void TestPlanFile::templatePodIsNoPodOfTheCluster()
{
    importers::LoadedCluster c = importers::loadClusterFiles({ kPlanData + "/cluster.json" });
    const model::ClusterCounts before = c.store->counts();
    importers::PodShapeSpec shape;
    shape.cpu = "1";
    shape.memory = "1Gi";
    const model::PodId p = importers::addTemplatePod(*c.store, importers::podTemplateFromShape(shape), "the template");
    QVERIFY(c.store->podFlags(p) & model::PodFlagTemplate);
    QVERIFY(!c.store->podIsPending(p));
    QCOMPARE(c.store->counts().pods, before.pods);
    QCOMPARE(c.store->counts().podsPending, before.podsPending);
}

namespace {

// This process's resident set (VmRSS) and its peak since the last resetPeakResident() (VmHWM),
// in KiB, from /proc/self/status; -1 when unknown.
std::int64_t statusKib(const char* field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(static_cast<qsizetype>(std::strlen(field))).trimmed().split(' ').value(0).toLongLong();
    return -1;
}
// Linux: "5" to clear_refs sets the peak resident set to the current one; first the memory
// freed before is handed back (malloc_trim), so that what is measured next is not served from it.
bool resetPeakResident()
{
    malloc_trim(0);
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
}

// A consolidation's plan as `plan consolidate` writes it: a move per pod, then the drains.
importers::PlanDocument movesThenDrains(int moves)
{
    importers::PlanDocument plan;
    plan.source.simulated = "nodes=100000 seed=1 regions=1";
    for (int i = 0; i < moves; ++i) {
        model::PlanAction move;
        move.type = model::ActionType::MovePod;
        move.pod = { "inference", "vision-ocr-24509-jzrkkzvrcc-" + std::to_string(i), "58a23123-2df0-49d7-ad67-" + std::to_string(100000000000 + i) };
        move.node = "ip-10-107-61-" + std::to_string(i % 250) + ".us-west-2.compute.internal";
        plan.actions.push_back(std::move(move));
    }
    for (int i = 0; i < moves / 8; ++i) {
        model::PlanAction drain;
        drain.type = model::ActionType::DrainNode;
        drain.node = "ip-10-13-153-" + std::to_string(i) + ".us-west-2.compute.internal";
        plan.actions.push_back(std::move(drain));
    }
    return plan;
}

} // namespace

// A large plan file is read in the memory of its text and its actions: not a DOM of the whole
// file (simdjson's tape, structural index and strings, over ten bytes per byte of the file,
// 1.1 GB for a 100,000-node consolidation's 80 MB plan) nor a second copy of the text.
void TestPlanFile::largePlanReadsInMemoryOfItsText()
{
    if (!resetPeakResident() || statusKib("VmHWM:") < 0)
        QSKIP("no /proc/self/clear_refs to measure the peak resident set");
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
    const importers::PlanDocument plan = movesThenDrains(80000);
    importers::writePlanFile(plan, path);
    const auto fileKib = static_cast<std::int64_t>(QFileInfo(QString::fromStdString(path)).size() / 1024);
    QVERIFY(fileKib > 20 * 1024); // about 30 MB
    std::int64_t actionsKib = 0;
    std::size_t actions = 0;
    {
        QVERIFY(resetPeakResident());
        const std::int64_t before = statusKib("VmRSS:");
        const importers::PlanDocument back = importers::readPlanFile(path);
        actionsKib = statusKib("VmRSS:") - before; // what the result holds
        actions = back.actions.size();
        const std::int64_t peak = statusKib("VmHWM:") - before;
        qInfo("a %lld KiB plan file: peak %lld KiB over the resident set before, %lld KiB of actions", static_cast<long long>(fileKib),
            static_cast<long long>(peak), static_cast<long long>(actionsKib));
        // The text once and the actions, with room for the allocator: a DOM of the whole file
        // or a second copy of the text goes over.
        QVERIFY2(peak < fileKib + actionsKib + fileKib / 4,
            qPrintable(QStringLiteral("peak %1 KiB over %2 KiB before, for a %3 KiB file and %4 KiB of actions")
                           .arg(peak).arg(before).arg(fileKib).arg(actionsKib)));
        QVERIFY(back.actions == plan.actions);
    }
    QCOMPARE(actions, plan.actions.size());
    // Checked without keeping the actions: the text and its padded copy, not the actions.
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(resetPeakResident());
    const std::int64_t before = statusKib("VmRSS:");
    importers::checkPlanText(std::string_view(text.constData(), std::size_t(text.size())), "plan.json");
    const std::int64_t peak = statusKib("VmHWM:") - before;
    qInfo("checked: peak %lld KiB over the resident set before", static_cast<long long>(peak));
    QVERIFY2(peak < fileKib + actionsKib / 4, qPrintable(QStringLiteral("peak %1 KiB for a %2 KiB file").arg(peak).arg(fileKib)));
}

// The errors of the files that read by parts and whole differently: by parts, each action is
// judged as it comes, so a file is read whole again when it is refused, and its error is the
// whole file's (a syntax error late in the file before a wrong field early in it, ...).
void TestPlanFile::readByPartsKeepsTheWholeFilesErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a wrong field, then not JSON")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"teleport\"}, {\"type\": \"fail-node\", \"node\": tru}]}")
        << QStringLiteral("not valid JSON");
    QTest::newRow("a wrong action, then an unknown top field")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"teleport\"}], \"x\": 1}") << QStringLiteral("at $: unknown field \"x\"");
    QTest::newRow("a wrong action, then no version")
        << QByteArray("{\"actions\": [{\"type\": \"teleport\"}]}") << QStringLiteral("at $: missing field \"fleetscopePlan\"");
    QTest::newRow("a wrong action, then a newer version")
        << QByteArray("{\"actions\": [{\"type\": \"teleport\"}], \"fleetscopePlan\": 2}") << QStringLiteral("at $.fleetscopePlan: version 2");
    QTest::newRow("actions twice") << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [], \"actions\": [{\"type\": \"teleport\"}]}")
                                   << QStringLiteral("at $: the field \"actions\" is given twice");
    QTest::newRow("no comma between actions")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\"} {\"type\": \"fail-node\", \"node\": \"b\"}]}")
        << QStringLiteral("not valid JSON");
    QTest::newRow("a comma after the last action")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\"},]}") << QStringLiteral("not valid JSON");
    QTest::newRow("brackets that do not pair")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\"]}") << QStringLiteral("not valid JSON");
    QTest::newRow("a quote in a name, unclosed")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\\\"}]}") << QStringLiteral("not valid JSON");
    QTest::newRow("text after the top object")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": []} {}") << QStringLiteral("not valid JSON");
    QTest::newRow("a control byte between actions")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\"},\x01{\"type\": \"fail-node\", \"node\": \"b\"}]}")
        << QStringLiteral("not valid JSON");
    QTest::newRow("not UTF-8 in a name")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"fail-node\", \"node\": \"a\xff\"}]}") << QStringLiteral("not valid JSON");
    // A record of another version is not read, and must still be JSON.
    QTest::newRow("a later record, not JSON inside")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [], \"consolidation\": {\"version\": 2, \"kept\": [{\"node\": nul}]}}")
        << QStringLiteral("not valid JSON");
    QTest::newRow("a kept entry, then a field twice in the record")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [], \"consolidation\": {\"version\": 1, \"order\": \"a\", \"order\": \"b\", "
                      "\"actionsSha256\": \"" + QByteArray(64, 'a') + "\", \"kept\": [{\"node\": \"n\", \"code\": \"c\"}]}}")
        << QStringLiteral("at $.consolidation: the field \"order\" is given twice");
    QTest::newRow("a kept entry of the wrong shape")
        << QByteArray("{\"fleetscopePlan\": 1, \"actions\": [], \"consolidation\": {\"version\": 1, \"actionsSha256\": \"" + QByteArray(64, 'a')
                      + "\", \"kept\": [{\"node\": \"n\", \"code\": \"c\"}, {\"node\": 3, \"code\": \"c\"}]}}")
        << QStringLiteral("at $.consolidation.kept[1].node: expected a string");
}

void TestPlanFile::readByPartsKeepsTheWholeFilesErrors()
{
    errorsNameTheFileAndPath();
}

// What reads by parts is what the whole file says: keys written with escapes, strings with
// brackets and escaped quotes, whitespace of every kind, the consolidation's record.
void TestPlanFile::readByPartsReadsWhatTheWholeFileSays()
{
    const QByteArray text = "\r\n\t{ \"fleetscopePlan\" :1 ,\"source\":{\"simulated\":\"n]}=1\"},\n"
                            "\"actions\" : [ {\"type\":\"fail-node\",\"node\":\"a\\\"]}\"} ,\t{\"type\":\"drain-node\",\"node\":\"b{[\"} ] ,\n"
                            "\"consolidation\": {\"version\": 1, \"order\": \"saving-per-load\", \"actionsSha256\": \""
        + QByteArray(64, 'a') + "\", \"kept\": [ {\"node\": \"k\\\\\", \"code\": \"c\"} , {\"node\": \"l\", \"code\": \"d\"}], \"lpBound\": {\"nodes\": 2}}}\n";
    const importers::PlanDocument plan = importers::parsePlanText(std::string_view(text.constData(), std::size_t(text.size())), "plan.json");
    QCOMPARE(plan.source.simulated, std::string("n]}=1"));
    QCOMPARE(plan.actions.size(), std::size_t(2));
    QCOMPARE(plan.actions[0].node, std::string("a\"]}"));
    QCOMPARE(plan.actions[1].node, std::string("b{["));
    QVERIFY(plan.consolidation.has_value());
    QCOMPARE(plan.consolidation->kept.size(), std::size_t(2));
    QCOMPARE(plan.consolidation->kept[0].node, std::string("k\\"));
    QCOMPARE(plan.consolidation->kept[1].code, std::string("d"));
    QCOMPARE(plan.consolidation->lpBound->nodes, std::int64_t(2));
    // Keys written with escapes name the same fields.
    const std::string escaped = "{\"fleetscop\\u0065Plan\": 1, \"\\u0061ctions\": [{\"type\": \"fail-node\", \"node\": \"a\"}, "
                                "{\"type\": \"fail-node\", \"node\": \"b\"}]}";
    QCOMPARE(importers::parsePlanText(escaped, "escaped.json").actions.size(), std::size_t(2));
    // A pod template nested as deep as the whole file's parser takes (simdjson's 1024 levels,
    // the top object and "actions" among them), and one level deeper, which it refuses.
    const auto nested = [](int levels) {
        std::string t = "{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"place-pods\", \"pod\": {\"namespace\": \"a\", \"name\": \"p\"}, "
                        "\"count\": 1, \"podTemplate\": {\"kind\": \"Pod\", \"x\": ";
        t += std::string(static_cast<std::size_t>(levels), '[') + std::string(static_cast<std::size_t>(levels), ']') + "}}]}";
        return t;
    };
    QCOMPARE(importers::parsePlanText(nested(1020), "deep.json").actions.size(), std::size_t(1));
    QVERIFY_THROWS_EXCEPTION(importers::PlanFileError, (void)importers::parsePlanText(nested(1021), "deeper.json"));
    // A record of a later version is not read; the plan is.
    const std::string later = "{\"fleetscopePlan\": 1, \"actions\": [], \"consolidation\": {\"version\": 2, \"kept\": [{\"x\": 1}], \"y\": []}}";
    const importers::PlanDocument laterPlan = importers::parsePlanText(later, "later.json");
    QVERIFY(!laterPlan.consolidation.has_value());
    QVERIFY(!laterPlan.consolidationNote.empty());
}

QTEST_APPLESS_MAIN(TestPlanFile)
#include "tst_planfile.moc"

