// SPDX-License-Identifier: Apache-2.0
// The Plan menu's flows and the explore flows that feed them, driven as a person drives them
// (desktopsession.h): the real fleetscope on a private Xvfb with openbox, real X input through
// xdotool (menus by their keyboard mnemonics, dialogs by their keys), and the results read from
// the plan the program saves through its own File > Save Plan, compared with what the same
// planner answers on the command line (`fleetscope plan consolidate`, `plan add-nodes
// --fit-pending`). One program runs for the whole test (its start costs more than a flow); each
// flow leaves the plan as it found it (undo), and the order below is the order they run in.

#include "e2e/desktopsession.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QtTest>

#include <algorithm>
#include <functional>

using fleet::e2e::DesktopSession;
using fleet::e2e::waitUntil;

namespace {

const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--seed"), QStringLiteral("3") };
const QSize kWindow(1400, 900);

QByteArray runFleetscope(const QStringList& args, int* exitCode = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(DesktopSession::executable(), args);
    p.waitForFinished(120000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput();
}

/// The plan's actions counted by type: {"drain-node": 518, "move-pod": 93}.
QMap<QString, int> typeCounts(const QJsonArray& actions)
{
    QMap<QString, int> counts;
    for (const QJsonValue& a : actions)
        ++counts[a.toObject().value(QStringLiteral("type")).toString()];
    return counts;
}

QString describe(const QMap<QString, int>& counts)
{
    QStringList parts;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    return parts.join(QStringLiteral(", "));
}

QStringList drainedNodes(const QJsonArray& actions)
{
    QStringList nodes;
    for (const QJsonValue& a : actions)
        if (a.toObject().value(QStringLiteral("type")).toString() == QLatin1String("drain-node"))
            nodes << a.toObject().value(QStringLiteral("node")).toString();
    return nodes;
}

QStringList fleetNodes()
{
    QStringList nodes;
    const QJsonObject summary = QJsonDocument::fromJson(runFleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"),
                                                              QStringLiteral("json"), QStringLiteral("--only"), QStringLiteral("nodes") }
                                                                  + kSource))
                                    .object();
    for (const QJsonValue& n : summary.value(QStringLiteral("nodes")).toArray())
        nodes << n.toObject().value(QStringLiteral("name")).toString();
    return nodes;
}

} // namespace

class TestE2ePlan : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void consolidateUndoRedo();
    void addNodesHowManyUndoRedo();
    void placeWorkloadUndoRedo();
    void searchSelectsTheNodeToDrain();
    void searchOfNoNodeKeepsTheSelection();
    void filterScopesDrainTheFilteredNodes();
    void failDomainOfTheSelectedNode();

private:
    /// The plan as saved now through File > Save Plan (Ctrl+Alt+S); empty when no plan was saved.
    QJsonArray savedPlan(int timeoutMs = 20000);
    /// Saves until the plan has `count` actions (an undo or a worker's result lands on the
    /// event loop a moment after the keys); the last saved plan. Each try waits 20 s: a try
    /// that saw no plan presses the keys again.
    QJsonArray planOf(int count, int timeoutMs = 2 * fleet::e2e::kAnswerTimeoutMs);
    /// Whether the plan is empty (DesktopSession::planIsEmpty()).
    bool planIsEmpty();
    /// Edit > Undo (Ctrl+Z) until the plan has `count` actions, checked by saving.
    bool undoTo(int count);
    /// Opens the Plan menu by its mnemonic (Alt+P) and chooses the entry of mnemonic `letter`.
    bool planMenu(const QString& letter);

    std::unique_ptr<DesktopSession> m_session;
    int m_plans = 0;
    QStringList m_nodes;
    QString m_selected; // the node the search selected (drained first, kept for later flows)
};

void TestE2ePlan::initTestCase()
{
    m_nodes = fleetNodes();
    QVERIFY2(m_nodes.size() == 2000, qPrintable(QString::number(m_nodes.size())));
    m_session = std::make_unique<DesktopSession>();
    QVERIFY2(m_session->startDesktop(1600, 1000), qPrintable(m_session->error()));
    QVERIFY2(m_session->startApp(kSource, kWindow), qPrintable(m_session->error()));
}

void TestE2ePlan::cleanupTestCase()
{
    if (!m_session)
        return;
    // The last flow saved the plan it ends on: nothing unsaved, the quit asks nothing.
    const bool quit = m_session->quitApp();
    if (!quit)
        qWarning("fleetscope did not quit cleanly: %s %s\n%s", qPrintable(m_session->error()), qPrintable(m_session->appExitText()),
            qPrintable(m_session->appOutput()));
    m_session.reset();
    QVERIFY(quit);
}

