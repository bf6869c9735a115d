// SPDX-License-Identifier: Apache-2.0
#include "pricetable.h"

#include <cctype>

namespace fleet::model {

namespace {
bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string_view labelValue(const ClusterStore& store, NodeId n, std::string_view key) noexcept
{
    for (const Label& l : store.nodeLabels(n))
        if (store.str(l.key) == key)
            return store.str(l.value);
    return {};
}
} // namespace

std::string_view capacityTypeName(CapacityType c) noexcept
{
    switch (c) {
    case CapacityType::OnDemand:
        return "on-demand";
    case CapacityType::Spot:
        return "spot";
    case CapacityType::Reserved:
        return "reserved";
    }
    return "?";
}

std::optional<CapacityType> capacityTypeFromName(std::string_view name) noexcept
{
    if (equalsIgnoreCase(name, "on-demand") || equalsIgnoreCase(name, "ON_DEMAND"))
        return CapacityType::OnDemand;
    if (equalsIgnoreCase(name, "spot"))
        return CapacityType::Spot;
    if (equalsIgnoreCase(name, "reserved") || equalsIgnoreCase(name, "capacity-block")
        || equalsIgnoreCase(name, "CAPACITY_BLOCK"))
        return CapacityType::Reserved;
    return std::nullopt;
}

CapacityType nodeCapacityType(const ClusterStore& store, NodeId n) noexcept
{
    std::string_view eks;
    std::string_view karpenter;
    for (const Label& l : store.nodeLabels(n)) {
        const std::string_view key = store.str(l.key);
        if (key == "eks.amazonaws.com/capacityType")
            eks = store.str(l.value);
        else if (key == "karpenter.sh/capacity-type")
            karpenter = store.str(l.value);
    }
    if (eks == "ON_DEMAND")
        return CapacityType::OnDemand;
    if (eks == "SPOT")
        return CapacityType::Spot;
    if (eks == "CAPACITY_BLOCK")
        return CapacityType::Reserved;
    if (karpenter == "spot")
        return CapacityType::Spot;
    if (karpenter == "reserved")
        return CapacityType::Reserved;
    return CapacityType::OnDemand;
}

std::string_view nodeRegion(const ClusterStore& store, NodeId n) noexcept
{
    return labelValue(store, n, "topology.kubernetes.io/region");
}

std::string PriceTable::key(std::string_view region, std::string_view instanceType, CapacityType capacity)
{
    std::string k;
    k.reserve(region.size() + instanceType.size() + 3);
    k.append(region).push_back('\x1f');
    k.append(instanceType).push_back('\x1f');
    k.push_back(static_cast<char>('0' + static_cast<int>(capacity)));
    return k;
}

void PriceTable::set(std::string_view region, std::string_view instanceType, CapacityType capacity, double dollarsPerHour)
{
    m_prices[key(region, instanceType, capacity)] = dollarsPerHour;
}

std::optional<double> PriceTable::find(std::string_view region, std::string_view instanceType, CapacityType capacity) const
{
    if (auto it = m_prices.find(key(region, instanceType, capacity)); it != m_prices.end())
        return it->second;
    if (auto it = m_prices.find(key("*", instanceType, capacity)); it != m_prices.end())
        return it->second;
    return std::nullopt;
}

void PriceTable::overrideWith(const PriceTable& other)
{
    for (const auto& [k, v] : other.m_prices)
        m_prices[k] = v;
}

} // namespace fleet::model
