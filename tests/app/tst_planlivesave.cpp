// SPDX-License-Identifier: Apache-2.0
// File > Save Plan from a window that shows a live cluster (resources/schemas/plan-v1.md, its source), under xvfb-run: the
// window lists the loopback HTTPS fake API server (tests/common/fakekubeapiserver.h) serving
// the real EKS fixture through a kubeconfig, a pod is moved, the plan is saved through the
// menu's file dialog, and the file names the server and the pod list's resourceVersion (4242,
// the fake server's) and re-reads as the same action.

#include "planwindowfixture.h"

#include "app/startup/surfaceformat.h"
#include "common/fakekubeapiserver.h"
#include "common/kubeconfigfile.h"
#include "importers/plan/planfile.h"
#include "model/scheduling/filters.h"

#include "common/guitestmain.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace fleet;
using namespace planwindow;

namespace {

const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");

} // namespace

class TestPlanLiveSave : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void savedPlanNamesTheLiveSource();

private:
    QTemporaryDir m_dir;
    tests::TestPki m_pki;
};

void TestPlanLiveSave::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pki = tests::TestPki::create(m_dir.path().toStdString());
    QVERIFY2(!m_pki.caPem.empty(), "the openssl command failed or is missing (installer/install-deps.sh installs it)");
    QVERIFY(QFile::exists(kHoneycomb + "/nodes.json"));
}

void TestPlanLiveSave::savedPlanNamesTheLiveSource()
{
    tests::FakeKubeApiServer server(m_pki,
        { { "/api/v1/nodes", tests::itemsOfListFile(kHoneycomb + "/nodes.json") },
            { "/api/v1/pods", tests::itemsOfListFile(kHoneycomb + "/pods.json") }, { "/api/v1/namespaces", {} },
            { "/apis/policy/v1/poddisruptionbudgets", {} }, { "/api/v1/persistentvolumes", {} } },
        {});
    const QString url = QString::fromStdString(server.url());
    fleet::tests::KubeconfigSpec spec;
    spec.server = url;
    spec.certificateAuthority = QString::fromStdString(m_pki.caFile);
    spec.cluster = "eks";
    spec.user = "ops";
    spec.contexts = QStringList { "prod" };
    spec.currentContext = "prod";
    const QString kubeconfig = fleet::tests::writeKubeconfig(m_dir.filePath(QStringLiteral("kubeconfig")), spec);
    QVERIFY(!kubeconfig.isEmpty());

    app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &app::MainWindow::clusterShown);
    QSignalSpy failed(&window, &app::MainWindow::importFailed);
    window.openLive(kubeconfig, QStringLiteral("prod"));
    QVERIFY2(shown.wait(60000), failed.isEmpty() ? "the live cluster was not shown" : qPrintable(failed.at(0).at(0).toString()));
    app::PlanController* plan = window.planController();
    QSignalSpy ready(plan, &app::PlanController::engineReady);
    if (!plan->engine())
        QVERIFY(ready.wait(30000));
    const auto engine = plan->engine();
    const model::ClusterStore& store = engine->state().store();
    QVERIFY(store.nodeCount() > 1);

    // The source the window would save: the live list's.
    const importers::PlanSource source = window.planSource();
    QCOMPARE(QString::fromStdString(source.server), url);
    QCOMPARE(source.resourceVersion, std::string("4242"));

    // One feasible move, found by the filters, made as the drag's command would.
    model::PodId pod;
    model::NodeId to;
    findFeasibleMove(engine->state(), pod, to);
    // The fixture's few nodes may leave no feasible move: then a move applied as a violation
    // (Shift+drop), which the plan keeps with override: true.
    for (std::uint32_t i = 0; i < store.podCount() && !to.isValid(); ++i) {
        const model::PodId p(i);
        if (store.podIsCounted(p) && store.podOwnerKind(p) != model::OwnerKind::DaemonSet && !store.podIsMirror(p)
            && !model::PodFeasibility(engine->state(), p).immovable())
            for (std::uint32_t j = 0; j < store.nodeCount() && !to.isValid(); ++j)
                if (model::NodeId(j) != store.podNode(p)) {
                    pod = p;
                    to = model::NodeId(j);
                }
    }
    QVERIFY2(to.isValid(), "no pod of the fixture can move, even as a violation");
    QVERIFY2(plan->movePod(pod, to, true), qPrintable(plan->lastMessage()));
    QCOMPARE(window.undoStack()->count(), 1);

    // File > Save Plan, its dialog answered with a path.
    const QString path = m_dir.filePath(QStringLiteral("live-plan.json"));
    QAction* save = window.findChild<QAction*>(QStringLiteral("actionSavePlan"));
    QVERIFY(save && save->isEnabled());
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
        static_cast<QDialog*>(dialog)->accept();
    });
    save->trigger();
    QVERIFY(answered);
    QVERIFY(QFile::exists(path));

    // The file, as JSON: the server and the pod list's resourceVersion, no files or simulation.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject src = json.value(QStringLiteral("source")).toObject();
    QCOMPARE(src.value(QStringLiteral("server")).toString(), url);
    QCOMPARE(src.value(QStringLiteral("resourceVersion")).toString(), QStringLiteral("4242"));
    QVERIFY(!src.contains(QStringLiteral("files")));
    QVERIFY(!src.contains(QStringLiteral("simulated")));
    // And through the plan file reader: the move, with the pod's uid.
    const importers::PlanDocument doc = importers::readPlanFile(path.toStdString());
    QCOMPARE(doc.actions.size(), std::size_t(1));
    QCOMPARE(doc.actions[0], engine->applied()[0].action);
    QCOMPARE(doc.actions[0].node, std::string(store.nodeName(to)));
    QCOMPARE(doc.actions[0].pod.uid, std::string(store.podUid(pod)));
    QCOMPARE(doc.source.server, server.url());
    QCOMPARE(doc.source.resourceVersion, std::string("4242"));
}

FLEET_GUI_TEST_MAIN(TestPlanLiveSave, fleet::app::setDefaultSurfaceFormat)

#include "tst_planlivesave.moc"
