#include "fakekubeapiserver.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QUrlQuery>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <thread>

namespace fleet::tests {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

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
    int expireLeft = 0, throttleLeft = 0;

    std::map<std::string, QJsonArray> byNamespace; // "/api/v1/namespaces/NS/pods" -> that namespace's pods

    // The collection at `path`: a configured list, or one namespace's pods.
    const QJsonArray* listOf(const std::string& path)
    {
        if (auto it = lists.find(path); it != lists.end())
            return &it->second;
        const std::string prefix = "/api/v1/namespaces/";
        const auto pods = lists.find("/api/v1/pods");
        if (!path.starts_with(prefix) || !path.ends_with("/pods") || pods == lists.end())
            return nullptr;
        const QString ns = QString::fromStdString(path.substr(prefix.size(), path.size() - prefix.size() - 5));
        std::lock_guard lock(mutex);
        QJsonArray& mine = byNamespace[path];
        mine = {};
        for (const QJsonValue& v : pods->second)
            if (v.toObject()["metadata"].toObject()["namespace"].toString() == ns)
                mine.append(v);
        return &mine;
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
        const auto auth = req.find(http::field::authorization);
        const bool authorized = options.token.empty()
            || (auth != req.end() && std::string(auth->value()) == "Bearer " + options.token);
        if (!authorized) {
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
        } else if (std::find(options.forbidden.begin(), options.forbidden.end(), path) != options.forbidden.end()) {
            code = 403;
            body = status(403, "Forbidden", QString("%1 is forbidden: User \"test\" cannot list resource").arg(QString::fromStdString(path)));
        } else if (const QJsonArray* list = listOf(path)) {
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
                const qsizetype size = std::max<qsizetype>(1, std::min<qsizetype>(limit, static_cast<qsizetype>(options.pageSize)));
                const qsizetype from = token.isEmpty() ? 0 : token.mid(1).toLongLong();
                const QJsonArray& all = *list;
                QJsonArray page;
                for (qsizetype i = from; i < std::min(from + size, all.size()); ++i) {
                    QJsonObject item = all.at(i).toObject();
                    item.remove("kind"); // as the API server serves a typed list: kind and apiVersion on the list only
                    item.remove("apiVersion");
                    page.append(item);
                }
                QJsonObject meta{{"resourceVersion", "4242"}};
                if (from + size < all.size()) {
                    meta["continue"] = QString("c%1").arg(from + size);
                    meta["remainingItemCount"] = all.size() - from - size;
                }
                // In the API server's key order (QJsonObject would sort them): kind first, items last.
                body = QByteArray("{\"kind\":\"") + kindOfList(path) + "\",\"apiVersion\":\""
                    + (path.starts_with("/apis/policy") ? "policy/v1" : "v1") + "\",\"metadata\":" + json(meta) + ",\"items\":"
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

    void serve(tcp::socket socket)
    {
        const int fd = socket.native_handle();
        try {
            ssl::stream<tcp::socket> stream(std::move(socket), ctx);
            stream.handshake(ssl::stream_base::server);
            boost::beast::flat_buffer buffer;
            for (;;) {
                http::request<http::string_body> req;
                boost::system::error_code ec;
                http::read(stream, buffer, req, ec);
                if (ec)
                    break;
                auto res = answer(req);
                http::write(stream, res, ec);
                if (ec || !res.keep_alive())
                    break;
            }
            boost::system::error_code ignored;
            stream.shutdown(ignored);
        } catch (const std::exception&) {
            // A client that gave up on the handshake (a certificate it does not trust).
        }
        std::lock_guard lock(mutex); // the descriptor is closed when `stream` goes: never shut it down again
        openSockets.erase(std::remove(openSockets.begin(), openSockets.end(), fd), openSockets.end());
    }

    void acceptLoop()
    {
        while (!stopping) {
            tcp::socket s(ioc);
            boost::system::error_code ec;
            acceptor.accept(s, ec);
            if (ec || stopping)
                break;
            std::lock_guard lock(mutex);
            openSockets.push_back(s.native_handle());
            connections.emplace_back([this, sock = std::move(s)]() mutable { serve(std::move(sock)); });
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
    d->ctx.use_certificate_chain(net::buffer(pki.serverCertPem));
    d->ctx.use_private_key(net::buffer(pki.serverKeyPem), ssl::context::pem);
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
    d->stopping = true;
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

} // namespace fleet::tests
