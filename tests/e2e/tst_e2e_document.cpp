// SPDX-License-Identifier: Apache-2.0
// The .fleet document in the real window, driven as a person does (desktopsession.h: Xvfb,
// openbox, xdotool), on a 300-node simulated fleet; each function starts the program afresh:
// - a plan, the title's modified mark, Ctrl+S into the window's own Save Document dialog; the
//   saved file's `summary` equals the source's; the quit asks nothing; `fleetscope FILE.fleet`
//   opens it with its plan; an undo marks the title, Ctrl+Q asks "Unsaved Changes", Escape
//   keeps it running, Discard quits;
// - kill -9 after the autosave (FLEET_AUTOSAVE_MS shortens its minute): the next start asks
//   "Recover Plan", Recover shows the plan, and a clean quit leaves no autosave behind;
// - the Plans menu: rename, a new plan, a plan placed in it, the first one shown again; the
//   saved document holds both plans by name; a new empty plan then leaves it unmodified (no
//   mark, the quit asks nothing).

#include "e2e/desktopsession.h"

#include "importers/document/fleetdocument.h"
#include "importers/plan/planfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace fleet::e2e;

namespace {

// Seed 2: Place Workload's defaults (8 pods of 8 cpu and 64Gi) fit on its one-region fleet; on
// seed 3's (before, four regions) no CPU node group has their room left.
const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("2") };
const QSize kWindow(1280, 860);

QByteArray runFleetscope(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(DesktopSession::executable(), args);
    p.waitForFinished(120000);
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
}

std::size_t actionsIn(const fleet::importers::DocumentPlan& plan)
{
    return plan.planJson.empty() ? 0 : fleet::importers::parsePlanText(plan.planJson, plan.name).actions.size();
}

/// The autosaved plans in the program's data folder.
QStringList autosaves(const DesktopSession& s)
{
    const QDir dir(s.home() + QStringLiteral("/.local/share/Fleetscope/fleetscope/autosave"));
    QStringList out;
    for (const QString& f : dir.entryList({ QStringLiteral("plan-*.json") }, QDir::Files))
        out << dir.filePath(f);
    return out;
}

} // namespace

class TestE2eDocument : public QObject {
    Q_OBJECT
private slots:
    void saveReopenAndQuitAsks();
    void killThenRestartOffersRecovery();
    void plansMenuRenameNewSwitch();

private:
    /// Plan > Consolidate by its mnemonics until the result shows (the what-if is built on a
    /// worker after the window shows), then Escape; the plan's actions as saved (Save Plan,
    /// which marks the plan saved), or with `count` false 1 without saving.
    int consolidate(DesktopSession& s, bool count = true);
    /// Saves the plan (File > Save Plan, Ctrl+Alt+S) until it has `count` actions (an open runs
    /// on a worker); the last count seen.
    int planActionsOnceThere(DesktopSession& s, int count, int timeoutMs = 30000);
    /// Ctrl+S (or Ctrl+Shift+S) into the Save Document dialog, typing `path`; true once the file exists.
    bool saveDocument(DesktopSession& s, const QString& path, const QString& keys = QStringLiteral("ctrl+s"));
    /// Activates the dialog titled `title` (a regular expression) and presses `keys`.
    bool answer(DesktopSession& s, const QString& title, const QString& keys);
    int m_saves = 0;
};

int TestE2eDocument::consolidate(DesktopSession& s, bool count)
{
    QElapsedTimer clock;
    clock.start();
    quint32 dialog = 0;
    // Each try waits long enough for a loaded machine: a result dialog that shows after the next
    // try's keys takes them.
    while (!dialog && clock.elapsed() < 120000) {
        if (!s.key(QStringLiteral("alt+p")) || !s.key(QStringLiteral("c")))
            return -1;
        dialog = s.waitForWindow(QStringLiteral("^Consolidation$"), 20000);
    }
    if (!dialog || !answer(s, QStringLiteral("^Consolidation$"), QStringLiteral("Escape"))
        || !s.waitForNoWindow(QStringLiteral("^Consolidation$")))
        return -1;
    if (!count)
        return 1;
    const QString path = s.path(QStringLiteral("consolidated-%1.json").arg(++m_saves));
    return s.savePlanAs(path) ? static_cast<int>(DesktopSession::planActions(path).size()) : -1;
}

int TestE2eDocument::planActionsOnceThere(DesktopSession& s, int count, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    int seen = -1;
    do {
        const QString path = s.path(QStringLiteral("plan-%1.json").arg(++m_saves));
        if (!s.planIsEmpty() && s.savePlanAs(path))
            seen = static_cast<int>(DesktopSession::planActions(path).size());
    } while (seen != count && s.appRunning() && clock.elapsed() < timeoutMs);
    return seen;
}

bool TestE2eDocument::answer(DesktopSession& s, const QString& title, const QString& keys)
{
    const quint32 box = s.waitForWindow(title);
    return box && s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(box) }) && s.key(keys);
}

