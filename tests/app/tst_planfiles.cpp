// SPDX-License-Identifier: Apache-2.0
// File > Save Plan, Export Plan as CSV and Export Plan as kubectl Script in the window,
// under xvfb-run: each menu action is triggered, its save dialog answered with a path, and the
// file written is read back: the plan JSON through the plan file reader (the same actions, and
// re-evaluated against the shown state each holds as it did in the window), the CSV's rows, the script's
// node list and the state it names (and bash can parse it).

#include "common/tmpfsmount.h"
#include "planwindowfixture.h"

#include "app/controllers/importcontroller.h"
#include "app/window/windowstatusbar.h"
#include "app/startup/surfaceformat.h"
#include "importers/plan/planfile.h"
#include "model/scheduling/filters.h"

#include "common/guitestmain.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QUndoStack>

#include <sys/stat.h>

using namespace fleet;
using namespace planwindow;

class TestPlanFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void saveAndExportThroughTheMenu();
    void saveKeepsPreviousFileOnFullDisk();
    void saveRefusesNonRegularAndInputTargets();

private:
    /// Triggers File menu action `name`, answering its save dialog with `path`; false when the
    /// action is missing or disabled, or no file dialog showed.
    bool saveThrough(const QString& name, const QString& path);
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanFiles::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
}

void TestPlanFiles::cleanupTestCase() { m_window.reset(); }

