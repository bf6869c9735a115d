// SPDX-License-Identifier: Apache-2.0
#include "importreport.h"

namespace fleet::importers {
namespace {
std::string describe(const std::string& file, std::size_t line, const std::string& path, const std::string& message)
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    s += ": ";
    if (!path.empty())
        s += path + ": ";
    return s + message;
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

} // namespace fleet::importers
