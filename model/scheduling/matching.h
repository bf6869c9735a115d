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

/// Whether `text` is a valid label value (validation.IsValidLabelValue): at most 63
/// characters, empty, or alphanumeric at both ends with '-', '_', '.' and alphanumerics between.
[[nodiscard]] bool isLabelValue(std::string_view text) noexcept;
/// Whether `text` is a valid label key (validation.IsQualifiedName): a name as a label value
/// but not empty, optionally after a DNS-1123 subdomain prefix (at most 253 characters) and '/'.
[[nodiscard]] bool isQualifiedName(std::string_view text) noexcept;
/// Whether a label requirement of a node selector term parses as labels.NewRequirement wants
/// (k8s.io/apimachinery/pkg/labels/selector.go): a valid key; In / NotIn with values, Exists /
/// DoesNotExist without, Gt / Lt with exactly one base-10 int64; every value a valid label
/// value. One that does not parse makes its whole term match no node (the scheduler's lazy-error
/// node selector, nodeaffinity.go: the term's parse error), while the other terms still match.
[[nodiscard]] bool labelRequirementParses(
    SelectorOperator op, std::string_view key, std::span<const std::string_view> values) noexcept;

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
