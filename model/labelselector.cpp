// SPDX-License-Identifier: Apache-2.0
#include "labelselector.h"

#include <algorithm>
#include <charconv>
#include <optional>

// The grammar and its corner cases follow k8s.io/apimachinery/pkg/labels/selector.go (Lexer,
// Parser, NewRequirement) and the validation of pkg/util/validation (IsQualifiedName,
// IsValidLabelValue, IsDNS1123Subdomain); written from those rules, not from that code.
namespace fleet::model {
namespace {

enum class Tok : std::uint8_t {
    End,
    Identifier,
    ClosedPar,
    Comma,
    Not,          // "!"
    DoubleEquals, // "=="
    Equals,       // "="
    Greater,      // ">"
    In,           // "in"
    Less,         // "<"
    NotEquals,    // "!="
    NotIn,        // "notin"
    OpenPar,      // "("
};

struct Token {
    Tok kind = Tok::End;
    std::string_view text;
    std::size_t position = 0;
};

constexpr bool isBlank(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

constexpr bool isSpecial(char c) noexcept
{
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

std::optional<Tok> symbolToken(std::string_view s) noexcept
{
    if (s == ")")
        return Tok::ClosedPar;
    if (s == ",")
        return Tok::Comma;
    if (s == "!")
        return Tok::Not;
    if (s == "==")
        return Tok::DoubleEquals;
    if (s == "=")
        return Tok::Equals;
    if (s == ">")
        return Tok::Greater;
    if (s == "<")
        return Tok::Less;
    if (s == "!=")
        return Tok::NotEquals;
    if (s == "(")
        return Tok::OpenPar;
    return std::nullopt;
}

[[noreturn]] void fail(std::size_t position, const std::string& what)
{
    throw LabelSelectorError("at character " + std::to_string(position + 1) + ": " + what, position);
}

std::string shown(const Token& t)
{
    return t.kind == Tok::End ? "the end of the selector" : "'" + std::string(t.text) + "'";
}

// Splits the text into tokens as the selector lexer does: blanks separate; a run of special
// characters is cut at the longest operator it starts with; anything else up to a blank or
// a special character is a word ("in" and "notin" are keyword tokens).
std::vector<Token> scan(std::string_view s)
{
    std::vector<Token> tokens;
    std::size_t i = 0;
    for (;;) {
        while (i < s.size() && isBlank(s[i]))
            ++i;
        if (i >= s.size()) {
            tokens.push_back({Tok::End, {}, s.size()});
            return tokens;
        }
        const std::size_t start = i;
        if (isSpecial(s[i])) {
            // Longest match: every single special character is a token, and the two-character
            // operators are "==" and "!=".
            Tok kind = *symbolToken(s.substr(i, 1));
            std::size_t len = 1;
            if (i + 1 < s.size()) {
                if (const auto two = symbolToken(s.substr(i, 2))) {
                    kind = *two;
                    len = 2;
                }
            }
            i += len;
            tokens.push_back({kind, s.substr(start, len), start});
            continue;
        }
        while (i < s.size() && !isBlank(s[i]) && !isSpecial(s[i]))
            ++i;
        const std::string_view word = s.substr(start, i - start);
        const Tok kind = word == "in" ? Tok::In : word == "notin" ? Tok::NotIn : Tok::Identifier;
        tokens.push_back({kind, word, start});
    }
}

constexpr bool isAlnum(char c) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], the name part of a label key and a label value.
bool isQualifiedNamePart(std::string_view s) noexcept
{
    if (s.empty() || !isAlnum(s.front()) || !isAlnum(s.back()))
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return isAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// RFC 1123 subdomain: lowercase alphanumerics, '-' and '.', labels starting and ending
// alphanumeric, at most 253 characters.
bool isDnsSubdomain(std::string_view s) noexcept
{
    if (s.empty() || s.size() > 253)
        return false;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t dot = s.find('.', begin);
        const std::string_view label = s.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin);
        auto lowerAlnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
        if (label.empty() || !lowerAlnum(label.front()) || !lowerAlnum(label.back()))
            return false;
        if (!std::all_of(label.begin(), label.end(), [&](char c) { return lowerAlnum(c) || c == '-'; }))
            return false;
        if (dot == std::string_view::npos)
            return true;
        begin = dot + 1;
    }
}

constexpr std::size_t kMaxNameLength = 63;

void validateKey(const Token& t)
{
    const std::string_view key = t.text;
    const std::size_t slash = key.find('/');
    std::string_view name = key;
    if (slash != std::string_view::npos) {
        const std::string_view prefix = key.substr(0, slash);
        name = key.substr(slash + 1);
        if (name.find('/') != std::string_view::npos)
            fail(t.position, "invalid label key '" + std::string(key) + "': at most one '/' (prefix/name)");
        if (!isDnsSubdomain(prefix))
            fail(t.position, "invalid label key '" + std::string(key)
                                 + "': the prefix must be a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253 "
                                   "characters)");
    }
    if (name.size() > kMaxNameLength)
        fail(t.position, "invalid label key '" + std::string(key) + "': the name must be at most 63 characters");
    if (!isQualifiedNamePart(name))
        fail(t.position, "invalid label key '" + std::string(key)
                             + "': the name must be letters, digits, '-', '_' or '.', starting and ending with a letter or "
                               "digit");
}

void validateValue(const Token& t)
{
    const std::string_view v = t.text;
    if (v.empty())
        return;
    if (v.size() > kMaxNameLength)
        fail(t.position, "invalid label value '" + std::string(v) + "': at most 63 characters");
    if (!isQualifiedNamePart(v))
        fail(t.position, "invalid label value '" + std::string(v)
                             + "': letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
}

std::optional<std::int64_t> parseInteger(std::string_view s) noexcept
{
    // strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits.
    std::size_t i = 0;
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        i = 1;
    }
    if (i >= s.size() || s[i] < '0' || s[i] > '9')
        return std::nullopt;
    std::int64_t value = 0;
    const char* first = s.data() + i;
    const char* last = s.data() + s.size();
    if (negative) {
        // from_chars does not take a sign other than '-': parse with it.
        first = s.data();
    }
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || end != last)
        return std::nullopt;
    return value;
}

class Parser {
public:
    explicit Parser(std::string_view text)
        : m_tokens(scan(text))
    {
    }

