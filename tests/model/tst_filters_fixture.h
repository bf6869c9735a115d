// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small clusters for the filter and ledger tests, built straight into a ClusterStore with
// NodeRecord / PodRecord (no importer): a node has cpu, memory, pods, a hostname and a zone;
// a pod has cpu and memory requests. Tests then adjust the records before adding them.

#include "common/records.h"
#include "common/units.h"
#include "model/clusterstore.h"
#include "model/scheduling/filters.h"

#include <QStringList>

#include <string>

namespace fixture {

using namespace fleet::model;

using fleet::testing::kGi; // qint64, as QtTest columns of memory are

inline NodeRecord node(const std::string& name, std::int64_t cpuMilli = 4000, std::int64_t memoryBytes = 16 * kGi,
    std::int64_t pods = 110, const std::string& zone = "a")
{
    NodeRecord r = fleet::testing::nodeRecord(name, cpuMilli, memoryBytes, pods);
    r.labels = { { "kubernetes.io/hostname", name }, { "topology.kubernetes.io/zone", zone } };
    r.allocatable.setCore(CoreResource::EphemeralStorage, 100 * kGi);
    r.capacity = r.allocatable;
    return r;
}

inline PodRecord pod(const std::string& name, const std::string& nodeName = {}, std::int64_t cpuMilli = 100,
    std::int64_t memoryBytes = kGi / 4, const std::string& ns = "default")
{
    PodRecord r = fleet::testing::podRecord(
        ns, name, nodeName, cpuMilli, memoryBytes, nodeName.empty() ? PodPhase::Pending : PodPhase::Running);
    r.ownerKind = OwnerKind::ReplicaSet;
    r.ownerName = name + "-rs";
    return r;
}

/// The codes of a verdict, in its order.
inline QStringList codes(const Verdict& v)
{
    QStringList out;
    for (const Reason& r : v.reasons)
        out << QString::fromStdString(r.code());
    return out;
}

/// The pod named `name` (first match), or an invalid id.
inline PodId findPod(const ClusterStore& store, std::string_view name)
{
    for (std::uint32_t p = 0; p < store.podCount(); ++p)
        if (store.podName(PodId(p)) == name)
            return PodId(p);
    return {};
}

} // namespace fixture
