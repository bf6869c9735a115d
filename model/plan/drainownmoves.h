#pragma once
// SPDX-License-Identifier: Apache-2.0
// Which move-pod actions of an applied plan belong to the drain that follows them.

#include <span>
#include <vector>

namespace fleet::model {

struct AppliedAction;

/// A consolidation moves each pod of a node it drains once, straight to a node that stays, as
/// MovePod actions right before the node's DrainNode (model/search/consolidation.h, "One move
/// per pod"). Those moves are the drain's own: `kubectl drain` evicts them, and a reader counts
/// them with their drain. Returns, parallel to `actions`, true for each MovePod that holds, moves
/// one pod off the node that the next DrainNode removes, and is followed (through such moves
/// only) by that DrainNode, which holds. Pure; O(actions); thread: any.
[[nodiscard]] std::vector<bool> drainOwnMoves(std::span<const AppliedAction> actions);

} // namespace fleet::model
