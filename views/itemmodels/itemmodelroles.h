// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared pieces of the exploring item models: the numeric sort role and the one rule for
// writing a resource amount (model/figures.h) by registry key.

#include "model/clusterstore.h"

#include <QString>
#include <Qt>

#include <cmath>
#include <cstdint>

namespace fleet::views {

/// The role every exploring model answers with a sortable value: a number (qint64 or double)
/// for amounts, shares, counts and times, the display string for text. A proxy sorts by it
/// (QSortFilterProxyModel::setSortRole(kSortRole)), so "9 cores" sorts before "10 cores".
/// A share that does not apply (no allocatable) sorts as -1, below 0%.
inline constexpr int kSortRole = Qt::UserRole + 1;

/// `amount` of resource `key` written by the figures rule: cpu as cores, memory and
/// ephemeral-storage in binary bytes, gpu as GPUs (from milli-GPU), pods and extended
/// resources as counts. Thread: any reader of the store.
[[nodiscard]] QString formatResourceAmount(const model::ClusterStore& store, model::ResourceKey key, std::int64_t amount);

/// The name of resource `key` as the API spells it ("cpu", "nvidia.com/mig-1g.10gb").
[[nodiscard]] QString resourceName(const model::ClusterStore& store, model::ResourceKey key);

/// requested / allocatable, or NaN when allocatable is 0 or less (nothing to share).
[[nodiscard]] inline double requestedShare(std::int64_t requested, std::int64_t allocatable) noexcept
{
    return allocatable > 0 ? static_cast<double>(requested) / static_cast<double>(allocatable) : std::nan("");
}

/// formatShare() of `share` as a QString ("45.3%", "n/a" for NaN).
[[nodiscard]] QString shareText(double share);
/// The sort value of a share: the share, or -1 for NaN.
[[nodiscard]] inline double shareSortValue(double share) noexcept
{
    return std::isnan(share) ? -1.0 : share;
}

} // namespace fleet::views
