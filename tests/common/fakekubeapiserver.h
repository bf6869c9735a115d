// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test double of the Kubernetes API server, for what cannot run here: HTTPS on loopback
// (Boost.Beast), a bearer token, discovery (/version, /api, /apis, /api/v1, /apis/policy/v1)
// enough for a real kubectl (1.33) to accept it, and LIST of nodes, pods and the optional
// lists with limit / continue paging, from kubectl JSON fixtures. Faults on demand: continue
// tokens that expire (410 Gone), 429 with Retry-After, 403 on a list (and on its watch). A watch
// of /api/v1/namespaces/NS/pods gets the events of /api/v1/pods in NS.
//
// Thread: the server runs its own threads (one per connection); the test's thread configures
// it before the first request and reads requests() after.

#include <QByteArray>
#include <QJsonArray>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fleet::tests {

/// A CA and a server certificate for 127.0.0.1 (and DNS kube.test), and client certificates,
/// made with the openssl command in `dir`. Empty strings when openssl is not installed.
struct TestPki {
    std::string caPem, caFile, serverCertPem, serverKeyPem;
    std::string otherCaFile; ///< a CA that did not sign the server certificate
    std::string clientCertFile, clientKeyFile; ///< CN=fleet-test-user, O=fleet-readers, signed by the CA (clientAuth)
    std::string strangerCertFile, strangerKeyFile; ///< a client certificate the other CA signed
    static TestPki create(const std::string& dir);
};

class FakeKubeApiServer {
public:
    struct Options {
        std::string token = "fleet-test-token"; ///< bearer token required (empty: none)
        std::size_t pageSize = 1;               ///< items per page at most (below the client's limit)
        int expireContinue = 0;                 ///< this many requests with a continue token get 410 Gone
        int throttle = 0;                       ///< this many LISTs get 429 with Retry-After: 0
        std::vector<std::string> forbidden;     ///< collection paths answered with 403, their lists and watches
        bool echoCredentials = false;           ///< a 403 list answer quotes the request's Authorization header (a careless proxy)
        /// Text a 403 list answer's Status message ends with (a server, or a man in the middle on
        /// http://, that puts control bytes or line breaks in it); empty: none.
        std::string forbiddenMessageTail;
        int watchGone = 0;                      ///< this many WATCH requests get an HTTP 410 Gone status
        int delayMs = 0;                        ///< every answer waits this long first (a slow server)
        /// Pre-built answers by exact request target ("/api/v1/pods?limit=500&continue=..."),
        /// served as they are with status 200 (benchmarks: the server must not be the bottleneck).
        std::shared_ptr<const std::map<std::string, std::string>> pages;
        bool gzip = false; ///< gzip every answer whose request accepts it (Accept-Encoding: gzip), as APIResponseCompression does
        /// Ask for a client certificate (advertising the CA); one the CA signed authenticates a
        /// request as the token does, as kube-apiserver's x509 authenticator (--client-ca-file).
        /// An unverified one is judged per request (401), not by failing the handshake, as there.
        bool clientCertificates = false;
    };
    /// `lists` maps a collection path ("/api/v1/nodes") to its items.
    FakeKubeApiServer(const TestPki& pki, std::map<std::string, QJsonArray> lists, Options options);
    ~FakeKubeApiServer();
    FakeKubeApiServer(const FakeKubeApiServer&) = delete;
    FakeKubeApiServer& operator=(const FakeKubeApiServer&) = delete;

    unsigned short port() const;
    std::string url() const { return "https://127.0.0.1:" + std::to_string(port()); }
    /// CPU seconds the server's connection threads used so far (their thread CPU clocks), for
    /// the share of the machine a benchmark's server took. Thread: any.
    double cpuSeconds() const;
    /// Answers sent gzip-compressed so far.
    int gzipped() const;
    /// Connections whose client certificate the CA verified (Options::clientCertificates), so far.
    int certificateConnections() const;
    /// Every request target served so far, in order.
    std::vector<std::string> requests() const;

    /// The server's resourceVersion now (4242 before the first event); lists report it.
    long long resourceVersion() const;
    /// Adds an event to collection `path` ("/api/v1/pods"): the list changes (ADDED and MODIFIED
    /// put `object` in place of the item of the same namespace/name, or append it; DELETED
    /// removes it), the resourceVersion moves on and is set in the object, and every open watch
    /// of `path` gets the event. Returns the new resourceVersion.
    long long addEvent(const std::string& path, const std::string& type, QJsonObject object);
    /// Answers these collection paths with 403 from now on (in place of Options::forbidden): a
    /// user's rights changed. Requests already served stay as they were.
    void setForbidden(std::vector<std::string> paths);
    /// Forgets the history up to now: a watch from an older resourceVersion gets an ERROR event
    /// with a 410 Expired Status (as the API server answers a compacted revision).
    void compact();
    /// Sends a BOOKMARK at the current resourceVersion on every open watch that asked for them.
    void sendBookmarks();
    /// Ends every open watch cleanly (as the server's timeoutSeconds does).
    void endWatches();
    /// Drops every open connection without ending its response (as a server restart does).
    void dropConnections();
    /// Watches open now, and served since start.
    int openWatches() const;
    int watchesServed() const;

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

/// Reads the items of a kubectl JSON list file (tests/data or shared/data).
QJsonArray itemsOfListFile(const QString& path);

} // namespace fleet::tests