    LabelSelector parse()
    {
        LabelSelector selector;
        for (;;) {
            const Token& t = peek();
            if (t.kind == Tok::End)
                break;
            if (!isWord(t) && t.kind != Tok::Not)
                fail(t.position, "found " + shown(t) + ", expected: !, a label key, or the end of the selector");
            selector.requirements.push_back(requirement());
            const Token& after = next();
            if (after.kind == Tok::End)
                break;
            if (after.kind != Tok::Comma)
                fail(after.position, "found " + shown(after) + ", expected: ',' or the end of the selector");
            const Token& due = peek();
            if (!isWord(due) && due.kind != Tok::Not)
                fail(due.position, "found " + shown(due) + ", expected: a label key after ','");
        }
        std::stable_sort(selector.requirements.begin(), selector.requirements.end(),
                         [](const LabelSelectorRequirement& a, const LabelSelectorRequirement& b) { return a.key < b.key; });
        return selector;
    }

private:
    // Where values (and keys) are read, "in" and "notin" are plain words.
    static bool isWord(const Token& t) noexcept { return t.kind == Tok::Identifier || t.kind == Tok::In || t.kind == Tok::NotIn; }
    const Token& peek() const { return m_tokens[m_at]; }
    const Token& next() { return m_tokens[m_at < m_tokens.size() - 1 ? m_at++ : m_at]; }

    LabelSelectorRequirement requirement()
    {
        LabelSelectorRequirement r;
        bool negated = false;
        Token key = next();
        if (key.kind == Tok::Not) {
            negated = true;
            key = next();
        }
        if (!isWord(key))
            fail(key.position, "found " + shown(key) + ", expected: a label key");
        validateKey(key);
        r.key.assign(key.text);
        const Token& after = peek();
        if (after.kind == Tok::End || after.kind == Tok::Comma) {
            r.op = negated ? LabelSelectorOp::DoesNotExist : LabelSelectorOp::Exists;
            return r;
        }
        const Token op = next();
        // "!key" takes no operator (Parse reads one and then rejects it as a binary operator).
        switch (op.kind) {
        case Tok::In: r.op = LabelSelectorOp::In; break;
        case Tok::NotIn: r.op = LabelSelectorOp::NotIn; break;
        case Tok::Equals:
        case Tok::DoubleEquals: r.op = LabelSelectorOp::Equals; break;
        case Tok::NotEquals: r.op = LabelSelectorOp::NotEquals; break;
        case Tok::Greater: r.op = LabelSelectorOp::GreaterThan; break;
        case Tok::Less: r.op = LabelSelectorOp::LessThan; break;
        default:
            fail(op.position, "found " + shown(op) + ", expected: in, notin, =, ==, !=, >, <, ',' or the end of the selector");
        }
        if (negated)
            fail(op.position, "found " + shown(op) + " after '!" + r.key + "': '!' takes a key alone (!key)");
        if (r.op == LabelSelectorOp::In || r.op == LabelSelectorOp::NotIn)
            setValues(r);
        else
            exactValue(r, op);
        return r;
    }

