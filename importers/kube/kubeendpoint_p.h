// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where KubeApiClient connects and whom it trusts, from a kubeconfig's cluster entry: the server
// URL taken apart (scheme, host, port, base path), the http:// proxy of proxy-url, and the
// cluster's CA certificates. The rules and their sources are kubeapiclient.h's (client-go's
// rest/transport): what each function refuses, it refuses with a KubeApiError (status 0) naming
// the server, and no URL in a message keeps its secrets (secrets.h).
// Thread: any (the functions keep no state; readClusterCa() reads a file).

#include "importers/kube/kubeconfig.h"

#include <string>

namespace fleet::importers::kube {

/// The API server's address as the requests use it.
struct KubeServerAddress {
    std::string host; ///< a name or an IP address (an IPv6 one without its brackets)
    std::string port; ///< "443" for https:// and "80" for http:// unless the URL gives one
    std::string basePath; ///< the URL's path without trailing '/' ("" for none), put before each target
    bool tls = true; ///< https:// (false: http://)
};

/// Takes `cluster.server` apart: https://HOST[:PORT][/PATH] or http://, HOST a name or [IPv6].
/// `server`: the redacted URL errors name. Throws KubeApiError for a space or control byte, a
/// user name or password, a query or fragment, another scheme, or no host.
[[nodiscard]] KubeServerAddress parseServerAddress(const KubeconfigCluster& cluster, const std::string& server);

/// proxy-url's http://[user:password@]host[:port] proxy: requests go through its HTTP CONNECT
/// tunnel, user:password sent as Proxy-Authorization: Basic.
struct KubeProxy {
    std::string host; ///< empty: no proxy
    std::string port; ///< "80" unless the URL gives one
    std::string authorization; ///< "Basic BASE64", or empty
};

/// The proxy of `cluster.proxyUrl` (empty when it is unset). Throws KubeApiError for a proxy that
/// is not http:// (https:// and socks5:// are not supported) or has no host.
[[nodiscard]] KubeProxy parseProxy(const KubeconfigCluster& cluster, const std::string& server);

/// The PEM text of the cluster's CA certificates (certificate-authority-data, or the
/// certificate-authority file read now), or "" when it names none (the system's CAs, or
/// insecure-skip-tls-verify). Throws KubeApiError for insecure-skip-tls-verify together with a CA
/// (kubectl refuses it too), a CA file that is a folder or cannot be read, and a CA that holds no
/// PEM certificate: a named CA never falls back to the system's CAs.
[[nodiscard]] std::string readClusterCa(const KubeconfigCluster& cluster, const std::string& server);

} // namespace fleet::importers::kube
