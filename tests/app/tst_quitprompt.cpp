// SPDX-License-Identifier: Apache-2.0
// Quitting with a plan that is not saved, as a person does it, under xvfb-run with a
// window manager (openbox) and real X input (xdotool): the real fleetscope process on a small
// simulated cluster; Plan > Consolidate from the keyboard (Alt+P, C) makes a plan; Ctrl+Q asks
// Save / Discard / Cancel in a window titled "Unsaved Plan". Escape (Cancel) keeps it running;
// Alt+D (Discard) quits with exit code 0; Alt+S (Save) asks for a file, typed into the file dialog,
// then quits with the plan written there.

#include "importers/plan/planfile.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fleet;

namespace {

/// Runs a tool to its end; its standard output, trimmed, or a null string when it failed.
QString run(const QString& program, const QStringList& args, int timeoutMs = 20000)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    return out.isNull() ? QStringLiteral("") : out;
}

QString xdotool(const QStringList& args, int timeoutMs = 20000)
{
    return run(QStringLiteral("xdotool"), args, timeoutMs);
}

/// The first window whose name matches `regex`, polled until `timeoutMs`; "" when none showed.
QString waitForWindow(const QString& regex, int timeoutMs = 60000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const QString ids = xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), regex }, 5000);
        if (!ids.isEmpty())
            return ids.split(QLatin1Char('\n')).constFirst();
        QTest::qWait(100);
    }
    return {};
}

/// True once no visible window's name matches `regex` (polled until `timeoutMs`).
bool waitForNoWindow(const QString& regex, int timeoutMs = 20000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QProcess p;
        p.start(QStringLiteral("xdotool"), { QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), regex });
        p.waitForFinished(5000);
        if (p.exitCode() != 0 && p.readAllStandardOutput().trimmed().isEmpty())
            return true;
        QTest::qWait(100);
    }
    return false;
}

/// Keys to the focused window, after `window` was activated.
bool keys(const QString& window, const QStringList& keySequence)
{
    if (xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), window }).isNull())
        return false;
    QStringList args { QStringLiteral("key"), QStringLiteral("--clearmodifiers") };
    args += keySequence;
    return !xdotool(args).isNull();
}

} // namespace

class TestQuitPrompt : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cancelKeepsRunningDiscardQuits();
    void saveWritesThePlanThenQuits();

private:
    /// Starts fleetscope on the simulated cluster and makes a plan with the keyboard
    /// (Plan > Consolidate); the main window's id, or "" on failure.
    QString startWithPlan(QProcess& fleetscope);
    QProcess m_windowManager;
};

void TestQuitPrompt::initTestCase()
{
    for (const char* tool : { "xdotool", "openbox", "xprop" })
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            QFAIL(qPrintable(QStringLiteral("%1 is needed (installer/install-deps.sh)").arg(QString::fromLatin1(tool))));
    QVERIFY2(qEnvironmentVariableIsSet("DISPLAY"), "runs under xvfb-run");
    m_windowManager.start(QStringLiteral("openbox"), { QStringLiteral("--sm-disable") });
    QVERIFY(m_windowManager.waitForStarted());
    // The window manager is up once the root window names it.
    const QDeadlineTimer deadline(20000);
    bool up = false;
    while (!up && !deadline.hasExpired()) {
        up = run(QStringLiteral("xprop"), { QStringLiteral("-root"), QStringLiteral("_NET_SUPPORTING_WM_CHECK") }).contains(QStringLiteral("window id"));
        if (!up)
            QTest::qWait(50);
    }
    QVERIFY2(up, "openbox did not start");
}

void TestQuitPrompt::cleanupTestCase()
{
    m_windowManager.terminate();
    m_windowManager.waitForFinished(5000);
}

