// SPDX-License-Identifier: Apache-2.0
#pragma once
// A test double of a server that goes wrong in time, on loopback plain HTTP: it accepts every
// connection and reads the request, then, as asked, never answers (Silent), sends the head of
// an answer and part of its body then nothing more (MidBody), or sends the head and then one
// byte of body every `trickleMs` (Trickle); or goes wrong in size: a chunked body of list
// items sent as fast as the client reads, without end (Endless), the same body a part every
// `trickleMs` (EndlessPaced: it never pauses long enough for a client to time out on a byte,
// yet never nears a size limit within seconds, whatever the machine's speed), or a header saying
// Content-Length: 99999999999999 before a short body (HugeLength). What the request timeout,
// the reports of a slow request and the bounds of an answer are tested against. It counts the
// requests it read.
//
// Thread: its own threads (one per connection); the destructor ends them at once.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fleet::tests {

class StallingServer {
public:
    enum class Mode { Silent, MidBody, Trickle, Endless, HugeLength, EndlessPaced };

    explicit StallingServer(Mode mode, int trickleMs = 1000)
        : m_mode(mode)
        , m_trickleMs(trickleMs)
    {
        if (::pipe2(m_stop, O_CLOEXEC) != 0)
            return;
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(m_listen, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(m_listen, 16) != 0
            || ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return;
        m_port = ntohs(a.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~StallingServer()
    {
        if (m_stop[1] >= 0) {
            [[maybe_unused]] const auto n = ::write(m_stop[1], "x", 1);
        }
        if (m_acceptor.joinable())
            m_acceptor.join();
        for (auto& t : m_connections)
            t.join();
        for (int fd : { m_listen, m_stop[0], m_stop[1] })
            if (fd >= 0)
                ::close(fd);
    }
    StallingServer(const StallingServer&) = delete;
    StallingServer& operator=(const StallingServer&) = delete;

    unsigned short port() const { return m_port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    /// Requests whose head was read so far (one per attempt of the client).
    int requests() const { return m_requests.load(); }

private:
    // Waits for `fd` to be readable or for the stop pipe, at most `ms` (-1: no bound). False once stopping.
    bool waitReadable(int fd, int ms, bool& ready) const
    {
        pollfd p[2] = { { fd, POLLIN, 0 }, { m_stop[0], POLLIN, 0 } };
        ready = false;
        if (::poll(p, 2, ms) < 0)
            return true;
        if (p[1].revents & POLLIN)
            return false;
        ready = (p[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        return true;
    }

    void acceptLoop()
    {
        for (;;) {
            bool ready = false;
            if (!waitReadable(m_listen, -1, ready))
                return;
            if (!ready)
                continue;
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            m_connections.emplace_back([this, fd] {
                serve(fd);
                ::close(fd);
            });
        }
    }

    void serve(int fd)
    {
        std::string head;
        char buf[4096];
        while (head.find("\r\n\r\n") == std::string::npos) {
            bool ready = false;
            if (!waitReadable(fd, -1, ready))
                return;
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0)
                return;
            head.append(buf, static_cast<std::size_t>(n));
        }
        ++m_requests;
        const std::string answerHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
        if (m_mode == Mode::Endless || m_mode == Mode::EndlessPaced) {
            const std::string chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            std::string item;
            for (int i = 0; i < 2000; ++i)
                item += "{\"metadata\":{\"name\":\"n\"}},";
            char size[32];
            std::snprintf(size, sizeof size, "%zx\r\n", item.size());
            const std::string chunk = size + item + "\r\n";
            std::string body;
            for (int i = 0; i < 8; ++i)
                body += chunk;
            const std::string start = chunkedHead + "a\r\n{\"items\":[\r\n";
            if (::send(fd, start.data(), start.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(start.size()))
                return;
            // Blocking sends: as fast as the client reads (or a part every trickleMs when paced);
            // ends when it hangs up or the server stops.
            const int pauseMs = m_mode == Mode::EndlessPaced ? m_trickleMs : 0;
            for (;;) {
                bool ready = false;
                if (!waitReadable(m_stop[0], pauseMs, ready) || ready)
                    return;
                if (::send(fd, body.data(), body.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(body.size()))
                    return;
            }
        }
        if (m_mode == Mode::HugeLength) {
            const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 99999999999999\r\n\r\n"
                                       "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[]}";
            (void)::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
        } else if (m_mode == Mode::MidBody) {
            const std::string part = answerHead + "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[";
            (void)::send(fd, part.data(), part.size(), MSG_NOSIGNAL);
        } else if (m_mode == Mode::Trickle) {
            (void)::send(fd, answerHead.data(), answerHead.size(), MSG_NOSIGNAL);
            const std::string body = "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[";
            for (std::size_t i = 0;; ++i) {
                bool ready = false;
                if (!waitReadable(m_stop[0], m_trickleMs, ready) || ready)
                    return;
                if (::send(fd, &body[i % body.size()], 1, MSG_NOSIGNAL) != 1)
                    return;
            }
        }
        // Then nothing more until the client hangs up or the server stops.
        for (;;) {
            bool ready = false;
            if (!waitReadable(fd, -1, ready))
                return;
            if (ready && ::recv(fd, buf, sizeof buf, 0) <= 0)
                return;
        }
    }

    Mode m_mode;
    int m_trickleMs;
    int m_stop[2] = { -1, -1 };
    int m_listen = -1;
    unsigned short m_port = 0;
    std::atomic<int> m_requests { 0 };
    std::thread m_acceptor;
    std::vector<std::thread> m_connections; // the acceptor's until it is joined
};

} // namespace fleet::tests