bool TestPlanFiles::saveThrough(const QString& name, const QString& path)
{
    QAction* action = m_window->findChild<QAction*>(name);
    if (!action || !action->isEnabled())
        return false;
    bool answered = false;
    whenShown([&](QWidget* w) {
        auto* dialog = qobject_cast<QFileDialog*>(w);
        if (!dialog)
            return;
        answered = true;
        dialog->selectFile(path);
        // The name typed, as a person types it: selectFile() fills the name box only once the
        // dialog's folder model has read the folder, and an accept() before that took the
        // dialog's default name ("plan.json" saved in place of the path asked for).
        if (auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
            edit->setText(path);
        static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept(), through the public QDialog slot
    });
    action->trigger();
    return answered && QFile::exists(path);
}

namespace {
QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

void TestPlanFiles::saveAndExportThroughTheMenu()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    const model::ClusterStore& store = engine->state().store();
    QAction* save = m_window->findChild<QAction*>(QStringLiteral("actionSavePlan"));
    QVERIFY(save);
    QVERIFY(!save->isEnabled()); // nothing to save yet

    // A plan: one move (a feasible one, found by the filters), then one drain.
    model::PodId pod;
    model::NodeId to;
    QVERIFY(findFeasibleMove(engine->state(), pod, to));
    QVERIFY(plan->movePod(pod, to, false));
    model::NodeId drained;
    for (std::uint32_t i = 0; i < store.nodeCount() && !drained.isValid(); ++i)
        if (model::NodeId(i) != to && model::NodeId(i) != store.podNode(pod) && !store.nodePods(model::NodeId(i)).empty())
            drained = model::NodeId(i);
    QVERIFY(plan->drainNodes({ drained }));
    QCOMPARE(engine->applied().size(), std::size_t(2));
    QVERIFY(save->isEnabled());

    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("plan.json")), csv = dir.filePath(QStringLiteral("plan.csv")),
                  script = dir.filePath(QStringLiteral("plan.sh"));
    // Each write says so in the status bar, with the file and the plan's size.
    auto* status = m_window->findChild<app::WindowStatusBar*>();
    QVERIFY(status);
    QVERIFY(saveThrough(QStringLiteral("actionSavePlan"), json));
    QCOMPARE(status->planStatusText(), QStringLiteral("Saved plan to %1 (2 actions).").arg(QFileInfo(json).absoluteFilePath()));
    QVERIFY(saveThrough(QStringLiteral("actionExportPlanCsv"), csv));
    QCOMPARE(status->planStatusText(), QStringLiteral("Exported the plan as CSV to %1 (2 actions).").arg(QFileInfo(csv).absoluteFilePath()));
    QVERIFY(saveThrough(QStringLiteral("actionExportPlanScript"), script));
    QCOMPARE(status->planStatusText(),
        QStringLiteral("Exported the plan as a kubectl script to %1 (2 actions).").arg(QFileInfo(script).absoluteFilePath()));

    // The plan file: the same actions, its source the simulated cluster; every action holds again.
    const importers::PlanDocument doc = importers::readPlanFile(json.toStdString());
    QCOMPARE(doc.actions.size(), std::size_t(2));
    QCOMPARE(doc.actions[0], engine->applied()[0].action);
    QCOMPARE(doc.actions[1], engine->applied()[1].action);
    QCOMPARE(doc.actions[0].pod.uid, std::string(store.podUid(pod)));
    QVERIFY(!doc.source.simulated.empty());
    const importers::PlanEvaluation again = importers::evaluatePlan(store, *m_window->cluster()->topology, doc);
    QCOMPARE(again.actions.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i)
        QCOMPARE(again.actions[i].holds, engine->applied()[i].holds);
    QCOMPARE(again.after.nodes, engine->state().totals().nodes);
    QCOMPARE(again.after.podsPlaced, engine->state().totals().podsPlaced);
    QCOMPARE(again.after.nodesEmpty, engine->state().totals().nodesEmpty);

    // The CSV: its header, and the move's row.
    const QByteArray rows = readAll(csv);
    QVERIFY2(rows.startsWith("action,type,namespace,pod,from,to,holds,reasons\r\n"), rows.constData());
    const QByteArray moveRow = "0,move-pod," + QByteArray(store.podNamespace(pod).data(), qsizetype(store.podNamespace(pod).size())) + ","
        + QByteArray(store.podName(pod).data(), qsizetype(store.podName(pod).size())) + ",";
    QVERIFY2(rows.contains(moveRow), rows.constData());
    QVERIFY(rows.contains("1,drain-node,"));

    // The script: the drained node listed for its batches, the state it was made on named (a
    // simulation: no API server, so it asks for --server when run), executable, parsable.
    const QByteArray sh = readAll(script);
    const QByteArray node(store.nodeName(drained).data(), qsizetype(store.nodeName(drained).size()));
    QVERIFY(sh.startsWith("#!/usr/bin/env bash\n"));
    QVERIFY2(sh.contains("\n    # #2 drain " + node + "\n") && sh.contains("\n    " + node + "\n"), sh.constData());
    QVERIFY2(sh.contains("# Made on: simulated cluster " + QByteArray::fromStdString(doc.source.simulated) + "\n"), sh.constData());
    QVERIFY(sh.contains("\nreadonly plan_server=''\n"));
    QVERIFY(QFile::permissions(script) & QFileDevice::ExeOwner);
    QProcess bash;
    bash.start(QStringLiteral("bash"), { QStringLiteral("-n"), script });
    QVERIFY(bash.waitForFinished(10'000));
    QCOMPARE(bash.exitCode(), 0);

    m_window->undoStack()->undo();
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

// The window's Save Plan and exports write through the same writer as the commands
// (importers/output/outputfile.h): on a full disk each says "disk full" and keeps the old file.
void TestPlanFiles::saveKeepsPreviousFileOnFullDisk()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    model::PodId pod;
    model::NodeId to;
    QVERIFY(findFeasibleMove(engine->state(), pod, to));
    QVERIFY(plan->movePod(pod, to, false));
    fleet::tests::TmpfsMount disk;
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QByteArray old = QByteArray(3000, 'o');
    const QStringList names { QStringLiteral("plan.json"), QStringLiteral("plan.csv"), QStringLiteral("plan.sh") };
    for (const QString& name : names) {
        QFile f(disk.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(old) == old.size());
    }
    const QString filled = disk.fill(0);
    QVERIFY2(filled.isEmpty(), qPrintable(filled));
    const QString errors[] = { plan->savePlan(disk.filePath(names[0]), m_window->planSource()),
        plan->exportPlan(disk.filePath(names[1]), false, m_window->planSource()),
        plan->exportPlan(disk.filePath(names[2]), true, m_window->planSource()) };
    for (int i = 0; i < 3; ++i) {
        QVERIFY2(errors[i].contains(QStringLiteral("disk full (No space left on device)")), qPrintable(errors[i]));
        QCOMPARE(readAll(disk.filePath(names[i])), old);
    }
    QStringList left = disk.entries();
    left.sort();
    QCOMPARE(left, QStringList({ QStringLiteral("plan.csv"), QStringLiteral("plan.json"), QStringLiteral("plan.sh") }));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

// A FIFO or a folder is refused and stays; so is a file the cluster was opened from.
void TestPlanFiles::saveRefusesNonRegularAndInputTargets()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    model::PodId pod;
    model::NodeId to;
    QVERIFY(findFeasibleMove(engine->state(), pod, to));
    QVERIFY(plan->movePod(pod, to, false));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("plan.json"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0644) == 0);
    const QString error = plan->savePlan(fifo, m_window->planSource());
    QVERIFY2(error.contains(QStringLiteral("a FIFO (named pipe), not a regular file")), qPrintable(error));
    const QString scriptError = plan->exportPlan(dir.path(), true, m_window->planSource());
    QVERIFY2(scriptError.contains(QStringLiteral("a folder, not a regular file")), qPrintable(scriptError));
    struct stat st { };
    QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    // A plan whose source is a file: saving over that file is refused.
    const QString cluster = dir.filePath(QStringLiteral("nodes.json"));
    {
        QFile f(cluster);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"kind\": \"NodeList\", \"items\": []}\n") > 0);
    }
    importers::PlanSource source;
    source.files.push_back({ cluster.toStdString(), std::string(64, '0') });
    const QString inputError = plan->savePlan(cluster, source);
    QVERIFY2(inputError.contains(QStringLiteral("same file as the input")), qPrintable(inputError));
    QCOMPARE(readAll(cluster), QByteArray("{\"kind\": \"NodeList\", \"items\": []}\n"));
    // A .fleet document (a saved cluster with its plans) is never replaced by a plan or an
    // export: the window's Save Plan and Export go through the writer's target check.
    const QString document = dir.filePath(QStringLiteral("keep.fleet"));
    QByteArray header(100, '\0');
    header.replace(0, 16, QByteArray("SQLite format 3", 16));
    header.replace(68, 4, QByteArray("FSCP"));
    {
        QFile f(document);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(header) == header.size());
    }
    const QString documentError = plan->savePlan(document, m_window->planSource());
    QVERIFY2(documentError.contains(QStringLiteral("it is a Fleetscope document")), qPrintable(documentError));
    const QString documentExportError = plan->exportPlan(document, false, m_window->planSource());
    QVERIFY2(documentExportError.contains(QStringLiteral("it is a Fleetscope document")), qPrintable(documentExportError));
    QCOMPARE(readAll(document), header);
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

FLEET_GUI_TEST_MAIN(TestPlanFiles, fleet::app::setDefaultSurfaceFormat)

#include "tst_planfiles.moc"