bool TestE2eDocument::saveDocument(DesktopSession& s, const QString& path, const QString& keys)
{
    QFile::remove(path);
    if (!s.key(keys) || !answer(s, QStringLiteral("^Save Document$"), QStringLiteral("ctrl+a")) || !s.type(path)
        || !s.key(QStringLiteral("Return")))
        return false;
    return waitUntil([&] { return QFile::exists(path); }, 60000);
}

void TestE2eDocument::saveReopenAndQuitAsks()
{
    DesktopSession s;
    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp(kSource, kWindow), qPrintable(s.error()));
    QVERIFY2(!s.windowTitle().contains(QLatin1Char('*')), qPrintable(s.windowTitle()));
    QVERIFY2(consolidate(s, false) > 0, qPrintable(s.error()));
    QVERIFY2(waitUntil([&] { return s.windowTitle().endsWith(QStringLiteral("* \u2014 Fleetscope")); }, fleet::e2e::kAnswerTimeoutMs),
        qPrintable(QStringLiteral("a changed plan marks the title: %1").arg(s.windowTitle())));

    // Ctrl+S: no document yet, so Save asks where; the title then names the file, unmarked.
    const QString path = s.path(QStringLiteral("state.fleet"));
    QVERIFY2(saveDocument(s, path), qPrintable(s.error()));
    QVERIFY2(waitUntil([&] { return s.windowTitle() == QStringLiteral("state.fleet \u2014 Fleetscope"); }, fleet::e2e::kAnswerTimeoutMs), qPrintable(s.windowTitle()));
    const QByteArray saved = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), path });
    const QByteArray source = runFleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json") } + kSource);
    QVERIFY(!source.isEmpty());
    QVERIFY2(saved == source, "summary of the saved document equals summary of its source");
    const fleet::importers::FleetDocument doc = fleet::importers::openFleetDocument(path.toStdString());
    QCOMPARE(doc.plans.size(), std::size_t(1));
    const int actions = static_cast<int>(actionsIn(doc.plans[0]));
    QVERIFY(actions > 0);
    QVERIFY2(s.quitApp(), qPrintable(s.error() + QLatin1Char(' ') + s.appExitText())); // saved: no question

    // Opened from the command line: its plan is shown again.
    QVERIFY2(s.startApp({ path }, kWindow), qPrintable(s.error()));
    QCOMPARE(s.windowTitle(), QStringLiteral("state.fleet \u2014 Fleetscope"));
    QCOMPARE(planActionsOnceThere(s, actions), actions);
    // Showing the document's plan is no edit: Ctrl+Z has nothing to undo, the plan stays whole.
    QVERIFY(s.key(QStringLiteral("ctrl+z")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY2(s.windowTitle() == QStringLiteral("state.fleet \u2014 Fleetscope"), qPrintable(s.windowTitle()));
    QCOMPARE(planActionsOnceThere(s, actions), actions);
    // Plans > Duplicate Plan (Alt+N, D) changes the document.
    QVERIFY(s.key(QStringLiteral("alt+n")) && s.key(QStringLiteral("d")));
    QVERIFY2(waitUntil([&] { return s.windowTitle() == QStringLiteral("state.fleet* \u2014 Fleetscope"); }, fleet::e2e::kAnswerTimeoutMs), qPrintable(s.windowTitle()));
    QVERIFY(s.key(QStringLiteral("ctrl+q")));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Changes$"), QStringLiteral("Escape")), qPrintable(s.error()));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Unsaved Changes$")));
    QVERIFY2(s.appRunning(), "Cancel keeps the program running");
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }));
    QVERIFY(s.key(QStringLiteral("ctrl+q")));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Changes$"), QStringLiteral("alt+d")), qPrintable(s.error()));
    QVERIFY2(s.waitForAppExit(), qPrintable(s.error() + QLatin1Char(' ') + s.appExitText()));
    // Discarded: the file is as saved.
    QCOMPARE(actionsIn(fleet::importers::openFleetDocument(path.toStdString()).plans.at(0)), std::size_t(actions));
}

