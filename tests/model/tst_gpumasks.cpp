// SPDX-License-Identifier: Apache-2.0
// Tests of the ledger's GPU books (model/scheduling/gpumasks.h): devices taken and given back
// with their use per device, the mask each pod holds, the loaded masks kept apart from the
// plan's, and the ranges of added nodes.
//
// The cluster: g1 with 4 tracked GPUs, c1 with none (a CPU node).

#include "model/scheduling/gpumasks.h"
#include "tst_filters_fixture.h"

#include <QtTest>

#include <vector>

using namespace fixture;
using fleet::model::scheduling::GpuMasks;

namespace {

struct GpuAndCpuNodes {
    ClusterStore store;
    GpuAndCpuNodes()
    {
        NodeRecord gpu = node("g1", 32000, 256 * kGi);
        gpu.allocatable.setCore(CoreResource::Gpu, 4000);
        gpu.capacity = gpu.allocatable;
        gpu.gpuCount = 4;
        store.addNode(gpu);
        store.addNode(node("c1"));
        store.finalize();
    }
};

std::vector<std::int32_t> used(const GpuMasks& masks, NodeId n)
{
    const auto span = masks.used(n);
    return { span.begin(), span.end() };
}

} // namespace

class TestGpuMasks : public QObject {
    Q_OBJECT
private slots:
    void takeAndRelease()
    {
        const GpuAndCpuNodes nodes;
        const ClusterStore& store = nodes.store;
        const NodeId g1(0), c1(1);
        GpuMasks masks;
        masks.reset(store);
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
        QVERIFY(masks.used(c1).empty());

        // Two whole GPUs: the least used, lowest first.
        const PodId whole(0), share(1), cpu(2);
        QCOMPARE(masks.take(whole, g1, 2000, 0, 0), std::uint64_t { 0b0011 });
        QCOMPARE(masks.held(whole), std::uint64_t { 0b0011 });
        // A share of one GPU: the device it leaves with the least free among those with room.
        QCOMPARE(masks.take(share, g1, 300, 300, 0), std::uint64_t { 0b0100 });
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 1000, 1000, 300, 0 }));
        // No GPU asked, or none tracked on the node: nothing taken, nothing recorded.
        QCOMPARE(masks.take(cpu, g1, 0, 0, 0), std::uint64_t { 0 });
        QCOMPARE(masks.take(cpu, c1, 1000, 0, 0), std::uint64_t { 0 });
        QCOMPARE(masks.held(cpu), std::uint64_t { 0 });

        masks.release(whole, g1, 0);
        QCOMPARE(masks.held(whole), std::uint64_t { 0 });
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 300, 0 }));
        masks.release(share, g1, 300);
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
        masks.release(share, g1, 300); // holds none now: no change
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
    }

    // What the pods held when loaded stays after they move, so that a pod sent home can ask for
    // the same devices (preferred) and get them, not the least used ones.
    void loadedMasksStay()
    {
        const GpuAndCpuNodes nodes;
        const NodeId g1(0);
        GpuMasks masks;
        masks.reset(nodes.store);
        const PodId a(0), b(1);
        QCOMPARE(masks.take(a, g1, 1000, 0, 0), std::uint64_t { 0b0001 });
        QCOMPARE(masks.take(b, g1, 1000, 0, 0), std::uint64_t { 0b0010 });
        masks.markLoaded();
        masks.release(a, g1, 0);
        masks.release(b, g1, 0);
        QCOMPARE(masks.held(b), std::uint64_t { 0 });
        QCOMPARE(masks.heldAsLoaded(a), std::uint64_t { 0b0001 });
        QCOMPARE(masks.heldAsLoaded(b), std::uint64_t { 0b0010 });
        // Every device free: without a preference b would take device 0; with its loaded mask, 1.
        QCOMPARE(masks.take(b, g1, 1000, 0, masks.heldAsLoaded(b)), std::uint64_t { 0b0010 });
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 1000, 0, 0 }));
        // A pod that held nothing when loaded has no loaded mask.
        QCOMPARE(masks.heldAsLoaded(PodId(2)), std::uint64_t { 0 });
    }

    void addedNodes()
    {
        const GpuAndCpuNodes nodes;
        const ClusterStore& store = nodes.store;
        const NodeId g1(0), c1(1), added(2), addedCpu(3);
        GpuMasks masks;
        masks.reset(store);
        masks.addNodeLike(g1);
        masks.addNodeLike(c1);
        QCOMPARE(used(masks, added), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
        QVERIFY(masks.used(addedCpu).empty());
        const PodId p(0);
        QCOMPARE(masks.take(p, added, 4000, 0, 0), std::uint64_t { 0b1111 });
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
        masks.release(p, added, 0);
        masks.popNode();
        masks.popNode();
        QCOMPARE(used(masks, g1), (std::vector<std::int32_t> { 0, 0, 0, 0 }));
        QVERIFY(masks.used(c1).empty());
    }
};

QTEST_APPLESS_MAIN(TestGpuMasks)
#include "tst_gpumasks.moc"
