// SPDX-License-Identifier: Apache-2.0
#pragma once
// Label selectors in kubectl's syntax, parsed and matched against node labels.
//
// Syntax (kubectl `-l`, apimachinery labels.Parse): requirements separated by commas, ANDed:
//   key=value  key==value  key!=value  key in (a,b)  key notin (a)  key  !key  key>1  key<9
// As Parse does: blanks (space, tab, CR, LF) separate tokens; "in" and "notin" are words
// only where an operator is due ("in in (in)" is valid); `key=` and `key in ()` mean the
// empty value; `in` / `notin` values are a set (duplicates dropped, sorted);
// `>` and `<` take an integer and match a label whose value is an integer above / below it;
// requirements are sorted by key (stable).
// Source: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
// and k8s.io/apimachinery/pkg/labels/selector.go (Parse). `!=` and `notin` also match a node
// that lacks the key, as Kubernetes does.

#include "model/clusterstore.h"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// The operator of one selector requirement.
enum class LabelSelectorOp : std::uint8_t { Equals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };

/// One requirement: `key op values` (values empty for Exists / DoesNotExist, one for
/// Equals / NotEquals).
struct LabelSelectorRequirement {
    std::string key;
    LabelSelectorOp op = LabelSelectorOp::Exists;
    std::vector<std::string> values;
    bool operator==(const LabelSelectorRequirement&) const = default;
};

/// A parsed selector: its requirements, ANDed. An empty selector matches everything.
struct LabelSelector {
    std::vector<LabelSelectorRequirement> requirements;
    [[nodiscard]] bool empty() const noexcept { return requirements.empty(); }
};

/// A malformed selector: what() says what was expected ("expected ')' after values"), and
/// position() is the 0-based character offset in the text where it went wrong.
class LabelSelectorError : public std::invalid_argument {
public:
    LabelSelectorError(const std::string& what, std::size_t position)
        : std::invalid_argument(what)
        , m_position(position)
    {
    }
    [[nodiscard]] std::size_t position() const noexcept { return m_position; }

private:
    std::size_t m_position = 0;
};

/// Parses `text` (kubectl syntax above; surrounding blanks ignored; "" is the empty
/// selector). Keys and values are checked as Kubernetes label keys / values (prefix/name,
/// 63 characters, alphanumerics and -_.). Throws LabelSelectorError. Thread: any.
[[nodiscard]] LabelSelector parseLabelSelector(std::string_view text);

/// True when `labels` (interned in `strings`) satisfy every requirement. Thread: any.
[[nodiscard]] bool labelSelectorMatches(const LabelSelector& selector, std::span<const Label> labels, const StringPool& strings);

/// One byte per node (1 = the node's labels match), indexed by NodeId. O(nodes x
/// requirements x labels per node); keys and values are looked up in the store's string pool
/// once, so the loop compares ids (about 2 ms for 100k simulated nodes and a two-term
/// selector, measured in tests/bench/bench_labelselector). Thread: any reader of the store.
[[nodiscard]] std::vector<std::uint8_t> nodesMatchingSelector(const ClusterStore& store, const LabelSelector& selector);

} // namespace fleet::model
