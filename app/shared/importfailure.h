// SPDX-License-Identifier: Apache-2.0
#pragma once
// One wording for a failed import, shared by the window (GUI, screenshot) and `summary`.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <exception>

namespace fleet::app {

/// What the user reads when importing `sourceLabel` threw `error`:
/// - std::bad_alloc: "out of memory while importing <sourceLabel>" (what() says only
///   "std::bad_alloc", which names neither the cause nor the input);
/// - anything else: error.what() as is (importers::ImportError names the file and the place).
/// Thread: any.
[[nodiscard]] QString importFailureMessage(const std::exception& error, const QString& sourceLabel);

/// The label of an import of `paths`: the path itself for one file, "N files (a, b, ...)"
/// for more. Thread: any.
[[nodiscard]] QString filesSourceLabel(const QStringList& paths);

/// The label of a simulated cluster: "simulated cluster (N nodes, seed S)". Thread: any.
[[nodiscard]] QString simulatedSourceLabel(std::size_t nodeCount, std::uint64_t seed, std::size_t regions = 1);

/// The label of a live cluster: "kubeconfig context NAME", or "the current kubeconfig context"
/// for an empty `context`. Thread: any.
[[nodiscard]] QString liveSourceLabel(const QString& context);

} // namespace fleet::app
