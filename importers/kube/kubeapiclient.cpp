#include "importers/kube/kubeapiclient.h"

#include "importers/quotedtext.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <atomic>
#include <cerrno>
#include <limits>
#include <poll.h>
#include <fstream>
#include <zlib.h>
#include <sstream>

namespace fleet::importers::kube {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

constexpr auto kTimeout = std::chrono::seconds(60);

std::string readWholeFile(const std::string& server, const std::string& path, const char* what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw KubeApiError(server, {}, 0, std::string("cannot read the ") + what + " file " + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Inflates a gzip body (Content-Encoding: gzip, RFC 1952) with zlib. Throws std::runtime_error
// for bytes that are not gzip or are cut short.
std::string gunzip(const std::string& in)
{
    z_stream z {};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        throw std::runtime_error("zlib could not start");
    std::string out;
    out.resize(std::max<std::size_t>(in.size() * 4, 1 << 16));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    std::size_t done = 0;
    for (;;) {
        if (done == out.size())
            out.resize(out.size() * 2);
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

bool isIpLiteral(const std::string& host)
{
    boost::system::error_code ec;
    net::ip::make_address(host, ec);
    return !ec;
}

} // namespace

std::string statusMessage(const std::string& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(body));
    if (doc.isObject() && doc.object().value("kind").toString() == "Status") {
        const QString m = doc.object().value("message").toString();
        if (!m.isEmpty())
            return m.toStdString();
        return doc.object().value("reason").toString().toStdString();
    }
    return quotedText(body.substr(0, 400), 200);
}

struct KubeApiClient::Impl {
    ResolvedKubeconfig config;
    std::string server, host, port, basePath;
    bool tlsOn = true;
    // proxy-url (http://[user:password@]host:port): an HTTP CONNECT tunnel, as client-go's
    // transport does for an http proxy.
    std::string proxyHost, proxyPort, proxyAuthorization;
    std::string caPem, certPem, keyPem; // from kubeconfig
    std::string staticToken;
    // Exec credential (plugin/pkg/client/auth/exec/exec.go): cached until it expires.
    std::string execToken, execCertPem, execKeyPem;
    std::optional<QDateTime> execExpiry;
    bool haveExecCredential = false;

    net::io_context ioc;
    std::atomic<bool> interrupted { false };
    std::unique_ptr<ssl::context> ctx;
    std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
    std::unique_ptr<beast::tcp_stream> plain;
    beast::flat_buffer buffer;

    [[noreturn]] void fail(const std::string& path, const std::string& message) const { throw KubeApiError(server, path, 0, message); }
    [[noreturn]] void failTransient(const std::string& path, const std::string& message) const
    {
        throw KubeApiError(server, path, 0, message, true);
    }

    void parseServer()
    {
        std::string s = config.cluster.server;
        if (s.starts_with("https://"))
            s.erase(0, 8);
        else if (s.starts_with("http://")) {
            s.erase(0, 7);
            tlsOn = false;
        } else
            fail({}, "server \"" + quotedText(s, 80) + "\" is not an http:// or https:// URL");
        const auto slash = s.find('/');
        std::string authority = s.substr(0, slash);
        if (slash != std::string::npos) {
            basePath = s.substr(slash);
            while (!basePath.empty() && basePath.back() == '/')
                basePath.pop_back();
        }
        if (authority.starts_with('[')) { // [IPv6]:port
            const auto close = authority.find(']');
            if (close == std::string::npos)
                fail({}, "server URL has an unclosed [ in its host");
            host = authority.substr(1, close - 1);
            if (close + 1 < authority.size() && authority[close + 1] == ':')
                port = authority.substr(close + 2);
        } else {
            const auto colon = authority.rfind(':');
            host = authority.substr(0, colon);
            if (colon != std::string::npos)
                port = authority.substr(colon + 1);
        }
        if (host.empty())
            fail({}, "server URL has no host");
        if (port.empty())
            port = tlsOn ? "443" : "80";
    }

    void parseProxy(const KubeconfigCluster& c)
    {
        std::string s = c.proxyUrl;
        if (!s.starts_with("http://"))
            fail({}, "cluster \"" + c.name + "\" sets proxy-url " + quotedText(s, 80)
                         + ": only http:// proxies (HTTP CONNECT) are supported, not https:// or socks5://");
        s.erase(0, 7);
        s = s.substr(0, s.find('/'));
        if (const auto at = s.rfind('@'); at != std::string::npos) {
            proxyAuthorization = "Basic " + QByteArray::fromStdString(s.substr(0, at)).toBase64().toStdString();
            s.erase(0, at + 1);
        }
        const auto colon = s.rfind(':');
        proxyHost = s.substr(0, colon);
        proxyPort = colon == std::string::npos ? "80" : s.substr(colon + 1);
        if (proxyHost.empty())
            fail({}, "cluster \"" + c.name + "\" sets a proxy-url without a host");
    }

    // Opens an HTTP CONNECT tunnel to host:port through the proxy `s` is connected to.
    void tunnel(beast::tcp_stream& s, const std::string& path)
    {
        http::request<http::empty_body> req{http::verb::connect, host + ":" + port, 11};
        req.set(http::field::host, host + ":" + port);
        if (!proxyAuthorization.empty())
            req.set(http::field::proxy_authorization, proxyAuthorization);
        boost::system::error_code ec;
        s.expires_after(kTimeout);
        http::async_write(s, req, [&](boost::system::error_code e, std::size_t) { ec = e; });
        runIo();
        http::response_parser<http::empty_body> parser;
        parser.skip(true); // a CONNECT answer has no body
        beast::flat_buffer b;
        if (!ec) {
            s.expires_after(kTimeout);
            http::async_read_header(s, b, parser, [&](boost::system::error_code e, std::size_t) { ec = e; });
            runIo();
        }
        if (ec)
            failTransient(path, "the proxy " + proxyHost + ":" + proxyPort + " did not answer the CONNECT: " + ec.message());
        if (parser.get().result_int() != 200)
            fail(path, "the proxy " + proxyHost + ":" + proxyPort + " refused to CONNECT to " + host + ":" + port + ": "
                           + std::to_string(parser.get().result_int()) + " " + std::string(parser.get().reason()));
    }

    void loadCredentials()
    {
        const KubeconfigCluster& c = config.cluster;
        const KubeconfigUser& u = config.user;
        if (!c.proxyUrl.empty())
            parseProxy(c);
        if (!u.username.empty() || !u.password.empty())
            fail({}, "user \"" + u.name + "\" uses basic auth (username/password), which Fleetscope does not support");
        caPem = !c.certificateAuthorityData.empty() ? c.certificateAuthorityData
            : !c.certificateAuthority.empty()        ? readWholeFile(server, c.certificateAuthority, "certificate-authority")
                                                     : std::string();
        certPem = !u.clientCertificateData.empty() ? u.clientCertificateData
            : !u.clientCertificate.empty()          ? readWholeFile(server, u.clientCertificate, "client-certificate")
                                                    : std::string();
        keyPem = !u.clientKeyData.empty() ? u.clientKeyData
            : !u.clientKey.empty()         ? readWholeFile(server, u.clientKey, "client-key")
                                           : std::string();
        staticToken = u.token;
        if (staticToken.empty() && !u.tokenFile.empty()) {
            staticToken = readWholeFile(server, u.tokenFile, "tokenFile");
            while (!staticToken.empty() && (staticToken.back() == '\n' || staticToken.back() == '\r'))
                staticToken.pop_back();
        }
        if (u.exec && u.exec->interactiveMode == "Always")
            fail({}, "the exec plugin of user \"" + u.name + "\" (" + u.exec->command
                         + ") needs a terminal (interactiveMode: Always); Fleetscope runs it without one. Log in on a terminal first, "
                           "or configure the plugin with interactiveMode: IfAvailable or Never");
    }

    // Runs the exec plugin and keeps its credential. Never quotes its stdout (it holds secrets).
    void runExecPlugin()
    {
        const ExecConfig& e = *config.user.exec;
        QJsonObject spec{{"interactive", false}};
        if (e.provideClusterInfo) {
            QJsonObject cluster{{"server", QString::fromStdString(config.cluster.server)}};
            if (!config.cluster.tlsServerName.empty())
                cluster["tls-server-name"] = QString::fromStdString(config.cluster.tlsServerName);
            if (config.cluster.insecureSkipTlsVerify)
                cluster["insecure-skip-tls-verify"] = true;
            if (!caPem.empty())
                cluster["certificate-authority-data"] = QString::fromLatin1(QByteArray::fromStdString(caPem).toBase64());
            spec["cluster"] = cluster;
        }
        const QJsonObject info{{"apiVersion", QString::fromStdString(e.apiVersion)}, {"kind", "ExecCredential"}, {"spec", spec}};
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const auto& [name, value] : e.env)
            env.insert(QString::fromStdString(name), QString::fromStdString(value));
        env.insert("KUBERNETES_EXEC_INFO", QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
        QProcess p;
        p.setProcessEnvironment(env);
        QStringList args;
        for (const auto& a : e.args)
            args << QString::fromStdString(a);
        p.start(QString::fromStdString(e.command), args);
        const std::string who = "exec plugin " + e.command + " of user \"" + config.user.name + "\"";
        if (!p.waitForStarted(10000))
            fail({}, who + " could not be started" + (e.installHint.empty() ? std::string() : ": " + e.installHint));
        if (!p.waitForFinished(120000)) {
            p.kill();
            fail({}, who + " did not finish within 120 s");
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            const QString err = QString::fromUtf8(p.readAllStandardError()).section('\n', 0, 0);
            fail({}, who + " failed with exit code " + std::to_string(p.exitCode()) + (err.isEmpty() ? "" : ": " + quotedText(err.toStdString(), 200)));
        }
        const QJsonDocument out = QJsonDocument::fromJson(p.readAllStandardOutput());
        const QJsonObject status = out.object().value("status").toObject();
        if (!out.isObject() || out.object().value("kind").toString() != "ExecCredential")
            fail({}, who + " did not print an ExecCredential object");
        if (out.object().value("apiVersion").toString().toStdString() != e.apiVersion)
            fail({}, who + " answered with apiVersion " + out.object().value("apiVersion").toString().toStdString() + ", not " + e.apiVersion);
        execToken = status.value("token").toString().toStdString();
        execCertPem = status.value("clientCertificateData").toString().toStdString();
        execKeyPem = status.value("clientKeyData").toString().toStdString();
        if (execToken.empty() && (execCertPem.empty() || execKeyPem.empty()))
            fail({}, who + " gave neither a token nor a client certificate and key");
        execExpiry.reset();
        const QString exp = status.value("expirationTimestamp").toString();
        if (!exp.isEmpty()) {
            QDateTime t = QDateTime::fromString(exp, Qt::ISODate);
            if (!t.isValid())
                fail({}, who + " gave an expirationTimestamp that is not RFC 3339: " + quotedText(exp.toStdString(), 60));
            execExpiry = t;
        }
        haveExecCredential = true;
        if (!execCertPem.empty())
            disconnect(); // a new client certificate needs a new TLS context
    }

    void ensureExecCredential()
    {
        if (!config.user.exec)
            return;
        if (!haveExecCredential || (execExpiry && QDateTime::currentDateTimeUtc() >= *execExpiry))
            runExecPlugin();
    }

    // Closes the socket but keeps the stream objects (a pending operation ends with an error).
    void closeSocket()
    {
        boost::system::error_code ignored;
        if (tls)
            beast::get_lowest_layer(*tls).socket().close(ignored);
        if (plain)
            plain->socket().close(ignored);
    }

    void disconnect()
    {
        boost::system::error_code ignored;
        if (tls)
            beast::get_lowest_layer(*tls).socket().close(ignored);
        if (plain)
            plain->socket().close(ignored);
        tls.reset();
        plain.reset();
        ctx.reset();
        buffer.clear();
    }

    // Runs the queued asynchronous operation to its end; beast's tcp_stream timeout applies.
    void runIo()
    {
        ioc.restart();
        ioc.run();
    }

    void connect(const std::string& path)
    {
        boost::system::error_code ec;
        tcp::resolver resolver(ioc);
        tcp::resolver::results_type endpoints;
        const bool proxied = !proxyHost.empty();
        const std::string& toHost = proxied ? proxyHost : host;
        const std::string& toPort = proxied ? proxyPort : port;
        const std::string to = proxied ? "the proxy " + toHost + ":" + toPort : toHost + ":" + toPort;
        resolver.async_resolve(toHost, toPort, [&](boost::system::error_code e, tcp::resolver::results_type r) {
            ec = e;
            endpoints = std::move(r);
        });
        runIo();
        if (ec)
            failTransient(path, "cannot resolve " + toHost + ": " + ec.message());
        if (!tlsOn) {
            plain = std::make_unique<beast::tcp_stream>(ioc);
            plain->expires_after(kTimeout);
            plain->async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) { ec = e; });
            runIo();
            if (ec)
                failTransient(path, "cannot connect to " + to + ": " + ec.message());
            if (proxied)
                tunnel(*plain, path);
            return;
        }
        ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
        const std::string& cert = !execCertPem.empty() ? execCertPem : certPem;
        const std::string& key = !execKeyPem.empty() ? execKeyPem : keyPem;
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
            fail(path, std::string("the cluster's CA or the user's client certificate or key is not valid PEM: ") + e.code().message());
        }
        tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc, *ctx);
        const std::string name = config.cluster.tlsServerName.empty() ? host : config.cluster.tlsServerName;
        if (!isIpLiteral(name))
            SSL_set_tlsext_host_name(tls->native_handle(), name.c_str());
        if (!config.cluster.insecureSkipTlsVerify)
            tls->set_verify_callback(ssl::host_name_verification(name));
        beast::get_lowest_layer(*tls).expires_after(kTimeout);
        beast::get_lowest_layer(*tls).async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) { ec = e; });
        runIo();
        if (ec)
            failTransient(path, "cannot connect to " + to + ": " + ec.message());
        if (proxied)
            tunnel(beast::get_lowest_layer(*tls), path);
        tls->async_handshake(ssl::stream_base::client, [&](boost::system::error_code e) { ec = e; });
        runIo();
        if (ec) {
            std::string why = ec.message();
            const long verify = SSL_get_verify_result(tls->native_handle());
            if (verify != X509_V_OK)
                why = std::string("the server's certificate was not accepted: ") + X509_verify_cert_error_string(verify)
                    + " (checked against " + (caPem.empty() ? "the system's CAs" : "the cluster's certificate-authority") + ", name \""
                    + name + "\")";
            disconnect();
            if (verify != X509_V_OK)
                fail(path, "TLS handshake failed: " + why);
            failTransient(path, "TLS handshake failed: " + why);
        }
    }

    http::request<http::empty_body> request(const std::string& target) const
    {
        http::request<http::empty_body> req{http::verb::get, basePath + target, 11};
        req.set(http::field::host, host);
        req.set(http::field::user_agent, "fleetscope/0.1 (read-only)");
        req.set(http::field::accept, "application/json");
        const std::string& token = !execToken.empty() ? execToken : staticToken;
        if (!token.empty())
            req.set(http::field::authorization, "Bearer " + token);
        return req;
    }

    // Runs one asynchronous step on whichever stream is open, with `timeout`.
    template <class Op>
    boost::system::error_code step(std::chrono::steady_clock::duration timeout, Op&& op)
    {
        boost::system::error_code ec;
        auto done = [&](boost::system::error_code e, std::size_t = 0) { ec = e; };
        if (tls) {
            beast::get_lowest_layer(*tls).expires_after(timeout);
            op(*tls, done);
        } else {
            plain->expires_after(timeout);
            op(*plain, done);
        }
        runIo();
        return ec;
    }

    // One streamed GET (see KubeApiClient::stream).
    ApiResponse streamOnce(const std::string& target, const std::function<bool(std::string_view)>& onData, std::chrono::seconds idle)
    {
        if (interrupted)
            return {};
        if (!tls && !plain)
            connect(target);
        auto req = request(target);
        http::response_parser<http::buffer_body> parser;
        // An explicit limit: Boost 1.74's check of a Content-Length against boost::none (no
        // limit) refuses every length (`len_ > body_limit_` compares with an empty optional).
        parser.body_limit(std::numeric_limits<std::uint64_t>::max());
        boost::system::error_code ec = step(kTimeout, [&](auto& s, auto& done) { http::async_write(s, req, done); });
        if (!ec)
            ec = step(kTimeout, [&](auto& s, auto& done) { http::async_read_header(s, buffer, parser, done); });
        if (ec) {
            disconnect();
            throw boost::system::system_error(ec);
        }
        ApiResponse out;
        out.status = parser.get().result_int();
        if (auto it = parser.get().find(http::field::retry_after); it != parser.get().end())
            out.retryAfter = std::string(it->value());
        std::vector<char> chunk(64 * 1024);
        while (!parser.is_done() && !interrupted) {
            parser.get().body().data = chunk.data();
            parser.get().body().size = chunk.size();
            ec = step(idle, [&](auto& s, auto& done) { http::async_read_some(s, buffer, parser, done); });
            if (ec == http::error::need_buffer)
                ec = {};
            if (ec)
                break;
            const std::size_t n = chunk.size() - parser.get().body().size;
            if (n == 0)
                continue;
            if (out.status != 200) {
                out.body.append(chunk.data(), n);
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

    // Reads the whole response on `s` with synchronous reads on the non-blocking socket, waiting
    // in poll() between them, within `timeout` for the whole response (as expires_after() for
    // the asynchronous read it replaces). Design note (speed): an asynchronous read of a TLS
    // stream runs some 32 handlers through the io_context per 16 KB record (beast's read op,
    // asio's SSL io_op, basic_stream's timer bookkeeping, each followed by a zero-timeout
    // epoll_wait), which cost more CPU than the decryption itself; a synchronous read runs the
    // same SSL engine with none of that. Measured (bench_livelist 20000 200000, 1.8 GB of
    // pages): the client thread's CPU for the whole LIST 6.8 s -> 3.7 s, its import included.
    template <class Stream, class Parser>
    boost::system::error_code readSync(Stream& s, tcp::socket& socket, Parser& parser, std::chrono::steady_clock::duration timeout)
    {
        boost::system::error_code ec;
        socket.non_blocking(true, ec);
        if (ec)
            return ec;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!parser.is_done()) {
            http::read_some(s, buffer, parser, ec);
            if (ec != net::error::would_block && ec != net::error::try_again) {
                if (ec)
                    break;
                continue;
            }
            ec = {};
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                ec = beast::error::timeout;
                break;
            }
            pollfd p{socket.native_handle(), POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000 * 60 * 60))) < 0 && errno != EINTR) {
                ec = boost::system::error_code(errno, boost::system::system_category());
                break;
            }
        }
        boost::system::error_code ignored;
        socket.non_blocking(false, ignored);
        return ec;
    }

    ApiResponse once(const std::string& target, bool& connectionReused)
    {
        connectionReused = tls || plain;
        if (!connectionReused)
            connect(target);
        auto req = request(target);
        req.set(http::field::accept_encoding, "gzip"); // the API server compresses large answers (APIResponseCompression)
        http::response_parser<http::string_body> parser;
        // Not boost::none: Boost 1.74's basic_parser refuses every Content-Length against it (see
        // streamOnce), which its asynchronous read happened not to reach.
        parser.body_limit(std::numeric_limits<std::uint64_t>::max());
        boost::system::error_code ec;
        auto done = [&](boost::system::error_code e, std::size_t) { ec = e; };
        if (tls) {
            beast::get_lowest_layer(*tls).expires_after(kTimeout);
            http::async_write(*tls, req, done);
            runIo();
            if (!ec) {
                beast::get_lowest_layer(*tls).expires_never();
                ec = readSync(*tls, beast::get_lowest_layer(*tls).socket(), parser, kTimeout);
            }
        } else {
            plain->expires_after(kTimeout);
            http::async_write(*plain, req, done);
            runIo();
            if (!ec) {
                plain->expires_never();
                ec = readSync(*plain, plain->socket(), parser, kTimeout);
            }
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
                    out.body = gunzip(out.body);
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
    d->server = config.cluster.server;
    d->parseServer();
    d->loadCredentials();
}

KubeApiClient::~KubeApiClient() { d->disconnect(); }

const std::string& KubeApiClient::server() const { return d->server; }

ApiResponse KubeApiClient::stream(const std::string& target, const std::function<bool(std::string_view)>& onData, std::chrono::seconds idle)
{
    d->ensureExecCredential();
    ApiResponse r;
    try {
        r = d->streamOnce(target, onData, idle);
    } catch (const boost::system::system_error& e) {
        d->failTransient(target, "request failed: " + e.code().message());
    }
    if (r.status == 401 && d->config.user.exec && !d->interrupted) {
        d->runExecPlugin(); // exec.go: a 401 invalidates the cached credential
        try {
            r = d->streamOnce(target, onData, idle);
        } catch (const boost::system::system_error& e) {
            d->failTransient(target, "request failed: " + e.code().message());
        }
    }
    return r;
}

void KubeApiClient::interrupt()
{
    d->interrupted = true;
    // Closing the socket from the client's own loop ends the pending read at once.
    net::post(d->ioc, [impl = d.get()] { impl->closeSocket(); });
}

bool KubeApiClient::interrupted() const noexcept { return d->interrupted; }

void KubeApiClient::clearInterrupt()
{
    d->interrupted = false;
    // Run a close that interrupt() posted while no stream was open (no socket is open here).
    d->ioc.restart();
    d->ioc.poll();
}

ApiResponse KubeApiClient::get(const std::string& target)
{
    d->ensureExecCredential();
    ApiResponse r;
    for (int attempt = 0;; ++attempt) {
        bool reused = false;
        try {
            r = d->once(target, reused);
        } catch (const boost::system::system_error& e) {
            // A kept-alive connection the server closed meanwhile: reconnect once.
            if (reused && attempt == 0)
                continue;
            d->failTransient(target, "request failed: " + e.code().message());
        }
        break;
    }
    if (r.status == 401 && d->config.user.exec) {
        d->runExecPlugin(); // exec.go: a 401 invalidates the cached credential
        bool reused = false;
        try {
            r = d->once(target, reused);
        } catch (const boost::system::system_error& e) {
            d->failTransient(target, "request failed: " + e.code().message());
        }
    }
    return r;
}

} // namespace fleet::importers::kube
