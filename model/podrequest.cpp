#include "podrequest.h"

#include <algorithm>

namespace fleet::model {
namespace {

// requests with limits filling in for missing requests
ResourceList defaultedRequests(const ContainerResources& c)
{
    ResourceList r = c.requests;
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (!r.has(res) && c.limits.has(res))
            r.setCore(res, c.limits.core[res]);
    }
    for (const auto& [k, v] : c.limits.extended)
        if (!r.get(k).second)
            r.set(k, v);
    return r;
}

void addInto(ResourceList& into, const ResourceList& add)
{
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (add.has(res))
            into.setCore(res, into.core[res] + add.core[res]);
    }
    for (const auto& [k, v] : add.extended)
        into.set(k, into.get(k).first + v);
}

void maxInto(ResourceList& into, const ResourceList& other)
{
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (other.has(res) && (!into.has(res) || other.core[res] > into.core[res]))
            into.setCore(res, other.core[res]);
    }
    for (const auto& [k, v] : other.extended) {
        const auto [cur, has] = into.get(k);
        if (!has || v > cur)
            into.set(k, v);
    }
}

bool isPodLevelResource(ResourceKey key, const ResourceRegistry& registry)
{
    if (key == static_cast<ResourceKey>(CoreResource::Cpu) || key == static_cast<ResourceKey>(CoreResource::Memory))
        return true;
    return key >= kFirstExtendedKey && key < registry.size() && registry.name(key).starts_with("hugepages-");
}

} // namespace

ResourceList effectivePodRequest(const PodResourceSpec& spec, const ResourceRegistry& registry)
{
    ResourceList reqs;
    for (const auto& c : spec.containers)
        addInto(reqs, defaultedRequests(c));

    ResourceList sidecars;  // restartable init containers seen so far
    ResourceList initPeak;  // max over init containers
    for (const auto& c : spec.initContainers) {
        ResourceList r = defaultedRequests(c);
        if (c.restartable) {
            addInto(reqs, r);
            addInto(sidecars, r);
            r = sidecars;
        } else {
            addInto(r, sidecars);
        }
        maxInto(initPeak, r);
    }
    maxInto(reqs, initPeak);

    // Pod-level resources (KEP-2837): the pod-level request (defaulting to the pod-level
    // limit) replaces the container aggregate for the resources it supports.
    ResourceList podLevel = defaultedRequests({spec.podRequests, spec.podLimits, false});
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto key = static_cast<ResourceKey>(i);
        const auto [v, has] = podLevel.get(key);
        if (has && isPodLevelResource(key, registry))
            reqs.set(key, v);
    }
    for (const auto& [k, v] : podLevel.extended)
        if (isPodLevelResource(k, registry))
            reqs.set(k, v);

    addInto(reqs, spec.overhead);
    return reqs;
}

} // namespace fleet::model
