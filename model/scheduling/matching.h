// SPDX-License-Identifier: Apache-2.0
#pragma once
// The matching rules the filters share: tolerations against taints, label selectors against
// pod labels, node selector terms against node labels. Internal to model/scheduling.
// Sources:
//   Toleration.ToleratesTaint: k8s.io/api/core/v1/toleration.go
//   FindMatchingUntoleratedTaint: k8s.io/component-helpers/scheduling/corev1/helpers.go
//   LabelSelectorAsSelector (null selector matches nothing, {} everything):
//     k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go
//   NodeSelectorRequirementsAsSelector, matchFields metadata.name:
//     k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
// Thread: any (pure functions).

#include "model/clusterstore.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace fleet::model::scheduling {

/// Toleration.ToleratesTaint: an empty effect matches every effect; an empty key matches every
/// key (with Exists: tolerates everything); Equal compares values, Exists does not.
[[nodiscard]] bool toleratesTaint(const Toleration& t, const Taint& taint) noexcept;
[[nodiscard]] bool toleratesTaint(std::span<const Toleration> tolerations, const Taint& taint) noexcept;
/// NoSchedule and NoExecute: the effects the TaintToleration filter (and PodTopologySpread's
/// nodeTaintsPolicy: Honor) consider; PreferNoSchedule never blocks.
[[nodiscard]] constexpr bool blocksScheduling(TaintEffect e) noexcept
{
    return e == TaintEffect::NoSchedule || e == TaintEffect::NoExecute;
}

/// The value of `key` in `labels`, or an invalid id.
[[nodiscard]] StringId labelValue(std::span<const Label> labels, StringId key) noexcept;

/// A metav1.LabelSelector against a label set: requirements ANDed; NotIn and DoesNotExist match
/// a missing key. `null` matches nothing; no requirements match everything.
[[nodiscard]] bool selectorMatches(const InternedSelector& selector, std::span<const Label> labels) noexcept;

/// Parses a base-10 int64 as strconv.ParseInt does (optional sign, digits only).
[[nodiscard]] bool parseInt64(std::string_view text, std::int64_t& out) noexcept;

/// One NodeSelectorRequirement (NodeSelectorRequirementsAsSelector): In, NotIn, Exists,
/// DoesNotExist, Gt, Lt (one integer value, compared with the label's integer value; a label
/// that is not an integer, or a malformed requirement, does not match); NotIn and DoesNotExist
/// match a missing label. matchFields: only metadata.name with In / NotIn.
/// `Node` provides `StringId label(StringId key)`, `StringId name()` and
/// `std::string_view text(StringId)`.
template <class Node>
[[nodiscard]] bool requirementMatches(const NodeSelectorRequirement& r, const Node& node)
{
    if (r.matchField) {
        // Only metadata.name, only In / NotIn (nodeaffinity.go: other fields or operators are
        // errors, and a term with an error matches nothing).
        if (node.text(r.key) != "metadata.name" || r.values.size() != 1)
            return false;
        const bool equal = node.name() == r.values.front();
        if (r.op == SelectorOperator::In)
            return equal;
        if (r.op == SelectorOperator::NotIn)
            return !equal;
        return false;
    }
    const StringId v = node.label(r.key);
    switch (r.op) {
    case SelectorOperator::In:
        for (StringId x : r.values)
            if (v.isValid() && x == v)
                return true;
        return false;
    case SelectorOperator::NotIn:
        if (!v.isValid())
            return true;
        for (StringId x : r.values)
            if (x == v)
                return false;
        return true;
    case SelectorOperator::Exists: return v.isValid();
    case SelectorOperator::DoesNotExist: return !v.isValid();
    case SelectorOperator::Gt:
    case SelectorOperator::Lt: {
        std::int64_t want = 0, have = 0;
        if (!v.isValid() || r.values.size() != 1 || !parseInt64(node.text(r.values.front()), want)
            || !parseInt64(node.text(v), have))
            return false;
        return r.op == SelectorOperator::Gt ? have > want : have < want;
    }
    }
    return false;
}

/// A term ANDs its requirements; a term with none matches nothing (nodeaffinity.go).
template <class Node>
[[nodiscard]] bool termMatches(const NodeSelectorTerm& term, const Node& node)
{
    if (term.requirements.empty())
        return false;
    for (const NodeSelectorRequirement& r : term.requirements)
        if (!requirementMatches(r, node))
            return false;
    return true;
}

/// Terms ORed; an empty list matches every node.
template <class Node>
[[nodiscard]] bool termsMatch(std::span<const NodeSelectorTerm> terms, const Node& node)
{
    if (terms.empty())
        return true;
    for (const NodeSelectorTerm& t : terms)
        if (termMatches(t, node))
            return true;
    return false;
}

} // namespace fleet::model::scheduling
