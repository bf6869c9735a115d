// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Kubernetes name or label can never hold, checked where the input enters.
//
// The API server validates every object it stores (k8s.io/apimachinery/pkg/util/validation:
// IsDNS1123Subdomain for node and pod names, IsDNS1123Label for namespaces, IsQualifiedName for
// label keys, IsValidLabelValue for label values; the rules are on
// https://kubernetes.io/docs/concepts/overview/working-with-objects/names/ and
// .../labels/#syntax-and-character-set). None of them admits a control character, so a name
// holding one did not come from a cluster: it is a forged or damaged file. Every importer
// (kubectl JSON and the live LIST and WATCH streams, trace CSV, .fleet documents) refuses it
// with the file, the place and the name, rather than carry ESC, CR or NUL on to a terminal, a
// CSV or a script.
//
// Objects read as Kubernetes objects (kubectl JSON and YAML, the live LIST and WATCH streams)
// are held to the API server's own rule for their kind, since a cluster can never hold a node,
// pod or namespace named otherwise (kubeNameProblem). Traces and .fleet documents are not
// Kubernetes objects: a trace names its machines and containers its own way (Alibaba's "m_1",
// "c_2"), and a document may hold such a trace, so there only control characters are refused.
// Label keys given on the command line (a topology level, --keep-within) are checked by the
// full rule.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fleet::importers {

/// The byte offset of the first control character in `text`: C0 (U+0000-U+001F, NUL, tab, CR
/// and LF included), DEL (U+007F) or C1 (U+0080-U+009F, encoded in UTF-8 as C2 80..C2 9F);
/// nothing when there is none. Pure; thread: any.
[[nodiscard]] std::optional<std::size_t> controlCharacterOffset(std::string_view text) noexcept;

/// "" when `text` holds no control character; else the message, e.g. `the node name
/// "cpu\x1B[2J" holds the control character \x1B (byte 4), which no Kubernetes name or label
/// holds`. `what`: "the node name", "the label key", ... Pure; thread: any.
[[nodiscard]] std::string controlCharacterProblem(std::string_view text, std::string_view what);

/// "" when `key` is a valid Kubernetes label key (IsQualifiedName: an optional DNS-1123
/// subdomain prefix of at most 253 characters and '/', then a name of 1 to 63 characters from
/// [A-Za-z0-9-_.] that starts and ends with a letter or digit); else what is wrong, e.g.
/// "an empty label key" or `"zone/" is not a label key: the name after '/' is empty`.
/// Pure; thread: any.
[[nodiscard]] std::string labelKeyProblem(std::string_view key);

/// The API server's rule for an object's name, by kind (k8s.io/apimachinery/pkg/util/validation
/// and pkg/apis/core/validation): a node, a pod and a pod's spec.nodeName are DNS-1123
/// subdomains (ValidateNodeName, ValidatePodName: at most 253 characters, dot-separated parts of
/// [a-z0-9-] that start and end with [a-z0-9]); a namespace, as an object's name or as any
/// object's metadata.namespace, is a DNS-1123 label (ValidateNamespaceName: at most 63
/// characters of [a-z0-9-] that start and end with [a-z0-9]).
enum class KubeNameRule : unsigned char { Dns1123Subdomain, Dns1123Label };

/// "" when `name` follows `rule`; else what is wrong, e.g. `the node name "Node_1" is not a
/// valid Kubernetes name: it holds "N" (character 1), and a DNS-1123 subdomain holds only
/// lower-case letters, digits, '-' and '.'`. `what`: "the node name", "the namespace", ...
/// An empty name is a problem too ("is empty"). Pure; thread: any.
[[nodiscard]] std::string kubeNameProblem(std::string_view name, KubeNameRule rule, std::string_view what);

} // namespace fleet::importers
