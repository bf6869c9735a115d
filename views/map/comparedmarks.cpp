// SPDX-License-Identifier: Apache-2.0
#include "comparedmarks.h"

#include "model/clusterstore.h"
#include "model/topology.h"

#include <algorithm>

namespace fleet::views {

namespace {

// The value `node` of `store` has for a topology level `key`, as Topology::build() names the
// domain: the label's value, the GPU model or the instance type for the pseudo keys, and
// "(no KEY)" when it has none.
std::string levelValue(const model::ClusterStore& store, model::NodeId node, const std::string& key)
{
    std::string_view value;
    if (key == model::TopologySpec::kGpuModelKey)
        value = store.nodeGpuModel(node);
    else if (key == model::TopologySpec::kInstanceTypeKey)
        value = store.nodeInstanceType(node);
    else
        for (const model::Label& l : store.nodeLabels(node))
            if (store.str(l.key) == key)
                value = store.str(l.value);
    return value.empty() ? "(no " + key + ")" : std::string(value);
}

double requestedShare(const model::ClusterStore& store, model::NodeId n)
{
    using model::CoreResource;
    const model::ResourceVector& req = store.nodeRequested(n);
    const model::ResourceVector& alloc = store.nodeAllocatable(n);
    auto share = [&](CoreResource r) { return alloc[r] > 0 ? static_cast<double>(req[r]) / static_cast<double>(alloc[r]) : 0.0; };
    const double s = alloc[CoreResource::Gpu] > 0 ? share(CoreResource::Gpu) : std::max(share(CoreResource::Cpu), share(CoreResource::Memory));
    return std::clamp(s, 0.0, 1.0);
}

} // namespace

ComparedMarks makeComparedMarks(const model::ClusterStore& before, std::shared_ptr<const model::Topology> topology,
    const model::ClusterStore& after, const std::vector<std::string>& removedNames, const std::vector<std::string>& addedNames)
{
    ComparedMarks marks;
    for (const std::string& name : removedNames)
        if (const model::NodeId n = before.findNode(name); n.isValid())
            marks.removed.push_back(n);
    std::sort(marks.removed.begin(), marks.removed.end(), [](model::NodeId a, model::NodeId b) { return a.value < b.value; });
    for (const std::string& name : addedNames) {
        const model::NodeId n = after.findNode(name);
        if (!n.isValid())
            continue;
        ComparedMarks::AddedNode added { name, model::DomainId(), requestedShare(after, n) };
        if (topology) {
            // Down the tree while a child domain has the node's value at its level.
            model::DomainId domain = topology->root();
            for (const std::string& key : topology->levelKeys()) {
                const std::string value = levelValue(after, n, key);
                const auto children = topology->domainChildren(domain);
                const auto child = std::find_if(children.begin(), children.end(), [&](model::DomainId c) { return topology->domainName(c) == value; });
                if (child == children.end())
                    break;
                domain = *child;
            }
            added.domain = domain;
        }
        marks.added.push_back(std::move(added));
    }
    marks.topology = std::move(topology);
    return marks;
}

} // namespace fleet::views
