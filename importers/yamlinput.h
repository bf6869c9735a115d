// SPDX-License-Identifier: Apache-2.0
#pragma once
// YAML as every YAML reader of Fleetscope takes it (pod templates, node groups, the usage
// config, kubeconfig): parsed by yaml-cpp, then checked against bounds before a reader walks it.
//
// yaml-cpp (0.7 on Debian 12) keeps an alias as a second reference to its anchor's node, so a
// 500-byte document can stand for a tree of billions of nodes ("billion laughs"), and an alias
// inside its own anchor (`a: &a [*a]`) makes a cycle that any walk follows until the stack
// overflows. It bounds only the parser's nesting (2,000). So, before a reader sees the tree:
// - the tree is walked as the reader would, aliases expanded, with a budget: at most
//   kYamlMaxDepth levels of nesting, and at most 2 x the text's bytes + 1 MiB of nodes and
//   scalar bytes (a document without aliases is well within it: every node and every scalar
//   byte takes at least one byte of text). An alias inside its own anchor makes the walk
//   too deep: it is named as a cycle when the walk finds the node on its own stack, else
//   refused as nested too deep (never followed for ever);
// - every mapping key must be a scalar (the files are JSON-shaped), and a key given twice in
//   one mapping is refused (yaml-cpp keeps both; readers would silently take one of them).
// These are also the YAML 1.2 rules for JSON documents (unique keys, no cycles).
//
// Thread: any. yaml-cpp types appear here because only importers/ includes this header.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace fleet::importers {

/// The deepest nesting of mappings and lists a YAML option file may have.
inline constexpr int kYamlMaxDepth = 100;

/// YAML refused by loadBoundedYaml(): line() is 1-based (0 when unknown), keyPath() the place
/// ("nodeGroups[0].minSize", empty for the document), message() what is wrong. what() is
/// "line N: PATH: message" (parts left out when unknown).
class YamlInputError : public std::runtime_error {
public:
    YamlInputError(std::size_t line, std::string keyPath, std::string message);
    [[nodiscard]] std::size_t line() const noexcept { return m_line; }
    [[nodiscard]] const std::string& keyPath() const noexcept { return m_keyPath; }
    [[nodiscard]] const std::string& message() const noexcept { return m_message; }

private:
    std::size_t m_line;
    std::string m_keyPath;
    std::string m_message;
};

/// Parses `text` (one YAML document; JSON is YAML too) and checks it as described above.
/// Returns the root (a null node for an empty document). Throws YamlInputError for text that
/// is not YAML (yaml-cpp's message and line), nesting deeper than kYamlMaxDepth, an alias
/// that contains itself, aliases that expand past the budget, a mapping key that is not a
/// scalar, or a key given twice in one mapping (naming the key and both lines). Time and
/// memory are linear in the text's size. Thread: any.
[[nodiscard]] YAML::Node loadBoundedYaml(const std::string& text);

} // namespace fleet::importers
