// SPDX-License-Identifier: Apache-2.0
#pragma once
// The node-group settings file of `plan consolidate --node-groups FILE` and Plan > Consolidate:
// each node group's minimum size, which consolidation keeps (model/search/consolidation.h).
//
// Format: YAML or JSON (JSON is read as YAML 1.2's flow style), one top-level key:
//   nodeGroups:
//     - label: eks.amazonaws.com/nodegroup   # or karpenter.sh/nodepool (default: eks.amazonaws.com/nodegroup)
//       name: gpu-p5                         # the label's value
//       minSize: 2                           # nodes that always stay (an integer >= 0)
// or {"nodeGroups": [{"label": "karpenter.sh/nodepool", "name": "default", "minSize": 3}]}.
// Other keys are refused (a typo would silently drop a minimum), and so are a key given twice
// and a group given twice (which minimum would hold?). YAML bounds: importers/yamlinput.h; the
// file is read by importers/optionfile.h (a regular file of at most 1 MiB). Examples: tests/data/plan/.
//
// Thread: any.

#include "model/search/consolidation.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace fleet::importers {

/// Thrown for an unreadable or invalid settings file; what() is "FILE: at PATH: what was wrong".
class NodeGroupSettingsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads the file. Throws NodeGroupSettingsError.
[[nodiscard]] std::vector<model::NodeGroupMinimum> readNodeGroupSettings(const std::string& path);
/// The same from text (`name` is used in messages).
[[nodiscard]] std::vector<model::NodeGroupMinimum> parseNodeGroupSettings(const std::string& text, const std::string& name);

} // namespace fleet::importers
