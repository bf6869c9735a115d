// SPDX-License-Identifier: Apache-2.0
#include "terminaltext.h"

#include "importreport.h"
#include "quotedtext.h"

#include <cstdarg>

namespace fleet::importers {

std::string terminalLine(std::string_view line)
{
    return escapedText(line, kTerminalLineMaxChars);
}

std::string terminalLines(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        out += terminalLine(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        out += '\n';
        start = end + 1;
    }
    return out;
}

std::string messageText(const std::exception& error)
{
    if (dynamic_cast<const ImportError*>(&error))
        return error.what();
    return terminalLine(error.what());
}

bool printTerminalText(std::FILE* stream, std::string_view text)
{
    const std::string safe = terminalLines(text);
    return std::fwrite(safe.data(), 1, safe.size(), stream) == safe.size() && std::fflush(stream) == 0;
}

bool printTerminalf(std::FILE* stream, const char* format, ...)
{
    std::va_list args;
    va_start(args, format);
    std::va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string text;
    if (length > 0) {
        text.resize(static_cast<std::size_t>(length) + 1);
        std::vsnprintf(text.data(), text.size(), format, again);
        text.resize(static_cast<std::size_t>(length));
    }
    va_end(again);
    return printTerminalText(stream, text);
}

} // namespace fleet::importers
