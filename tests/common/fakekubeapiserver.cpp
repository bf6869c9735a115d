// SPDX-License-Identifier: Apache-2.0
#include "common/fakekubeapiserver.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QUrlQuery>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "importers/kube/tlssocket.h"

#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <condition_variable>
#include <thread>

namespace fleet::tests {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using fleet::importers::kube::TlsSocket;

namespace {

bool run(const QString& dir, const QStringList& args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start("openssl", args);
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

std::string readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

QByteArray json(const QJsonObject& o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

QByteArray status(int code, const char* reason, const QString& message)
{
    return json({{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", QJsonObject()}, {"status", "Failure"},
                 {"message", message}, {"reason", reason}, {"code", code}});
}

QJsonObject resource(const char* name, const char* kind, bool namespaced, const char* shortName = nullptr)
{
    QJsonObject r{{"name", name}, {"singularName", ""}, {"namespaced", namespaced}, {"kind", kind},
                  {"verbs", QJsonArray{"get", "list", "watch"}}};
    if (shortName)
        r["shortNames"] = QJsonArray{shortName};
    return r;
}

const char* kindOfList(const std::string& path)
{
    if (path.starts_with("/apis/metrics.k8s.io"))
        return "NodeMetricsList";
    if (path.ends_with("/nodes"))
        return "NodeList";
    if (path.ends_with("/pods"))
        return "PodList";
    if (path.ends_with("/namespaces"))
        return "NamespaceList";
    if (path.ends_with("/persistentvolumes"))
        return "PersistentVolumeList";
    return "PodDisruptionBudgetList";
}

} // namespace

TestPki TestPki::create(const std::string& dirPath)
{
    const QString dir = QString::fromStdString(dirPath);
    const QStringList ec{"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"};
    TestPki pki;
    QFile ext(dir + "/server.ext");
    if (!ext.open(QIODevice::WriteOnly))
        return pki;
    ext.write("subjectAltName=IP:127.0.0.1,DNS:kube.test\nextendedKeyUsage=serverAuth\n");
    ext.close();
    const bool ok = run(dir, QStringList{"req", "-x509"} + ec + QStringList{"-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=fleet-test-ca", "-days", "2"})
        && run(dir, QStringList{"req", "-x509"} + ec + QStringList{"-keyout", "other.key", "-out", "other.crt", "-subj", "/CN=other-ca", "-days", "2"})
        && run(dir, QStringList{"req"} + ec + QStringList{"-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=kube-apiserver"})
        && run(dir, {"x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt",
                     "-days", "2", "-extfile", "server.ext"});
    if (!ok)
        return pki;
    QFile clientExt(dir + "/client.ext");
    if (!clientExt.open(QIODevice::WriteOnly))
        return pki;
    clientExt.write("extendedKeyUsage=clientAuth\n");
    clientExt.close();
    const bool clients = run(dir, QStringList{"req"} + ec + QStringList{"-keyout", "client.key", "-out", "client.csr", "-subj", "/O=fleet-readers/CN=fleet-test-user"})
        && run(dir, {"x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "client.crt",
                     "-days", "2", "-extfile", "client.ext"})
        && run(dir, QStringList{"req"} + ec + QStringList{"-keyout", "stranger.key", "-out", "stranger.csr", "-subj", "/CN=stranger"})
        && run(dir, {"x509", "-req", "-in", "stranger.csr", "-CA", "other.crt", "-CAkey", "other.key", "-CAcreateserial", "-out",
                     "stranger.crt", "-days", "2", "-extfile", "client.ext"});
    if (!clients)
        return pki;
    pki.clientCertFile = (dir + "/client.crt").toStdString();
    pki.clientKeyFile = (dir + "/client.key").toStdString();
    pki.strangerCertFile = (dir + "/stranger.crt").toStdString();
    pki.strangerKeyFile = (dir + "/stranger.key").toStdString();
    pki.caFile = (dir + "/ca.crt").toStdString();
    pki.caPem = readAll(dir + "/ca.crt");
    pki.otherCaFile = (dir + "/other.crt").toStdString();
    pki.serverCertPem = readAll(dir + "/server.crt");
    pki.serverKeyPem = readAll(dir + "/server.key");
    return pki;
}

QJsonArray itemsOfListFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("items").toArray();
}

struct FakeKubeApiServer::Impl {
    std::map<std::string, QJsonArray> lists;
    Options options;
    net::io_context ioc;
    ssl::context ctx{ssl::context::tls_server};
    tcp::acceptor acceptor{ioc};
    std::thread acceptThread;
    std::atomic<bool> stopping{false};
    mutable std::mutex mutex; // guards what follows
    std::vector<std::string> log;
    std::vector<int> openSockets;
    std::vector<std::thread> connections;
    int expireLeft = 0, throttleLeft = 0, watchGoneLeft = 0;
    // WATCH
    struct Event {
        std::string path;
        long long rv;
        std::string line; // the event's JSON and "\n"
        std::string ns;   // the object's namespace ("" for nodes)
    };
    // Whether a watch of `watched` gets an event of collection `path` in namespace `ns`: its own
    // collection's, or for /api/v1/namespaces/NS/pods the pods of NS.
    static bool watchSees(const std::string& watched, const Event& e)
    {
        return e.path == watched || (e.path == "/api/v1/pods" && watched == "/api/v1/namespaces/" + e.ns + "/pods");
    }
    long long rv = 4242, compactedRv = 0;
    std::vector<Event> history;
    int gzipCount = 0;
    // CPU of the connection threads: those that ended, and the clocks of those running.
    double finishedCpuSeconds = 0;
    std::map<std::thread::id, clockid_t> liveClocks;
    int bookmarkRound = 0, endRound = 0, dropRound = 0, open = 0, served = 0;
    std::condition_variable watchCv;


    // A copy of the collection at `path` (a configured list, or one namespace's pods), or
    // nothing. Copied under the lock: addEvent() changes the lists while watches run.
    bool isForbidden(const std::string& path)
    {
        std::lock_guard lock(mutex);
        return std::find(options.forbidden.begin(), options.forbidden.end(), path) != options.forbidden.end();
    }

    std::optional<QJsonArray> listOf(const std::string& path)
    {
        std::lock_guard lock(mutex);
        if (auto it = lists.find(path); it != lists.end())
            return it->second;
        const std::string prefix = "/api/v1/namespaces/";
        const auto pods = lists.find("/api/v1/pods");
        if (!path.starts_with(prefix) || !path.ends_with("/pods") || pods == lists.end())
            return std::nullopt;
        const QString ns = QString::fromStdString(path.substr(prefix.size(), path.size() - prefix.size() - 5));
        QJsonArray mine;
        for (const QJsonValue& v : pods->second)
            if (v.toObject()["metadata"].toObject()["namespace"].toString() == ns)
                mine.append(v);
        return mine;
    }

    long long currentRv()
    {
        std::lock_guard lock(mutex);
        return rv;
    }

    // Whether this connection's client certificate was verified (one thread per connection).
    static inline thread_local bool t_certificateVerified = false;
    int certificateConnections = 0;

    bool authorized(const http::request<http::string_body>& req) const
    {
        const auto auth = req.find(http::field::authorization);
        return options.token.empty() || t_certificateVerified || (auth != req.end() && std::string(auth->value()) == "Bearer " + options.token);
    }

    static bool isWatch(const http::request<http::string_body>& req)
    {
        const std::string target(req.target());
        const auto q = target.find('?');
        if (q == std::string::npos)
            return false;
        const QUrlQuery query(QString::fromStdString(target.substr(q + 1)));
        const QString w = query.queryItemValue("watch");
        return w == "1" || w == "true";
    }

    // Serves one WATCH on `stream` until it ends; false when the connection must close.
    template <class Stream>
    bool watch(Stream& stream, const http::request<http::string_body>& req)
    {
        const std::string target(req.target());
        const std::string path = target.substr(0, target.find('?'));
        const QUrlQuery query(QString::fromStdString(target.substr(target.find('?') + 1)));
        const long long from = query.queryItemValue("resourceVersion").toLongLong();
        const bool bookmarks = query.queryItemValue("allowWatchBookmarks") == "true" || query.queryItemValue("allowWatchBookmarks") == "1";
        const int timeout = query.hasQueryItem("timeoutSeconds") ? query.queryItemValue("timeoutSeconds").toInt() : 1800;
        boost::system::error_code ec;
        bool gone = false;
        {
            std::lock_guard lock(mutex);
            log.push_back(target);
            if (watchGoneLeft > 0) {
                --watchGoneLeft;
                gone = true;
            }
        }
        const bool forbidden = isForbidden(path);
        if (!authorized(req) || gone || forbidden) {
            http::response<http::string_body> res{gone ? http::status::gone
                    : forbidden && authorized(req)  ? http::status::forbidden
                                                    : http::status::unauthorized,
                req.version()};
            res.set(http::field::content_type, "application/json");
            res.body() = (gone ? status(410, "Expired", "too old resource version")
                    : forbidden && authorized(req)
                    ? status(403, "Forbidden", QString("%1 is forbidden: User \"test\" cannot watch resource").arg(QString::fromStdString(path)))
                    : status(401, "Unauthorized", "Unauthorized"))
                              .toStdString();
            res.prepare_payload();
            http::write(stream, res, ec);
            return !ec;
        }
        http::response<http::empty_body> res{http::status::ok, req.version()};
        res.set(http::field::content_type, "application/json");
        res.chunked(true);
        http::response_serializer<http::empty_body> sr{res};
        http::write_header(stream, sr, ec);
        if (ec)
            return false;
        std::unique_lock lock(mutex);
        ++open;
        ++served;
        const int endSeen = endRound, dropSeen = dropRound;
        int bookmarksSent = bookmarkRound;
        std::size_t next = 0;
        std::vector<std::string> out;
        bool expired = from < compactedRv;
        if (!expired)
            while (next < history.size() && history[next].rv <= from)
                ++next;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
        bool ok = true;
        for (;;) {
            out.clear();
            if (expired) {
                out.push_back(QByteArray("{\"type\":\"ERROR\",\"object\":" + status(410, "Expired", "too old resource version") + "}\n")
                                  .toStdString());
            } else {
                for (; next < history.size(); ++next)
                    if (watchSees(path, history[next]))
                        out.push_back(history[next].line);
                if (bookmarks && bookmarkRound != bookmarksSent) {
                    bookmarksSent = bookmarkRound;
                    out.push_back("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + std::string(path.ends_with("/nodes") ? "Node" : path.ends_with("/namespaces") ? "Namespace" : "Pod")
                                  + "\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + std::to_string(rv) + "\"}}}\n");
                }
            }
            if (dropRound != dropSeen) {
                ok = false; // dropped: no last chunk, the connection closes
                break;
            }
            const bool end = expired || stopping || endRound != endSeen || std::chrono::steady_clock::now() >= deadline;
            lock.unlock();
            for (const std::string& line : out) {
                net::write(stream, http::make_chunk(net::buffer(line)), ec);
                if (ec)
                    break;
            }
            if (ec) {
                ok = false;
                lock.lock();
                break;
            }
            if (end) {
                net::write(stream, http::make_chunk_last(), ec);
                ok = !ec && !stopping;
                lock.lock();
                break;
            }
            lock.lock();
            watchCv.wait_until(lock, deadline, [&] {
                return stopping || endRound != endSeen || dropRound != dropSeen || (bookmarks && bookmarkRound != bookmarksSent) || next < history.size();
            });
        }
        --open;
        return ok;
    }

    http::response<http::string_body> answer(const http::request<http::string_body>& req)
    {
        const std::string target(req.target());
        const auto q = target.find('?');
        const std::string path = target.substr(0, q);
        const QUrlQuery query(QString::fromStdString(q == std::string::npos ? std::string() : target.substr(q + 1)));
        int code = 200;
        QByteArray body;
        std::string retryAfter;
        {
            std::lock_guard lock(mutex);
            log.push_back(target);
        }
        if (options.delayMs > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(options.delayMs));
        if (options.pages && authorized(req)) { // a page to gzip, or to send late (else writePage() sends it)
            if (auto it = options.pages->find(target); it != options.pages->end()) {
                http::response<http::string_body> res{http::status::ok, req.version()};
                res.set(http::field::content_type, "application/json");
                res.keep_alive(req.keep_alive());
                res.body() = it->second;
                res.prepare_payload();
                return res;
            }
        }
        if (!authorized(req)) {
            code = 401;
            body = status(401, "Unauthorized", "Unauthorized");
        } else if (path == "/version") {
            body = json({{"major", "1"}, {"minor", "33"}, {"gitVersion", "v1.33.0-fleetscope-test"}, {"platform", "linux/amd64"}});
        } else if (path == "/api") {
            body = json({{"kind", "APIVersions"}, {"versions", QJsonArray{"v1"}},
                         {"serverAddressByClientCIDRs", QJsonArray{QJsonObject{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", "127.0.0.1"}}}}});
        } else if (path == "/apis") {
            const QJsonObject v{{"groupVersion", "policy/v1"}, {"version", "v1"}};
            body = json({{"kind", "APIGroupList"}, {"apiVersion", "v1"},
                         {"groups", QJsonArray{QJsonObject{{"name", "policy"}, {"versions", QJsonArray{v}}, {"preferredVersion", v}}}}});
        } else if (path == "/api/v1") {
            body = json({{"kind", "APIResourceList"}, {"groupVersion", "v1"},
                         {"resources", QJsonArray{resource("nodes", "Node", false, "no"), resource("pods", "Pod", true, "po"),
                                                  resource("namespaces", "Namespace", false, "ns"),
                                                  resource("persistentvolumes", "PersistentVolume", false, "pv")}}});
        } else if (path == "/apis/policy/v1") {
            body = json({{"kind", "APIResourceList"}, {"apiVersion", "v1"}, {"groupVersion", "policy/v1"},
                         {"resources", QJsonArray{resource("poddisruptionbudgets", "PodDisruptionBudget", true, "pdb")}}});
        } else if (isForbidden(path)) {
            code = 403;
            QString message = QString("%1 is forbidden: User \"test\" cannot list resource").arg(QString::fromStdString(path));
            if (options.echoCredentials)
                if (const auto auth = req.find(http::field::authorization); auth != req.end())
                    message += QString(" (request had %1)").arg(QString::fromStdString(std::string(auth->value())));
            message += QString::fromStdString(options.forbiddenMessageTail);
            body = status(403, "Forbidden", message);
        } else if (const std::optional<QJsonArray> list = listOf(path)) {
            const QString token = query.queryItemValue("continue");
            bool expire = false, throttle = false;
            {
                std::lock_guard lock(mutex);
                if (!token.isEmpty() && expireLeft > 0) {
                    --expireLeft;
                    expire = true;
                } else if (token.isEmpty() && throttleLeft > 0) {
                    --throttleLeft;
                    throttle = true;
                }
            }
            if (expire) {
                code = 410;
                body = status(410, "Expired", "The provided continue parameter is too old to display a consistent list result.");
            } else if (throttle) {
                code = 429;
                retryAfter = "0";
                body = status(429, "TooManyRequests", "Too many requests, please try again later.");
            } else {
                const qsizetype limit = query.hasQueryItem("limit") ? query.queryItemValue("limit").toLongLong() : 1 << 30;
                // metrics-server does not page (it ignores limit): its answer is whole.
                const qsizetype size = path.starts_with("/apis/metrics.k8s.io")
                    ? std::max<qsizetype>(1, list->size())
                    : std::max<qsizetype>(1, std::min<qsizetype>(limit, static_cast<qsizetype>(options.pageSize)));
                const qsizetype from = token.isEmpty() ? 0 : token.mid(1).toLongLong();
                const QJsonArray& all = *list;
                QJsonArray page;
                for (qsizetype i = from; i < std::min(from + size, all.size()); ++i) {
                    QJsonObject item = all.at(i).toObject();
                    item.remove("kind"); // as the API server serves a typed list: kind and apiVersion on the list only
                    item.remove("apiVersion");
                    page.append(item);
                }
                QJsonObject meta{{"resourceVersion", QString::number(currentRv())}};
                if (from + size < all.size()) {
                    meta["continue"] = QString("c%1").arg(from + size);
                    meta["remainingItemCount"] = all.size() - from - size;
                }
                // In the API server's key order (QJsonObject would sort them): kind first, items last.
                body = QByteArray("{\"kind\":\"") + kindOfList(path) + "\",\"apiVersion\":\""
                    + (path.starts_with("/apis/policy") ? "policy/v1" : path.starts_with("/apis/metrics.k8s.io") ? "metrics.k8s.io/v1beta1" : "v1") + "\",\"metadata\":" + json(meta) + ",\"items\":"
                    + QJsonDocument(page).toJson(QJsonDocument::Compact) + "}";
            }
        } else {
            code = 404;
            body = status(404, "NotFound", "the server could not find the requested resource");
        }
        http::response<http::string_body> res{static_cast<http::status>(code), req.version()};
        res.set(http::field::content_type, "application/json");
        if (!retryAfter.empty())
            res.set(http::field::retry_after, retryAfter);
        res.keep_alive(req.keep_alive());
        res.body() = body.toStdString();
        res.prepare_payload();
        return res;
    }

    // Content-Encoding: gzip (RFC 1952, zlib with a gzip wrapper).
    void compress(http::response<http::string_body>& res)
    {
        z_stream z {};
        deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
        std::string out(deflateBound(&z, res.body().size()), '\0');
        z.next_in = reinterpret_cast<Bytef*>(res.body().data());
        z.avail_in = static_cast<uInt>(res.body().size());
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = static_cast<uInt>(out.size());
        deflate(&z, Z_FINISH);
        out.resize(z.total_out);
        deflateEnd(&z);
        res.body() = std::move(out);
        res.set(http::field::content_encoding, "gzip");
        res.prepare_payload();
        std::lock_guard lock(mutex);
        ++gzipCount;
    }

    // A pre-built page (Options::pages) for `req`, written from the shared page itself (no copy
    // per request) in TlsSocket's 256 KB batches. False when `req` is not one (or wants it gzipped).
    bool writePage(TlsSocket& stream, const http::request<http::string_body>& req, boost::system::error_code& ec)
    {
        if (!options.pages || !authorized(req) || options.delayMs > 0
            || (options.gzip && req[http::field::accept_encoding].find("gzip") != boost::beast::string_view::npos))
            return false;
        const auto it = options.pages->find(std::string(req.target()));
        if (it == options.pages->end())
            return false;
        {
            std::lock_guard lock(mutex);
            log.push_back(it->first);
        }
        http::response<http::empty_body> res{http::status::ok, req.version()};
        res.set(http::field::content_type, "application/json");
        res.keep_alive(req.keep_alive());
        res.content_length(it->second.size());
        http::response_serializer<http::empty_body> sr{res};
        http::write_header(stream, sr, ec);
        // writeSome() itself, not net::write(), which hands on at most 64 KB at a time.
        for (std::size_t done = 0; !ec && done < it->second.size();)
            done += stream.writeSome(it->second.data() + done, it->second.size() - done, ec);
        return true;
    }

    void serve(int fd)
    {
        {
            std::lock_guard lock(mutex);
            clockid_t clock {};
            if (pthread_getcpuclockid(pthread_self(), &clock) == 0)
                liveClocks[std::this_thread::get_id()] = clock;
        }
        auto stream = std::make_unique<TlsSocket>(fd, ctx.native_handle(), TlsSocket::Role::Server);
        const bool shaken = !stream->handshake(); // else: a client that gave up on the handshake (a certificate it does not trust)
        if (shaken && options.clientCertificates) {
            SSL* ssl = stream->nativeHandle();
            X509* peer = SSL_get1_peer_certificate(ssl);
            t_certificateVerified = peer != nullptr && SSL_get_verify_result(ssl) == X509_V_OK;
            X509_free(peer);
            if (t_certificateVerified) {
                std::lock_guard lock(mutex);
                ++certificateConnections;
            }
        }
        if (shaken) {
            boost::beast::flat_buffer buffer;
            for (;;) {
                http::request<http::string_body> req;
                boost::system::error_code ec;
                http::read(*stream, buffer, req, ec);
                if (ec)
                    break;
                if (isWatch(req)) {
                    if (!watch(*stream, req))
                        break;
                    continue;
                }
                if (writePage(*stream, req, ec)) {
                    if (ec || !req.keep_alive())
                        break;
                    continue;
                }
                auto res = answer(req);
                if (options.gzip && req[http::field::accept_encoding].find("gzip") != boost::beast::string_view::npos)
                    compress(res);
                http::write(*stream, res, ec);
                if (ec || !res.keep_alive())
                    break;
            }
            stream->shutdown();
        }
        {
            // Forgotten before it is closed: dropConnections() never shuts down a reused number.
            std::lock_guard lock(mutex);
            openSockets.erase(std::remove(openSockets.begin(), openSockets.end(), fd), openSockets.end());
        }
        stream.reset();
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        std::lock_guard lock(mutex);
        finishedCpuSeconds += double(t.tv_sec) + double(t.tv_nsec) / 1e9;
        liveClocks.erase(std::this_thread::get_id());
    }

    void acceptLoop()
    {
        while (!stopping) {
            tcp::socket s(ioc);
            boost::system::error_code ec;
            acceptor.accept(s, ec);
            if (ec || stopping)
                break;
            // As the API server (Go's net package sets TCP_NODELAY on every connection): without
            // it, each TLS record after the first waits for the client's delayed ACK.
            s.set_option(tcp::no_delay(true), ec);
            const int fd = s.release(ec);
            if (ec)
                continue;
            std::lock_guard lock(mutex);
            openSockets.push_back(fd);
            connections.emplace_back([this, fd] { serve(fd); });
        }
    }
};

FakeKubeApiServer::FakeKubeApiServer(const TestPki& pki, std::map<std::string, QJsonArray> lists, Options options)
    : d(std::make_unique<Impl>())
{
    d->lists = std::move(lists);
    d->options = std::move(options);
    d->expireLeft = d->options.expireContinue;
    d->throttleLeft = d->options.throttle;
    d->watchGoneLeft = d->options.watchGone;
    d->ctx.use_certificate_chain(net::buffer(pki.serverCertPem));
    d->ctx.use_private_key(net::buffer(pki.serverKeyPem), ssl::context::pem);
    if (d->options.clientCertificates) {
        d->ctx.add_certificate_authority(net::buffer(pki.caPem));
        SSL_CTX_set_client_CA_list(d->ctx.native_handle(), SSL_load_client_CA_file(pki.caFile.c_str()));
        // Every chain passes the handshake; the verdict (SSL_get_verify_result) is read per connection.
        SSL_CTX_set_verify(d->ctx.native_handle(), SSL_VERIFY_PEER, [](int, X509_STORE_CTX*) { return 1; });
    }
    const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
    d->acceptor.open(ep.protocol());
    d->acceptor.set_option(tcp::acceptor::reuse_address(true));
    d->acceptor.bind(ep);
    d->acceptor.listen();
    d->acceptThread = std::thread([this] { d->acceptLoop(); });
}

FakeKubeApiServer::~FakeKubeApiServer()
{
    const unsigned short listening = port();
    {
        std::lock_guard lock(d->mutex);
        d->stopping = true;
    }
    d->watchCv.notify_all();
    ::shutdown(d->acceptor.native_handle(), SHUT_RDWR);
    // Wake a blocking accept() by connecting once (shutdown alone does on Linux).
    {
        net::io_context io;
        tcp::socket s(io);
        boost::system::error_code ec;
        s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), listening), ec);
    }
    d->acceptThread.join();
    {
        std::lock_guard lock(d->mutex);
        for (int fd : d->openSockets)
            ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& t : d->connections)
        t.join();
}

unsigned short FakeKubeApiServer::port() const
{
    boost::system::error_code ec;
    return d->acceptor.local_endpoint(ec).port();
}

std::vector<std::string> FakeKubeApiServer::requests() const
{
    std::lock_guard lock(d->mutex);
    return d->log;
}

double FakeKubeApiServer::cpuSeconds() const
{
    std::lock_guard lock(d->mutex);
    double total = d->finishedCpuSeconds;
    for (const auto& [id, clock] : d->liveClocks) {
        timespec t {};
        if (clock_gettime(clock, &t) == 0)
            total += double(t.tv_sec) + double(t.tv_nsec) / 1e9;
    }
    return total;
}

int FakeKubeApiServer::gzipped() const
{
    std::lock_guard lock(d->mutex);
    return d->gzipCount;
}

int FakeKubeApiServer::certificateConnections() const
{
    std::lock_guard lock(d->mutex);
    return d->certificateConnections;
}

long long FakeKubeApiServer::resourceVersion() const
{
    std::lock_guard lock(d->mutex);
    return d->rv;
}

long long FakeKubeApiServer::addEvent(const std::string& path, const std::string& type, QJsonObject object)
{
    std::lock_guard lock(d->mutex);
    const long long rv = ++d->rv;
    QJsonObject meta = object.value("metadata").toObject();
    meta["resourceVersion"] = QString::number(rv);
    object["metadata"] = meta;
    QJsonArray& list = d->lists[path];
    const auto key = [](const QJsonObject& o) {
        const QJsonObject m = o.value("metadata").toObject();
        return m.value("namespace").toString() + '/' + m.value("name").toString();
    };
    qsizetype at = -1;
    for (qsizetype i = 0; i < list.size(); ++i)
        if (key(list.at(i).toObject()) == key(object))
            at = i;
    if (type == "DELETED") {
        if (at >= 0)
            list.removeAt(at);
    } else if (at >= 0)
        list[at] = object;
    else
        list.append(object);
    const QJsonObject event{{"type", QString::fromStdString(type)}, {"object", object}};
    d->history.push_back({path, rv, (QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n').toStdString(),
        object.value("metadata").toObject().value("namespace").toString().toStdString()});
    d->watchCv.notify_all();
    return rv;
}

void FakeKubeApiServer::setForbidden(std::vector<std::string> paths)
{
    std::lock_guard lock(d->mutex);
    d->options.forbidden = std::move(paths);
}

void FakeKubeApiServer::compact()
{
    std::lock_guard lock(d->mutex);
    d->compactedRv = d->rv;
    d->history.clear();
}

void FakeKubeApiServer::sendBookmarks()
{
    std::lock_guard lock(d->mutex);
    ++d->bookmarkRound;
    d->watchCv.notify_all();
}

void FakeKubeApiServer::endWatches()
{
    std::lock_guard lock(d->mutex);
    ++d->endRound;
    d->watchCv.notify_all();
}

void FakeKubeApiServer::dropConnections()
{
    std::lock_guard lock(d->mutex);
    ++d->dropRound;
    for (int fd : d->openSockets)
        ::shutdown(fd, SHUT_RDWR);
    d->watchCv.notify_all();
}

int FakeKubeApiServer::openWatches() const
{
    std::lock_guard lock(d->mutex);
    return d->open;
}

int FakeKubeApiServer::watchesServed() const
{
    std::lock_guard lock(d->mutex);
    return d->served;
}

} // namespace fleet::tests
