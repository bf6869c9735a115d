// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/tlssocket.h"

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace fleet::importers::kube {

namespace {

boost::system::error_code systemError(int e) { return {e, boost::system::system_category()}; }

bool isIpLiteral(const std::string& name)
{
    unsigned char b[16];
    return inet_pton(AF_INET, name.c_str(), b) == 1 || inet_pton(AF_INET6, name.c_str(), b) == 1;
}

} // namespace

TlsSocket::TlsSocket(int fd, SSL_CTX* ctx, Role role)
    : m_fd(fd)
    , m_server(role == Role::Server)
{
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    if (!ctx)
        return;
    m_ssl = SSL_new(ctx);
    if (!m_ssl) {
        m_setupFailed = true; // handshake() reports it
        return;
    }
    // Read-ahead into a large buffer: one recv() for many records.
    SSL_set_read_ahead(m_ssl, 1);
    SSL_set_default_read_buffer_len(m_ssl, kBatchBytes);
    BIO* in = BIO_new_socket(m_fd, BIO_NOCLOSE);
    BIO* inner = nullptr;
    // Room for one batch of plaintext and its records' headers and tags.
    BIO_new_bio_pair(&inner, kBatchBytes + (64 << 10), &m_out, kBatchBytes + (64 << 10));
    SSL_set0_rbio(m_ssl, in);
    SSL_set0_wbio(m_ssl, inner);
    if (m_server)
        SSL_set_accept_state(m_ssl);
    else
        SSL_set_connect_state(m_ssl);
}

TlsSocket::~TlsSocket()
{
    if (m_ssl)
        SSL_free(m_ssl); // and both BIOs it was given
    if (m_out)
        BIO_free(m_out);
    if (m_fd >= 0)
        ::close(m_fd);
}

void TlsSocket::setPeerName(const std::string& name, bool verify)
{
    if (!m_ssl || name.empty())
        return;
    const bool ip = isIpLiteral(name);
    if (!ip)
        SSL_set_tlsext_host_name(m_ssl, name.c_str());
    if (!verify)
        return;
    if (ip)
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(m_ssl), name.c_str());
    else {
        SSL_set_hostflags(m_ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        SSL_set1_host(m_ssl, name.c_str());
    }
}

boost::system::error_code TlsSocket::wait(bool forWrite)
{
    for (;;) {
        int timeoutMs = -1;
        if (m_deadline != std::chrono::steady_clock::time_point::max()) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(m_deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0)
                return boost::beast::error::timeout;
            timeoutMs = static_cast<int>(std::min<long long>(left, INT_MAX));
        }
        if (m_tick && (timeoutMs < 0 || timeoutMs > 1000))
            timeoutMs = 1000; // the tick runs at least once a second
        if (m_tick)
            m_tick();
        pollfd p[2] = {{m_fd, static_cast<short>(forWrite ? POLLOUT : POLLIN), 0}, {m_wakeFd, POLLIN, 0}};
        const int rc = ::poll(p, m_wakeFd >= 0 ? 2 : 1, timeoutMs);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            return systemError(errno);
        }
        if (m_wakeFd >= 0 && (p[1].revents & POLLIN))
            return boost::asio::error::operation_aborted;
        if (rc == 0)
            continue; // the deadline is checked above
        return {};
    }
}

