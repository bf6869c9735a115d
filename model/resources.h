// SPDX-License-Identifier: Apache-2.0
#pragma once
// Resources and their amounts, in exact integer units.
//
// Every entity carries a fixed vector of five core resources (cpu, memory, gpu, pods,
// ephemeral-storage) and, sparsely, extended resources registered by name
// (nvidia.com/mig-1g.10gb, aws.amazon.com/neuron, vpc.amazonaws.com/efa, ...).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fleet::model {

/// The core resources, indices into ResourceVector.
/// Units: cpu millicores; memory bytes; gpu milli-GPU (1000 = one whole GPU, so that
/// shared and fractional GPUs are exact); pods a count; ephemeral-storage bytes.
enum class CoreResource : std::uint8_t { Cpu = 0, Memory = 1, Gpu = 2, Pods = 3, EphemeralStorage = 4 };
inline constexpr std::size_t kCoreResourceCount = 5;

/// Amounts of the five core resources; value type, 40 bytes.
struct ResourceVector {
    std::array<std::int64_t, kCoreResourceCount> amounts{};

    [[nodiscard]] constexpr std::int64_t& operator[](CoreResource r) noexcept { return amounts[static_cast<std::size_t>(r)]; }
    [[nodiscard]] constexpr std::int64_t operator[](CoreResource r) const noexcept { return amounts[static_cast<std::size_t>(r)]; }
    constexpr ResourceVector& operator+=(const ResourceVector& o) noexcept
    {
        for (std::size_t i = 0; i < kCoreResourceCount; ++i)
            amounts[i] += o.amounts[i];
        return *this;
    }
    constexpr ResourceVector& operator-=(const ResourceVector& o) noexcept
    {
        for (std::size_t i = 0; i < kCoreResourceCount; ++i)
            amounts[i] -= o.amounts[i];
        return *this;
    }
    constexpr bool operator==(const ResourceVector&) const noexcept = default;
};

/// Index of a resource in the registry: 0..4 are the core resources, then extended ones.
using ResourceKey = std::uint16_t;
inline constexpr ResourceKey kFirstExtendedKey = kCoreResourceCount;

/// How a parsed Quantity is stored: Milli means parseQuantityMilli(), Units
/// parseQuantity(), and ThousandUnits units times 1000 (whole GPUs into milli-GPU).
enum class QuantityScale : std::uint8_t { Units, Milli, ThousandUnits };
/// How a Kubernetes resource name maps into the model: a core resource (`core`) or an
/// extended one (`isCore` false), and the scale of its amounts.
struct ResourceMapping {
    bool isCore = false;
    CoreResource core = CoreResource::Cpu;
    QuantityScale scale = QuantityScale::Units;
};

/// Maps a Kubernetes resource name to the model:
/// cpu -> Cpu (millicores); memory -> Memory (bytes); ephemeral-storage -> bytes; pods;
/// nvidia.com/gpu, amd.com/gpu -> Gpu (x1000); alibabacloud.com/gpu-milli -> Gpu (as is);
/// anything else is an extended resource in whole units (Quantity.Value()).
/// Source: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
[[nodiscard]] ResourceMapping mapResourceName(std::string_view name) noexcept;

/// The names of the extended resources seen so far. Not thread-safe for writes.
class ResourceRegistry {
public:
    /// A registry holding the five core resources under keys 0..4.
    ResourceRegistry();
    /// Returns the key for `name`, registering it if new. Core names (and their aliases in
    /// mapResourceName(), e.g. nvidia.com/gpu) map to their core key.
    ResourceKey keyFor(std::string_view name);
    /// Returns the key for `name` or -1 when it was never registered.
    [[nodiscard]] int find(std::string_view name) const;
    /// The name of `key`: coreResourceName() for 0..4, else the name first registered.
    /// Throws std::out_of_range for a key never handed out.
    [[nodiscard]] const std::string& name(ResourceKey key) const { return m_names.at(key); }
    /// Number of keys handed out, core ones included.
    [[nodiscard]] std::size_t size() const noexcept { return m_names.size(); }

private:
    std::vector<std::string> m_names;
    std::unordered_map<std::string, ResourceKey> m_byName;
};

/// The canonical names of the core resources as the model reports them: "cpu", "memory",
/// "gpu", "pods", "ephemeral-storage". Thread: any.
[[nodiscard]] std::string_view coreResourceName(CoreResource r) noexcept;

/// A resource list as read from a spec (a container's requests, limits, a node's
/// allocatable): core amounts with a presence mask, plus extended amounts by key.
/// Used while importing; the store keeps the compact form.
struct ResourceList {
    ResourceVector core;
    std::uint8_t presentMask = 0;
    std::vector<std::pair<ResourceKey, std::int64_t>> extended;

    void clear() noexcept
    {
        core = {};
        presentMask = 0;
        extended.clear();
    }
    /// Whether core resource `r` was set (an amount of 0 may be present).
    [[nodiscard]] bool has(CoreResource r) const noexcept { return presentMask & (1u << static_cast<unsigned>(r)); }
    /// Sets core resource `r` to `v` (model units) and marks it present.
    void setCore(CoreResource r, std::int64_t v) noexcept
    {
        core[r] = v;
        presentMask |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(r));
    }
    /// Sets a value by registry key (core or extended), replacing an earlier one.
    void set(ResourceKey key, std::int64_t v);
    /// Value by registry key, and whether it is present.
    [[nodiscard]] std::pair<std::int64_t, bool> get(ResourceKey key) const noexcept;
    [[nodiscard]] bool empty() const noexcept { return presentMask == 0 && extended.empty(); }
};

} // namespace fleet::model
