// SPDX-License-Identifier: Apache-2.0
#pragma once
// What tells a .fleet document from any other file: the first 72 bytes of its SQLite header.
//
// It lives beside the output writer because the writer needs it: no output but a document's
// own save may replace a document (a plan, CSV, script or image written over it would lose the
// saved cluster and its plans), and the document reader (importers/document) builds on the
// writer, so the writer cannot include the reader. The SQLite header layout is SQLite's
// "Database File Format" page, section 1.3 (https://www.sqlite.org/fileformat.html): the
// magic string at offset 0, user_version at 60, application_id at 68, both big-endian.

#include <cstdint>
#include <string>

namespace fleet::importers {

/// PRAGMA application_id of every .fleet file: ASCII "FSCP", big-endian at header offset 68.
/// The Debian package's MIME type matches these bytes: never change it.
inline constexpr std::uint32_t kFleetApplicationId = 0x46534350;

/// True when `path` is a regular file that starts with SQLite's header and kFleetApplicationId
/// (reads 72 bytes; false for a missing or short file, a FIFO, a device or a folder: a FIFO is
/// never opened for reading, so the call never blocks). Thread: any.
[[nodiscard]] bool isFleetDocumentFile(const std::string& path);

} // namespace fleet::importers
