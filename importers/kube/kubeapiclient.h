// SPDX-License-Identifier: Apache-2.0
#pragma once
// A read-only HTTP client for the Kubernetes API, Boost.Beast's HTTP over OpenSSL
// (tlssocket.h):
// GET requests over one kept-alive connection, TLS verified against the cluster's CA, with the
// credentials of a resolved kubeconfig (bearer token, token file, client certificate, or a
// client.authentication.k8s.io exec plugin such as `aws eks get-token`).
//
// Sources of the rules: client-go's rest/transport (Authorization: Bearer, TLS from
// certificate-authority(-data), tls-server-name as SNI and the name checked,
// insecure-skip-tls-verify) and plugin/pkg/client/auth/exec/exec.go (KUBERNETES_EXEC_INFO with
// spec.interactive false and, with provideClusterInfo, spec.cluster; a credential is a token or
// a client certificate and key; it is kept until status.expirationTimestamp and the plugin is run
// again after a 401).
//
// No secret (token, key, certificate or exec output) ever appears in an error or a log line.
// Answers are asked for with Accept-Encoding: gzip (streams are not) and inflated with zlib.
// proxy-url: an http:// proxy, through an HTTP CONNECT tunnel (user:password in the URL is sent
// as Proxy-Authorization: Basic); https:// and socks5:// proxies are refused with a clear error.
// Not supported, refused with a clear error rather than ignored: basic auth (username/password),
// a user name or password in the server URL (https://user:pass@host), a query or fragment in it.
// A plain http:// server with credentials is used, and warned about once on stderr (a token
// travels in cleartext there; kubecredentials_p.h).
// Every URL in a message is redacted (secrets.h). A bearer token (kubeconfig token, tokenFile,
// an exec plugin's) holding a control character is refused before anything is sent. A
// certificate-authority that cannot be read, is a folder, or holds no PEM certificate is an
// error (never "the system's CAs"), and so is insecure-skip-tls-verify together with a CA, as
// kubectl makes it.
// Time: a request gives up at ResolvedKubeconfig::requestTimeout (its retries included, when
// the caller passes the time it began); a RequestObserver is told what a request waits for
// after kRequestWaitReportAfter, then every kRequestWaitReportEvery.
//
// The credentials (token, tokenFile, client certificate, exec plugin, and the redaction of a
// token a server echoes) live in kubecredentials_p.h; the server's address, the proxy and the
// cluster's CA, read from the kubeconfig, in kubeendpoint_p.h; this file is the HTTP/TLS transport.
//
// Thread: one client per thread; it blocks (never use it on the GUI thread).

#include "importers/importreport.h"
#include "importers/kube/kubeconfig.h"
#include "importers/kube/secrets.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace fleet::importers::kube {

/// One response: the HTTP status, the body, and the headers the list logic needs.
struct ApiResponse {
    unsigned status = 0;
    std::string body;
    std::string retryAfter; ///< the Retry-After header (seconds), or empty
};

/// The largest answer body a request reads, by kind, counted after gzip is inflated: past it
/// the request fails ("the answer is larger than N MiB, the limit for KIND"), a Content-Length
/// above it is refused before any byte of the body is read, and no allocation is ever sized
/// from a Content-Length beyond it. Sized for a 100,000-node fleet:
/// - a LIST page (kListPageLimit, 1 GiB): a page of limit=500 objects of at most 1.5 MiB each
///   (etcd's default --max-request-bytes) is 750 MiB; 100,000 Nodes in one unpaged answer (a
///   server that ignores limit=) at ~8 KB each are some 800 MB;
/// - a metrics-server answer (kMetricsLimit, 256 MiB): a NodeMetrics item is ~300 bytes,
///   100,000 of them ~30 MB;
/// - a Prometheus answer (kPrometheusLimit, 1 GiB): 100,000 nodes of 8 GPUs, one series each
///   with ~400 bytes of labels and a window of samples, are some 600 MB;
/// - the body of a refused request (kErrorBodyLimit, 1 MiB): a Status or an error page.
/// A WATCH event is bounded by its reader (live::WatchStreamReader, 64 MiB per event).
struct BodyLimit {
    std::size_t bytes;
    const char* what; ///< "a LIST page", for the message
};
inline constexpr BodyLimit kListPageLimit { std::size_t { 1 } << 30, "a LIST page" };
inline constexpr BodyLimit kMetricsLimit { std::size_t { 256 } << 20, "a metrics-server answer" };
inline constexpr BodyLimit kPrometheusLimit { std::size_t { 1 } << 30, "a Prometheus answer" };
inline constexpr BodyLimit kErrorBodyLimit { std::size_t { 1 } << 20, "the body of a refused request" };

/// A failed request or an unusable configuration. what() is "SERVER: PATH: message" in
/// ImportError's form (file = server URL, path = request path), e.g.
/// "https://10.0.0.1:6443: /api/v1/pods: 403 Forbidden: pods is forbidden: User \"bob\" cannot list ...".
/// `status` is the HTTP status (0 for a connection, TLS or configuration failure).
class KubeApiError : public ImportError {
public:
    KubeApiError(std::string server, std::string path, unsigned status, const std::string& message, bool transient = false)
        : ImportError(redactedUrl(server), 0, redactedUrl(path), message)
        , m_status(status)
        , m_transient(transient)
    {
    }
    unsigned status() const noexcept { return m_status; }
    /// A failure that trying again may cure (a refused, reset or timed-out connection), as
    /// opposed to one that it cannot (an untrusted certificate, a bad setting).
    bool transient() const noexcept { return m_transient; }

private:
    unsigned m_status;
    bool m_transient;
};

