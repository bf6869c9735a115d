// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/kubeapiclient.h"

#include "importers/kube/kubecredentials_p.h"
#include "importers/kube/kubeendpoint_p.h"

#include "importers/kube/tlssocket.h"
#include "importers/quotedtext.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/eventfd.h>
#include <unistd.h>
#include <zlib.h>

namespace fleet::importers::kube {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

// The longest one step of a request may wait (connecting, the TLS handshake, sending, the
// answer), whatever the request timeout.
constexpr auto kTimeout = std::chrono::seconds(60);

using Clock = std::chrono::steady_clock;

// An answer body past its BodyLimit (gzip inflated, or as read).
struct BodyTooLarge {
};

std::string mebibytes(std::size_t bytes)
{
    return std::to_string(bytes >> 20) + " MiB";
}

// Inflates a gzip body (Content-Encoding: gzip, RFC 1952) with zlib. Throws std::runtime_error
// for bytes that are not gzip or are cut short, BodyTooLarge past `limit` bytes inflated (a
// small gzip body may inflate a thousandfold).
std::string gunzip(const std::string& in, std::size_t limit)
{
    z_stream z {};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        throw std::runtime_error("zlib could not start");
    std::string out;
    out.resize(std::min<std::size_t>(std::max<std::size_t>(in.size() * 4, 1 << 16), limit + 1));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    std::size_t done = 0;
    for (;;) {
        if (done > limit) {
            inflateEnd(&z);
            throw BodyTooLarge {};
        }
        if (done == out.size())
            out.resize(std::min(out.size() * 2, limit + 1));
        const std::size_t room = std::min<std::size_t>(out.size() - done, std::size_t { 1 } << 30);
        z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
        z.avail_out = static_cast<uInt>(room);
        const int rc = inflate(&z, Z_NO_FLUSH);
        done += room - z.avail_out;
        if (rc == Z_STREAM_END)
            break;
        if ((rc != Z_OK && rc != Z_BUF_ERROR) || (z.avail_in == 0 && z.avail_out != 0)) {
            inflateEnd(&z);
            throw std::runtime_error(rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR ? "the body is not valid gzip" : "the gzip body is cut short");
        }
    }
    inflateEnd(&z);
    out.resize(done);
    return out;
}

} // namespace

std::string RequestWait::describe() const
{
    std::string out = "waiting for " + server + " " + target + ": ";
    if (phase == "connecting" || phase == "sending the request" || phase == "running the exec credential plugin")
        out += phase + ", ";
    else if (bytesReceived == 0)
        out += "no answer yet, ";
    else
        out += std::to_string(bytesReceived) + " bytes of the answer so far, ";
    out += secondsText(std::chrono::duration_cast<std::chrono::seconds>(waited)) + " so far";
    const bool flags = input == KubeconfigInput::CommandLine;
    if (limit.count() > 0)
        out += " (gives up at " + secondsText(limit) + (flags ? ", --request-timeout)" : ")");
    else
        out += flags ? " (no request timeout: --request-timeout 0)" : " (no request timeout)";
    return out;
}

std::string statusMessage(const std::string& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(body));
    if (doc.isObject() && doc.object().value("kind").toString() == "Status") {
        const QString m = doc.object().value("message").toString();
        // The server's text goes into messages that keep their line breaks (ImportError): its
        // own newlines would forge lines of Fleetscope's output, so every control byte is escaped.
        if (!m.isEmpty())
            return escapedText(m.toStdString(), kStatusMessageMaxChars);
        return escapedText(doc.object().value("reason").toString().toStdString(), kStatusMessageMaxChars);
    }
    return quotedText(body.substr(0, 400), 200);
}

struct KubeApiClient::Impl {
    ResolvedKubeconfig config;
    std::string server; // the URL as configured, redacted
    KubeServerAddress address; // where it is (kubeendpoint_p.h)
    // proxy-url (http://[user:password@]host:port): an HTTP CONNECT tunnel, as client-go's
    // transport does for an http proxy.
    KubeProxy proxy;
    std::string caPem; // from kubeconfig
    std::unique_ptr<KubeCredentials> credentials; // the user's (kubecredentials_p.h)