QString TestQuitPrompt::startWithPlan(QProcess& fleetscope)
{
    fleetscope.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    fleetscope.start(QStringLiteral(FLEETSCOPE_EXECUTABLE), { QStringLiteral("--simulate"), QStringLiteral("200"), QStringLiteral("--seed"), QStringLiteral("3") });
    if (!fleetscope.waitForStarted())
        return {};
    // The title names the cluster once it is shown.
    const QString main = waitForWindow(QStringLiteral("simulated.*Fleetscope"));
    if (main.isEmpty())
        return {};
    // Plan > Consolidate by its mnemonics; until the what-if is ready it does nothing, so the
    // keys are sent again until the result window shows.
    QString result;
    for (int attempt = 0; attempt < 10 && result.isEmpty(); ++attempt) {
        if (!keys(main, { QStringLiteral("alt+p"), QStringLiteral("c") }))
            return {};
        result = waitForWindow(QStringLiteral("^Consolidation$"), 6000);
    }
    if (result.isEmpty() || !keys(result, { QStringLiteral("Escape") }) || !waitForNoWindow(QStringLiteral("^Consolidation$")))
        return {};
    return main;
}

void TestQuitPrompt::cancelKeepsRunningDiscardQuits()
{
    QProcess fleetscope;
    const QString main = startWithPlan(fleetscope);
    QVERIFY2(!main.isEmpty(), "fleetscope showed its window and made a plan");

    QVERIFY(keys(main, { QStringLiteral("ctrl+q") }));
    QString box = waitForWindow(QStringLiteral("^Unsaved Plan$"));
    QVERIFY2(!box.isEmpty(), "Ctrl+Q with a plan not saved asks");
    QVERIFY(keys(box, { QStringLiteral("Escape") }));
    QVERIFY(waitForNoWindow(QStringLiteral("^Unsaved Plan$")));
    QCOMPARE(fleetscope.state(), QProcess::Running);
    QVERIFY2(!waitForWindow(QStringLiteral("simulated.*Fleetscope"), 5000).isEmpty(), "the window stays after Cancel");

    QVERIFY(keys(main, { QStringLiteral("ctrl+q") }));
    box = waitForWindow(QStringLiteral("^Unsaved Plan$"));
    QVERIFY(!box.isEmpty());
    QVERIFY(keys(box, { QStringLiteral("alt+d") }));
    QVERIFY2(fleetscope.waitForFinished(30000), "Discard quits");
    QCOMPARE(fleetscope.exitStatus(), QProcess::NormalExit);
    QCOMPARE(fleetscope.exitCode(), 0);
}

void TestQuitPrompt::saveWritesThePlanThenQuits()
{
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(QStringLiteral("quit-plan.json"));
    QProcess fleetscope;
    const QString main = startWithPlan(fleetscope);
    QVERIFY2(!main.isEmpty(), "fleetscope showed its window and made a plan");

    QVERIFY(keys(main, { QStringLiteral("ctrl+q") }));
    const QString box = waitForWindow(QStringLiteral("^Unsaved Plan$"));
    QVERIFY(!box.isEmpty());
    QVERIFY(keys(box, { QStringLiteral("alt+s") }));
    const QString dialog = waitForWindow(QStringLiteral("^Save Plan$"));
    QVERIFY2(!dialog.isEmpty(), "Save asks for a file");
    QVERIFY(keys(dialog, { QStringLiteral("ctrl+a") }));
    QVERIFY(!xdotool({ QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("20"), path }).isNull());
    QVERIFY(!xdotool({ QStringLiteral("key"), QStringLiteral("Return") }).isNull());
    QVERIFY2(fleetscope.waitForFinished(30000), "quits once the plan is saved");
    QCOMPARE(fleetscope.exitCode(), 0);
    QVERIFY(QFileInfo::exists(path));
    const importers::PlanDocument plan = importers::readPlanFile(path.toStdString());
    QVERIFY(!plan.actions.empty());
    QCOMPARE(plan.source.simulated, std::string("nodes=200 seed=3 regions=1"));
}

QTEST_GUILESS_MAIN(TestQuitPrompt)
#include "tst_quitprompt.moc"
