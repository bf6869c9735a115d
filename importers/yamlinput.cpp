// SPDX-License-Identifier: Apache-2.0
// YAML with bounds (yamlinput.h).
#include "importers/yamlinput.h"

#include "importers/quotedtext.h"

#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fleet::importers {

namespace {

std::string describe(std::size_t line, const std::string& keyPath, const std::string& message)
{
    std::string s;
    if (line > 0)
        s += "line " + std::to_string(line) + ": ";
    if (!keyPath.empty())
        s += keyPath + ": ";
    return s + message;
}

std::size_t lineOf(const YAML::Node& n)
{
    const YAML::Mark m = n.Mark();
    return m.line >= 0 ? static_cast<std::size_t>(m.line) + 1 : 0;
}

// Walks the tree as a reader would (aliases expanded), spending the budget.
class BoundedWalk {
public:
    explicit BoundedWalk(std::uint64_t budget)
        : m_budget(budget)
    {
    }

    void visit(const YAML::Node& n)
    {
        spend(1, n);
        switch (n.Type()) {
        case YAML::NodeType::Scalar:
            spend(n.Scalar().size(), n);
            break;
        case YAML::NodeType::Sequence: {
            enter(n);
            std::size_t i = 0;
            for (const YAML::Node& item : n) {
                m_path.push_back("[" + std::to_string(i++) + "]");
                visit(item);
                m_path.pop_back();
            }
            leave();
            break;
        }
        case YAML::NodeType::Map: {
            enter(n);
            // The line of each key, to name both places of a duplicate.
            std::unordered_map<std::string, std::size_t> lines;
            for (const auto& kv : n) {
                const YAML::Node& key = kv.first;
                if (!key.IsScalar())
                    fail(key, "a mapping key must be a plain value (a string), not " + std::string(key.IsMap() ? "a mapping" : key.IsSequence() ? "a list" : "null"));
                spend(1 + key.Scalar().size(), key);
                const std::string& name = key.Scalar();
                const auto [at, fresh] = lines.emplace(name, lineOf(key));
                if (!fresh) {
                    m_path.push_back(segment(name));
                    // Both on one line (a flow mapping, {a: 1, a: 2}): "line N" once, not "lines N and N".
                    const std::string where = at->second == lineOf(key)
                        ? "on line " + std::to_string(at->second)
                        : "lines " + std::to_string(at->second) + " and " + std::to_string(lineOf(key));
                    fail(key, "the key " + quotedText(name, 80) + " is given twice in one mapping (" + where + "); give it once");
                }
                m_path.push_back(segment(name));
                visit(kv.second);
                m_path.pop_back();
            }
            leave();
            break;
        }
        default:
            break;
        }
    }

private:
    [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const { throw YamlInputError(lineOf(at), path(), what); }

    std::string segment(const std::string& key) const { return m_path.empty() ? key : "." + key; }

    std::string path() const
    {
        std::string s;
        for (const std::string& p : m_path)
            s += p;
        return s.size() > 200 ? s.substr(0, 200) + "..." : s;
    }

    void spend(std::uint64_t cost, const YAML::Node& at)
    {
        if (cost > m_budget)
            fail(at,
                "aliases (*name) expand to more than the document could hold without them (an alias bomb); "
                "write the values out instead");
        m_budget -= cost;
    }

    // A cycle can only make the walk too deep, so it is looked for there, once.
    void enter(const YAML::Node& n)
    {
        if (m_stack.size() >= static_cast<std::size_t>(kYamlMaxDepth)) {
            const auto up = std::find_if(m_stack.begin(), m_stack.end(), [&](const YAML::Node& a) { return a.is(n); });
            if (up == m_stack.end())
                fail(n, "nested more than " + std::to_string(kYamlMaxDepth) + " levels deep");
            // Named where the walk first entered the node: its anchor's place.
            m_path.resize(m_pathSizes[static_cast<std::size_t>(up - m_stack.begin())]);
            fail(n, "an alias (*name) refers to a mapping or list that contains it, so the document never ends");
        }
        m_stack.push_back(n);
        m_pathSizes.push_back(m_path.size());
    }
    void leave()
    {
        m_stack.pop_back();
        m_pathSizes.pop_back();
    }

    std::uint64_t m_budget;
    std::vector<YAML::Node> m_stack;      // the mappings and lists being walked, outermost first
    std::vector<std::size_t> m_pathSizes; // m_path's size when each of them was entered
    std::vector<std::string> m_path;
};

} // namespace

YamlInputError::YamlInputError(std::size_t line, std::string keyPath, std::string message)
    : std::runtime_error(describe(line, keyPath, message))
    , m_line(line)
    , m_keyPath(std::move(keyPath))
    , m_message(std::move(message))
{
}

YAML::Node loadBoundedYaml(const std::string& text)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own guard (2,000 levels of its parser), whose message is "bad file".
        throw YamlInputError(e.mark.line >= 0 ? static_cast<std::size_t>(e.mark.line) + 1 : 0, {},
            "nested more than " + std::to_string(kYamlMaxDepth) + " levels deep");
    } catch (const YAML::Exception& e) {
        throw YamlInputError(e.mark.line >= 0 ? static_cast<std::size_t>(e.mark.line) + 1 : 0, {}, "not valid YAML: " + e.msg);
    }
    BoundedWalk walk(2 * static_cast<std::uint64_t>(text.size()) + (std::uint64_t { 1 } << 20));
    try {
        walk.visit(root);
    } catch (const YAML::Exception& e) {
        throw YamlInputError(e.mark.line >= 0 ? static_cast<std::size_t>(e.mark.line) + 1 : 0, {}, "not valid YAML: " + e.msg);
    }
    return root;
}

} // namespace fleet::importers