QJsonArray TestE2ePlan::savedPlan(int timeoutMs)
{
    const QString path = m_session->path(QStringLiteral("plan-%1.json").arg(++m_plans));
    if (!m_session->savePlanAs(path, timeoutMs))
        return {};
    return DesktopSession::planActions(path);
}

QJsonArray TestE2ePlan::planOf(int count, int timeoutMs)
{
    QJsonArray actions;
    QElapsedTimer clock;
    clock.start();
    do {
        if (!m_session->appRunning())
            return {};
        actions = savedPlan();
    } while (actions.size() != count && clock.elapsed() < timeoutMs);
    return actions;
}

bool TestE2ePlan::planIsEmpty()
{
    // Not "no Save Plan dialog within a few seconds": on a loaded machine the dialog of a plan
    // not yet empty showed later, took the keys of the next step, and the flow fell apart.
    return m_session->planIsEmpty();
}

bool TestE2ePlan::undoTo(int count)
{
    if (!m_session->key(QStringLiteral("ctrl+z")))
        return false;
    // The undo of a large step (a consolidation: a move per pod, then the drains) runs in slices
    // over several turns of the event loop: wait until it is all taken back.
    return count == 0 ? waitUntil([&] { return planIsEmpty(); }, fleet::e2e::kAnswerTimeoutMs) : planOf(count).size() == count;
}

bool TestE2ePlan::planMenu(const QString& letter)
{
    return m_session->key(QStringLiteral("alt+p")) && m_session->key(letter);
}

void TestE2ePlan::consolidateUndoRedo()
{
    DesktopSession& s = *m_session;
    // What the command line's consolidation plans for the same fleet (deterministic: no time limit).
    const QString cliPlan = s.path(QStringLiteral("cli-consolidate.json"));
    int code = -1;
    runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + kSource
            + QStringList { QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), cliPlan },
        &code);
    const QJsonArray expected = DesktopSession::planActions(cliPlan);
    QVERIFY2(!expected.isEmpty(), qPrintable(QStringLiteral("plan consolidate exited %1 with no plan").arg(code)));

    // Plan > Consolidate…: a worker, its progress, then the result dialog, closed with Escape.
    // The what-if engine is built on a worker after the window shows: until then the entry
    // does nothing, so it is tried again until the dialog shows.
    QElapsedTimer clock;
    clock.start();
    quint32 dialog = 0;
    // Each try waits long enough for a loaded machine: a dialog that shows after the next try's
    // keys takes them (Alt+P, C typed into its Find field).
    while (!dialog && clock.elapsed() < 120000) {
        QVERIFY(planMenu(QStringLiteral("c")));
        dialog = s.waitForWindow(QStringLiteral("^Consolidation$"), 20000);
    }
    QVERIFY2(dialog, qPrintable(s.error()));
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }));
    // The nodes that stay: Find (Alt+F) one that the command line keeps, by its name, then
    // Export (Alt+E) as JSON: the one entry the command line's --format json gives for it, and
    // its group.
    const QJsonObject cliSummary = QJsonDocument::fromJson(runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + kSource
                                                               + QStringList { QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"),
                                                                   s.path(QStringLiteral("cli-consolidate-again.json")) }))
                                       .object();
    const QJsonArray cliKept = cliSummary.value(QStringLiteral("kept")).toArray();
    QVERIFY2(!cliKept.isEmpty(), "plan consolidate --format json lists no node that stays");
    const QJsonObject keptEntry = cliKept.at(cliKept.size() / 2).toObject();
    const QString keptNode = keptEntry.value(QStringLiteral("node")).toString();
    QVERIFY(s.key(QStringLiteral("alt+f")) && s.type(keptNode) && s.key(QStringLiteral("Return")));
    const QString keptPath = s.path(QStringLiteral("kept.json"));
    QVERIFY(s.key(QStringLiteral("alt+e")));
    const quint32 exportDialog = s.waitForWindow(QStringLiteral("^Export Nodes That Stay$"));
    QVERIFY2(exportDialog, qPrintable(s.error()));
    // Activated before typing: mapped is not yet focused (the keys went to the window below).
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(exportDialog) }));
    QVERIFY(s.key(QStringLiteral("ctrl+a")) && s.type(keptPath) && s.key(QStringLiteral("Return")));
    QVERIFY2(waitUntil([&] { return QFileInfo::exists(keptPath); }, fleet::e2e::kAnswerTimeoutMs), "Export wrote no file");
    QFile keptFile(keptPath);
    QVERIFY(keptFile.open(QIODevice::ReadOnly));
    const QJsonObject exported = QJsonDocument::fromJson(keptFile.readAll()).object();
    QCOMPARE(exported.value(QStringLiteral("kept")).toArray(), QJsonArray { keptEntry });
    QCOMPARE(exported.value(QStringLiteral("keptByCode")).toArray().size(), 1);
    QCOMPARE(exported.value(QStringLiteral("keptByCode")).toArray().at(0).toObject().value(QStringLiteral("nodes")).toInt(), 1);
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }));
    QVERIFY(s.key(QStringLiteral("Escape")));
    QVERIFY2(s.waitForNoWindow(QStringLiteral("^Consolidation$")), qPrintable(s.error()));
    QJsonArray actions = planOf(static_cast<int>(expected.size()));
    QCOMPARE(describe(typeCounts(actions)), describe(typeCounts(expected)));
    QCOMPARE(drainedNodes(actions), drainedNodes(expected));

    // Undo takes the whole consolidation back in one step; redo puts it again.
    QVERIFY2(undoTo(0), "the plan is not empty after one undo of the consolidation");
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    actions = planOf(static_cast<int>(expected.size()));
    QCOMPARE(describe(typeCounts(actions)), describe(typeCounts(expected)));
    QVERIFY2(undoTo(0), "the plan is not empty after undoing the redone consolidation");
}