    // The request under way (beginRequest()): when it began, when it gives up (the request
    // timeout), what it is doing, for its error and for the observer.
    std::chrono::milliseconds requestTimeout { 0 };
    Clock::time_point began {}, deadline = Clock::time_point::max(), nextReport = Clock::time_point::max();
    std::string currentTarget;
    const char* phase = "connecting";
    std::size_t bytesAtStart = 0;
    std::size_t bytesBeforeClose = 0; // of this attempt, when its connection was closed
    RequestObserver* observer = nullptr;

    net::io_context ioc;
    std::atomic<bool> interrupted { false };
    std::unique_ptr<ssl::context> ctx;
    std::unique_ptr<TlsSocket> sock; // the kept-alive connection, TLS or plain
    beast::flat_buffer buffer;
    // Readable once interrupt() is called (until clearInterrupt()): ends a blocking read at once.
    int wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl()
    {
        disconnect();
        if (wakeFd >= 0)
            ::close(wakeFd);
    }

    void beginRequest(const std::string& target, Clock::time_point start)
    {
        began = start;
        deadline = requestTimeout.count() > 0 ? start + requestTimeout : Clock::time_point::max();
        nextReport = start + kRequestWaitReportAfter;
        currentTarget = target;
        phase = "connecting";
        bytesAtStart = sock ? sock->bytesRead() : 0;
        bytesBeforeClose = 0;
    }
    void setPhase(const char* now)
    {
        phase = now;
        if (std::string_view(now) == "sending the request") {
            bytesAtStart = sock ? sock->bytesRead() : 0;
            bytesBeforeClose = 0;
        }
    }
    // Runs the exec plugin as KubeCredentials::ensureExecCredential (or renewExecCredential),
    // its wait reported as this request's.
    bool execCredential(bool renew)
    {
        if (!credentials->hasExecPlugin())
            return false;
        setPhase("running the exec credential plugin");
        const bool newCertificate = renew ? credentials->renewExecCredential(caPem) : credentials->ensureExecCredential(caPem);
        setPhase("connecting");
        return newCertificate;
    }
    std::size_t bytesReceived() const { return sock ? sock->bytesRead() - bytesAtStart : bytesBeforeClose; }
    // The deadline of one step: kTimeout from now, and never past the request's.
    Clock::time_point stepDeadline() const { return std::min(Clock::now() + kTimeout, deadline); }
    bool pastDeadline() const { return deadline != Clock::time_point::max() && Clock::now() >= deadline; }
    // Tells the observer what the request waits for, at most every kRequestWaitReportEvery.
    void tick()
    {
        if (!observer)
            return;
        const auto now = Clock::now();
        if (now < nextReport)
            return;
        nextReport = now + kRequestWaitReportEvery;
        RequestWait w;
        w.server = server;
        w.target = redactedUrl(currentTarget);
        w.phase = phase;
        w.waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - began);
        w.limit = requestTimeout;
        w.bytesReceived = bytesReceived();
        w.input = config.input;
        observer->requestWaiting(w);
    }
    // The message of a request whose timeout passed: how long, and what the server did.
    std::string gaveUp() const
    {
        std::string what;
        const std::string_view p = phase;
        if (p == "connecting")
            what = "the connection could not be made";
        else if (p == "sending the request")
            what = "the request could not be sent";
        else if (bytesReceived() == 0)
            what = "the server accepted the request and sent nothing";
        else
            what = std::to_string(bytesReceived()) + " bytes of the answer had come, and it had not ended";
        return "gave up after " + secondsText(requestTimeout) + " (the request timeout" + requestTimeoutSetting(config.input) + "): " + what;
    }

    [[noreturn]] void fail(const std::string& path, const std::string& message) const { throw KubeApiError(server, path, 0, message); }
    [[noreturn]] void failTransient(const std::string& path, const std::string& message) const
    {
        throw KubeApiError(server, path, 0, message, true);
    }

    // Opens an HTTP CONNECT tunnel to the server's host:port through the proxy `s` is connected to.
    void tunnel(beast::tcp_stream& s, const std::string& path)
    {
        http::request<http::empty_body> req{http::verb::connect, address.host + ":" + address.port, 11};
        req.set(http::field::host, address.host + ":" + address.port);
        if (!proxy.authorization.empty())
            req.set(http::field::proxy_authorization, proxy.authorization);
        boost::system::error_code ec;
        s.expires_at(stepDeadline());
        http::async_write(s, req, [&](boost::system::error_code e, std::size_t) { ec = e; });
        runIo();
        http::response_parser<http::empty_body> parser;
        parser.skip(true); // a CONNECT answer has no body
        beast::flat_buffer b;
        if (!ec) {
            s.expires_at(stepDeadline());
            http::async_read_header(s, b, parser, [&](boost::system::error_code e, std::size_t) { ec = e; });
            runIo();
        }
        if (ec)
            failTransient(path,
                pastDeadline() ? gaveUp()
                               : "the proxy " + proxy.host + ":" + proxy.port + " did not answer the CONNECT: " + ec.message());
        if (parser.get().result_int() != 200)
            fail(path, "the proxy " + proxy.host + ":" + proxy.port + " refused to CONNECT to " + address.host + ":" + address.port + ": "
                           + std::to_string(parser.get().result_int()) + " " + std::string(parser.get().reason()));
    }

    void loadCredentials()
    {
        proxy = parseProxy(config.cluster, server);
        credentials->refuseUnsupported();
        caPem = readClusterCa(config.cluster, server);
        credentials->load();
    }

    void disconnect()
    {
        if (sock)
            bytesBeforeClose = sock->bytesRead() - bytesAtStart;
        bytesAtStart = 0; // a new connection counts from 0
        sock.reset(); // closes the socket
        ctx.reset();
        buffer.clear();
    }

    // Runs the queued asynchronous operation (resolve, connect, the proxy's CONNECT) to its
    // end; beast's tcp_stream timeout applies.
    void runIo()
    {
        ioc.restart();
        while (!ioc.stopped()) {
            ioc.run_for(std::chrono::seconds(1));
            tick();
        }
    }

    // Resolves and connects (through the proxy's tunnel when one is set), then hands the socket
    // to a TlsSocket: TLS verified as configured, or plain TCP for http://.
    void connect(const std::string& path)
    {
        boost::system::error_code ec;
        tcp::resolver resolver(ioc);
        tcp::resolver::results_type endpoints;
        const bool proxied = !proxy.host.empty();
        const std::string& toHost = proxied ? proxy.host : address.host;
        const std::string& toPort = proxied ? proxy.port : address.port;
        const std::string to = proxied ? "the proxy " + toHost + ":" + toPort : toHost + ":" + toPort;
        resolver.async_resolve(toHost, toPort, [&](boost::system::error_code e, tcp::resolver::results_type r) {
            ec = e;
            endpoints = std::move(r);
        });
        runIo();
        if (ec)
            failTransient(path, "cannot resolve " + toHost + ": " + ec.message());
        beast::tcp_stream tcpStream(ioc);
        tcpStream.expires_at(stepDeadline());
        tcpStream.async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) { ec = e; });
        runIo();
        if (ec)
            failTransient(path, pastDeadline() ? gaveUp() : "cannot connect to " + to + ": " + ec.message());
        if (proxied)
            tunnel(tcpStream, path);
        tcpStream.expires_never();
        const int fd = tcpStream.socket().release(ec);
        if (ec)
            failTransient(path, "cannot take over the connection to " + to + ": " + ec.message());
        if (!address.tls) {
            sock = std::make_unique<TlsSocket>(fd, nullptr, TlsSocket::Role::Client);
            sock->setWakeFd(wakeFd);
            sock->setWaitTick([this] { tick(); });
            return;
        }
        ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
        const std::string& cert = credentials->clientCertificatePem();
        const std::string& key = credentials->clientKeyPem();
        try {
            if (config.cluster.insecureSkipTlsVerify)
                ctx->set_verify_mode(ssl::verify_none);
            else {
                ctx->set_verify_mode(ssl::verify_peer);
                if (!caPem.empty())
                    ctx->add_certificate_authority(net::buffer(caPem));
                else
                    ctx->set_default_verify_paths();
            }
            if (!cert.empty())
                ctx->use_certificate_chain(net::buffer(cert));
            if (!key.empty())
                ctx->use_private_key(net::buffer(key), ssl::context::pem);
        } catch (const boost::system::system_error& e) {
            ::close(fd);
            fail(path, std::string("the cluster's CA or the user's client certificate or key is not valid PEM: ") + e.code().message());
        }
        sock = std::make_unique<TlsSocket>(fd, ctx->native_handle(), TlsSocket::Role::Client);
        sock->setWakeFd(wakeFd);
        sock->setWaitTick([this] { tick(); });
        const std::string name = config.cluster.tlsServerName.empty() ? address.host : config.cluster.tlsServerName;
        sock->setPeerName(name, !config.cluster.insecureSkipTlsVerify);
        sock->setDeadline(stepDeadline());
        ec = sock->handshake();
        if (ec) {
            std::string why = ec.message();
            const long verify = sock->nativeHandle() ? SSL_get_verify_result(sock->nativeHandle()) : X509_V_OK;
            if (verify != X509_V_OK)
                why = std::string("the server's certificate was not accepted: ") + X509_verify_cert_error_string(verify)
                    + " (checked against " + (caPem.empty() ? "the system's CAs" : "the cluster's certificate-authority") + ", name \""
                    + name + "\")";
            const bool gaveUpNow = pastDeadline();
            disconnect();
            if (verify != X509_V_OK)
                fail(path, "TLS handshake failed: " + why);
            failTransient(path, gaveUpNow ? gaveUp() : "TLS handshake failed: " + why);
        }
    }

    http::request<http::empty_body> request(const std::string& target) const
    {
        http::request<http::empty_body> req{http::verb::get, address.basePath + target, 11};
        req.set(http::field::host, address.host);
        req.set(http::field::user_agent, "fleetscope/0.1 (read-only)");
        req.set(http::field::accept, "application/json");
        const std::string& token = credentials->bearerToken();
        if (!token.empty())
            req.set(http::field::authorization, "Bearer " + token);
        return req;
    }

    // One streamed GET (see KubeApiClient::stream).
    ApiResponse streamOnce(const std::string& target, const std::function<bool(std::string_view)>& onData, std::chrono::seconds idle)
    {
        if (interrupted)
            return {};
        if (!sock)
            connect(target);
        auto req = request(target);
        http::response_parser<http::buffer_body> parser;
        // An explicit limit: Boost 1.74's check of a Content-Length against boost::none (no
        // limit) refuses every length (`len_ > body_limit_` compares with an empty optional).
        parser.body_limit(std::numeric_limits<std::uint64_t>::max());
        boost::system::error_code ec;
        setPhase("sending the request");
        sock->setDeadline(stepDeadline());
        http::write(*sock, req, ec);
        if (!ec) {
            setPhase("waiting for the answer");
            http::read_header(*sock, buffer, parser, ec);
        }
        if (ec) {
            disconnect();
            throw boost::system::system_error(ec);
        }
        // A stream's body may be silent for long (a quiet cluster): `idle` bounds it, not the
        // request timeout, and its waits are not reported as a slow request.
        nextReport = Clock::time_point::max();
        deadline = Clock::time_point::max();
        ApiResponse out;
        out.status = parser.get().result_int();
        if (auto it = parser.get().find(http::field::retry_after); it != parser.get().end())
            out.retryAfter = std::string(it->value());
        std::vector<char> chunk(64 * 1024);
        while (!parser.is_done() && !interrupted) {
            parser.get().body().data = chunk.data();
            parser.get().body().size = chunk.size();
            sock->setDeadline(std::chrono::steady_clock::now() + idle);
            http::read_some(*sock, buffer, parser, ec);
            if (ec == http::error::need_buffer)
                ec = {};
            if (ec)
                break;
            const std::size_t n = chunk.size() - parser.get().body().size;
            if (n == 0)
                continue;
            if (out.status != 200) {
                out.body.append(chunk.data(), std::min(n, kErrorBodyLimit.bytes - std::min(out.body.size(), kErrorBodyLimit.bytes)));
                if (out.body.size() >= kErrorBodyLimit.bytes)
                    break; // enough to say why; the connection is closed below
                continue;
            }
            bool more = false;
            try {
                more = onData(std::string_view(chunk.data(), n));
            } catch (...) {
                disconnect(); // the response is not read to its end: the connection cannot be reused
                throw;
            }
            if (!more)
                break;
        }
        disconnect();
        if (ec && !interrupted) {
            if (ec == beast::error::timeout)
                failTransient(target, "the stream was idle for " + std::to_string(idle.count()) + " s");
            if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::ssl::error::stream_truncated)
                failTransient(target, "the server closed the stream");
            failTransient(target, "the stream failed: " + ec.message());
        }
        return out;
    }

    // Reads a body of `length` bytes (Content-Length) into `body`: what came with the header,
    // then straight from the socket into the string. Design note (speed): beast's parser would
    // read it 64 KB at a time into `buffer` and copy it on into the body; here TLS decrypts into
    // the body itself, in reads as large as what is left.
    // `length` is at most the request's BodyLimit (the parser refused a larger Content-Length).
    // The request's deadline is checked after every read: a fast body is cut there too.
    void readBody(std::string& body, std::size_t length, boost::system::error_code& ec)
    {
        // Grown 256 KB at a time: resize() zeroes what it adds, and zeroes written just before
        // the decrypted bytes land on them stay in cache (one pass to memory, not two).
        body.reserve(length);
        const std::size_t early = std::min(buffer.size(), length);
        body.resize(early);
        net::buffer_copy(net::buffer(body.data(), early), buffer.data());
        buffer.consume(early);
        for (std::size_t done = early; done < length && !ec;) {
            body.resize(std::min(length, done + TlsSocket::kBatchBytes));
            while (done < body.size() && !ec) {
                done += sock->readSome(body.data() + done, body.size() - done, ec);
                if (!ec && done < length && pastDeadline())
                    ec = beast::error::timeout;
            }
        }
    }

    // Reads a chunked body, or one that ends when the connection closes, through the parser
    // (its body_limit is the request's), within the request's deadline.
    void readChunked(http::response_parser<http::string_body>& parser, boost::system::error_code& ec)
    {
        while (!parser.is_done() && !ec) {
            http::read_some(*sock, buffer, parser, ec);
            if (!ec && !parser.is_done() && pastDeadline())
                ec = beast::error::timeout;
        }
    }

    [[noreturn]] void failTooLarge(const std::string& target, BodyLimit limit, const std::string& detail)
    {
        disconnect(); // the rest of the answer is not read: the connection cannot be reused
        fail(target,
            "the answer is larger than " + mebibytes(limit.bytes) + ", the limit for " + limit.what + detail
                + "; reading stopped there (a server that sends without end, or not an API server's answer)");
    }

    ApiResponse once(const std::string& target, bool& connectionReused, BodyLimit limit)
    {
        connectionReused = sock != nullptr;
        if (!connectionReused)
            connect(target);
        auto req = request(target);
        req.set(http::field::accept_encoding, "gzip"); // the API server compresses large answers (APIResponseCompression)
        http::response_parser<http::string_body> parser;
        // The parser refuses a Content-Length above it as soon as the header is read, and a
        // chunked body when it grows past it (http::error::body_limit).
        parser.body_limit(std::uint64_t { limit.bytes });
        boost::system::error_code ec;
        // Within kTimeout for the request, and again for the whole response; never past the
        // request timeout (a trickle of a byte a second is cut there).
        setPhase("sending the request");
        sock->setDeadline(stepDeadline());
        http::write(*sock, req, ec);
        if (!ec) {
            setPhase("waiting for the answer");
            sock->setDeadline(stepDeadline());
            http::read_header(*sock, buffer, parser, ec);
        }
        if (!ec && !parser.is_done()) {
            setPhase("reading the answer");
            if (!parser.chunked() && parser.content_length())
                readBody(parser.get().body(), static_cast<std::size_t>(*parser.content_length()), ec);
            else
                readChunked(parser, ec);
        }
        if (ec == http::error::body_limit) {
            const auto length = parser.content_length();
            failTooLarge(target, limit,
                length ? " (its Content-Length says " + std::to_string(*length) + " bytes)"
                       : " (" + std::to_string(parser.get().body().size()) + " bytes had come)");
        }
        if (ec) {
            disconnect();
            throw boost::system::system_error(ec);
        }
        auto res = parser.release();
        ApiResponse out;
        out.status = res.result_int();
        out.body = std::move(res.body());
        if (auto it = res.find(http::field::content_encoding); it != res.end()) {
            if (beast::iequals(it->value(), "gzip")) {
                try {
                    out.body = gunzip(out.body, limit.bytes);
                } catch (const BodyTooLarge&) {
                    failTooLarge(target, limit, " once its gzip is inflated");
                } catch (const std::runtime_error& e) {
                    disconnect();
                    fail(target, std::string("the answer says Content-Encoding: gzip, but ") + e.what());
                }
            } else if (!beast::iequals(it->value(), "identity"))
                fail(target, "the answer has Content-Encoding " + quotedText(std::string(it->value()), 40) + ", which was not asked for");
        }
        if (auto it = res.find(http::field::retry_after); it != res.end())
            out.retryAfter = std::string(it->value());
        if (!res.keep_alive())
            disconnect();
        return out;
    }
};

