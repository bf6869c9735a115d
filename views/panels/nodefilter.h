// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's node filter: a label selector in kubectl syntax, or the nodes running a
// workload's or a namespace's pods, as a mask of nodes.

#include "model/clusterstore.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace fleet::views {

/// What a filter text selects.
struct NodeFilterResult {
    /// One byte per node (1 = shown); null when the text is empty (nothing dimmed) or wrong.
    std::shared_ptr<const std::vector<std::uint8_t>> mask;
    std::size_t matching = 0; // nodes whose byte is 1
    QString error; // empty when the text is valid
    int errorPosition = -1; // 0-based character offset of the error in the text
};

/// Evaluates a filter text over the nodes of `store`:
/// - "" (blanks only): no mask;
/// - "workload:NAMESPACE/NAME": the nodes running counted pods of the workload(s) of that
///   namespace and name (any kind: Deployment, StatefulSet, Job, ...);
/// - "namespace:NAMESPACE": the nodes running counted pods of that namespace;
/// - anything else: a label selector (model::parseLabelSelector, kubectl syntax), matched
///   against node labels (model::nodesMatchingSelector).
/// A malformed selector, an unknown workload or namespace gives `error` and its position
/// (LabelSelectorError::position() for a selector). O(nodes x requirements) or O(pods).
/// Thread: any reader of the store.
[[nodiscard]] NodeFilterResult evaluateNodeFilter(const model::ClusterStore& store, const QString& text);

/// Rich text showing where `text` went wrong: the text in a monospace line with the
/// character at `position` highlighted (a caret past the end when position == size), a
/// caret under it, then `message`. HTML-escaped. Thread: any.
[[nodiscard]] QString formatFilterError(const QString& text, int position, const QString& message);

} // namespace fleet::views
