// SPDX-License-Identifier: Apache-2.0
// Quitting with a plan that is not saved, as a person does it (desktopsession.h: a private Xvfb,
// openbox, real X input through xdotool): the real fleetscope process on a small simulated
// cluster; Plan > Consolidate from the keyboard (Alt+P, C) makes a plan; Ctrl+Q asks Save /
// Discard / Cancel in a window titled "Unsaved Plan". Escape (Cancel) keeps it running; Alt+D
// (Discard) quits with exit code 0; Alt+S (Save) asks for a file, typed into the file dialog,
// then quits with the plan written there. Undone steps that Redo could bring back and that were
// never saved: after a drain and its undo the plan is at its saved state (the title without its
// '*'), yet Ctrl+Q asks Discard / Cancel in a window titled "Unsaved Undone Steps"; Escape (Cancel)
// keeps the window, and Redo (Ctrl+Shift+Z) still brings the drain back; Alt+D (Discard) quits.

#include "e2e/desktopsession.h"

#include "importers/plan/planfile.h"

#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace fleet;
using namespace fleet::e2e;

namespace {

const QStringList kSource { QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("--seed"), QStringLiteral("3") };
const QSize kWindow(1280, 860);

/// Activates the window titled `title` (a regular expression) once it shows and presses `keys`.
bool answer(DesktopSession& s, const QString& title, const QString& keys)
{
    const quint32 box = s.waitForWindow(title);
    return box && s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(box) }) && s.key(keys);
}

/// Plan > Consolidate by its mnemonics; until the what-if is ready (it is built on a worker
/// after the window shows) the keys do nothing, so they are sent again until the result window
/// shows; then Escape closes it. False (error() says why) when it never showed.
bool consolidate(DesktopSession& s)
{
    QElapsedTimer clock;
    clock.start();
    quint32 result = 0;
    while (!result && clock.elapsed() < 60000) {
        if (!s.key(QStringLiteral("alt+p")) || !s.key(QStringLiteral("c")))
            return false;
        result = s.waitForWindow(QStringLiteral("^Consolidation$"), 6000);
    }
    return result && answer(s, QStringLiteral("^Consolidation$"), QStringLiteral("Escape"))
        && s.waitForNoWindow(QStringLiteral("^Consolidation$"));
}

/// The desktop, the program on kSource, and a plan made with the keyboard.
bool startWithPlan(DesktopSession& s)
{
    return s.startDesktop(1400, 1000) && s.startApp(kSource, kWindow) && consolidate(s);
}

/// The name of a node of kSource, from `fleetscope summary`.
QString aNodeName()
{
    QProcess p;
    p.start(DesktopSession::executable(), QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"),
                                              QStringLiteral("--only"), QStringLiteral("nodes") } + kSource);
    if (!p.waitForFinished(120000))
        return {};
    const QJsonArray nodes = QJsonDocument::fromJson(p.readAllStandardOutput()).object().value(QStringLiteral("nodes")).toArray();
    return nodes.size() > 7 ? nodes.at(7).toObject().value(QStringLiteral("name")).toString() : QString();
}

/// Whether the window's title marks the document modified ("simulated ...* — Fleetscope").
bool titleModified(DesktopSession& s)
{
    return s.windowTitle().contains(QStringLiteral("* \u2014 Fleetscope"));
}

/// Finds `node` (Ctrl+F, its name, Return) and drains it (Plan > Drain Selected Node by its
/// mnemonics), until the title says the plan changed: before the what-if is ready (built on a
/// worker after the window shows) the drain does nothing.
bool drain(DesktopSession& s, const QString& node)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        if (!s.key(QStringLiteral("ctrl+f")) || !s.key(QStringLiteral("ctrl+a")) || !s.type(node) || !s.key(QStringLiteral("Return")) || !s.waitForStillScreen())
            return false;
        if (!s.key(QStringLiteral("alt+p")) || !s.key(QStringLiteral("d")) || !s.key(QStringLiteral("Return")))
            return false;
        if (waitUntil([&] { return titleModified(s); }, 5000))
            return true;
    }
    return false;
}

/// The desktop, the program on kSource, a drain of one node, then Edit > Undo of it (by its
/// mnemonics: the focus is in the search field, whose own Ctrl+Z undoes typing): the plan empty
/// and at its clean state, the drain on the undo stack for Redo.
bool startWithAnUndoneDrain(DesktopSession& s, const QString& node)
{
    return s.startDesktop(1400, 1000) && s.startApp(kSource, kWindow) && drain(s, node) && s.key(QStringLiteral("alt+e"))
        && s.key(QStringLiteral("u")) && waitUntil([&] { return !titleModified(s); }, 10000);
}

} // namespace