void TestE2ePlan::addNodesHowManyUndoRedo()
{
    DesktopSession& s = *m_session;
    // The pending pods of the simulated fleet (one region) wait for p5e.48xlarge nodes (on the
    // four-region fleet, p6-b200 ones): the command line's answer, an add-node and a move-pod
    // for each pending pod placed on the nodes.
    const QString type = QStringLiteral("p5e.48xlarge");
    const QString cliPlan = s.path(QStringLiteral("cli-add-nodes.json"));
    runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes") } + kSource
        + QStringList { QStringLiteral("--instance-type"), type, QStringLiteral("--fit-pending"), QStringLiteral("-o"), cliPlan });
    const QJsonArray expected = DesktopSession::planActions(cliPlan);
    QVERIFY2(expected.size() > 1, "plan add-nodes --fit-pending wrote no plan, or one without the pending pods placed");
    const int needed = expected.at(0).toObject().value(QStringLiteral("count")).toInt();
    QVERIFY2(needed > 1, qPrintable(QString::number(needed)));

    // Plan > Add Nodes…: the instance type chosen by typing its name into the focused list,
    // How Many? (Alt+H) on a worker, then Add (Alt+A) once its answer filled the count: the
    // nodes and the pending pods placed on them. The answer cannot be read but as pixels: the
    // dialog is still once it is shown; a count read too early (1) is undone and asked again.
    QJsonArray actions;
    for (int attempt = 0; attempt < 3; ++attempt) {
        QVERIFY(planMenu(QStringLiteral("a")));
        const quint32 dialog = s.waitForWindow(QStringLiteral("^Add Nodes$"));
        QVERIFY2(dialog, qPrintable(s.error()));
        QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }));
        QVERIFY(s.type(type));
        QVERIFY(s.key(QStringLiteral("alt+h")));
        QVERIFY(s.waitForStillScreen());
        // On a loaded machine How Many?'s answer may come after the screen was still, and an
        // Alt+A pressed while it runs is lost: pressed again, to the dialog, while it stays.
        bool closed = false;
        for (int press = 0; press < 6 && !closed; ++press) {
            if (!s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) })) {
                closed = s.waitForNoWindow(QStringLiteral("^Add Nodes$"), 1000);
                break;
            }
            QVERIFY(s.key(QStringLiteral("alt+a")));
            closed = s.waitForNoWindow(QStringLiteral("^Add Nodes$"), 20000);
        }
        QVERIFY2(closed, qPrintable(s.error()));
        actions = planOf(static_cast<int>(expected.size()));
        QVERIFY(!actions.isEmpty());
        if (actions.at(0).toObject().value(QStringLiteral("count")).toInt() == needed)
            break;
        qWarning("attempt %d: Add took %d nodes before How Many? answered %d", attempt + 1,
            actions.at(0).toObject().value(QStringLiteral("count")).toInt(), needed);
        QVERIFY(undoTo(0));
    }
    // Action for action the command line's plan: the nodes, then each pending pod that fits on
    // the node the default policy chose (the nodes are not left empty).
    QCOMPARE(actions.size(), expected.size());
    QCOMPARE(describe(typeCounts(actions)), describe(typeCounts(expected)));
    for (qsizetype i = 0; i < actions.size(); ++i)
        QVERIFY2(actions.at(i).toObject() == expected.at(i).toObject(),
            qPrintable(QStringLiteral("action %1: %2 against %3")
                           .arg(i)
                           .arg(QString::fromUtf8(QJsonDocument(actions.at(i).toObject()).toJson(QJsonDocument::Compact)),
                               QString::fromUtf8(QJsonDocument(expected.at(i).toObject()).toJson(QJsonDocument::Compact)))));

    // One undo takes the nodes and the placements back; redo puts them again.
    QVERIFY2(undoTo(0), "the plan is not empty after undoing Add Nodes");
    QVERIFY(s.key(QStringLiteral("ctrl+y")));
    actions = planOf(static_cast<int>(expected.size()));
    QCOMPARE(actions.size(), expected.size());
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("count")).toInt(), needed);
    QVERIFY2(undoTo(0), "the plan is not empty after undoing the redone Add Nodes");
}

