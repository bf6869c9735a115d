#include "app/connectdialog.h"

#include "importers/kube/kubeconfig.h"

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
    auto* note = new QLabel(tr("Fleetscope only reads: it lists and watches nodes, pods, disruption budgets, namespaces and "
                               "persistent volumes (resources/kubernetes/fleetscope-readonly-clusterrole.yaml)."),
                            this);
    note->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));

    auto* form = new QFormLayout;
    form->addRow(tr("Kubeconfig:"), fileRow);
    form->addRow(tr("Context:"), m_context);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(note);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_file, &QLineEdit::editingFinished, this, &ConnectDialog::reload);
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
        const auto request = importers::kube::KubeconfigRequest::fromEnvironment(kubeconfig().toStdString(), {});
        const auto [contexts, current] = importers::kube::listKubeconfigContexts(request);
        for (const std::string& c : contexts)
            m_context->addItem(QString::fromStdString(c));
        const int at = m_context->findText(QString::fromStdString(current));
        if (at >= 0)
            m_context->setCurrentIndex(at);
        if (contexts.empty())
            m_error->setText(tr("This kubeconfig defines no context."));
    } catch (const importers::ImportError& e) {
        m_error->setText(QString::fromStdString(e.what()));
    }
    m_error->setVisible(!m_error->text().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_context->count() > 0);
}

} // namespace fleet::app
