// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/secrets.h"

#include "importers/quotedtext.h"

#include <cstdio>

namespace fleet::importers::kube {

std::string redactedUrl(std::string_view url)
{
    std::string out;
    std::string_view rest = url;
    if (const auto scheme = url.find("://"); scheme != std::string_view::npos) {
        out.append(url.substr(0, scheme + 3));
        rest = url.substr(scheme + 3);
        // The authority ends at the first '/', '?' or '#'; its userinfo ends at its last '@'.
        const auto authorityEnd = rest.find_first_of("/?#");
        const std::string_view authority = rest.substr(0, authorityEnd);
        if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
            out.append("REDACTED@");
            rest.remove_prefix(at + 1);
        }
    }
    const auto cut = rest.find_first_of("?#");
    out.append(rest.substr(0, cut));
    if (cut != std::string_view::npos)
        out.append(rest[cut] == '?' ? "?REDACTED" : "#REDACTED");
    return escapedText(out, 200);
}

std::optional<std::string> bearerTokenProblem(std::string_view token, const std::string& what)
{
    if (token.empty())
        return what + " is empty";
    for (std::size_t i = 0; i < token.size(); ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        if (c < 0x20 || c == 0x7f) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02X", c);
            return what + " holds a control character (" + byte + " at byte " + std::to_string(i)
                + "): a token is one line of printable characters";
        }
    }
    return std::nullopt;
}

} // namespace fleet::importers::kube
