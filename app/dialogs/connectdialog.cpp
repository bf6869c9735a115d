// SPDX-License-Identifier: Apache-2.0
#include "connectdialog.h"

#include "importers/kube/kubeconfig.h"
#include "importers/prometheus/prometheusclient.h"

#include <QFileInfo>
#include <QDir>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace fleet::app {

ConnectDialog::ConnectDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Connect to a Cluster"));
    m_file = new QLineEdit(this);
    m_file->setPlaceholderText(tr("KUBECONFIG or ~/.kube/config, as kubectl reads it"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    m_context = new QComboBox(this);
    m_context->setMinimumContentsLength(24);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #e05050"));
    m_prometheus = new QLineEdit(this);
    m_prometheus->setObjectName(QStringLiteral("prometheusUrl"));
    m_prometheus->setPlaceholderText(tr("optional: http(s)://host:9090, the usage of this cluster (idle GPUs, cpu and memory used)"));
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("prometheusToken"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("optional: sent as Authorization: Bearer"));
    m_prometheusError = new QLabel(this);
    m_prometheusError->setWordWrap(true);
    m_prometheusError->setStyleSheet(QStringLiteral("color: #e05050"));
    m_prometheusError->hide();
    auto* note = new QLabel(tr("Fleetscope only reads: it lists and watches nodes, pods, disruption budgets, namespaces and "
                               "persistent volumes (resources/kubernetes/fleetscope-readonly-clusterrole.yaml)."),
                            this);
    note->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));

    auto* form = new QFormLayout;
    form->addRow(tr("Kubeconfig:"), fileRow);
    form->addRow(tr("Context:"), m_context);
    form->addRow(tr("Prometheus:"), m_prometheus);
    form->addRow(tr("Bearer token:"), m_token);
    form->addRow(QString(), m_prometheusError);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(note);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_file, &QLineEdit::editingFinished, this, &ConnectDialog::reload);
    connect(m_prometheus, &QLineEdit::textChanged, this, &ConnectDialog::updateOk);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Kubeconfig"), m_file->text());
        if (!path.isEmpty())
            setKubeconfig(path);
    });
    reload();
}

QString ConnectDialog::kubeconfig() const { return m_file->text().trimmed(); }

QString ConnectDialog::context() const { return m_context->currentText(); }

void ConnectDialog::setKubeconfig(const QString& path)
{
    m_file->setText(path);
    reload();
}

void ConnectDialog::reload()
{
    m_context->clear();
    m_error->clear();
    try {
        auto request = importers::kube::KubeconfigRequest::fromEnvironment(kubeconfig().toStdString(), {});
        request.input = importers::kube::KubeconfigInput::WindowDialog; // errors name this dialog's fields
        const auto [contexts, current] = importers::kube::listKubeconfigContexts(request);
        for (const std::string& c : contexts)
            m_context->addItem(QString::fromStdString(c));
        const int at = m_context->findText(QString::fromStdString(current));
        if (at >= 0)
            m_context->setCurrentIndex(at);
        // No file at all reads as a file with no context: say which it is, and where we looked.
        const bool noFile = kubeconfig().isEmpty() && qEnvironmentVariableIsEmpty("KUBECONFIG")
            && !QFileInfo::exists(QDir::home().filePath(QStringLiteral(".kube/config")));
        if (contexts.empty())
            m_error->setText(noFile ? tr("No kubeconfig found: KUBECONFIG is not set and %1 does not exist. Choose a kubeconfig file above.")
                                          .arg(QDir::toNativeSeparators(QDir::home().filePath(QStringLiteral(".kube/config"))))
                                    : tr("This kubeconfig defines no context."));
    } catch (const importers::ImportError& e) {
        m_error->setText(QString::fromStdString(e.what()));
    }
    m_error->setVisible(!m_error->text().isEmpty());
    updateOk();
}

void ConnectDialog::updateOk()
{
    m_prometheusError->clear();
    const QString url = m_prometheus->text().trimmed();
    if (!url.isEmpty()) {
        try {
            importers::prometheus::PrometheusClient check({ url.toStdString(), {}, {}, false }); // parses, connects to nothing
        } catch (const importers::ImportError& e) {
            m_prometheusError->setText(QString::fromStdString(e.what()));
        }
    }
    m_prometheusError->setVisible(!m_prometheusError->text().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_context->count() > 0 && m_prometheusError->text().isEmpty());
}

std::optional<importers::prometheus::UsageSource> ConnectDialog::usageSource() const
{
    const QString url = m_prometheus->text().trimmed();
    if (url.isEmpty())
        return std::nullopt;
    importers::prometheus::UsageSource source;
    source.server.baseUrl = url.toStdString();
    source.server.bearerToken = m_token->text().trimmed().toStdString();
    return source;
}

} // namespace fleet::app
