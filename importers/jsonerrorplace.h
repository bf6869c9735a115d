// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a JSON text stops being JSON, for an error message that a user can act on. simdjson's
// DOM parser, which reads the plan and template files, says what is wrong ("TAPE_ERROR: The JSON
// document has an improper structure") but not where; Qt's own parser (QJsonDocument) reports
// the byte offset of the first error, and is run on the failed text only.

#include <string>
#include <string_view>

namespace fleet::importers {

/// "at line 1,204, column 3 (byte 50,012 of 50,099): unterminated object", or with the error at
/// the end of the text "at the end of the file, line 1,204 (byte 50,099): unterminated object:
/// the file ends before its JSON does (cut short?)". "" when Qt's parser reads `text` (or
/// finds no place). Lines and columns count from 1, columns in bytes. O(size of text).
/// Thread: any.
[[nodiscard]] std::string jsonErrorPlace(std::string_view text);

} // namespace fleet::importers