void TestE2eDocument::killThenRestartOffersRecovery()
{
    DesktopSession s;
    s.setAppEnvironment(QStringLiteral("FLEET_AUTOSAVE_MS"), QStringLiteral("500"));
    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp(kSource, kWindow), qPrintable(s.error()));
    // Not saved anywhere (a Save Plan would make the plan saved work, which the autosave no
    // longer holds): the consolidation is autosaved whole, as one step.
    QVERIFY2(consolidate(s, false) > 0, qPrintable(s.error()));
    int actions = 0;
    QVERIFY2(waitUntil(
                 [&] {
                     const QStringList files = autosaves(s);
                     actions = files.size() == 1 ? static_cast<int>(DesktopSession::planActions(files.front()).size()) : 0;
                     return actions > 0;
                 },
                 fleet::e2e::kAnswerTimeoutMs),
        "the plan is autosaved");
    const QString crashed = autosaves(s).front();
    QVERIFY(s.killApp());

    // The question comes once the what-if is ready, maybe before the window is placed: it is
    // answered first.
    QVERIFY2(s.startApp(kSource, kWindow, 60000,
                 [&] { return answer(s, QStringLiteral("^Recover Plan$"), QStringLiteral("alt+r")) && s.waitForNoWindow(QStringLiteral("^Recover Plan$")); }),
        qPrintable(s.error()));
    QCOMPARE(planActionsOnceThere(s, actions), actions);
    QVERIFY2(!QFile::exists(crashed), "the recovered autosave is removed");
    // The recovered plan is not saved anywhere yet: quitting asks; Discard quits cleanly and
    // leaves no autosave.
    QVERIFY(s.key(QStringLiteral("ctrl+q")));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Changes$"), QStringLiteral("alt+d")), qPrintable(s.error()));
    QVERIFY2(s.waitForAppExit(), qPrintable(s.error() + QLatin1Char(' ') + s.appExitText()));
    QCOMPARE(autosaves(s), QStringList());
}

void TestE2eDocument::plansMenuRenameNewSwitch()
{
    DesktopSession s;
    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp(kSource, kWindow), qPrintable(s.error()));
    const int actions = consolidate(s);
    QVERIFY2(actions > 0, qPrintable(s.error()));

    // Plans > Rename Plan… (Alt+N, R): the dialog's field holds the name; type over it.
    QVERIFY(s.key(QStringLiteral("alt+n")) && s.key(QStringLiteral("r")));
    QVERIFY2(answer(s, QStringLiteral("^Rename Plan$"), QStringLiteral("ctrl+a")), qPrintable(s.error()));
    QVERIFY(s.type(QStringLiteral("consolidation")) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Rename Plan$")));

    // Plans > New Plan (Alt+N, N): an empty plan is shown; Place Workload's defaults go into it.
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }));
    QVERIFY(s.key(QStringLiteral("alt+n")) && s.key(QStringLiteral("n")));
    QElapsedTimer clock;
    clock.start();
    int placed = 0;
    while (placed != 1 && clock.elapsed() < 120000) {
        QVERIFY(s.key(QStringLiteral("alt+p")) && s.key(QStringLiteral("p")));
        QVERIFY2(answer(s, QStringLiteral("^Place Workload$"), QStringLiteral("Return")), qPrintable(s.error()));
        QVERIFY(s.waitForStillScreen());
        QVERIFY(s.key(QStringLiteral("Escape")));
        QVERIFY(s.waitForNoWindow(QStringLiteral("^Place Workload$")));
        const QString path = s.path(QStringLiteral("placed-%1.json").arg(++m_saves));
        placed = !s.planIsEmpty() && s.savePlanAs(path) ? static_cast<int>(DesktopSession::planActions(path).size()) : 0;
    }
    QCOMPARE(placed, 1);

    // Plans > 1 consolidation: the first plan is shown again, all of it.
    QVERIFY(s.key(QStringLiteral("alt+n")) && s.key(QStringLiteral("1")));
    QCOMPARE(planActionsOnceThere(s, actions), actions);

    const QString path = s.path(QStringLiteral("plans.fleet"));
    QVERIFY2(saveDocument(s, path), qPrintable(s.error()));
    const fleet::importers::FleetDocument doc = fleet::importers::openFleetDocument(path.toStdString());
    QCOMPARE(doc.plans.size(), std::size_t(2));
    QCOMPARE(doc.plans[0].name, std::string("consolidation"));
    QCOMPARE(actionsIn(doc.plans[0]), std::size_t(actions));
    QCOMPARE(doc.plans[1].name, std::string("Plan 2"));
    QCOMPARE(actionsIn(doc.plans[1]), std::size_t(1));
    QVERIFY2(waitUntil([&] { return s.windowTitle() == QStringLiteral("plans.fleet \u2014 Fleetscope"); }, fleet::e2e::kAnswerTimeoutMs), qPrintable(s.windowTitle()));

    // Plans > New Plan on the saved document: an empty plan is not kept in the file, so the
    // title gets no modified mark and Ctrl+Q quits without asking.
    QVERIFY(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }));
    QVERIFY(s.key(QStringLiteral("alt+n")) && s.key(QStringLiteral("n")));
    QVERIFY(s.waitForStillScreen());
    QVERIFY2(s.windowTitle() == QStringLiteral("plans.fleet \u2014 Fleetscope"), qPrintable(s.windowTitle()));
    QVERIFY2(s.quitApp(), qPrintable(s.error() + QLatin1Char(' ') + s.appExitText()));
}

QTEST_GUILESS_MAIN(TestE2eDocument)
#include "tst_e2e_document.moc"
