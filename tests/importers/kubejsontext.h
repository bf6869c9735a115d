// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the kubectl JSON importer's tests (tst_kubejson.cpp, tst_kubejsonwindow.cpp): the
// fixture folders and small JSON builders. Thread: the test's.

#include "importers/kube/kubejson.h"
#include "model/clusterstore.h"

#include <cstdint>
#include <string>

namespace fleet::testing {

using model::PodId;

inline const std::string kShared = FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks/";
inline const std::string kData = FLEET_TEST_DATA_DIR "/kube/";

/// A Pod on node "n1" in namespace "ns" with `spec` (JSON members, no braces) and `phase`.
inline std::string podJson(const std::string& spec, const std::string& phase = "Running", const std::string& name = "p")
{
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"ns"},"spec":{"nodeName":"n1",)"
        + spec + R"(},"status":{"phase":")" + phase + R"("}})";
}

/// Node "n1": 64 CPUs, 256 GiB, 110 pods allocatable.
inline const std::string kNode1
    = R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"64","memory":"256Gi","pods":"110"}}})";

/// Imports `json` as the file "case.json", with windows of `window` bytes (0: the default).
/// Throws ImportError as importKubectlJsonText does.
inline void importText(const std::string& json, model::ClusterStore& store, importers::ImportReport& report, std::size_t window = 0)
{
    importers::KubectlJsonOptions options;
    if (window > 0)
        options.windowBytes = window;
    importers::importKubectlJsonText(json, "case.json", store, report, nullptr, options);
}

/// The pod's request of the extended resource `name`, or -1 when it has none.
inline std::int64_t extendedRequest(const model::ClusterStore& store, PodId p, const std::string& name)
{
    const int key = store.resources().find(name);
    for (const auto& [k, v] : store.podExtendedRequest(p))
        if (k == key)
            return v;
    return -1;
}

} // namespace fleet::testing
