// SPDX-License-Identifier: Apache-2.0
// Tests of model/podrequest.h: the effective request of a pod as the kube-scheduler computes
// it (k8s.io/component-helpers/resource PodRequests()).
//
// Sources of the expected values:
//  - "Resource Management for Pods and Containers": requests of app containers add up; a
//    request that is not set defaults to the limit (API defaulting).
//  - "Init Containers": the effective init request is the highest of any init container.
//  - "Sidecar Containers" and KEP-753 ("Resources calculation for scheduling and pod
//    admission"): InitContainerUse(i) = Sum(sidecars with index < i) + InitContainer(i);
//    effective = Max(Max(each InitContainerUse), Sum(sidecars) + Sum(containers)).
//  - KEP-2837 (pod-level resources): spec.resources replaces the aggregate for cpu and
//    memory (and hugepages-*) only.
//  - "Pod Overhead" (KEP-688): spec.overhead is added last.

#include "model/podrequest.h"
#include "model/quantity.h"

#include <QtTest>

#include <initializer_list>
#include <string>
#include <utility>

using namespace fleet::model;

Q_DECLARE_METATYPE(fleet::model::PodResourceSpec)
Q_DECLARE_METATYPE(fleet::model::ResourceList)

namespace {

using Entries = std::initializer_list<std::pair<const char*, const char*>>;

// Builds a ResourceList from Kubernetes names and quantities, as an importer does.
ResourceList list(ResourceRegistry& registry, Entries entries)
{
    ResourceList r;
    for (const auto& [name, quantity] : entries) {
        const ResourceMapping m = mapResourceName(name);
        std::int64_t v = 0;
        switch (m.scale) {
        case QuantityScale::Milli:
            v = parseQuantityMilli(quantity);
            break;
        case QuantityScale::Units:
            v = parseQuantity(quantity);
            break;
        case QuantityScale::ThousandUnits:
            v = parseQuantity(quantity) * 1000;
            break;
        }
        r.set(registry.keyFor(name), v);
    }
    return r;
}

// The same, exact (nanos of the model unit), as the importer reads a container's resources.
ExactResourceList exact(ResourceRegistry& registry, Entries entries)
{
    ExactResourceList r;
    for (const auto& [name, quantity] : entries)
        r.set(registry.keyFor(name), exactQuantity(quantity, mapResourceName(name).scale));
    return r;
}

ContainerResources container(ResourceRegistry& registry, Entries requests, Entries limits = {}, bool restartable = false)
{
    ContainerResources c;
    c.requests = exact(registry, requests);
    c.limits = exact(registry, limits);
    c.restartable = restartable;
    return c;
}

ContainerResources sidecar(ResourceRegistry& registry, Entries requests)
{
    return container(registry, requests, {}, true);
}

// Compares two lists value by value (presence and amount of every key in either).
QString differences(const ResourceRegistry& registry, const ResourceList& actual, const ResourceList& expected)
{
    QString out;
    for (std::size_t k = 0; k < registry.size(); ++k) {
        const auto key = static_cast<ResourceKey>(k);
        const auto [a, hasA] = actual.get(key);
        const auto [e, hasE] = expected.get(key);
        if (hasA != hasE || a != e)
            out += QStringLiteral("%1: got %2, expected %3; ")
                       .arg(QString::fromStdString(registry.name(key)), hasA ? QString::number(a) : QStringLiteral("(absent)"),
                           hasE ? QString::number(e) : QStringLiteral("(absent)"));
    }
    return out;
}

} // namespace

class TestPodRequest : public QObject {
    Q_OBJECT

private slots:
    void effectiveRequest_data();
    void effectiveRequest();
    void sidecarOrderMatters();
    void registryOrderDoesNotMatter();
    void clearResetsEverything();
};