KubeApiClient::KubeApiClient(const ResolvedKubeconfig& config)
    : d(std::make_unique<Impl>())
{
    d->config = config;
    d->server = redactedUrl(config.cluster.server);
    d->requestTimeout = config.requestTimeout;
    d->address = parseServerAddress(config.cluster, d->server);
    d->credentials = std::make_unique<KubeCredentials>(config, d->server);
    d->credentials->setWaitTick([impl = d.get()] { impl->tick(); });
    d->loadCredentials();
    warnCleartextCredentials(config);
}

KubeApiClient::~KubeApiClient() = default;

const std::string& KubeApiClient::server() const { return d->server; }

ApiResponse KubeApiClient::stream(const std::string& target, const std::function<bool(std::string_view)>& onData, std::chrono::seconds idle)
{
    d->beginRequest(target, Clock::now());
    if (d->execCredential(false))
        d->disconnect(); // a new client certificate needs a new TLS context
    ApiResponse r;
    try {
        r = d->streamOnce(target, onData, idle);
    } catch (const boost::system::system_error& e) {
        d->failTransient(target, d->pastDeadline() ? d->gaveUp() : "request failed: " + e.code().message());
    }
    if (r.status == 401 && d->credentials->hasExecPlugin() && !d->interrupted) {
        if (d->execCredential(true)) // exec.go: a 401 invalidates the cached credential
            d->disconnect(); // a new client certificate needs a new TLS context
        d->beginRequest(target, Clock::now());
        try {
            r = d->streamOnce(target, onData, idle);
        } catch (const boost::system::system_error& e) {
            d->failTransient(target, d->pastDeadline() ? d->gaveUp() : "request failed: " + e.code().message());
        }
    }
    d->credentials->redactCredentials(r);
    return r;
}