class TestE2eQuit : public QObject {
    Q_OBJECT
private slots:
    void cancelKeepsRunningDiscardQuits();
    void saveWritesThePlanThenQuits();
    void simulatedClusterWithAPlanFile();
    void aMaximizedLayoutIsRestored();
    void aLayoutThatEndedAStartIsDropped();
    void undoneStepsAskThenCancelKeepsRedo();
    void undoneStepsDiscardQuits();
};

void TestE2eQuit::cancelKeepsRunningDiscardQuits()
{
    DesktopSession s;
    QVERIFY2(startWithPlan(s), qPrintable(s.error()));

    QVERIFY2(s.key(QStringLiteral("ctrl+q")), qPrintable(s.error()));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Plan$"), QStringLiteral("Escape")),
        qPrintable(QStringLiteral("Ctrl+Q with a plan not saved asks: %1").arg(s.error())));
    QVERIFY2(s.waitForNoWindow(QStringLiteral("^Unsaved Plan$")), qPrintable(s.error()));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
    QVERIFY2(s.waitForWindow(QStringLiteral("simulated.*Fleetscope"), fleet::e2e::kAnswerTimeoutMs), "the window stays after Cancel");

    QVERIFY2(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }), qPrintable(s.error()));
    QVERIFY2(s.key(QStringLiteral("ctrl+q")), qPrintable(s.error()));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Plan$"), QStringLiteral("alt+d")), qPrintable(s.error()));
    QVERIFY2(s.waitForAppExit(30000), qPrintable(QStringLiteral("Discard quits: %1").arg(s.appExitText())));
}

void TestE2eQuit::saveWritesThePlanThenQuits()
{
    DesktopSession s;
    QVERIFY2(startWithPlan(s), qPrintable(s.error()));
    const QString path = s.path(QStringLiteral("quit-plan.json"));

    QVERIFY2(s.key(QStringLiteral("ctrl+q")), qPrintable(s.error()));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Plan$"), QStringLiteral("alt+s")), qPrintable(s.error()));
    // The file dialog's name field takes the path as a person types it.
    QVERIFY2(answer(s, QStringLiteral("^Save Plan$"), QStringLiteral("ctrl+a")),
        qPrintable(QStringLiteral("Save asks for a file: %1").arg(s.error())));
    QVERIFY2(s.type(path) && s.key(QStringLiteral("Return")), qPrintable(s.error()));
    QVERIFY2(s.waitForAppExit(30000), qPrintable(QStringLiteral("quits once the plan is saved: %1").arg(s.appExitText())));
    QVERIFY(QFileInfo::exists(path));
    const importers::PlanDocument plan = importers::readPlanFile(path.toStdString());
    QVERIFY(!plan.actions.empty());
    QCOMPARE(plan.source.simulated, std::string("nodes=200 seed=3 regions=1"));
}

void TestE2eQuit::undoneStepsAskThenCancelKeepsRedo()
{
    DesktopSession s;
    const QString node = aNodeName();
    QVERIFY(!node.isEmpty());
    QVERIFY2(startWithAnUndoneDrain(s, node), qPrintable(s.error() + QLatin1Char('\n') + s.windowTitle()));

    QVERIFY2(s.key(QStringLiteral("ctrl+q")), qPrintable(s.error()));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Undone Steps$"), QStringLiteral("Escape")),
        qPrintable(QStringLiteral("Ctrl+Q with an undone drain never saved asks: %1").arg(s.error())));
    QVERIFY2(s.waitForNoWindow(QStringLiteral("^Unsaved Undone Steps$")), qPrintable(s.error()));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));

    // Redo brings the drain back: the title marks it, and the plan saved holds it. Cancel gave
    // the map the focus back, where Ctrl+Shift+Z is the plan's Redo.
    QVERIFY2(s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }), qPrintable(s.error()));
    QVERIFY2(s.key(QStringLiteral("ctrl+shift+z")), qPrintable(s.error()));
    QVERIFY2(waitUntil([&] { return titleModified(s); }, 10000), qPrintable(s.windowTitle()));
    const QString path = s.path(QStringLiteral("redone.json"));
    QVERIFY2(s.savePlanAs(path), qPrintable(s.error()));
    const QJsonArray actions = DesktopSession::planActions(path);
    QCOMPARE(actions.size(), 1);
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("drain-node"));
    QCOMPARE(actions.at(0).toObject().value(QStringLiteral("node")).toString(), node);
    // Saved: nothing is left to ask about.
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

