// SPDX-License-Identifier: Apache-2.0
// File > Compare With in the real window, driven as a person does (desktopsession.h: Xvfb,
// openbox, xdotool): a .fleet document of a 300-node simulated fleet is opened, compared with
// another (a later state: the other seed's fleet) through the window's own file dialog (Alt+F,
// W, the path typed), then File > Export Changes (Alt+F, H) writes the Changes panel's rows as
// CSV and the diff as JSON. The panel's totals (nodes, pods, GPUs allocated, $/h then and now)
// and its node lists are `fleetscope diff --format json`'s for the same two documents, and the
// JSON is that command's output byte for byte. The GUI thread's longest stall during the
// comparison is measured (GuiStallProbe) and printed. Then `fleetscope A.fleet --compare
// B.fleet` on the plan fixtures (pods moved, a node removed, a pod deleted), checked the same way,
// and Metric > Difference to the Compared State recolours the map and back (pixels). Last, the
// map marks the nodes added and removed: the later state's new node boxed beside its zone, the
// removed node crossed (their colours counted on the screen). And File > Compare With Live
// Cluster with the fixtures' plan open: the later state is a live cluster (the fake API server
// that kubectl accepts, serving the plan fixtures' state after the plan), the kubeconfig typed
// into the window's dialog, and File > Export Plan Outcome writes what `fleetscope diff BEFORE
// --kubeconfig K --plan PLAN --format json` says of each action.

#include "e2e/desktopsession.h"

#include "common/fakekubeapiserver.h"
#include "common/kubeconfigfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace fleet::e2e;

namespace {

const QSize kWindow(1280, 860);

QByteArray run(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(DesktopSession::executable(), args);
    p.waitForFinished(120000);
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The map's pixels on the screen once the screen is still; null when it does not settle or
// shows no map.
QImage mapPixels(DesktopSession& s)
{
    if (!s.waitForStillScreen())
        return QImage();
    const QImage screen = s.grabScreen();
    const QRect area = s.mapArea(screen);
    return area.isValid() ? screen.copy(area) : QImage();
}

// One CSV line's fields (RFC 4180 quotes; the writer's formula guard "'" taken off).
QStringList csvFields(const QString& line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"'))
                field += c, ++i;
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    for (QString& f : fields)
        if (f.startsWith(QLatin1Char('\'')))
            f.remove(0, 1);
    return fields;
}

// "1,234" -> 1234, "$1,234.56/h" -> 1234.56, "-$0.25/h" -> -0.25, "+3" -> 3.
double number(QString text)
{
    text.remove(QLatin1Char(',')).remove(QLatin1Char('$')).remove(QStringLiteral("/h")).remove(QLatin1Char('+'));
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? v : std::nan("");
}

} // namespace

class TestE2eCompare : public QObject {
    Q_OBJECT
private slots:
    void compareWithAndExportChanges();
    void compareFromCommandLine();
    void marksAddedAndRemovedNodes();
    void planOutcomeAgainstTheLiveCluster();

private:
    bool answer(DesktopSession& s, const QString& title, const QString& keys);
    /// An export of the File menu (Alt+F, then `menuKey`: H Export Changes, U Export Plan
    /// Outcome), `path` typed into its file dialog (the window titled `title`, a regular
    /// expression); true once the file is written and the dialog closed. While the window has
    /// nothing to export yet ("Nothing to Export": the comparison still runs) it is asked again,
    /// for `nothingMs` at most (then false: the caller compares again); all in at most 60 s.
    bool exportFromFileMenu(DesktopSession& s, const QString& menuKey, const QString& title, const QString& path, qint64 nothingMs = 60000);
    /// The exported CSV (the panel's rows) and JSON checked against `fleetscope diff --format json`.
    void verifyExports(const QString& csv, const QString& json, const QByteArray& diffJson);
};

bool TestE2eCompare::answer(DesktopSession& s, const QString& title, const QString& keys)
{
    const quint32 box = s.waitForWindow(title);
    return box && s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(box) }) && s.key(keys);
}

