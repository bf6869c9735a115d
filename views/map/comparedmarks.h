// SPDX-License-Identifier: Apache-2.0
#pragma once
// What File > Compare With found changed in the nodes, as the map's ComparedNodeLayer draws it:
// the shown nodes the later state no longer has (removed), and the later state's nodes the shown
// one does not have (added), each placed in the shown topology's domain its labels name. Built
// on the comparison's worker (app/controllers/comparecontroller.h); a value the map shares,
// never edits.

#include "model/ids.h"

#include <memory>
#include <string>
#include <vector>

namespace fleet::model {
class ClusterStore;
class Topology;
}

namespace fleet::views {

struct ComparedMarks {
    /// A node of the later state only.
    struct AddedNode {
        std::string name;
        /// The deepest domain of the shown topology whose path the node's labels (its level
        /// keys' values) follow from the root; the root when its first level's value is new.
        model::DomainId domain;
        /// Its requested share in the later state: GPU on a GPU node, else the larger of CPU
        /// and memory, 0 to 1.
        double requestedShare = 0;
    };
    /// Shown nodes (ids of the shown store) the later state does not have, in id order.
    std::vector<model::NodeId> removed;
    /// In name order (StateDiff::nodesAdded's).
    std::vector<AddedNode> added;
    /// The topology the domains are of: a map showing another draws the added nodes under its root.
    std::shared_ptr<const model::Topology> topology;

    [[nodiscard]] bool empty() const noexcept { return removed.empty() && added.empty(); }
};

/// The marks of `removedNames` (names of `before`'s nodes) and `addedNames` (names of `after`'s
/// nodes), placed in `topology` (built over `before`). Names a store does not hold are skipped.
/// O(nodes named x levels). Throws std::bad_alloc only. Thread: any (reads the stores only).
[[nodiscard]] ComparedMarks makeComparedMarks(const model::ClusterStore& before, std::shared_ptr<const model::Topology> topology,
    const model::ClusterStore& after, const std::vector<std::string>& removedNames, const std::vector<std::string>& addedNames);

} // namespace fleet::views
