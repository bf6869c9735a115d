// SPDX-License-Identifier: Apache-2.0
#pragma once
// The drag payload of a pod: what the node inspector's pod table puts on a drag and
// the fleet map accepts as a drop. The pod is named by its id in the shown store (the drag
// never leaves the process) and, for other targets, as "namespace/name" text.

#include "model/clusterstore.h"

#include <QMimeData>
#include <QString>

#include <memory>

namespace fleet::views {

/// The MIME type of a pod drag: the PodId's index as decimal ASCII.
inline constexpr char kPodMimeType[] = "application/x-fleetscope-pod";

/// New mime data for pod p of `store`: kPodMimeType and text/plain "namespace/name".
/// The caller (Qt's drag) owns it.
[[nodiscard]] QMimeData* makePodMimeData(const model::ClusterStore& store, model::PodId p);
/// The pod a drag carries, or an invalid id when it carries none (or another format).
[[nodiscard]] model::PodId podFromMimeData(const QMimeData* data);

} // namespace fleet::views