boost::system::error_code TlsSocket::retryOrFail(int rc)
{
    const int err = SSL_get_error(m_ssl, rc);
    switch (err) {
    case SSL_ERROR_WANT_READ:
        if (auto ec = flush())
            return ec;
        return wait(false);
    case SSL_ERROR_WANT_WRITE:
        return flush(); // the BIO pair is full: send it, then SSL can go on
    case SSL_ERROR_ZERO_RETURN:
        return boost::asio::error::eof;
    case SSL_ERROR_SYSCALL:
        if (ERR_peek_error() == 0)
            return errno ? systemError(errno) : boost::system::error_code(boost::asio::ssl::error::stream_truncated);
        break;
    case SSL_ERROR_SSL:
        if (ERR_GET_REASON(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
            ERR_clear_error();
            return boost::asio::ssl::error::stream_truncated;
        }
        break;
    default:
        break;
    }
    const unsigned long e = ERR_get_error();
    ERR_clear_error();
    return {static_cast<int>(e ? e : static_cast<unsigned long>(err)), boost::asio::error::get_ssl_category()};
}

boost::system::error_code TlsSocket::handshake()
{
    if (m_setupFailed)
        return {static_cast<int>(ERR_get_error()), boost::asio::error::get_ssl_category()};
    if (!m_ssl)
        return {}; // plain TCP
    for (;;) {
        ERR_clear_error();
        const int rc = SSL_do_handshake(m_ssl);
        if (rc == 1)
            return flush();
        if (auto ec = retryOrFail(rc)) {
            flush(); // an alert for the peer, when there is one
            return ec;
        }
    }
}

void TlsSocket::shutdown() noexcept
{
    if (!m_ssl)
        return;
    ERR_clear_error();
    SSL_shutdown(m_ssl);
    const auto deadline = m_deadline;
    m_deadline = std::min(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(1));
    flush();
    m_deadline = deadline;
    ERR_clear_error();
}

std::size_t TlsSocket::readSome(void* data, std::size_t size, boost::system::error_code& ec)
{
    ec = {};
    if (size == 0)
        return 0;
    char* out = static_cast<char*>(data);
    const int want = static_cast<int>(std::min<std::size_t>(size, INT_MAX));
    for (;;) {
        if (!m_ssl) {
            const ssize_t n = ::recv(m_fd, out, static_cast<std::size_t>(want), 0);
            if (n > 0) {
                m_bytesRead += static_cast<std::size_t>(n);
                return static_cast<std::size_t>(n);
            }
            if (n == 0) {
                ec = boost::asio::error::eof;
                return 0;
            }
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                ec = systemError(errno);
                return 0;
            }
            if ((ec = wait(false)))
                return 0;
            continue;
        }
        ERR_clear_error();
        int rc = SSL_read(m_ssl, out, want);
        if (rc > 0) {
            // Every record already read from the socket, decrypted into the caller's buffer.
            int got = rc;
            while (got < want && SSL_has_pending(m_ssl)) {
                ERR_clear_error();
                rc = SSL_read(m_ssl, out + got, want - got);
                if (rc <= 0) {
                    ERR_clear_error(); // the next call meets it again
                    break;
                }
                got += rc;
            }
            if (BIO_ctrl_pending(m_out) > 0)
                ec = flush(); // a key update's answer
            m_bytesRead += static_cast<std::size_t>(got);
            return static_cast<std::size_t>(got);
        }
        if ((ec = retryOrFail(rc)))
            return 0;
    }
}

std::size_t TlsSocket::encrypt(const void* data, std::size_t size, boost::system::error_code& ec)
{
    ec = {};
    if (!m_ssl) {
        m_plainOut.append(static_cast<const char*>(data), size);
        return size;
    }
    for (;;) {
        ERR_clear_error();
        const int rc = SSL_write(m_ssl, data, static_cast<int>(std::min(size, kBatchBytes)));
        if (rc > 0)
            return static_cast<std::size_t>(rc);
        if ((ec = retryOrFail(rc)))
            return 0;
    }
}

std::size_t TlsSocket::writeSome(const void* data, std::size_t size, boost::system::error_code& ec)
{
    return write_some(boost::asio::const_buffer(data, size), ec);
}

boost::system::error_code TlsSocket::flush()
{
    for (;;) {
        char* p = nullptr;
        std::size_t n = 0;
        if (m_ssl) {
            const int ready = BIO_nread0(m_out, &p);
            n = ready > 0 ? static_cast<std::size_t>(ready) : 0;
        } else {
            p = m_plainOut.data();
            n = m_plainOut.size();
        }
        if (n == 0)
            return {};
        const ssize_t sent = ::send(m_fd, p, n, MSG_NOSIGNAL);
        if (sent > 0) {
            if (m_ssl)
                BIO_nread(m_out, &p, static_cast<int>(sent));
            else
                m_plainOut.erase(0, static_cast<std::size_t>(sent));
            continue;
        }
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (auto ec = wait(true))
                return ec;
            continue;
        }
        return systemError(sent < 0 ? errno : EPIPE);
    }
}

} // namespace fleet::importers::kube
