// SPDX-License-Identifier: Apache-2.0
#include "kubenames.h"

#include "quotedtext.h"

#include <algorithm>
#include <cstdio>

namespace fleet::importers {

namespace {

bool isAlphanumeric(char c) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// IsDNS1123Subdomain: at most 253 characters, dot-separated parts of [a-z0-9-] that start and
// end with [a-z0-9].
std::string subdomainProblem(std::string_view prefix)
{
    if (prefix.empty())
        return "the prefix before '/' is empty";
    if (prefix.size() > 253)
        return "the prefix before '/' is longer than 253 characters";
    std::size_t start = 0;
    while (start <= prefix.size()) {
        const std::size_t dot = std::min(prefix.find('.', start), prefix.size());
        const std::string_view part = prefix.substr(start, dot - start);
        if (part.empty())
            return "the prefix before '/' has an empty part between dots";
        for (char c : part)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
                return "the prefix before '/' may hold only lower-case letters, digits, '-' and '.'";
        if (part.front() == '-' || part.back() == '-')
            return "a part of the prefix before '/' starts or ends with '-'";
        start = dot + 1;
    }
    return {};
}

} // namespace

std::optional<std::size_t> controlCharacterOffset(std::string_view text) noexcept
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f)
            return i;
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
            && static_cast<unsigned char>(text[i + 1]) <= 0x9f)
            return i;
    }
    return std::nullopt;
}

std::string controlCharacterProblem(std::string_view text, std::string_view what)
{
    const std::optional<std::size_t> at = controlCharacterOffset(text);
    if (!at)
        return {};
    const auto c = static_cast<unsigned char>(text[*at]);
    char character[16];
    if (c == 0xc2)
        std::snprintf(character, sizeof character, "U+%04X", static_cast<unsigned char>(text[*at + 1]));
    else
        std::snprintf(character, sizeof character, "\\x%02X", c);
    return std::string(what) + " " + quotedText(text) + " holds the control character " + character + " (byte "
        + std::to_string(*at + 1) + "), which no Kubernetes name or label holds";
}

std::string labelKeyProblem(std::string_view key)
{
    if (key.empty())
        return "an empty label key";
    const std::string quoted = quotedText(key);
    std::string_view name = key;
    if (const std::size_t slash = key.find('/'); slash != std::string_view::npos) {
        if (const std::string problem = subdomainProblem(key.substr(0, slash)); !problem.empty())
            return quoted + " is not a label key: " + problem;
        name = key.substr(slash + 1);
    }
    if (name.empty())
        return quoted + " is not a label key: the name after '/' is empty";
    if (name.size() > 63)
        return quoted + " is not a label key: its name is longer than 63 characters";
    for (char c : name)
        if (!isAlphanumeric(c) && c != '-' && c != '_' && c != '.')
            return quoted + " is not a label key: it may hold only letters, digits, '-', '_' and '.' (and one '/' after a prefix)";
    if (!isAlphanumeric(name.front()) || !isAlphanumeric(name.back()))
        return quoted + " is not a label key: it must start and end with a letter or digit";
    return {};
}

std::string kubeNameProblem(std::string_view name, KubeNameRule rule, std::string_view what)
{
    const bool label = rule == KubeNameRule::Dns1123Label;
    const char* ruleName = label ? "a DNS-1123 label" : "a DNS-1123 subdomain";
    const std::size_t maxLength = label ? 63 : 253;
    const std::string head = std::string(what) + " " + quotedText(name) + " is not a valid Kubernetes name: ";
    if (name.empty())
        return std::string(what) + " is empty, and " + ruleName + " has 1 to " + std::to_string(maxLength) + " characters";
    if (name.size() > maxLength)
        return head + "it is " + std::to_string(name.size()) + " characters long, and " + ruleName + " has at most "
            + std::to_string(maxLength);
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (c == '.' && !label))
            continue;
        return head + "it holds " + quotedText(name.substr(i, 1)) + " (byte " + std::to_string(i + 1) + "), and " + ruleName
            + (label ? " holds only lower-case letters, digits and '-'" : " holds only lower-case letters, digits, '-' and '.'");
    }
    // Each dot-separated part (the whole name for a label) starts and ends with [a-z0-9].
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t dot = std::min(name.find('.', start), name.size());
        const std::string_view part = name.substr(start, dot - start);
        if (part.empty() || part.front() == '-' || part.back() == '-')
            return head + (label ? std::string("a DNS-1123 label starts and ends with a lower-case letter or digit")
                                 : std::string("each dot-separated part of a DNS-1123 subdomain starts and ends with a "
                                               "lower-case letter or digit"));
        start = dot + 1;
    }
    return {};
}

} // namespace fleet::importers
