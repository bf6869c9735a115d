// SPDX-License-Identifier: Apache-2.0
#include "podrequest.h"

#include <algorithm>
#include <limits>
#include <string>

namespace fleet::model {
namespace {

// requests with limits filling in for missing requests
ExactResourceList defaultedRequests(const ContainerResources& c)
{
    ExactResourceList r = c.requests;
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (!r.has(res) && c.limits.has(res))
            r.setCore(res, c.limits.core[i]);
    }
    for (const auto& [k, v] : c.limits.extended)
        if (!r.get(k).second)
            r.set(k, v);
    return r;
}

void addInto(ExactResourceList& into, const ExactResourceList& add)
{
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (add.has(res))
            into.setCore(res, into.core[i] + add.core[i]);
    }
    for (const auto& [k, v] : add.extended)
        into.set(k, into.get(k).first + v);
}

void maxInto(ExactResourceList& into, const ExactResourceList& other)
{
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (other.has(res) && (!into.has(res) || other.core[i] > into.core[i]))
            into.setCore(res, other.core[i]);
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

void ExactResourceList::set(ResourceKey key, QuantityNanos v)
{
    if (key < kFirstExtendedKey) {
        setCore(static_cast<CoreResource>(key), v);
        return;
    }
    auto it = std::find_if(extended.begin(), extended.end(), [key](const auto& e) { return e.first == key; });
    if (it != extended.end())
        it->second = v;
    else
        extended.emplace_back(key, v);
}

std::pair<QuantityNanos, bool> ExactResourceList::get(ResourceKey key) const noexcept
{
    if (key < kFirstExtendedKey) {
        const auto r = static_cast<CoreResource>(key);
        return { core[key], has(r) };
    }
    for (const auto& [k, v] : extended)
        if (k == key)
            return { v, true };
    return { 0, false };
}

QuantityNanos exactQuantity(std::string_view text, QuantityScale scale)
{
    switch (scale) {
    case QuantityScale::Milli:
        return parseQuantityNanos(text) * 1000;
    case QuantityScale::Units:
        return parseQuantityNanos(text);
    case QuantityScale::ThousandUnits: {
        const std::int64_t units = parseQuantity(text);
        if (units > std::numeric_limits<std::int64_t>::max() / 1000 || units < std::numeric_limits<std::int64_t>::min() / 1000)
            throw QuantityError("invalid quantity \"" + std::string(text) + "\": value out of range");
        return QuantityNanos { units } * 1000 * kNanosPerUnit;
    }
    }
    return 0;
}

ResourceList effectivePodRequest(const PodResourceSpec& spec, const ResourceRegistry& registry)
{
    ExactResourceList reqs;
    for (const auto& c : spec.containers)
        addInto(reqs, defaultedRequests(c));

    ExactResourceList sidecars; // restartable init containers seen so far
    ExactResourceList initPeak; // max over init containers
    for (const auto& c : spec.initContainers) {
        ExactResourceList r = defaultedRequests(c);
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
    ExactResourceList podLevel = defaultedRequests({spec.podRequests, spec.podLimits, false});
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

    // Rounded once, up, as MilliValue() / Value() of the exact sum.
    ResourceList out;
    for (std::size_t i = 0; i < kCoreResourceCount; ++i)
        if (reqs.has(static_cast<CoreResource>(i)))
            out.setCore(static_cast<CoreResource>(i), nanosToUnits(reqs.core[i]));
    for (const auto& [k, v] : reqs.extended)
        out.set(k, nanosToUnits(v));
    return out;
}

} // namespace fleet::model
