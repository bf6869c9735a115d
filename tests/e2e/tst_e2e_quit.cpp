// SPDX-License-Identifier: Apache-2.0
// Quitting with a plan that is not saved, as a person does it (desktopsession.h: a private Xvfb,
// openbox, real X input through xdotool): the real fleetscope process on a small simulated
// cluster; Plan > Consolidate from the keyboard (Alt+P, C) makes a plan; Ctrl+Q asks Save /
// Discard / Cancel in a window titled "Unsaved Plan". Escape (Cancel) keeps it running; Alt+D
// (Discard) quits with exit code 0; Alt+S (Save) asks for a file, typed into the file dialog,
// then quits with the plan written there.

#include "e2e/desktopsession.h"

#include "importers/plan/planfile.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
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

} // namespace

class TestE2eQuit : public QObject {
    Q_OBJECT
private slots:
    void cancelKeepsRunningDiscardQuits();
    void saveWritesThePlanThenQuits();
    void simulatedClusterWithAPlanFile();
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

QTEST_GUILESS_MAIN(TestE2eQuit)
#include "tst_e2e_quit.moc"
