// SPDX-License-Identifier: Apache-2.0
#pragma once
// The user's credentials of a resolved kubeconfig, as KubeApiClient sends them (kubeapiclient.h
// gives the rules and their sources): a bearer token (the user's token or tokenFile), a client
// certificate and key (files or -data), or the credential of a client.authentication.k8s.io exec
// plugin, cached until its expirationTimestamp and fetched again after a 401. Also the one
// place that replaces a token a server echoes in an error body.
//
// No secret (token, key, certificate or the plugin's stdout) ever appears in an error.
// Errors are KubeApiError (status 0) naming the server, as the client's own.
// Thread: one object per client, used on the client's thread (the exec plugin blocks).

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"

#include <QDateTime>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace fleet::importers::kube {

/// "1.5 s", "60 s": a duration for a message.
[[nodiscard]] std::string secondsText(std::chrono::milliseconds d);

/// A file a kubeconfig names (`what`: "certificate-authority", "client-certificate",
/// "client-key" or "tokenFile"), through the one option file reader: a regular file of the
/// kind's size at most. Throws KubeApiError (status 0, file `server`) saying what it is and why
/// it cannot be read.
[[nodiscard]] std::string readKubeconfigFile(const std::string& server, const std::string& path, const char* what);

/// The warning for credentials sent to a plain http:// server (the kubeconfig's server or a
/// Prometheus URL): a bearer token (token, tokenFile or an exec plugin's) travels in cleartext
/// there, where anyone on the network path can read and reuse it; a client certificate is not
/// sent at all (it needs TLS). nullopt for an https:// server or a user without credentials.
/// One line, the URL redacted and control bytes escaped (terminalLine()), e.g. "warning: user
/// \"bob\" of http://10.0.0.1:8080: the server URL is plain http://, so the bearer token travels
/// in cleartext: anyone on the network path can read and reuse it; use an https:// server URL".
/// Pure; thread: any.
[[nodiscard]] std::optional<std::string> cleartextCredentialsWarning(const ResolvedKubeconfig& config);

/// Prints cleartextCredentialsWarning(config), when there is one, on stderr: once per process
/// for each warning's text (a live session makes a client per watch and per reconnect, the
/// window one per usage refresh; the operator needs to read it once). Thread: any.
void warnCleartextCredentials(const ResolvedKubeconfig& config);

class KubeCredentials {
public:
    /// `server` is the redacted server URL that errors name. Reads nothing yet.
    KubeCredentials(const ResolvedKubeconfig& config, std::string server);

    /// Refuses what Fleetscope does not support: basic auth (username/password).
    void refuseUnsupported() const;
    /// Reads the client certificate and key and the token file now; refuses an empty token
    /// file, a token with a control character, and an exec plugin that needs a terminal
    /// (interactiveMode Always).
    void load();

    /// Runs the exec plugin when the user has one and no credential is cached or it expired.
    /// `caPem` is the cluster's CA, given to a plugin that asks for the cluster's info. Returns
    /// true when the plugin gave a new client certificate (the connection must be remade).
    bool ensureExecCredential(const std::string& caPem);
    /// Runs the exec plugin again (a 401 invalidates its cached credential); as above.
    bool renewExecCredential(const std::string& caPem);
    [[nodiscard]] bool hasExecPlugin() const noexcept { return config.user.exec.has_value(); }
    /// Called at least every 250 ms while the exec plugin runs (the client reports a slow
    /// request from it); null: none.
    void setWaitTick(std::function<void()> tick) { waitTick = std::move(tick); }
    /// The longest the exec plugin may run: the request timeout when there is one (the plugin
    /// is part of the request), else ResolvedKubeconfig::execTimeout; never more than the latter.
    [[nodiscard]] std::chrono::milliseconds execBound() const noexcept;

    /// The token to send as Authorization: Bearer (the plugin's first), or empty.
    [[nodiscard]] const std::string& bearerToken() const noexcept { return !execToken.empty() ? execToken : staticToken; }
    /// The client certificate chain and key to present in TLS (the plugin's first), or empty.
    [[nodiscard]] const std::string& clientCertificatePem() const noexcept { return !execCertPem.empty() ? execCertPem : certPem; }
    [[nodiscard]] const std::string& clientKeyPem() const noexcept { return !execKeyPem.empty() ? execKeyPem : keyPem; }

    /// A server may echo the request's credentials in an error (a proxy's "bad auth Bearer
    /// ..."): the tokens never reach a message, so an error body has them replaced by
    /// "REDACTED" before anyone reads it. A 200 body is the cluster's data and is not scanned
    /// (it never carries our token).
    void redactCredentials(ApiResponse& r) const;

private:
    [[noreturn]] void fail(const std::string& path, const std::string& message) const { throw KubeApiError(server, path, 0, message); }
    // Runs the exec plugin and keeps its credential. Never quotes its stdout (it holds secrets).
    // Returns true when it gave a client certificate.
    bool runExecPlugin(const std::string& caPem);

    ResolvedKubeconfig config;
    std::string server;
    std::string certPem, keyPem; // from kubeconfig
    std::string staticToken;
    // Exec credential (plugin/pkg/client/auth/exec/exec.go): cached until it expires.
    std::string execToken, execCertPem, execKeyPem;
    std::optional<QDateTime> execExpiry;
    bool haveExecCredential = false;
    std::function<void()> waitTick;
};

} // namespace fleet::importers::kube
