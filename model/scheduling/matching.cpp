// SPDX-License-Identifier: Apache-2.0
#include "matching.h"

#include <algorithm>
#include <limits>

namespace fleet::model::scheduling {

bool toleratesTaint(const Toleration& t, const Taint& taint) noexcept
{
    // Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go), in its order.
    if (t.effect != TaintEffect::Any && t.effect != taint.effect)
        return false;
    if (t.key.value != 0 && t.key != taint.key)
        return false;
    switch (t.op) {
    case TolerationOperator::Equal: return t.value == taint.value;
    case TolerationOperator::Exists: return true;
    }
    return false;
}

bool toleratesTaint(std::span<const Toleration> tolerations, const Taint& taint) noexcept
{
    return std::any_of(tolerations.begin(), tolerations.end(), [&](const Toleration& t) { return toleratesTaint(t, taint); });
}

StringId labelValue(std::span<const Label> labels, StringId key) noexcept
{
    for (const Label& l : labels)
        if (l.key == key)
            return l.value;
    return {};
}

namespace {
bool contains(const std::vector<StringId>& sorted, StringId v) noexcept
{
    return std::binary_search(sorted.begin(), sorted.end(), v);
}
} // namespace

bool selectorMatches(const InternedSelector& selector, std::span<const Label> labels) noexcept
{
    if (selector.null)
        return false;
    for (const MatchRequirement& r : selector.requirements) {
        const StringId v = labelValue(labels, r.key);
        switch (r.op) {
        case MatchOperator::In:
            if (!v.isValid() || !contains(r.values, v))
                return false;
            break;
        case MatchOperator::NotIn:
            if (v.isValid() && contains(r.values, v))
                return false;
            break;
        case MatchOperator::Exists:
            if (!v.isValid())
                return false;
            break;
        case MatchOperator::DoesNotExist:
            if (v.isValid())
                return false;
            break;
        }
    }
    return true;
}

bool parseInt64(std::string_view text, std::int64_t& out) noexcept
{
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        negative = text[i] == '-';
        ++i;
    }
    if (i == text.size())
        return false;
    // Accumulate negatively so that INT64_MIN parses.
    std::int64_t value = 0;
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        const int digit = c - '0';
        if (value < (kMin + digit) / 10)
            return false;
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == kMin)
            return false;
        value = -value;
    }
    out = value;
    return true;
}

namespace {
bool isAlnum(char c) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// A DNS-1123 subdomain: lower-case alphanumerics, '-' and '.', each dot-separated label
/// starting and ending alphanumeric; at most 253 characters.
bool isDnsSubdomain(std::string_view text) noexcept
{
    if (text.empty() || text.size() > 253)
        return false;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t dot = std::min(text.find('.', start), text.size());
        const std::string_view label = text.substr(start, dot - start);
        if (label.empty())
            return false;
        for (std::size_t i = 0; i < label.size(); ++i) {
            const char c = label[i];
            const bool lowerAlnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!lowerAlnum && (c != '-' || i == 0 || i + 1 == label.size()))
                return false;
        }
        start = dot + 1;
    }
    return true;
}
} // namespace

bool isLabelValue(std::string_view text) noexcept
{
    if (text.empty())
        return true;
    if (text.size() > 63 || !isAlnum(text.front()) || !isAlnum(text.back()))
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return isAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool isQualifiedName(std::string_view text) noexcept
{
    std::string_view name = text;
    if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
        if (!isDnsSubdomain(text.substr(0, slash)))
            return false;
        name = text.substr(slash + 1);
    }
    return !name.empty() && isLabelValue(name);
}

bool labelRequirementParses(SelectorOperator op, std::string_view key, std::span<const std::string_view> values) noexcept
{
    if (!isQualifiedName(key))
        return false;
    switch (op) {
    case SelectorOperator::In:
    case SelectorOperator::NotIn:
        if (values.empty())
            return false;
        break;
    case SelectorOperator::Exists:
    case SelectorOperator::DoesNotExist:
        if (!values.empty())
            return false;
        break;
    case SelectorOperator::Gt:
    case SelectorOperator::Lt: {
        std::int64_t unused = 0;
        if (values.size() != 1 || !parseInt64(values.front(), unused))
            return false;
        break;
    }
    }
    return std::all_of(values.begin(), values.end(), [](std::string_view v) { return isLabelValue(v); });
}

} // namespace fleet::model::scheduling
