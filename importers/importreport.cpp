// SPDX-License-Identifier: Apache-2.0
#include "importreport.h"

#include "terminaltext.h"

namespace fleet::importers {
namespace {
std::string describe(const std::string& file, std::size_t line, const std::string& path, const std::string& message)
{
    // The file name and the place may come from the input as much as the message: escaped.
    std::string s = terminalLine(file);
    if (line > 0)
        s += ":" + std::to_string(line);
    s += ": ";
    if (!path.empty())
        s += terminalLine(path) + ": ";
    return s + terminalLines(message);
}
} // namespace

ImportError::ImportError(std::string file, std::size_t line, std::string path, const std::string& message)
    : std::runtime_error(describe(file, line, path, message))
    , m_file(std::move(file))
    , m_line(line)
    , m_path(std::move(path))
    , m_message(message)
{
}

void ImportReport::warn(std::string_view text)
{
    warnings.push_back(terminalLine(text));
}

} // namespace fleet::importers