void TestE2eQuit::undoneStepsDiscardQuits()
{
    DesktopSession s;
    const QString node = aNodeName();
    QVERIFY(!node.isEmpty());
    QVERIFY2(startWithAnUndoneDrain(s, node), qPrintable(s.error() + QLatin1Char('\n') + s.windowTitle()));
    QVERIFY2(s.key(QStringLiteral("ctrl+q")), qPrintable(s.error()));
    QVERIFY2(answer(s, QStringLiteral("^Unsaved Undone Steps$"), QStringLiteral("alt+d")), qPrintable(s.error()));
    QVERIFY2(s.waitForAppExit(30000), qPrintable(QStringLiteral("Discard quits: %1").arg(s.appExitText())));
}

// `fleetscope --simulate N plan.json`: a plan saved on a simulated cluster is opened on it from
// the command line, as File > Open recognises a plan file among the files it is given. Checked
// by saving the shown plan (Ctrl+Alt+S) and reading its actions back.
void TestE2eQuit::simulatedClusterWithAPlanFile()
{
    DesktopSession s;
    const QString planPath = s.path(QStringLiteral("cli-plan.json"));
    QProcess cli;
    cli.start(DesktopSession::executable(),
        QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + kSource + QStringList { QStringLiteral("-o"), planPath });
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonArray expected = DesktopSession::planActions(planPath);
    QVERIFY(!expected.isEmpty());
    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp(kSource + QStringList { planPath }, kWindow), qPrintable(s.error() + QLatin1Char('\n') + s.appOutput()));
    // The plan opens once the what-if is ready: until then Save Plan has nothing to save.
    const QString saved = s.path(QStringLiteral("shown-plan.json"));
    QElapsedTimer clock;
    clock.start();
    bool written = false;
    while (!written && clock.elapsed() < 90000)
        written = !s.planIsEmpty() && s.savePlanAs(saved);
    QVERIFY2(written, qPrintable(s.error()));
    QCOMPARE(DesktopSession::planActions(saved), expected);
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

namespace {

/// Puts the settings file `fixture` (tests/data/window) into the session's private HOME, as
/// the program's QSettings reads it, with `extra` appended.
bool installSettings(DesktopSession& s, const QString& fixture, const QByteArray& extra = {})
{
    const QString folder = s.home() + QStringLiteral("/.config/Fleetscope");
    QFile in(QStringLiteral(FLEET_TEST_DATA_DIR "/window/") + fixture);
    QFile out(folder + QStringLiteral("/fleetscope.conf"));
    return QDir().mkpath(folder) && in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly)
        && out.write(in.readAll() + extra) > 0 && out.flush();
}

QByteArray settingsText(DesktopSession& s)
{
    QFile f(s.home() + QStringLiteral("/.config/Fleetscope/fleetscope.conf"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

// The layout a maximized window with stacked docks and the Plan dock open saved at its close:
// the next start shows it (Qt 6.4 crashed at the first show when the geometry went first), and
// a clean quit saves it again without the mark of a layout being applied.
void TestE2eQuit::aMaximizedLayoutIsRestored()
{
    DesktopSession s;
    QVERIFY2(s.startDesktop(1600, 1000), qPrintable(s.error()));
    QVERIFY(installSettings(s, QStringLiteral("maximized-stacked-docks.conf")));
    QVERIFY2(s.startApp(kSource, QSize()), qPrintable(s.error() + QLatin1Char('\n') + s.appOutput()));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
    QCOMPARE(s.windowRect().width(), 1600); // maximized, as it was left
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
    const QByteArray saved = settingsText(s);
    QVERIFY2(saved.contains("state=") && saved.contains("geometry="), saved.constData());
    QVERIFY2(!saved.contains("restoring"), saved.constData());
}

// A start that ended while the saved layout was applied (the mark is still in the file) must
// not end every start after it: the layout is dropped for the default one, and the program
// runs and says so.
void TestE2eQuit::aLayoutThatEndedAStartIsDropped()
{
    DesktopSession s;
    QVERIFY2(s.startDesktop(1600, 1000), qPrintable(s.error()));
    QVERIFY(installSettings(s, QStringLiteral("maximized-stacked-docks.conf"), QByteArrayLiteral("restoring=true\n")));
    QVERIFY2(s.startApp(kSource, QSize()), qPrintable(s.error() + QLatin1Char('\n') + s.appOutput()));
    QVERIFY2(s.appRunning(), qPrintable(s.appExitText()));
    QVERIFY(!settingsText(s).contains("restoring"));
    QVERIFY2(s.appOutput().contains(QStringLiteral("saved window layout was dropped")), qPrintable(s.appOutput()));
    QVERIFY2(s.quitApp(), qPrintable(s.error()));
}

QTEST_GUILESS_MAIN(TestE2eQuit)
#include "tst_e2e_quit.moc"