bool TestE2eCompare::exportFromFileMenu(DesktopSession& s, const QString& menuKey, const QString& title, const QString& path, qint64 nothingMs)
{
    const QString nothing = QStringLiteral("^Nothing to Export$");
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        // The main window may not have the focus back yet after a file dialog (or a progress
        // dialog) closed: focus it first, or the keys reach no menu.
        (void)s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) });
        if (!s.key(QStringLiteral("alt+f")) || !s.key(menuKey))
            return false;
        QString which;
        const bool shown = waitUntil(
            [&] {
                for (const QString& candidate : { title, nothing }) {
                    QString ids;
                    if (s.xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), candidate }, &ids)
                        && !ids.trimmed().isEmpty()) {
                        which = candidate;
                        return true;
                    }
                }
                return false;
            },
            5000);
        if (!shown) {
            (void)s.key(QStringLiteral("Escape")); // close what opened, and again
            continue;
        }
        if (which == nothing) { // the comparison still runs, or ran before the plan opened
            if (!answer(s, which, QStringLiteral("Escape")) || !s.waitForNoWindow(which))
                return false;
            if (clock.elapsed() > nothingMs)
                return false;
            continue;
        }
        return answer(s, which, QStringLiteral("ctrl+a")) && s.type(path) && s.key(QStringLiteral("Return"))
            && waitUntil([&] { return QFile::exists(path); }, 20000) && s.waitForNoWindow(which);
    }
    return false;
}

void TestE2eCompare::verifyExports(const QString& csv, const QString& json, const QByteArray& diffJson)
{
    const QJsonObject diff = QJsonDocument::fromJson(diffJson).object();
    // The JSON export is `fleetscope diff --format json`, byte for byte.
    QCOMPARE(fileBytes(json), diffJson);

    // The panel's rows: its totals are the command's figures.
    QMap<QString, QStringList> totals;
    QMap<QString, QStringList> nodeRows;
    QMap<QString, QString> groupCounts;
    const QStringList lines = QString::fromUtf8(fileBytes(csv)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 5);
    QCOMPARE(lines[0], QStringLiteral("section,change,then,now,difference,moved,created,deleted,stranded"));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = csvFields(lines[i]);
        QCOMPARE(f.size(), 9);
        if (f[0] == QLatin1String("Totals") && !f[1].isEmpty())
            totals.insert(f[1], f.mid(2));
        else if (f[0].startsWith(QLatin1String("Nodes ")) && !f[1].isEmpty())
            nodeRows[f[0]] << f[1];
        else if (f[1].isEmpty())
            groupCounts.insert(f[0], f[4]);
    }
    const QJsonObject then = diff[QStringLiteral("before")].toObject();
    const QJsonObject now = diff[QStringLiteral("after")].toObject();
    QCOMPARE(number(totals[QStringLiteral("Nodes")].value(0)), then[QStringLiteral("nodes")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("Nodes")].value(1)), now[QStringLiteral("nodes")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("Nodes")].value(2)), now[QStringLiteral("nodes")].toDouble() - then[QStringLiteral("nodes")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("Pods")].value(0)), then[QStringLiteral("pods")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("Pods")].value(1)), now[QStringLiteral("pods")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("GPUs allocated")].value(0)), then[QStringLiteral("gpus_allocated")].toDouble());
    QCOMPARE(number(totals[QStringLiteral("GPUs allocated")].value(1)), now[QStringLiteral("gpus_allocated")].toDouble());
    // Dollars to the cent, as the panel writes them.
    QCOMPARE(number(totals[QStringLiteral("Cost per hour")].value(0)), std::round(then[QStringLiteral("dollars_per_hour")].toDouble() * 100) / 100);
    QCOMPARE(number(totals[QStringLiteral("Cost per hour")].value(1)), std::round(now[QStringLiteral("dollars_per_hour")].toDouble() * 100) / 100);
    QVERIFY(then[QStringLiteral("dollars_per_hour")].toDouble() > 0);
    // The node lists, name for name.
    const QJsonObject nodes = diff[QStringLiteral("nodes")].toObject();
    int changedNodes = 0;
    for (const auto& [section, key] : { std::pair { QStringLiteral("Nodes added"), QStringLiteral("added") },
             std::pair { QStringLiteral("Nodes removed"), QStringLiteral("removed") },
             std::pair { QStringLiteral("Nodes relabelled"), QStringLiteral("relabelled") },
             std::pair { QStringLiteral("Nodes tainted"), QStringLiteral("tainted") } }) {
        QStringList expected;
        for (const QJsonValue& v : nodes[key].toArray())
            expected << v.toString();
        QCOMPARE(nodeRows.value(section), expected);
        QCOMPARE(number(groupCounts.value(section)), static_cast<double>(expected.size()));
        changedNodes += static_cast<int>(expected.size());
    }
    QVERIFY(changedNodes > 0);
    const QJsonObject pods = diff[QStringLiteral("pods")].toObject();
    QVERIFY2(groupCounts.value(QStringLiteral("Pods by workload"))
                 .startsWith(QStringLiteral("%1 moved, %2 created, %3 deleted")
                                 .arg(pods[QStringLiteral("moved")].toInteger())
                                 .arg(pods[QStringLiteral("created")].toInteger())
                                 .arg(pods[QStringLiteral("deleted")].toInteger())
                                 .replace(QRegularExpression(QStringLiteral("(\\d)(?=(\\d{3})+(?!\\d))")), QStringLiteral("\\1,"))),
        qPrintable(groupCounts.value(QStringLiteral("Pods by workload"))));
}

