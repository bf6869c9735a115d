// SPDX-License-Identifier: Apache-2.0
#pragma once
// Prices of nodes by region, instance type and capacity type, in US dollars per hour.
// Plain data: the shipped table and the user's override file are read by
// importers/pricing/pricetableloader.h. Thread: const access from any thread.

#include "model/clusterstore.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace fleet::model {

/// How a node is bought. Reserved covers EC2 Capacity Blocks for ML (EKS
/// CAPACITY_BLOCK) and Karpenter's "reserved" (capacity reservations): both are paid
/// before use, so their idle capacity costs nothing more (isPrepaid()).
enum class CapacityType : std::uint8_t { OnDemand, Spot, Reserved };
/// "on-demand", "spot", "reserved": the spelling of the price table's capacity_type column.
[[nodiscard]] std::string_view capacityTypeName(CapacityType c) noexcept;
/// Parses a capacity_type cell: on-demand, spot, reserved, capacity-block (= reserved);
/// case-insensitive. Empty optional for anything else.
[[nodiscard]] std::optional<CapacityType> capacityTypeFromName(std::string_view name) noexcept;
/// True for capacity paid in advance (Reserved).
[[nodiscard]] constexpr bool isPrepaid(CapacityType c) noexcept
{
    return c == CapacityType::Reserved;
}

/// The node's capacity type from its labels, the first that is present:
/// eks.amazonaws.com/capacityType (ON_DEMAND, SPOT, CAPACITY_BLOCK; source: Amazon EKS
/// user guide, "Managed node groups", capacity types) then karpenter.sh/capacity-type
/// (on-demand, spot, reserved; source: Karpenter docs, "NodePools", well-known labels).
/// OnDemand when neither is present or the value is not one of those.
[[nodiscard]] CapacityType nodeCapacityType(const ClusterStore& store, NodeId n) noexcept;

/// The region a node's price is looked up in: its topology.kubernetes.io/region label
/// ("" when absent).
[[nodiscard]] std::string_view nodeRegion(const ClusterStore& store, NodeId n) noexcept;

/// A table of hourly prices. A row with region "*" applies to every region that has no
/// row of its own for that instance type and capacity type.
class PriceTable {
public:
    /// Sets (or replaces) the price of (region, instanceType, capacity), in $/h (>= 0).
    void set(std::string_view region, std::string_view instanceType, CapacityType capacity, double dollarsPerHour);
    /// The price of (region, instanceType, capacity), else of ("*", instanceType, capacity),
    /// else empty. O(1) on average.
    [[nodiscard]] std::optional<double> find(std::string_view region, std::string_view instanceType, CapacityType capacity) const;
    /// Number of rows.
    [[nodiscard]] std::size_t size() const noexcept { return m_prices.size(); }
    /// Copies every row of `other` into this table, replacing rows with the same key.
    void overrideWith(const PriceTable& other);

private:
    static std::string key(std::string_view region, std::string_view instanceType, CapacityType capacity);
    std::unordered_map<std::string, double> m_prices;
};

} // namespace fleet::model
