// SPDX-License-Identifier: Apache-2.0
#include "quotedtext.h"

#include "importers/output/documentheader.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace fleet::importers {
namespace {

// The length of the UTF-8 sequence that `lead` starts (RFC 3629, section 4), or 0 when
// `lead` cannot start one. Whether the sequence is valid is left to simdjson.
std::size_t sequenceLength(unsigned char lead) noexcept
{
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0;
}

// True for a valid sequence that prints nothing visible or reorders the text around it
// (Unicode general category Cc and the bidirectional and zero-width format characters;
// see https://www.unicode.org/reports/tr9/ and CVE-2021-42574, "Trojan Source").
bool isInvisible(const unsigned char* s, std::size_t length) noexcept
{
    if (length == 2)
        return s[0] == 0xC2 && s[1] <= 0x9F; // U+0080-U+009F
    if (length != 3)
        return false;
    if (s[0] == 0xE2 && s[1] == 0x80)
        return (s[2] >= 0x8B && s[2] <= 0x8F) || (s[2] >= 0xA8 && s[2] <= 0xAE); // U+200B-F, U+2028-E
    if (s[0] == 0xE2 && s[1] == 0x81)
        return s[2] >= 0xA6 && s[2] <= 0xA9; // U+2066-U+2069
    return s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF; // U+FEFF
}

void appendEscaped(std::string& out, unsigned char byte)
{
    constexpr char kHex[] = "0123456789ABCDEF";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
}

struct Magic {
    std::string_view bytes;
    std::string_view kind;
};

// File signatures: ELF (System V ABI), PNG (RFC 2083, 3.1), zip (APPNOTE.TXT 4.3.7, 4.3.16),
// gzip (RFC 1952, 2.3.1), xz (xz file format 2.1.1.1), zstd (RFC 8878, 3.1.1).
constexpr std::array kMagics {
    Magic { std::string_view("\x7f"
                             "ELF",
                4),
        "ELF" },
    Magic { std::string_view("\x89PNG", 4), "PNG" },
    Magic { std::string_view("PK\x03\x04", 4), "zip" },
    Magic { std::string_view("PK\x05\x06", 4), "zip" },
    Magic { std::string_view("\x1f\x8b", 2), "gzip" },
    Magic { std::string_view("\xFD"
                             "7zXZ\0",
                6),
        "xz" },
    Magic { std::string_view("\x28\xB5\x2F\xFD", 4), "zstd" },
};

} // namespace

std::string escapedText(std::string_view text, std::size_t maxChars)
{
    std::string out;
    out.reserve(std::min(text.size(), maxChars) + 8);
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t i = 0;
    for (std::size_t chars = 0; i < text.size() && chars < maxChars; ++chars) {
        const unsigned char c = bytes[i];
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t length = sequenceLength(c);
        if (length == 0 || i + length > text.size() || !simdjson::validate_utf8(text.data() + i, length)) {
            appendEscaped(out, c);
            ++i;
            continue;
        }
        if (isInvisible(bytes + i, length)) {
            // Each byte counts towards maxChars, so that the limit bounds the output.
            for (std::size_t k = 0; k < length && chars < maxChars; ++k, ++chars, ++i)
                appendEscaped(out, bytes[i]);
            --chars;
            continue;
        }
        out.append(text.data() + i, length);
        i += length;
    }
    if (i < text.size())
        out += "...";
    return out;
}

std::string quotedText(std::string_view text, std::size_t maxChars)
{
    return '"' + escapedText(text, maxChars) + '"';
}

std::optional<std::string> binaryFileMessage(std::string_view head)
{
    head = head.substr(0, kBinaryCheckBytes);
    // An SQLite file (SQLite's file format: the magic string, application_id big-endian at 68):
    // a .fleet document that another program changed, or that was cut short, is said as such.
    static constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);
    if (head.starts_with(kSqliteMagic)) {
        if (head.size() < 72)
            return "a truncated Fleetscope document (it ends after " + std::to_string(head.size())
                + " bytes, inside SQLite's 100-byte header), not kubectl JSON or a trace CSV";
        const auto* p = reinterpret_cast<const unsigned char*>(head.data()) + 68;
        const std::uint32_t applicationId = std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
        if (applicationId == kFleetApplicationId)
            return "a truncated Fleetscope document (" + std::to_string(head.size()) + " bytes), not kubectl JSON or a trace CSV";
        char id[16];
        std::snprintf(id, sizeof id, "0x%08x", applicationId);
        return std::string("a SQLite database that is not a Fleetscope document (application_id ") + id
            + "; a .fleet document has 0x46534350 \"FSCP\"), not kubectl JSON or a trace CSV";
    }
    for (const Magic& m : kMagics) {
        if (head.starts_with(m.bytes))
            return "binary file (looks like " + std::string(m.kind) + "), not kubectl JSON or a trace CSV";
    }
    if (head.starts_with("\xFF\xFE") || head.starts_with("\xFE\xFF"))
        return std::string("UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8: save kubectl JSON and trace "
                           "CSV files as UTF-8 (in PowerShell, `| Out-File -Encoding utf8` instead of `>`)");
    if (head.find('\0') != std::string_view::npos)
        return std::string("binary file (it holds NUL bytes), not kubectl JSON or a trace CSV");
    return std::nullopt;
}

} // namespace fleet::importers
