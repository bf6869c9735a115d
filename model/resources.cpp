// SPDX-License-Identifier: Apache-2.0
#include "resources.h"

#include <algorithm>

namespace fleet::model {

ResourceMapping mapResourceName(std::string_view name) noexcept
{
    ResourceMapping m;
    if (name == "cpu") {
        m = {true, CoreResource::Cpu, QuantityScale::Milli};
    } else if (name == "memory") {
        m = {true, CoreResource::Memory, QuantityScale::Units};
    } else if (name == "ephemeral-storage") {
        m = {true, CoreResource::EphemeralStorage, QuantityScale::Units};
    } else if (name == "pods") {
        m = {true, CoreResource::Pods, QuantityScale::Units};
    } else if (name == "nvidia.com/gpu" || name == "amd.com/gpu") {
        m = {true, CoreResource::Gpu, QuantityScale::ThousandUnits};
    } else if (name == "alibabacloud.com/gpu-milli") {
        m = {true, CoreResource::Gpu, QuantityScale::Units};
    }
    return m;
}

std::string_view coreResourceName(CoreResource r) noexcept
{
    switch (r) {
    case CoreResource::Cpu: return "cpu";
    case CoreResource::Memory: return "memory";
    case CoreResource::Gpu: return "gpu";
    case CoreResource::Pods: return "pods";
    case CoreResource::EphemeralStorage: return "ephemeral-storage";
    }
    return "?";
}

ResourceRegistry::ResourceRegistry()
{
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        m_names.emplace_back(coreResourceName(static_cast<CoreResource>(i)));
        m_byName.emplace(m_names.back(), static_cast<ResourceKey>(i));
    }
}

ResourceKey ResourceRegistry::keyFor(std::string_view name)
{
    const ResourceMapping m = mapResourceName(name);
    if (m.isCore)
        return static_cast<ResourceKey>(m.core);
    if (auto it = m_byName.find(std::string(name)); it != m_byName.end())
        return it->second;
    const auto key = static_cast<ResourceKey>(m_names.size());
    m_names.emplace_back(name);
    m_byName.emplace(m_names.back(), key);
    return key;
}

int ResourceRegistry::find(std::string_view name) const
{
    const ResourceMapping m = mapResourceName(name);
    if (m.isCore)
        return static_cast<int>(m.core);
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? -1 : it->second;
}

void ResourceList::set(ResourceKey key, std::int64_t v)
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

std::pair<std::int64_t, bool> ResourceList::get(ResourceKey key) const noexcept
{
    if (key < kFirstExtendedKey) {
        const auto r = static_cast<CoreResource>(key);
        return {core[r], has(r)};
    }
    for (const auto& [k, v] : extended)
        if (k == key)
            return {v, true};
    return {0, false};
}

} // namespace fleet::model
