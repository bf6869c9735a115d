// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the ClusterStore tests (tst_clusterstore.cpp, tst_clusterstoreinterning.cpp):
// NodeRecord and PodRecord builders (over tests/common/records.h) and ResourceVector comparison with a readable failure.
// Thread: the test's.

#include "common/records.h"
#include "common/units.h"
#include "model/clusterstore.h"

#include <QString>
#include <QtTest>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fleet::testing {

using namespace fleet::model;


inline NodeRecord node(const std::string& name, std::int64_t cpuMilli, std::int64_t memoryBytes, const std::string& zone = {})
{
    NodeRecord r = nodeRecord(name, cpuMilli, memoryBytes);
    if (!zone.empty())
        r.labels.emplace_back("topology.kubernetes.io/zone", zone);
    return r;
}

inline PodRecord pod(const std::string& ns, const std::string& name, const std::string& nodeName, std::int64_t cpuMilli,
    std::int64_t memoryBytes, PodPhase phase = PodPhase::Running)
{
    return podRecord(ns, name, nodeName, cpuMilli, memoryBytes, phase);
}

inline ResourceVector vec(std::int64_t cpu, std::int64_t memory, std::int64_t gpu, std::int64_t pods, std::int64_t storage = 0)
{
    ResourceVector v;
    v[CoreResource::Cpu] = cpu;
    v[CoreResource::Memory] = memory;
    v[CoreResource::Gpu] = gpu;
    v[CoreResource::Pods] = pods;
    v[CoreResource::EphemeralStorage] = storage;
    return v;
}

inline QString show(const ResourceVector& v)
{
    return QStringLiteral("cpu %1 memory %2 gpu %3 pods %4 storage %5")
        .arg(v[CoreResource::Cpu])
        .arg(v[CoreResource::Memory])
        .arg(v[CoreResource::Gpu])
        .arg(v[CoreResource::Pods])
        .arg(v[CoreResource::EphemeralStorage]);
}

#define COMPARE_VECTOR(actual, expected)                                                                                         \
    QVERIFY2((actual) == (expected), qPrintable(show(actual) + QStringLiteral(" != ") + show(expected)))

inline std::vector<std::uint32_t> ids(std::span<const PodId> pods)
{
    std::vector<std::uint32_t> out;
    for (PodId p : pods)
        out.push_back(p.value);
    return out;
}

} // namespace fleet::testing