std::chrono::milliseconds KubeApiClient::requestTimeout() const noexcept
{
    return d->requestTimeout;
}

KubeconfigInput KubeApiClient::input() const noexcept
{
    return d->config.input;
}

void KubeApiClient::setObserver(RequestObserver* observer) noexcept
{
    d->observer = observer;
}

void KubeApiClient::interrupt()
{
    d->interrupted = true;
    // The eventfd ends the socket's wait in poll() at once (TlsSocket::setWakeFd).
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(d->wakeFd, &one, sizeof one);
}

bool KubeApiClient::interrupted() const noexcept { return d->interrupted; }

void KubeApiClient::clearInterrupt()
{
    d->interrupted = false;
    std::uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(d->wakeFd, &count, sizeof count); // non-blocking: drains it
}

ApiResponse KubeApiClient::get(const std::string& target, BodyLimit limit)
{
    return get(target, Clock::now(), limit);
}

ApiResponse KubeApiClient::get(const std::string& target, std::chrono::steady_clock::time_point began, BodyLimit limit)
{
    d->beginRequest(target, began);
    if (d->pastDeadline())
        d->failTransient(target, d->gaveUp());
    if (d->execCredential(false))
        d->disconnect(); // a new client certificate needs a new TLS context
    ApiResponse r;
    for (int attempt = 0;; ++attempt) {
        bool reused = false;
        try {
            r = d->once(target, reused, limit);
        } catch (const boost::system::system_error& e) {
            // A kept-alive connection the server closed meanwhile: reconnect once.
            if (reused && attempt == 0 && !d->pastDeadline()) {
                d->setPhase("connecting");
                continue;
            }
            d->failTransient(target, d->pastDeadline() ? d->gaveUp() : "request failed: " + e.code().message());
        }
        break;
    }
    if (r.status == 401 && d->credentials->hasExecPlugin()) {
        if (d->execCredential(true)) // exec.go: a 401 invalidates the cached credential
            d->disconnect(); // a new client certificate needs a new TLS context
        bool reused = false;
        d->setPhase("connecting");
        try {
            r = d->once(target, reused, limit);
        } catch (const boost::system::system_error& e) {
            d->failTransient(target, d->pastDeadline() ? d->gaveUp() : "request failed: " + e.code().message());
        }
    }
    d->credentials->redactCredentials(r);
    return r;
}

} // namespace fleet::importers::kube
