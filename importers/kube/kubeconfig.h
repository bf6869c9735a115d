// SPDX-License-Identifier: Apache-2.0
#pragma once
// kubeconfig as kubectl reads it: which files, how they merge, which context, and
// the cluster and user that context names, with every relative path made absolute.
//
// Source of the rules: client-go's tools/clientcmd/loader.go (ClientConfigLoadingRules.Load,
// ResolveLocalPaths, GetAuthInfoFileReferences) and api/v1/types.go + defaults.go:
// - files: `--kubeconfig FILE` alone (an error when it does not exist), else every entry of
//   KUBECONFIG (split on ':', duplicates dropped, empty entries and missing files skipped), else
//   ~/.kube/config;
// - merging: for clusters, users and contexts the first file that names an entry wins, whole
//   (a later file's entry of the same name is ignored, even its fields the first lacks);
//   current-context is taken from the first file that sets it;
// - relative paths (certificate-authority, client-certificate, client-key, tokenFile, and an
//   exec command that contains a '/') are resolved against the directory of the file that
//   holds the cluster or user entry;
// - an exec plugin of apiVersion client.authentication.k8s.io/v1beta1 (or v1alpha1) without
//   interactiveMode defaults to IfAvailable; v1 must set it.
//
// YAML is parsed with yaml-cpp. No secret (token, password, key or certificate data) ever
// appears in an error message.
//
// Thread: any (pure functions of the files and the request).

#include "importers/importreport.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fleet::importers::kube {

/// How long one request to the API server may take by default, its retries included: the API
/// server's own default (kube-apiserver --request-timeout, 1 minute), so that a server which
/// accepts and never answers, stops mid-answer or trickles costs one minute, not several.
inline constexpr std::chrono::milliseconds kDefaultRequestTimeout { 60'000 };
/// How long an exec credential plugin may run before it is killed (with its children) when
/// the request timeout is 0 (none) or longer; else the request timeout bounds it.
inline constexpr std::chrono::milliseconds kDefaultExecTimeout { 120'000 };

/// Where the user named the kubeconfig, the context and the request timeout, so that an error
/// tells them what to change in the words of the place they are in.
enum class KubeconfigInput : std::uint8_t {
    /// fleetscope's kubectl-style flags (a subcommand, or the window started with them):
    /// --kubeconfig, --context, --request-timeout.
    CommandLine,
    /// A dialog of the window (File > Connect to Cluster, File > Compare With Live Cluster): its
    /// Kubeconfig and Context fields; neither has a request timeout field (the default applies).
    WindowDialog,
};

/// The setting that changes the request timeout, as a message adds it after naming the
/// timeout: "; --request-timeout sets it" on the command line, "" from the dialog (no field
/// sets it). Thread: any.
[[nodiscard]] std::string requestTimeoutSetting(KubeconfigInput input);

/// Where to read kubeconfig from: kubectl's flags and environment.
struct KubeconfigRequest {
    std::string explicitPath; ///< --kubeconfig (empty: not given)
    std::string kubeconfigEnv; ///< the KUBECONFIG environment variable (empty: unset)
    std::string homeDir;       ///< $HOME, for ~/.kube/config
    std::string context;       ///< --context (empty: the current-context)
    /// --request-timeout: the longest a request may take, retries included (0: no bound beyond
    /// 60 s per step: connecting, sending, each wait for the answer), as client-go's
    /// ConfigOverrides.Timeout. Copied into ResolvedKubeconfig::requestTimeout.
    std::chrono::milliseconds requestTimeout = kDefaultRequestTimeout;
    /// Where the user gave the above: how errors name them. Copied into ResolvedKubeconfig::input.
    KubeconfigInput input = KubeconfigInput::CommandLine;

    /// explicitPath and context as given; kubeconfigEnv and homeDir from the process
    /// environment (KUBECONFIG, HOME).
    static KubeconfigRequest fromEnvironment(std::string explicitPath, std::string context);
};

/// A client.authentication.k8s.io exec credential plugin, as configured.
struct ExecConfig {
    std::string apiVersion;   ///< client.authentication.k8s.io/v1 or /v1beta1
    std::string command;      ///< absolute when it contained a '/', else looked up in PATH
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env; ///< name, value (in order)
    std::string installHint;
    bool provideClusterInfo = false;
    std::string interactiveMode; ///< Never, IfAvailable or Always (defaulted as above)
};

/// The cluster entry a context names.
struct KubeconfigCluster {
    std::string name;
    std::string server;                   ///< e.g. https://ABC.gr7.us-east-1.eks.amazonaws.com
    std::string certificateAuthority;     ///< absolute path, or empty
    std::string certificateAuthorityData; ///< PEM bytes (base64-decoded), or empty
    std::string tlsServerName;
    std::string proxyUrl;
    bool insecureSkipTlsVerify = false;
    bool disableCompression = false;
    std::string origin; ///< the file the entry came from
};

/// The user (AuthInfo) entry a context names.
struct KubeconfigUser {
    std::string name;
    std::string token;                 ///< bearer token, or empty
    std::string tokenFile;             ///< absolute path, or empty
    std::string clientCertificate;     ///< absolute path, or empty
    std::string clientCertificateData; ///< PEM bytes, or empty
    std::string clientKey;             ///< absolute path, or empty
    std::string clientKeyData;         ///< PEM bytes, or empty
    std::string username, password;    ///< basic auth (kubectl still reads it)
    std::optional<ExecConfig> exec;
    std::string origin;
};

/// What a request resolves to.
struct ResolvedKubeconfig {
    std::vector<std::string> files;    ///< the files read, in precedence order
    std::vector<std::string> contexts; ///< every context name of the merged config, sorted
    std::string currentContext;        ///< the merged current-context (may be empty)
    std::string contextName;           ///< the context used
    std::string namespaceName;         ///< the context's namespace, or empty
    KubeconfigCluster cluster;
    KubeconfigUser user;
    /// The longest a request may take, retries included (KubeconfigRequest::requestTimeout).
    std::chrono::milliseconds requestTimeout = kDefaultRequestTimeout;
    /// The longest an exec plugin may run; past it the plugin and every process it started
    /// (its process group) are killed and the request fails.
    std::chrono::milliseconds execTimeout = kDefaultExecTimeout;
    /// Where the user gave the kubeconfig, context and request timeout (KubeconfigRequest::input):
    /// how the client's errors name the request timeout's setting.
    KubeconfigInput input = KubeconfigInput::CommandLine;
};

/// Bad kubeconfig: what() is "FILE:LINE: PATH: message" (ImportError's form), e.g.
/// "/home/a/.kube/config:12: users[0].user.client-key-data: not valid base64".
class KubeconfigError : public ImportError {
public:
    using ImportError::ImportError;
};

/// Reads, merges and resolves kubeconfig for `request`. Throws KubeconfigError when a file
/// cannot be read or parsed, a field has the wrong type, the explicit file is missing, no file
/// defines any context, the context (given or current) does not exist, or it names a cluster
/// or user that does not exist, or the cluster has no server.
[[nodiscard]] ResolvedKubeconfig loadKubeconfig(const KubeconfigRequest& request);

/// The context names of the merged kubeconfig, sorted, and its current-context (for the
/// window's File > Connect). Throws KubeconfigError as loadKubeconfig does for unreadable
/// files; an empty list is not an error.
[[nodiscard]] std::pair<std::vector<std::string>, std::string> listKubeconfigContexts(const KubeconfigRequest& request);

} // namespace fleet::importers::kube
