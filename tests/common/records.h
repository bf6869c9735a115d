// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place a test builds a bare NodeRecord or PodRecord for a ClusterStore (no importer):
// the fields every hand-made cluster sets. The test fixtures (tests/model/storerecords.h,
// tests/model/tst_filters_fixture.h, tests/model/planfixture.h) add their labels, owners and
// capacities on top. Thread: the test's.

#include "model/clusterstore.h"

#include <cstdint>
#include <string>

namespace fleet::testing {

/// A Ready node named `name` with allocatable cpu (millicores), memory (bytes) and pods; no
/// labels, capacity left empty.
inline model::NodeRecord nodeRecord(const std::string& name, std::int64_t cpuMilli, std::int64_t memoryBytes, std::int64_t pods = 110)
{
    model::NodeRecord r;
    r.name = name;
    r.allocatable.setCore(model::CoreResource::Cpu, cpuMilli);
    r.allocatable.setCore(model::CoreResource::Memory, memoryBytes);
    r.allocatable.setCore(model::CoreResource::Pods, pods);
    r.ready = model::Readiness::True;
    return r;
}

/// A pod ns/name bound to `nodeName` (empty: not bound) in `phase`, requesting cpu
/// (millicores) and memory (bytes); no owner, no labels.
inline model::PodRecord podRecord(const std::string& ns, const std::string& name, const std::string& nodeName, std::int64_t cpuMilli,
    std::int64_t memoryBytes, model::PodPhase phase)
{
    model::PodRecord r;
    r.namespaceName = ns;
    r.name = name;
    r.nodeName = nodeName;
    r.phase = phase;
    r.request.setCore(model::CoreResource::Cpu, cpuMilli);
    r.request.setCore(model::CoreResource::Memory, memoryBytes);
    return r;
}

} // namespace fleet::testing
