// SPDX-License-Identifier: Apache-2.0
#pragma once
// A real Prometheus server for tests (Debian's `prometheus` package, installed by
// installer/install-deps.sh): history written as OpenMetrics text, turned into TSDB blocks by
// `promtool tsdb create-blocks-from openmetrics`, then `prometheus` started on 127.0.0.1 with a
// free port and a data dir in a temp dir, stopped when the object goes. Nothing is scraped.
//
// Thread: the test's thread.

#include "importers/kube/kubeapiclient.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

class PrometheusServer {
public:
    /// Starts the server on `openMetrics` (a whole OpenMetrics document, "# EOF" last).
    /// On failure, error() says why and url() is empty.
    explicit PrometheusServer(const QByteArray& openMetrics)
    {
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (prometheus.isEmpty() || promtool.isEmpty()) {
            m_error = QStringLiteral("prometheus or promtool not in PATH: run installer/install-deps.sh (Debian package prometheus)");
            return;
        }
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temp dir");
            return;
        }
        QFile om(m_dir.filePath(QStringLiteral("history.om")));
        QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
        if (!om.open(QIODevice::WriteOnly) || om.write(openMetrics) != openMetrics.size() || !config.open(QIODevice::WriteOnly)) {
            m_error = QStringLiteral("cannot write in ") + m_dir.path();
            return;
        }
        om.close();
        config.write("global:\n  scrape_interval: 1h\nscrape_configs: []\n");
        config.close();
        QProcess tool;
        tool.start(promtool, { QStringLiteral("tsdb"), QStringLiteral("create-blocks-from"), QStringLiteral("openmetrics"), om.fileName(),
                                 m_dir.filePath(QStringLiteral("data")) });
        if (!tool.waitForFinished(60000) || tool.exitCode() != 0) {
            m_error = QStringLiteral("promtool failed: ") + QString::fromUtf8(tool.readAllStandardError());
            return;
        }
        // A free port: bound by us, released, then given to prometheus (a race only with
        // another process taking the same port in between).
        const int port = freePort();
        if (port <= 0) {
            m_error = QStringLiteral("no free port");
            return;
        }
        const QString address = QStringLiteral("127.0.0.1:%1").arg(port);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(prometheus, { QStringLiteral("--config.file=") + config.fileName(),
                                        QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                                        QStringLiteral("--web.listen-address=") + address, QStringLiteral("--log.level=warn") });
        if (!m_process.waitForStarted(10000)) {
            m_error = QStringLiteral("prometheus did not start: ") + m_process.errorString();
            return;
        }
        // Ready when /-/ready answers 200.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            if (m_process.state() != QProcess::Running) {
                m_error = QStringLiteral("prometheus exited: ") + QString::fromUtf8(m_process.readAll());
                return;
            }
            try {
                fleet::importers::kube::ResolvedKubeconfig c;
                c.cluster.server = "http://" + address.toStdString();
                fleet::importers::kube::KubeApiClient http(c);
                if (http.get("/-/ready").status == 200) {
                    m_url = QStringLiteral("http://") + address;
                    return;
                }
            } catch (const std::exception&) { // not listening yet
            }
            QThread::msleep(100);
        }
        m_error = QStringLiteral("prometheus not ready after 60 s: ") + QString::fromUtf8(m_process.readAll());
    }
    ~PrometheusServer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000))
                m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    PrometheusServer(const PrometheusServer&) = delete;
    PrometheusServer& operator=(const PrometheusServer&) = delete;

    /// "http://127.0.0.1:PORT", or empty when the server could not start.
    [[nodiscard]] const QString& url() const noexcept { return m_url; }
    [[nodiscard]] const QString& error() const noexcept { return m_error; }

private:
    static int freePort()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return -1;
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        int port = -1;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
        ::close(fd);
        return port;
    }
    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_url, m_error;
};