/// How many characters of a Status message statusMessage() keeps.
inline constexpr std::size_t kStatusMessageMaxChars = 1000;

/// The "message" of a Kubernetes Status body ({"kind": "Status", "message": ...}) as
/// escapedText() (every control byte, newlines included, as \xNN; at most
/// kStatusMessageMaxChars characters), or the start of the body (quoted, at most ~200
/// characters) when it is not a Status. Thread: any.
[[nodiscard]] std::string statusMessage(const std::string& body);

/// First report of a request that is still waiting, and the interval of the next ones.
inline constexpr std::chrono::milliseconds kRequestWaitReportAfter { 3000 };
inline constexpr std::chrono::milliseconds kRequestWaitReportEvery { 5000 };

/// What a slow request is doing, for a RequestObserver.
struct RequestWait {
    std::string server; ///< the server URL, redacted
    std::string target; ///< the request path, its query redacted
    /// "running the exec credential plugin", "connecting", "sending the request", "waiting for
    /// the answer", "reading the answer"
    std::string phase;
    std::chrono::milliseconds waited { 0 }; ///< since the request began (its earlier attempts included)
    std::chrono::milliseconds limit { 0 }; ///< the request timeout (0: none)
    std::size_t bytesReceived = 0; ///< of this attempt's answer so far
    /// Where the request timeout was given (ResolvedKubeconfig::input): describe() names its
    /// flag on the command line only.
    KubeconfigInput input = KubeconfigInput::CommandLine;
    /// One line for a person: "waiting for https://h:6443 /api/v1/pods?REDACTED: no answer yet, 5 s
    /// so far (gives up at 60 s, --request-timeout)", "(gives up at 60 s)" from a dialog of
    /// the window; "connecting, ", "sending the request, " or
    /// "N bytes of the answer so far, " in place of "no answer yet, " as the phase and bytes say
    /// ("running the exec credential plugin, " while the user's exec plugin runs: its bound is
    /// the request timeout too).
    [[nodiscard]] std::string describe() const;
};

/// Told what a request that takes long is doing (app/ shows it on stderr or in the window).
/// Called on the client's thread while it blocks: keep it short, never block.
/// importers::loadLiveCluster() tells the ImportProgress it is given when that also is a
/// RequestObserver.
class RequestObserver {
public:
    virtual ~RequestObserver() = default;
    virtual void requestWaiting(const RequestWait& wait) = 0;
};

class KubeApiClient {
public:
    /// Reads the CA, client certificate and key files and the token file now. Throws
    /// KubeApiError (status 0) for a server URL that is not http(s)://host[:port], a file that
    /// cannot be read, an unsupported setting (see above), or an exec plugin that asks for
    /// interactiveMode Always (the window has no terminal).
    explicit KubeApiClient(const ResolvedKubeconfig& config);
    ~KubeApiClient();
    KubeApiClient(const KubeApiClient&) = delete;
    KubeApiClient& operator=(const KubeApiClient&) = delete;

    /// GET `target` (path and query, e.g. "/api/v1/nodes?limit=500"), Accept: application/json.
    /// Connects (or reconnects when the kept-alive connection was closed) as needed. A 401 with
    /// an exec credential runs the plugin again and retries once. Returns every status; throws
    /// KubeApiError (status 0) when the connection, TLS handshake or certificate check fails, or
    /// an exec plugin fails (its exit code and stderr's first line, never its stdout).
    /// The body may be at most `limit.bytes` long (see BodyLimit), and is read within the
    /// request timeout (a body that streams on past it fails as a slow one does).
    [[nodiscard]] ApiResponse get(const std::string& target, BodyLimit limit = kListPageLimit);
    /// get() as one attempt of a request that began at `began` (a caller that retries): it gives
    /// up at began + requestTimeout() (a transient KubeApiError saying so), and waits are
    /// reported as counted from `began`.
    [[nodiscard]] ApiResponse get(const std::string& target, std::chrono::steady_clock::time_point began, BodyLimit limit = kListPageLimit);
    /// The longest a request may take, retries included (0: no bound but 60 s per step).
    [[nodiscard]] std::chrono::milliseconds requestTimeout() const noexcept;
    /// Where the user gave the request timeout (ResolvedKubeconfig::input): how an error names
    /// its setting (requestTimeoutSetting()).
    [[nodiscard]] KubeconfigInput input() const noexcept;
    /// Who is told about slow requests (nullptr: nobody; not owned, it must outlive the client).
    void setObserver(RequestObserver* observer) noexcept;

    /// GET `target` as a stream (a WATCH: the server keeps the response open and writes events
    /// as they happen), handing each piece of the body to `onData` as it arrives, in order. Returns
    /// the status when the server ends the body, when `onData` returns false, or when interrupt()
    /// is called (interrupted() is then true). For a status other than 200 the body (its first
    /// kErrorBodyLimit bytes) is read into the response and `onData` is not called. `idle` is the longest wait for a byte; past
    /// it the stream ends with a transient KubeApiError. Credentials, reconnects and errors as
    /// get(); the connection is closed after the stream.
    ApiResponse stream(const std::string& target, const std::function<bool(std::string_view)>& onData, std::chrono::seconds idle);
    /// Ends a running stream() (or makes the next one end at once). Thread: any; the one call of
    /// this class that may come from another thread.
    void interrupt();
    /// True once interrupt() was called (until clearInterrupt()).
    [[nodiscard]] bool interrupted() const noexcept;
    /// Forgets an interrupt, so the next stream() runs. Thread: the client's.
    void clearInterrupt();

    /// The server URL as configured ("https://host:port"); it has no userinfo, query or fragment
    /// (refused), and control bytes are escaped.
    [[nodiscard]] const std::string& server() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fleet::importers::kube