    void setValues(LabelSelectorRequirement& r)
    {
        const Token& open = next();
        if (open.kind != Tok::OpenPar)
            fail(open.position, "found " + shown(open) + ", expected: '(' after '" + std::string(r.op == LabelSelectorOp::In ? "in" : "notin") + "'");
        std::vector<std::string> values;
        const Token& first = peek();
        if (first.kind == Tok::ClosedPar) {
            next();
            r.values = {""}; // "()" is the empty value
            return;
        }
        if (!isWord(first) && first.kind != Tok::Comma)
            fail(first.position, "found " + shown(first) + ", expected: ',', ')' or a value");
        // A list of possibly empty values: "(a,,b)", "(,a)", "(a,)".
        bool valueDue = true;
        for (;;) {
            const Token t = next();
            if (isWord(t)) {
                if (!valueDue)
                    fail(t.position, "found " + shown(t) + ", expected: ',' or ')'");
                validateValue(t);
                values.emplace_back(t.text);
                valueDue = false;
            } else if (t.kind == Tok::Comma) {
                if (valueDue)
                    values.emplace_back();
                valueDue = true;
            } else if (t.kind == Tok::ClosedPar) {
                if (valueDue)
                    values.emplace_back();
                break;
            } else {
                fail(t.position, "found " + shown(t) + (valueDue ? ", expected: a value, ',' or ')'" : ", expected: ',' or ')'"));
            }
        }
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        r.values = std::move(values);
    }

    void exactValue(LabelSelectorRequirement& r, const Token& op)
    {
        const Token& t = peek();
        if (t.kind == Tok::End || t.kind == Tok::Comma) {
            if (r.op == LabelSelectorOp::GreaterThan || r.op == LabelSelectorOp::LessThan)
                fail(t.position, "found " + shown(t) + ", expected: an integer after '" + std::string(op.text) + "'");
            r.values = {""};
            return;
        }
        const Token value = next();
        if (!isWord(value))
            fail(value.position, "found " + shown(value) + ", expected: a value");
        validateValue(value);
        if ((r.op == LabelSelectorOp::GreaterThan || r.op == LabelSelectorOp::LessThan) && !parseInteger(value.text))
            fail(value.position, "found " + shown(value) + ", expected: an integer after '" + std::string(op.text) + "'");
        r.values = {std::string(value.text)};
    }

    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
};

// A requirement resolved against one string pool: ids instead of text. A value that was
// never interned cannot be any label's value (invalid id, never equal to a label's).
struct ResolvedRequirement {
    StringId key;
    LabelSelectorOp op;
    std::vector<StringId> values;
    std::int64_t bound = 0; // Gt / Lt
};

std::vector<ResolvedRequirement> resolve(const LabelSelector& selector, const StringPool& strings)
{
    std::vector<ResolvedRequirement> out;
    out.reserve(selector.requirements.size());
    for (const auto& r : selector.requirements) {
        ResolvedRequirement q{strings.find(r.key), r.op, {}, 0};
        for (const auto& v : r.values)
            q.values.push_back(strings.find(v));
        if ((r.op == LabelSelectorOp::GreaterThan || r.op == LabelSelectorOp::LessThan) && !r.values.empty())
            q.bound = parseInteger(r.values.front()).value_or(0);
        out.push_back(std::move(q));
    }
    return out;
}

bool matches(const std::vector<ResolvedRequirement>& requirements, std::span<const Label> labels, const StringPool& strings)
{
    for (const ResolvedRequirement& r : requirements) {
        StringId value;
        bool has = false;
        if (r.key.isValid()) {
            for (const Label& l : labels) {
                if (l.key == r.key) {
                    value = l.value;
                    has = true;
                    break;
                }
            }
        }
        bool ok = false;
        switch (r.op) {
        case LabelSelectorOp::Exists: ok = has; break;
        case LabelSelectorOp::DoesNotExist: ok = !has; break;
        case LabelSelectorOp::Equals:
        case LabelSelectorOp::In: ok = has && std::find(r.values.begin(), r.values.end(), value) != r.values.end(); break;
        case LabelSelectorOp::NotEquals:
        case LabelSelectorOp::NotIn: ok = !has || std::find(r.values.begin(), r.values.end(), value) == r.values.end(); break;
        case LabelSelectorOp::GreaterThan:
        case LabelSelectorOp::LessThan: {
            if (!has)
                break;
            const auto n = parseInteger(strings.view(value));
            ok = n && (r.op == LabelSelectorOp::GreaterThan ? *n > r.bound : *n < r.bound);
            break;
        }
        }
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

LabelSelector parseLabelSelector(std::string_view text)
{
    return Parser(text).parse();
}

bool labelSelectorMatches(const LabelSelector& selector, std::span<const Label> labels, const StringPool& strings)
{
    return matches(resolve(selector, strings), labels, strings);
}

std::vector<std::uint8_t> nodesMatchingSelector(const ClusterStore& store, const LabelSelector& selector)
{
    const std::size_t nodes = store.nodeCount();
    std::vector<std::uint8_t> out(nodes, 1);
    if (selector.empty())
        return out;
    const std::vector<ResolvedRequirement> resolved = resolve(selector, store.strings());
    for (std::uint32_t n = 0; n < nodes; ++n)
        out[n] = matches(resolved, store.nodeLabels(NodeId(n)), store.strings()) ? 1 : 0;
    return out;
}

} // namespace fleet::model
