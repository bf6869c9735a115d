// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test double of an HTTP proxy (for kubeconfig's proxy-url): on loopback, it answers each
// CONNECT host:port with "200 Connection Established" and relays bytes both ways. It keeps the
// CONNECT targets and Proxy-Authorization headers it saw. Thread: its own threads; the test's
// thread reads seen() after.

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <istream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fleet::tests {

class ConnectProxy {
public:
    ConnectProxy()
    {
        namespace net = boost::asio;
        const net::ip::tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
        m_acceptor.open(ep.protocol());
        m_acceptor.bind(ep);
        m_acceptor.listen();
        m_thread = std::thread([this] { acceptLoop(); });
    }
    ~ConnectProxy()
    {
        m_stopping = true;
        boost::system::error_code ec;
        { // wake accept()
            boost::asio::ip::tcp::socket s(m_io);
            s.connect(m_acceptor.local_endpoint(), ec);
        }
        m_thread.join();
        std::lock_guard lock(m_mutex);
        for (auto& s : m_sockets)
            s->shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
        for (auto& t : m_relays)
            t.join();
    }
    unsigned short port() const { return m_acceptor.local_endpoint().port(); }
    /// "CONNECT target" and "Proxy-Authorization: value" lines, in order.
    std::vector<std::string> seen() const
    {
        std::lock_guard lock(m_mutex);
        return m_seen;
    }

private:
    using Socket = boost::asio::ip::tcp::socket;

    void acceptLoop()
    {
        for (;;) {
            auto client = std::make_shared<Socket>(m_io);
            boost::system::error_code ec;
            m_acceptor.accept(*client, ec);
            if (ec || m_stopping)
                return;
            std::lock_guard lock(m_mutex);
            m_sockets.push_back(client);
            m_relays.emplace_back([this, client] { serve(client); });
        }
    }

    void serve(std::shared_ptr<Socket> client)
    {
        boost::system::error_code ec;
        boost::asio::streambuf head;
        boost::asio::read_until(*client, head, "\r\n\r\n", ec);
        if (ec)
            return;
        std::istream in(&head);
        std::string method, target, line;
        in >> method >> target;
        std::getline(in, line);
        std::string auth;
        while (std::getline(in, line) && line != "\r")
            if (line.rfind("Proxy-Authorization: ", 0) == 0)
                auth = line.substr(21, line.size() - 22);
        {
            std::lock_guard lock(m_mutex);
            m_seen.push_back("CONNECT " + target);
            if (!auth.empty())
                m_seen.push_back("Proxy-Authorization: " + auth);
        }
        const auto colon = target.rfind(':');
        auto upstream = std::make_shared<Socket>(m_io);
        boost::asio::ip::tcp::resolver resolver(m_io);
        boost::asio::connect(*upstream, resolver.resolve(target.substr(0, colon), target.substr(colon + 1), ec), ec);
        if (method != "CONNECT" || ec) {
            boost::asio::write(*client, boost::asio::buffer(std::string("HTTP/1.1 502 Bad Gateway\r\n\r\n")), ec);
            return;
        }
        {
            std::lock_guard lock(m_mutex);
            m_sockets.push_back(upstream);
        }
        boost::asio::write(*client, boost::asio::buffer(std::string("HTTP/1.1 200 Connection Established\r\n\r\n")), ec);
        // Bytes the client sent after its CONNECT head (none, for a TLS client) go first.
        if (head.size() > 0)
            boost::asio::write(*upstream, head.data(), ec);
        std::thread back([client, upstream] { relay(*upstream, *client); });
        relay(*client, *upstream);
        back.join();
    }

    static void relay(Socket& from, Socket& to)
    {
        char buf[16384];
        boost::system::error_code ec;
        for (;;) {
            const std::size_t n = from.read_some(boost::asio::buffer(buf), ec);
            if (ec || boost::asio::write(to, boost::asio::buffer(buf, n), ec) != n || ec)
                break;
        }
        to.shutdown(Socket::shutdown_send, ec);
    }

    boost::asio::io_context m_io;
    boost::asio::ip::tcp::acceptor m_acceptor { m_io };
    std::thread m_thread;
    std::atomic<bool> m_stopping { false };
    mutable std::mutex m_mutex;
    std::vector<std::shared_ptr<Socket>> m_sockets;
    std::vector<std::thread> m_relays;
    std::vector<std::string> m_seen;
};

} // namespace fleet::tests