void TestPodRequest::effectiveRequest_data()
{
    QTest::addColumn<PodResourceSpec>("spec");
    QTest::addColumn<ResourceList>("expected");
    // One registry for the whole table: the keys of the extended resources are fixed here
    // and registered again, in the same order, by the test function.
    static ResourceRegistry r;
    r.keyFor("nvidia.com/mig-1g.10gb");
    r.keyFor("hugepages-2Mi");
    r.keyFor("vpc.amazonaws.com/efa");

    {
        PodResourceSpec s;
        QTest::newRow("no containers: nothing") << s << ResourceList {};
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "100m" }, { "memory", "128Mi" } }),
            container(r, { { "cpu", "250m" }, { "memory", "64Mi" } }), container(r, { { "cpu", "1" } }) };
        QTest::newRow("app containers are summed") << s << list(r, { { "cpu", "1350m" }, { "memory", "192Mi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, {}, { { "cpu", "500m" }, { "memory", "1Gi" } }),
            container(r, { { "cpu", "100m" } }, { { "cpu", "2" }, { "memory", "256Mi" } }) };
        QTest::newRow("a missing request defaults to the limit") << s << list(r, { { "cpu", "600m" }, { "memory", "1280Mi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "100m" } }, { { "cpu", "1" } }) };
        QTest::newRow("a set request is not raised to the limit") << s << list(r, { { "cpu", "100m" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, {}, { { "nvidia.com/gpu", "1" } }), container(r, {}, { { "nvidia.com/gpu", "2" } }) };
        QTest::newRow("GPU limits only (the usual form) count as requests, in milli-GPU")
            << s << list(r, { { "nvidia.com/gpu", "3" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "500m" }, { "memory", "256Mi" } }), container(r, { { "cpu", "500m" } }) };
        s.initContainers = { container(r, { { "cpu", "2" }, { "memory", "64Mi" } }), container(r, { { "memory", "1Gi" } }) };
        QTest::newRow("each init container bigger than the sum wins, per resource")
            << s << list(r, { { "cpu", "2" }, { "memory", "1Gi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "3" }, { "memory", "2Gi" } }) };
        s.initContainers = { container(r, { { "cpu", "1" }, { "memory", "1Gi" } }) };
        QTest::newRow("init containers smaller than the sum do not add") << s << list(r, { { "cpu", "3" }, { "memory", "2Gi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "100m" } }) };
        s.initContainers = { container(r, { { "ephemeral-storage", "10Gi" } }) };
        QTest::newRow("a resource only an init container asks for is kept")
            << s << list(r, { { "cpu", "100m" }, { "ephemeral-storage", "10Gi" } });
    }
    {
        // The worked example (KEP-753 formula, evaluated by hand):
        //   init-a (one-shot) cpu 1          InitContainerUse = 1
        //   proxy  (sidecar)  cpu 500m       InitContainerUse = 0.5
        //   init-b (one-shot) cpu 2          InitContainerUse = 0.5 + 2   = 2.5
        //   logger (sidecar)  cpu 300m       InitContainerUse = 0.5 + 0.3 = 0.8
        //   app containers    cpu 1 + 200m   steady state     = 1.2 + 0.8 = 2.0
        //   effective = max(1, 0.5, 2.5, 0.8, 2.0) = 2.5
        // memory: init-a 100Mi, proxy 50Mi, init-b 10Mi, logger 20Mi, apps 200Mi + 100Mi:
        //   max(100, 50, 60, 70, 300 + 70) = 370Mi
        PodResourceSpec s;
        s.initContainers = { container(r, { { "cpu", "1" }, { "memory", "100Mi" } }),
            sidecar(r, { { "cpu", "500m" }, { "memory", "50Mi" } }), container(r, { { "cpu", "2" }, { "memory", "10Mi" } }),
            sidecar(r, { { "cpu", "300m" }, { "memory", "20Mi" } }) };
        s.containers = { container(r, { { "cpu", "1" }, { "memory", "200Mi" } }),
            container(r, { { "cpu", "200m" }, { "memory", "100Mi" } }) };
        QTest::newRow("KEP-753 worked example") << s << list(r, { { "cpu", "2500m" }, { "memory", "370Mi" } });
    }
    {
        PodResourceSpec s;
        s.initContainers = { sidecar(r, { { "cpu", "250m" }, { "memory", "64Mi" } }) };
        s.containers = { container(r, { { "cpu", "1" }, { "memory", "1Gi" } }) };
        QTest::newRow("a sidecar adds to the app containers") << s << list(r, { { "cpu", "1250m" }, { "memory", "1088Mi" } });
    }
    {
        PodResourceSpec s;
        s.initContainers = { sidecar(r, {}), container(r, { { "cpu", "1" } }) };
        s.initContainers[0].limits = exact(r, { { "cpu", "400m" } });
        s.containers = { container(r, { { "cpu", "100m" } }) };
        QTest::newRow("a sidecar's request defaults to its limit too") << s << list(r, { { "cpu", "1400m" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "1" }, { "memory", "1Gi" } }) };
        s.podRequests = exact(r, { { "cpu", "4" } });
        QTest::newRow("pod-level cpu replaces the aggregate; memory stays")
            << s << list(r, { { "cpu", "4" }, { "memory", "1Gi" } });
    }
    {
        PodResourceSpec s;
        s.containers
            = { container(r, { { "cpu", "1" }, { "memory", "1Gi" } }), container(r, { { "cpu", "1" }, { "memory", "1Gi" } }) };
        s.podRequests = exact(r, { { "cpu", "1500m" }, { "memory", "1536Mi" } });
        QTest::newRow("pod-level requests may be below the container sum")
            << s << list(r, { { "cpu", "1500m" }, { "memory", "1536Mi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "1" } }) };
        s.podLimits = exact(r, { { "cpu", "2" }, { "memory", "4Gi" } });
        QTest::newRow("pod-level limits stand in for pod-level requests")
            << s << list(r, { { "cpu", "2" }, { "memory", "4Gi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r,
            { { "cpu", "1" }, { "nvidia.com/gpu", "1" }, { "ephemeral-storage", "1Gi" }, { "nvidia.com/mig-1g.10gb", "2" },
                { "hugepages-2Mi", "8Mi" } }) };
        s.podRequests = exact(r,
            { { "cpu", "2" }, { "nvidia.com/gpu", "4" }, { "ephemeral-storage", "5Gi" }, { "nvidia.com/mig-1g.10gb", "7" },
                { "hugepages-2Mi", "16Mi" } });
        QTest::newRow("pod-level resources other than cpu, memory, hugepages are ignored")
            << s
            << list(r,
                   { { "cpu", "2" }, { "nvidia.com/gpu", "1" }, { "ephemeral-storage", "1Gi" }, { "nvidia.com/mig-1g.10gb", "2" },
                       { "hugepages-2Mi", "16Mi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "1" }, { "memory", "1Gi" } }) };
        s.initContainers = { container(r, { { "cpu", "3" } }) };
        s.overhead = exact(r, { { "cpu", "250m" }, { "memory", "120Mi" } });
        QTest::newRow("overhead is added after the init maximum") << s << list(r, { { "cpu", "3250m" }, { "memory", "1144Mi" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "1" } }) };
        s.podRequests = exact(r, { { "cpu", "2" } });
        s.overhead = exact(r, { { "cpu", "100m" }, { "memory", "50Mi" } });
        QTest::newRow("overhead is added after pod-level resources")
            << s << list(r, { { "cpu", "2100m" }, { "memory", "50Mi" } });
    }
    {
        // Extended resources through all of it: summed, defaulted to limits, maxed with init
        // containers (with the sidecars before them), not replaced at pod level, plus overhead.
        PodResourceSpec s;
        s.initContainers
            = { sidecar(r, { { "vpc.amazonaws.com/efa", "1" } }), container(r, { { "nvidia.com/mig-1g.10gb", "5" } }) };
        s.containers = { container(r, {}, { { "nvidia.com/mig-1g.10gb", "2" }, { "vpc.amazonaws.com/efa", "1" } }),
            container(r, { { "nvidia.com/mig-1g.10gb", "1" } }, { { "nvidia.com/mig-1g.10gb", "1" } }) };
        s.podRequests = exact(r, { { "cpu", "1" } });
        s.overhead = exact(r, { { "vpc.amazonaws.com/efa", "1" } });
        // mig: max(5 + 0, 2 + 1) = 5; efa: sum 1 + sidecar 1 = 2, init use 1, plus overhead 1 = 3
        QTest::newRow("extended resources through all of it")
            << s << list(r, { { "cpu", "1" }, { "nvidia.com/mig-1g.10gb", "5" }, { "vpc.amazonaws.com/efa", "3" } });
    }
    // Summed exactly and rounded once: Kubernetes adds the Quantities, then takes
    // MilliValue() / Value(); rounding each container first would give 2m and 4 bytes.
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "300u" }, { "memory", "1.5" } }),
            container(r, { { "cpu", "300u" }, { "memory", "1.5" } }) };
        QTest::newRow("exact: 2 x (300u, 1.5 bytes) = 1m, 3 bytes") << s << list(r, { { "cpu", "1m" }, { "memory", "3" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "300u" } }), container(r, { { "cpu", "300u" } }) };
        s.initContainers = { container(r, { { "cpu", "1500u" }, { "memory", "0.4" } }) };
        // max(0.6m, 1.5m) = 1.5m -> 2m; memory max(0, 0.4) -> 1 byte
        QTest::newRow("exact: init maximum then rounded") << s << list(r, { { "cpu", "2m" }, { "memory", "1" } });
    }
    {
        PodResourceSpec s;
        s.initContainers = { sidecar(r, { { "cpu", "400u" } }), container(r, { { "cpu", "400u" } }) };
        s.containers = { container(r, { { "cpu", "100u" } }) };
        // init use 0.4 + 0.4 = 0.8m; steady 0.1 + 0.4 = 0.5m -> 1m (2m if each were rounded)
        QTest::newRow("exact: sidecar plus init container") << s << list(r, { { "cpu", "1m" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "300u" }, { "memory", "0.5" } }) };
        s.overhead = exact(r, { { "cpu", "300u" }, { "memory", "0.5" } });
        QTest::newRow("exact: overhead added before rounding") << s << list(r, { { "cpu", "1m" }, { "memory", "1" } });
    }
    {
        PodResourceSpec s;
        s.containers = { container(r, { { "cpu", "1n" } }), container(r, { { "cpu", "2" } }) };
        QTest::newRow("exact: a nanocore still rounds up once") << s << list(r, { { "cpu", "2001m" } });
    }
}

void TestPodRequest::effectiveRequest()
{
    QFETCH(PodResourceSpec, spec);
    QFETCH(ResourceList, expected);
    ResourceRegistry registry;
    registry.keyFor("nvidia.com/mig-1g.10gb");
    registry.keyFor("hugepages-2Mi");
    registry.keyFor("vpc.amazonaws.com/efa");
    const ResourceList actual = effectivePodRequest(spec, registry);
    const QString diff = differences(registry, actual, expected);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// Sidecars only count against init containers declared after them.
void TestPodRequest::sidecarOrderMatters()
{
    ResourceRegistry r;
    PodResourceSpec before;
    before.initContainers = { sidecar(r, { { "cpu", "500m" } }), container(r, { { "cpu", "2" } }) };
    before.containers = { container(r, { { "cpu", "1" } }) };
    PodResourceSpec after;
    after.initContainers = { container(r, { { "cpu", "2" } }), sidecar(r, { { "cpu", "500m" } }) };
    after.containers = before.containers;
    QCOMPARE(effectivePodRequest(before, r).get(static_cast<ResourceKey>(CoreResource::Cpu)).first, 2500);
    QCOMPARE(effectivePodRequest(after, r).get(static_cast<ResourceKey>(CoreResource::Cpu)).first, 2000);
}

// Pod-level replacement of hugepages needs the registry to tell which key is hugepages;
// a registry whose extended keys come in another order must give the same answer.
void TestPodRequest::registryOrderDoesNotMatter()
{
    ResourceRegistry r;
    r.keyFor("example.com/foo");
    PodResourceSpec s;
    s.containers = { container(r, { { "hugepages-1Gi", "1Gi" }, { "example.com/foo", "1" } }) };
    s.podRequests = exact(r, { { "hugepages-1Gi", "2Gi" }, { "example.com/foo", "9" } });
    const ResourceList got = effectivePodRequest(s, r);
    QCOMPARE(got.get(static_cast<ResourceKey>(r.find("hugepages-1Gi"))).first, 2LL << 30);
    QCOMPARE(got.get(static_cast<ResourceKey>(r.find("example.com/foo"))).first, 1);
}

void TestPodRequest::clearResetsEverything()
{
    ResourceRegistry r;
    PodResourceSpec s;
    s.containers = { container(r, { { "cpu", "1" } }) };
    s.initContainers = { sidecar(r, { { "cpu", "1" } }) };
    s.podRequests = exact(r, { { "cpu", "1" } });
    s.podLimits = exact(r, { { "cpu", "1" } });
    s.overhead = exact(r, { { "cpu", "1" } });
    s.clear();
    QVERIFY(effectivePodRequest(s, r).empty());
}

QTEST_GUILESS_MAIN(TestPodRequest)
#include "tst_podrequest.moc"