void TestE2eCompare::compareWithAndExportChanges()
{
    DesktopSession s;
    const QString before = s.path(QStringLiteral("before.fleet"));
    const QString after = s.path(QStringLiteral("after.fleet"));
    for (const auto& [path, seed] : { std::pair { before, QStringLiteral("3") }, std::pair { after, QStringLiteral("4") } })
        run({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), seed, QStringLiteral("-o"), path });
    QVERIFY(QFile::exists(before) && QFile::exists(after));
    const QByteArray diffJson = run({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject diff = QJsonDocument::fromJson(diffJson).object();
    QVERIFY(!diff.isEmpty());

    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp({ before }, kWindow), qPrintable(s.error()));
    GuiStallProbe probe;
    QString probeError;
    QVERIFY2(probe.start(s.display(), s.window(), 100, probeError), qPrintable(probeError));

    // File > Compare With (Alt+F, W), the later document typed into the file dialog.
    QVERIFY(s.key(QStringLiteral("alt+f")) && s.key(QStringLiteral("w")));
    QVERIFY2(answer(s, QStringLiteral("^Compare With$"), QStringLiteral("ctrl+a")), qPrintable(s.error()));
    QVERIFY(s.type(after) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Compare With$")));

    const QString csv = s.path(QStringLiteral("changes.csv"));
    QVERIFY2(exportFromFileMenu(s, QStringLiteral("h"), QStringLiteral("^Export Changes$"), csv), qPrintable(s.error() + s.appOutput()));
    const QString json = s.path(QStringLiteral("changes.json"));
    QVERIFY2(exportFromFileMenu(s, QStringLiteral("h"), QStringLiteral("^Export Changes$"), json), qPrintable(s.error() + s.appOutput()));
    probe.stop();
    std::printf("longest GUI stall from Compare With to the second export: %.0f ms (%d pings answered)\n", probe.longestMs(), probe.answered());
    QVERIFY(s.appRunning());

    verifyExports(csv, json, diffJson);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(s.quitApp());
}

// `fleetscope BEFORE.fleet --compare AFTER.fleet`: the plan fixtures' state and the same
// cluster after part of the plan was carried out by hand (tests/data/plan/README.md): both web
// pods moved to cpu-b1, cpu-a1 drained and removed with its DaemonSet pod, api-0 deleted.
void TestE2eCompare::compareFromCommandLine()
{
    DesktopSession s;
    const QString data = QStringLiteral(FLEET_TEST_DATA_DIR);
    const QString before = s.path(QStringLiteral("before.fleet"));
    const QString after = s.path(QStringLiteral("after.fleet"));
    run({ QStringLiteral("save"), data + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), before });
    run({ QStringLiteral("save"), data + QStringLiteral("/plan/cluster-after-plan.json"), QStringLiteral("-o"), after });
    QVERIFY(QFile::exists(before) && QFile::exists(after));
    const QByteArray diffJson = run({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject diff = QJsonDocument::fromJson(diffJson).object();
    QCOMPARE(diff[QStringLiteral("pods")][QStringLiteral("moved")].toInt(), 2);
    QCOMPARE(diff[QStringLiteral("nodes")][QStringLiteral("removed")].toArray(), QJsonArray { QStringLiteral("cpu-a1") });

    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp({ before, QStringLiteral("--compare"), after }, kWindow), qPrintable(s.error()));
    const QString csv = s.path(QStringLiteral("changes.csv"));
    QVERIFY2(exportFromFileMenu(s, QStringLiteral("h"), QStringLiteral("^Export Changes$"), csv), qPrintable(s.error() + s.appOutput()));
    const QString json = s.path(QStringLiteral("changes.json"));
    QVERIFY2(exportFromFileMenu(s, QStringLiteral("h"), QStringLiteral("^Export Changes$"), json), qPrintable(s.error() + s.appOutput()));
    verifyExports(csv, json, diffJson);
    if (QTest::currentTestFailed())
        return;
    // The web Deployment's two moved pods are its row of the panel.
    const QString rows = QString::fromUtf8(fileBytes(csv));
    QVERIFY2(rows.contains(QStringLiteral("Pods by workload,default/Deployment/web,,,\"2 moved, 0 created, 0 deleted\",2,0,0,0\n")), qPrintable(rows));

    // Metric > CPU Requested (Ctrl+2), then Metric > Difference to the Compared State (Alt+M, D): the
    // map's cells change colour (the diverging map of cpu-b1's gain, cpu-a1's and cpu-a2's
    // loss); unchecked again, the map is as it was.
    QVERIFY(s.key(QStringLiteral("ctrl+2"))); // Metric > CPU Requested (the menu's C is also Cost of Unallocated Capacity's)
    // The key handled before the map is read: a still screen alone was the map before Ctrl+2
    // on a loaded machine, and the restored map then never matched it.
    QVERIFY2(s.waitForInputHandled(), qPrintable(s.error()));
    const QImage cpu = mapPixels(s);
    QVERIFY2(!cpu.isNull(), qPrintable(s.error()));
    QVERIFY(s.key(QStringLiteral("alt+m")) && s.key(QStringLiteral("d")));
    QVERIFY(waitUntil([&] { const QImage now = mapPixels(s); return !now.isNull() && now != cpu; }, fleet::e2e::kAnswerTimeoutMs));
    QVERIFY(s.key(QStringLiteral("alt+m")) && s.key(QStringLiteral("d")));
    QImage last;
    const bool restored = waitUntil([&] { last = mapPixels(s); return last == cpu; }, fleet::e2e::kAnswerTimeoutMs);
    if (!restored) {
        cpu.save(s.path(QStringLiteral("cmp_cpu.png")));
        last.save(s.path(QStringLiteral("cmp_last.png")));
        s.grabScreen().save(s.path(QStringLiteral("cmp_screen.png")));
        s.keepFiles();
    }
    QVERIFY2(restored, qPrintable(QStringLiteral("the map did not come back (images in %1)").arg(s.path(QString()))));
    QVERIFY(s.quitApp());
}

// The pixels of `colour` in `image`, exactly (the compared nodes' marks are not antialiased).
static int countColour(const QImage& image, QRgb colour)
{
    int n = 0;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            n += (line[x] & 0xffffff) == (colour & 0xffffff);
    }
    return n;
}

