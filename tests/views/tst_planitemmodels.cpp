// SPDX-License-Identifier: Apache-2.0
// The node inspector's item models under a plan (an add-node and a place-pods action): a node the
// plan added shows its template's allocatable and capacity with the plan's requests, and the
// pods a plan placed are rows of their node, named as the plan names them, phase "Planned", not
// draggable; both under QAbstractItemModelTester.

#include "model/planfixture.h"

#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/itemmodels/noderesourcesmodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace planfixture;
namespace views = fleet::views;

class TestPlanItemModels : public QObject {
    Q_OBJECT
private slots:
    void addedNodeAndPlacedPods();
};

void TestPlanItemModels::addedNodeAndPlacedPods()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("n2", "us-east-1b", 8000, 0, "m5.2xlarge");
    c.pod("batch", "tmpl", "", 1000, "tmpl", PodFlagNone, 0, OwnerKind::Job);
    c.finish();
    auto store = std::shared_ptr<const ClusterStore>(c.store.get(), [](const ClusterStore*) {});
    PlanEngine engine(*c.store, *c.topology);

    PlanAction add;
    add.type = ActionType::AddNode;
    add.instanceType = "m5.2xlarge";
    const NodeId added = engine.apply(add).nodesAdded.at(0);
    PlanAction place;
    place.type = ActionType::PlacePods;
    place.pod = { "batch", "tmpl", "" };
    place.count = 2;
    place.preferredLevel = kZoneKey;
    const AppliedAction& placed = engine.apply(place);
    QVERIFY(placed.holds);
    QCOMPARE(placed.podsAdded.size(), std::size_t(2));
    const NodeId where = engine.state().podNode(placed.podsAdded[0]);
    QVERIFY(where.isValid());

    views::NodePodsModel pods;
    QAbstractItemModelTester podsTester(&pods);
    // Not owned: the engine outlives the model here.
    pods.setNode(store, where, std::shared_ptr<const fleet::model::PlanLedger>(std::shared_ptr<void>(), &engine.state()));
    int planned = 0;
    for (int row = 0; row < pods.rowCount(); ++row) {
        const QString name = pods.data(pods.index(row, views::NodePodsModel::NameColumn)).toString();
        if (!name.startsWith(QStringLiteral("tmpl-")))
            continue;
        ++planned;
        QCOMPARE(pods.data(pods.index(row, views::NodePodsModel::NamespaceColumn)).toString(), QStringLiteral("batch"));
        QCOMPARE(pods.data(pods.index(row, views::NodePodsModel::PhaseColumn)).toString(), QStringLiteral("Planned (added by the plan)"));
        QCOMPARE(pods.data(pods.index(row, views::NodePodsModel::CpuColumn), views::kSortRole).toLongLong(), qlonglong(1000));
        QVERIFY(!pods.podAt(row).isValid());
        QVERIFY(!(pods.flags(pods.index(row, 0)) & Qt::ItemIsDragEnabled));
    }
    QVERIFY(planned >= 1);
    // Without the plan the loaded state has no such pods.
    pods.setNode(store, where, nullptr);
    for (int row = 0; row < pods.rowCount(); ++row)
        QVERIFY(!pods.data(pods.index(row, views::NodePodsModel::NameColumn)).toString().startsWith(QStringLiteral("tmpl-")));

    // The added node: its template's (n2's) allocatable, the plan's requests.
    views::NodeResourcesModel resources;
    QAbstractItemModelTester resourcesTester(&resources);
    resources.setNode(store, added, &engine.state());
    const int cpu = resources.rowOf(QStringLiteral("cpu"));
    QVERIFY(cpu >= 0);
    QCOMPARE(resources.data(resources.index(cpu, views::NodeResourcesModel::AllocatableColumn), views::kSortRole).toLongLong(), qlonglong(8000));
    QCOMPARE(resources.data(resources.index(cpu, views::NodeResourcesModel::RequestedColumn), views::kSortRole).toLongLong(),
        qlonglong(engine.state().nodeRequested(added)[CoreResource::Cpu]));
    resources.setNode(store, added, nullptr); // not a node of the loaded state
    QCOMPARE(resources.rowCount(), 0);
    pods.setNode(store, added, nullptr);
    QCOMPARE(pods.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestPlanItemModels)
#include "tst_planitemmodels.moc"
