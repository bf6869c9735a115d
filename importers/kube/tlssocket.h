// SPDX-License-Identifier: Apache-2.0
#pragma once
// A blocking TLS (or plain) connection on a connected TCP socket, on OpenSSL directly: the
// transport of KubeApiClient and of the test double of the API server. Internal to the kube
// importer and its tests (it exposes Boost buffer sequences for Beast's HTTP parser).
//
// Why not Boost.Asio's ssl::stream (speed): its engine moves every record through a
// 17 KB BIO pair and one read() or write() per record, so a 3.6 MB page of a LIST costs some
// 500 system calls and as many copies on each side. Here:
// - reads: OpenSSL reads straight from the socket with read-ahead into a 256 KB buffer
//   (SSL_set_default_read_buffer_len), so one recv() brings some 16 records; SSL_read()
//   decrypts into the caller's buffer, as many records as are already in (no extra copy);
// - writes: SSL_write() encrypts into a BIO pair, whose bytes are then sent from its ring
//   buffer (no copy) with one send() per 256 KB batch of records (MSG_NOSIGNAL: a peer that hung up is an error, never SIGPIPE);
// - waits: poll() on the socket and on an optional wake descriptor (an eventfd that another
//   thread makes readable to interrupt a blocking read: the operation ends with
//   operation_aborted), until the deadline set by setDeadline().
// Certificate checks: the SSL_CTX's verify mode and CA; the peer's name as set with
// setPeerName() (SSL_set1_host for a DNS name, the iPAddress SAN for an IP literal; SNI for a
// DNS name), checked by OpenSSL during the handshake (RFC 6125 rules, as Go's crypto/tls).
//
// Errors: boost::system::error_code; net::error::eof at a clean end (close_notify or a TCP FIN
// between records), ssl::error::stream_truncated for a FIN inside a record, beast::error::timeout
// past the deadline, net::error::operation_aborted after a wake. Thread: one thread uses a
// socket; only the wake descriptor is touched by others (by its owner).

#include <boost/asio/buffer.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

using SSL_CTX = struct ssl_ctx_st;
using SSL = struct ssl_st;
using BIO = struct bio_st;

namespace fleet::importers::kube {

class TlsSocket {
public:
    enum class Role { Client, Server };
    /// A TLS connection on the connected socket `fd` (owned from now on: closed by the
    /// destructor) with `ctx` (not owned; it must outlive the socket). `ctx == nullptr`: plain
    /// TCP (http://), with the same waits and wake. Sets `fd` non-blocking.
    TlsSocket(int fd, SSL_CTX* ctx, Role role);
    ~TlsSocket();
    TlsSocket(const TlsSocket&) = delete;
    TlsSocket& operator=(const TlsSocket&) = delete;

    /// Client: the name the server's certificate must carry (and SNI for a DNS name). Call
    /// before handshake(); `verify` false (insecure-skip-tls-verify) sends SNI only.
    void setPeerName(const std::string& name, bool verify);
    /// Each later operation ends with beast::error::timeout when it is still waiting at
    /// `deadline` (time_point::max(): never).
    void setDeadline(std::chrono::steady_clock::time_point deadline) noexcept { m_deadline = deadline; }
    /// A descriptor that, once readable, ends every wait with operation_aborted (-1: none).
    void setWakeFd(int fd) noexcept { m_wakeFd = fd; }
    /// Called on the socket's thread at least once a second while an operation waits (and after
    /// each wait), so that a slow peer can be reported; null: none.
    void setWaitTick(std::function<void()> tick) { m_tick = std::move(tick); }
    /// Bytes of plaintext read so far (TLS decrypted, or plain TCP).
    std::size_t bytesRead() const noexcept { return m_bytesRead; }
    /// The TLS handshake (nothing for plain TCP).
    boost::system::error_code handshake();
    /// Sends close_notify (best effort, no wait for the peer's).
    void shutdown() noexcept;
    /// The OpenSSL handle (nullptr for plain TCP): SSL_get_verify_result() after a failed handshake.
    SSL* nativeHandle() const noexcept { return m_ssl; }
    int fd() const noexcept { return m_fd; }

    /// Reads at most `size` bytes (at least 1, or an error). Thread: the socket's.
    std::size_t readSome(void* data, std::size_t size, boost::system::error_code& ec);
    /// Writes at most `size` bytes (all of them up to 256 KB), sent before it returns.
    std::size_t writeSome(const void* data, std::size_t size, boost::system::error_code& ec);

    // Beast's SyncReadStream and SyncWriteStream.
    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& buffers, boost::system::error_code& ec)
    {
        for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
            const boost::asio::mutable_buffer b = *it;
            if (b.size() > 0)
                return readSome(b.data(), b.size(), ec);
        }
        ec = {};
        return 0;
    }
    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& buffers)
    {
        boost::system::error_code ec;
        const std::size_t n = read_some(buffers, ec);
        if (ec)
            throw boost::system::system_error(ec);
        return n;
    }
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& buffers, boost::system::error_code& ec)
    {
        // Gathers small buffers (a header and a chunk) into one send: they are encrypted into
        // the batch and sent by the last call.
        std::size_t total = 0;
        ec = {};
        for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
            const boost::asio::const_buffer b = *it;
            if (b.size() == 0)
                continue;
            if (total + b.size() > kBatchBytes && total > 0)
                break;
            const std::size_t n = encrypt(b.data(), std::min(b.size(), kBatchBytes - total), ec);
            total += n;
            if (ec || total >= kBatchBytes)
                break;
        }
        if (!ec)
            ec = flush();
        return ec ? 0 : total;
    }
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& buffers)
    {
        boost::system::error_code ec;
        const std::size_t n = write_some(buffers, ec);
        if (ec)
            throw boost::system::system_error(ec);
        return n;
    }

    static constexpr std::size_t kBatchBytes = std::size_t { 256 } << 10;

private:
    // Encrypts (or, plain, queues) up to `size` bytes into the batch; returns how many.
    std::size_t encrypt(const void* data, std::size_t size, boost::system::error_code& ec);
    // Sends the whole batch.
    boost::system::error_code flush();
    // Waits until the socket is readable (or writable); the error of a deadline, a wake or poll.
    boost::system::error_code wait(bool forWrite);
    // After an SSL call returned `rc` <= 0: waits as asked and returns {} to retry, or the error.
    boost::system::error_code retryOrFail(int rc);

    int m_fd = -1;
    int m_wakeFd = -1;
    SSL* m_ssl = nullptr;
    BIO* m_out = nullptr; // the network half of the BIO pair SSL writes to
    bool m_server = false;
    bool m_setupFailed = false;
    std::chrono::steady_clock::time_point m_deadline = std::chrono::steady_clock::time_point::max();
    std::string m_plainOut; // plain TCP: bytes queued by encrypt() for flush()
    std::function<void()> m_tick;
    std::size_t m_bytesRead = 0;
};

} // namespace fleet::importers::kube