// File > Compare With, the later state being the plan fixtures' cluster after the plan (cpu-a1
// drained and removed) with one node more, cpu-b3 in us-east-1b: the map shows cpu-b3, which
// has no cell in the shown layout, as a square in an "Added later (1)" box (AddedNodeLayer's
// teal, 0,170,160) and crosses cpu-a1 (magenta, 255,70,200); neither colour is on the map
// before. `fleetscope diff` agrees on which nodes those are.
void TestE2eCompare::marksAddedAndRemovedNodes()
{
    DesktopSession s;
    const QString data = QStringLiteral(FLEET_TEST_DATA_DIR);
    const QString before = s.path(QStringLiteral("before.fleet"));
    run({ QStringLiteral("save"), data + QStringLiteral("/plan/cluster.json"), QStringLiteral("-o"), before });
    QVERIFY(QFile::exists(before));
    QJsonObject list = QJsonDocument::fromJson(fileBytes(data + QStringLiteral("/plan/cluster-after-plan.json"))).object();
    QJsonArray items = list[QStringLiteral("items")].toArray();
    QJsonObject added;
    for (const QJsonValue& v : items)
        if (v[QStringLiteral("kind")] == QStringLiteral("Node") && v[QStringLiteral("metadata")][QStringLiteral("name")] == QStringLiteral("cpu-b1"))
            added = v.toObject();
    QVERIFY(!added.isEmpty());
    QJsonObject metadata = added[QStringLiteral("metadata")].toObject();
    QJsonObject labels = metadata[QStringLiteral("labels")].toObject();
    metadata[QStringLiteral("name")] = QStringLiteral("cpu-b3");
    labels[QStringLiteral("kubernetes.io/hostname")] = QStringLiteral("cpu-b3");
    metadata[QStringLiteral("labels")] = labels;
    metadata.remove(QStringLiteral("uid"));
    added[QStringLiteral("metadata")] = metadata;
    items.append(added);
    list[QStringLiteral("items")] = items;
    const QString after = s.path(QStringLiteral("after.json"));
    {
        QFile f(after);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(list).toJson()) > 0);
    }
    const QJsonObject diff = QJsonDocument::fromJson(run({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") })).object();
    QCOMPARE(diff[QStringLiteral("nodes")][QStringLiteral("added")].toArray(), QJsonArray { QStringLiteral("cpu-b3") });
    QCOMPARE(diff[QStringLiteral("nodes")][QStringLiteral("removed")].toArray(), QJsonArray { QStringLiteral("cpu-a1") });

    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp({ before }, kWindow), qPrintable(s.error()));
    constexpr QRgb kTeal = 0xff00aaa0, kMagenta = 0xffff46c8;
    const QImage then = mapPixels(s);
    QVERIFY2(!then.isNull(), qPrintable(s.error()));
    QCOMPARE(countColour(then, kTeal), 0);
    QCOMPARE(countColour(then, kMagenta), 0);

    QVERIFY(s.key(QStringLiteral("alt+f")) && s.key(QStringLiteral("w")));
    QVERIFY2(answer(s, QStringLiteral("^Compare With$"), QStringLiteral("ctrl+a")), qPrintable(s.error()));
    QVERIFY(s.type(after) && s.key(QStringLiteral("Return")));
    QVERIFY(s.waitForNoWindow(QStringLiteral("^Compare With$")));
    int teal = 0, magenta = 0;
    QImage now;
    const bool marked = waitUntil(
        [&] {
            now = mapPixels(s);
            teal = countColour(now, kTeal);
            magenta = countColour(now, kMagenta);
            // The box's 2 px outline alone is over 100 pixels; a cross's two strokes over 10.
            return teal > 100 && magenta > 10;
        },
        30000);
    if (!marked) {
        now.save(s.path(QStringLiteral("cmp_marks.png")));
        s.keepFiles();
    }
    QVERIFY2(marked, qPrintable(QStringLiteral("teal %1, magenta %2 pixels (image in %3)").arg(teal).arg(magenta).arg(s.path(QString()))));
    QVERIFY(s.quitApp());
}

QTEST_GUILESS_MAIN(TestE2eCompare)
#include "tst_e2e_compare.moc"

// The plan fixtures' plan (tests/data/plan/README.md) opened with their cluster, then compared
// with the live cluster now, which holds cluster-after-plan.json's objects: actions 0 and 1
// carried out, 2 not, 3 no longer possible. Typed as a person does: Alt+F, V, the kubeconfig's
// path, Return; then Alt+F, U and the path of the export.
void TestE2eCompare::planOutcomeAgainstTheLiveCluster()
{
    DesktopSession s;
    const QString data = QStringLiteral(FLEET_TEST_DATA_DIR);
    QVERIFY(QDir().mkpath(s.path(QStringLiteral("pki"))));
    fleet::tests::TestPki pki = fleet::tests::TestPki::create(s.path(QStringLiteral("pki")).toStdString());
    QVERIFY2(!pki.caPem.empty(), "the openssl command failed or is missing (installer/install-deps.sh installs it)");
    QJsonArray nodes, pods;
    for (const QJsonValue& item : fleet::tests::itemsOfListFile(data + QStringLiteral("/plan/cluster-after-plan.json")))
        (item.toObject()[QStringLiteral("kind")].toString() == QLatin1String("Node") ? nodes : pods).append(item);
    QVERIFY(!nodes.isEmpty() && !pods.isEmpty());
    fleet::tests::FakeKubeApiServer server(pki,
        { { "/api/v1/nodes", nodes }, { "/api/v1/pods", pods }, { "/api/v1/namespaces", {} }, { "/apis/policy/v1/poddisruptionbudgets", {} },
            { "/api/v1/persistentvolumes", {} } },
        {});
    fleet::tests::KubeconfigSpec spec;
    spec.server = QString::fromStdString(server.url());
    spec.certificateAuthority = QString::fromStdString(pki.caFile);
    spec.token = QStringLiteral("fleet-test-token");
    spec.cluster = QStringLiteral("eks");
    spec.user = QStringLiteral("ops");
    spec.contexts = QStringList { QStringLiteral("prod") };
    spec.currentContext = QStringLiteral("prod");
    const QString kubeconfig = fleet::tests::writeKubeconfig(s.path(QStringLiteral("kubeconfig")), spec);
    const QString cluster = data + QStringLiteral("/plan/cluster.json");
    const QString plan = data + QStringLiteral("/plan/plan.json");
    const QByteArray cliJson = run({ QStringLiteral("diff"), cluster, QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--plan"), plan,
        QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject cli = QJsonDocument::fromJson(cliJson).object();
    QVERIFY2(!cli.isEmpty(), cliJson.constData());

    QVERIFY2(s.startDesktop(1400, 1000), qPrintable(s.error()));
    QVERIFY2(s.startApp({ cluster, plan }, kWindow), qPrintable(s.error()));
    const QString outcome = s.path(QStringLiteral("outcome.json"));
    // The plan opens right after the cluster shows (a job of milliseconds); a comparison made
    // before it has no outcome ("Nothing to Export"): compared again then.
    bool written = false;
    for (int attempt = 0; attempt < 3 && !written; ++attempt) {
        QVERIFY(s.key(QStringLiteral("alt+f")) && s.key(QStringLiteral("v")));
        QVERIFY2(answer(s, QStringLiteral("^Compare With Live Cluster$"), QStringLiteral("ctrl+a")), qPrintable(s.error()));
        QVERIFY(s.type(kubeconfig) && s.key(QStringLiteral("Return")));
        QVERIFY(s.waitForNoWindow(QStringLiteral("^Compare With Live Cluster$")));
        // Nothing to export for 5 s: compared before the plan opened, compared again.
        written = exportFromFileMenu(s, QStringLiteral("u"), QStringLiteral("^Export Plan Outcome$"), outcome, 5000);
    }
    QVERIFY2(written, qPrintable(s.error() + s.appOutput()));
    const QJsonObject window = QJsonDocument::fromJson(fileBytes(outcome)).object();
    QVERIFY2(!window.isEmpty(), fileBytes(outcome).constData());
    // The same verdicts, evidence and savings; only the labels of the inputs differ (the window
    // names the plan by its file name and the states by their sources).
    for (const char* key : { "actions", "totals", "savings" })
        QCOMPARE(window[QLatin1String(key)], cli[QLatin1String(key)]);
    const QJsonArray actions = window[QStringLiteral("actions")].toArray();
    QCOMPARE(actions.size(), 4);
    const char* expected[] = { "carried-out", "carried-out", "not-carried-out", "no-longer-possible" };
    for (int i = 0; i < 4; ++i)
        QCOMPARE(actions[i].toObject()[QStringLiteral("outcome")].toString(), QLatin1String(expected[i]));
    QVERIFY(s.quitApp());
}