void TestE2ePlan::placeWorkloadUndoRedo()
{
    DesktopSession& s = *m_session;
    // Plan > Place Workload…: its defaults (8 pods of 8 CPU, 64Gi, a gang) placed by Return
    // (Place is the default button) on a worker; Close (Escape) stops a placement still running,
    // so the dialog closes once the screen is still, and the gesture is repeated until the plan
    // holds the placement.
    QElapsedTimer clock;
    clock.start();
    QJsonArray actions;
    while (actions.isEmpty() && clock.elapsed() < 120000) {
        QVERIFY(planMenu(QStringLiteral("p")));
        const quint32 dialog = s.waitForWindow(QStringLiteral("^Place Workload$"));
        QVERIFY2(dialog, qPrintable(s.error()));
        QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }));
        QVERIFY(s.key(QStringLiteral("Return")));
        QVERIFY(s.waitForStillScreen());
        QVERIFY(s.key(QStringLiteral("Escape")));
        QVERIFY2(s.waitForNoWindow(QStringLiteral("^Place Workload$")), qPrintable(s.error()));
        if (!planIsEmpty())
            actions = savedPlan();
    }
    QCOMPARE(actions.size(), 1);
    QJsonObject place = actions.at(0).toObject();
    QCOMPARE(place.value(QStringLiteral("type")).toString(), QStringLiteral("place-pods"));
    QCOMPARE(place.value(QStringLiteral("count")).toInt(), 8);

    QVERIFY2(undoTo(0), "the plan is not empty after undoing Place Workload");
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    actions = planOf(1);
    QCOMPARE(actions.size(), 1);
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("place-pods"));
    QVERIFY2(undoTo(0), "the plan is not empty after undoing the redone placement");
}

