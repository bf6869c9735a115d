// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Connect: which kubeconfig and which of its contexts to connect to, and optionally the
// Prometheus its usage comes from.

#include "importers/prometheus/usagequery.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace fleet::app {

/// Lists the contexts of a kubeconfig as kubectl reads it (the file typed, or KUBECONFIG's
/// files merged, or ~/.kube/config: importers::kube::listKubeconfigContexts), the current
/// context first chosen. A kubeconfig that cannot be read shows its error (file, line, what) and
/// leaves OK disabled; so does one without contexts. A Prometheus base URL (and its bearer
/// token, optional) makes the connection's usage (cpu and memory used, GPU utilization,
/// allocated-but-idle GPUs) come from that Prometheus, for this connection only: a URL that is
/// not http(s)://host[:port][/prefix] (PrometheusClient's rule) shows why and leaves OK
/// disabled. Nothing is contacted until OK. Thread: GUI thread (it reads small local files only).
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    /// The kubeconfig file as typed (empty: KUBECONFIG or ~/.kube/config).
    [[nodiscard]] QString kubeconfig() const;
    /// The context chosen.
    [[nodiscard]] QString context() const;
    /// Sets the file and lists its contexts again.
    void setKubeconfig(const QString& path);
    /// The connection's usage source: the Prometheus typed, with the default queries and the
    /// current time; nullopt when no URL is typed (the usage then is metrics-server's, if any).
    [[nodiscard]] std::optional<importers::prometheus::UsageSource> usageSource() const;

    [[nodiscard]] QLineEdit* fileField() const noexcept { return m_file; }
    [[nodiscard]] QComboBox* contextField() const noexcept { return m_context; }
    [[nodiscard]] QLabel* errorLabel() const noexcept { return m_error; }
    [[nodiscard]] QDialogButtonBox* buttons() const noexcept { return m_buttons; }
    [[nodiscard]] QLineEdit* prometheusField() const noexcept { return m_prometheus; }
    [[nodiscard]] QLineEdit* tokenField() const noexcept { return m_token; }
    /// Why the Prometheus URL is refused, or "" (none typed, or a good one).
    [[nodiscard]] QLabel* prometheusErrorLabel() const noexcept { return m_prometheusError; }

private:
    void reload();
    void updateOk();

    QLineEdit* m_file = nullptr;
    QComboBox* m_context = nullptr;
    QLabel* m_error = nullptr;
    QLineEdit* m_prometheus = nullptr;
    QLineEdit* m_token = nullptr;
    QLabel* m_prometheusError = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace fleet::app
