// SPDX-License-Identifier: Apache-2.0
#pragma once
// What of a credential may be shown in a message, and what a credential may hold: the one place
// that redacts URLs and checks bearer tokens, for the Kubernetes API client, the Prometheus
// client and the command line.
//
// Rules:
// - a URL printed in any message loses its userinfo (user:password@) and its query string and
//   fragment: a password in a server or proxy URL, or a token in a query, must never reach a
//   terminal, a dialog or a log;
// - a bearer token is sent in an HTTP header (Authorization: Bearer TOKEN): a token holding a
//   control character (a CR or LF would end the header and start another one on the wire) is
//   refused, as is an empty token, and the refusal names the byte and its offset, never the token.
//
// Pure functions; thread: any.

#include <optional>
#include <string>
#include <string_view>

namespace fleet::importers::kube {

/// `url` with its userinfo replaced by "REDACTED@" and its query string and fragment by
/// "?REDACTED" / "#REDACTED", control bytes escaped (quotedtext.h's escapedText, at most 200
/// characters). "https://bob:pw@h:6443/x?token=t" gives "https://REDACTED@h:6443/x?REDACTED". A
/// text without "://" is treated as a request target ("/api/v1/pods?limit=500&continue=..."):
/// only its query and fragment are redacted.
[[nodiscard]] std::string redactedUrl(std::string_view url);

/// Why `token` cannot be sent as a bearer token, or nullopt when it can: empty, or a control
/// byte (0x00-0x1F or 0x7F; a CR, an LF, a tab) at some offset. `what` names the token's source
/// in the message ("the token of user \"alice\""), e.g. "the token of user \"alice\" holds a
/// control character (0x0D at byte 12): a token is one line of printable characters". The
/// message never contains the token.
[[nodiscard]] std::optional<std::string> bearerTokenProblem(std::string_view token, const std::string& what);

} // namespace fleet::importers::kube