void TestE2ePlan::searchSelectsTheNodeToDrain()
{
    DesktopSession& s = *m_session;
    // Find (Ctrl+F) a node by a part of its name that is not its start (the part no other node
    // name holds), Return selects it; Plan > Drain Selected Node then drains what the search
    // selected. The menu by its mnemonic (Alt+P, D highlights the first entry of that letter,
    // Return takes it): the focus stays in the search field, where a line edit may take Ctrl+D
    // for itself (delete, on some desktops).
    m_selected = m_nodes.at(1234);
    QString part;
    for (int from = 1; from < m_selected.size() - 3 && part.isEmpty(); ++from) {
        const QString candidate = m_selected.mid(from);
        if (std::count_if(m_nodes.begin(), m_nodes.end(), [&](const QString& n) { return n.contains(candidate); }) == 1
            && std::none_of(m_nodes.begin(), m_nodes.end(), [&](const QString& n) { return n.startsWith(candidate); }))
            part = candidate;
    }
    QVERIFY2(!part.isEmpty(), qPrintable(m_selected));
    QVERIFY(s.key(QStringLiteral("ctrl+f")) && s.type(part) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY(planMenu(QStringLiteral("d")) && s.key(QStringLiteral("Return")));
    QJsonArray actions = planOf(1);
    QCOMPARE(drainedNodes(actions), QStringList { m_selected });

    // Saved as it is: the flows below start from this one action.
}

void TestE2ePlan::searchOfNoNodeKeepsTheSelection()
{
    DesktopSession& s = *m_session;
    QVERIFY(!m_selected.isEmpty());
    // The drain undone, the node the search found stays selected. A search for a name that no
    // node or pod has (typed whole, Return) says so and keeps the selection, as Find in an editor
    // does: a typo does not throw away the node the inspector shows. Plan > Drain Selected Node
    // then drains that node, the one still shown, and nothing else.
    // Edit > Undo by its mnemonics: the focus is in the search field, whose own Ctrl+Z undoes typing.
    QVERIFY(s.key(QStringLiteral("alt+e")) && s.key(QStringLiteral("u")));
    QVERIFY2(waitUntil([&] { return planIsEmpty(); }, fleet::e2e::kAnswerTimeoutMs), "the drain of the searched node was not undone");
    QVERIFY(s.key(QStringLiteral("ctrl+f")) && s.type(QStringLiteral("ip-10-255-255-254.no-such-region.compute.internal"))
        && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY(planMenu(QStringLiteral("d")) && s.key(QStringLiteral("Return")));
    QCOMPARE(drainedNodes(planOf(1)), QStringList { m_selected });
    QVERIFY(s.key(QStringLiteral("alt+e")) && s.key(QStringLiteral("u")));
    QVERIFY2(waitUntil([&] { return planIsEmpty(); }, fleet::e2e::kAnswerTimeoutMs), "the drain of the node kept selected was not undone");

    // The full name of a node typed whole and Return (its completion popup open): exactly that
    // node is selected and drained. The plan is as the search flow left it.
    QVERIFY(s.key(QStringLiteral("ctrl+f")) && s.type(m_selected) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY(planMenu(QStringLiteral("d")) && s.key(QStringLiteral("Return")));
    QCOMPARE(drainedNodes(planOf(1)), QStringList { m_selected });
}

void TestE2ePlan::filterScopesDrainTheFilteredNodes()
{
    DesktopSession& s = *m_session;
    QVERIFY(!m_selected.isEmpty());
    // Filter (Ctrl+L) by a label selector that keeps three nodes; Plan > Drain the Filtered
    // Nodes drains exactly those.
    const QStringList kept { m_nodes.at(7), m_nodes.at(700), m_nodes.at(1700) };
    QVERIFY(s.key(QStringLiteral("ctrl+l")) && s.key(QStringLiteral("ctrl+a"))
        && s.type(QStringLiteral("kubernetes.io/hostname in (%1)").arg(kept.join(QLatin1Char(',')))) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY(planMenu(QStringLiteral("r"))); // Drain the Filte&red Nodes
    QJsonArray actions = planOf(4);
    QStringList drained = drainedNodes(actions);
    QCOMPARE(drained.size(), 4);
    QCOMPARE(drained.first(), m_selected);
    QCOMPARE(QSet<QString>(drained.begin() + 1, drained.end()), QSet<QString>(kept.begin(), kept.end()));

    QVERIFY2(undoTo(1), "undo did not take the filtered drain back in one step");
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    QCOMPARE(planOf(4).size(), 4);
    QVERIFY(undoTo(1));
    // The filter cleared: every node shown again.
    QVERIFY(s.key(QStringLiteral("ctrl+l")) && s.key(QStringLiteral("ctrl+a")) && s.key(QStringLiteral("BackSpace"))
        && s.key(QStringLiteral("Return")));
}

void TestE2ePlan::failDomainOfTheSelectedNode()
{
    DesktopSession& s = *m_session;
    QVERIFY(!m_selected.isEmpty());
    // Plan > Fail Domain… (Ctrl+Shift+G) for the selected node: its dialog lists the node's
    // domains innermost first; Return takes the innermost.
    QVERIFY(s.key(QStringLiteral("ctrl+shift+g")));
    const quint32 dialog = s.waitForWindow(QStringLiteral("^Fail Domain$"));
    QVERIFY2(dialog, qPrintable(s.error()));
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }));
    QVERIFY(s.key(QStringLiteral("Return")));
    QVERIFY2(s.waitForNoWindow(QStringLiteral("^Fail Domain$")), qPrintable(s.error()));
    QJsonArray actions = planOf(2);
    QCOMPARE(actions.size(), 2);
    const QJsonObject fail = actions.at(1).toObject();
    QCOMPARE(fail.value(QStringLiteral("type")).toString(), QStringLiteral("fail-domain"));
    QVERIFY2(!fail.value(QStringLiteral("domain")).toString().isEmpty(), "a fail-domain without its domain");

    QVERIFY2(undoTo(1), "undo did not take the failed domain back");
    QVERIFY(s.key(QStringLiteral("ctrl+shift+z")));
    actions = planOf(2);
    QCOMPARE(actions.size(), 2);
    QCOMPARE(actions.at(1).toObject().value(QStringLiteral("domain")).toString(), fail.value(QStringLiteral("domain")).toString());
    // Ends saved: the quit asks nothing.
}

QTEST_GUILESS_MAIN(TestE2ePlan)
#include "tst_e2e_plan.moc"
