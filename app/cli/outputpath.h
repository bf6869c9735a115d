// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks on the output file of a headless subcommand, before any work is done.

#include <QString>

namespace fleet::app {

/// Returns an empty string when `path` can take a new file written through QSaveFile (a
/// temporary file in the same folder, renamed over `path`), else the reason, naming the path:
/// - `path` exists and is not a regular file (a device such as /dev/full, a folder, a FIFO, a
///   socket): renaming over it would replace a device node or a pipe with the image, or fail
///   late, so it is refused; a symbolic link counts as what it points to;
/// - the folder of `path` does not exist, is not a folder, or is not writable.
/// Thread: any.
[[nodiscard]] QString outputPathProblem(const QString& path);

} // namespace fleet::app
