// SPDX-License-Identifier: Apache-2.0
#include "simulatedialog.h"

#include "importers/simulated/simulatedcluster.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>

namespace fleet::app {

SimulateDialog::SimulateDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Open Simulated Cluster"));
    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName(QStringLiteral("simulateNodes"));
    m_nodes->setRange(1, kMaximumNodes);
    m_nodes->setSingleStep(1000);
    m_nodes->setGroupSeparatorShown(true);
    m_nodes->setValue(100'000);
    // Wide enough for "10,000,000" (a 7th digit was once cut off by the field).
    m_nodes->setMinimumWidth(m_nodes->fontMetrics().horizontalAdvance(QStringLiteral("10,000,000")) + 48);
    m_nodes->setToolTip(tr("1 to %L1 nodes; Fleetscope is designed for 100,000.").arg(kMaximumNodes));

    m_seed = new QLineEdit(QStringLiteral("1"), this);
    m_seed->setObjectName(QStringLiteral("simulateSeed"));
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,20}")), m_seed));
    m_seed->setToolTip(tr("The same seed and node count give the same cluster."));

    m_regions = new QSpinBox(this);
    m_regions->setObjectName(QStringLiteral("simulateRegions"));
    m_regions->setRange(1, static_cast<int>(importers::kMaxSimulatedRegions));
    m_regions->setValue(1);
    m_regions->setToolTip(tr("1: one regional cluster (us-west-2 and its zones), as any Kubernetes cluster is. "
                             "More regions are several clusters' worth of nodes, for map scale tests, not one cluster a plan can act on."));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_seed, &QLineEdit::textChanged, this, &SimulateDialog::updateOk);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Nodes:"), m_nodes);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("&Regions:"), m_regions);
    form->addRow(m_buttons);
    updateOk();
}

std::size_t SimulateDialog::nodeCount() const
{
    return static_cast<std::size_t>(m_nodes->value());
}

std::uint64_t SimulateDialog::seed() const
{
    return m_seed->text().toULongLong();
}

void SimulateDialog::setNodeCount(std::size_t nodes)
{
    m_nodes->setValue(static_cast<int>(std::min<std::size_t>(nodes, kMaximumNodes)));
}

void SimulateDialog::setSeed(std::uint64_t seed)
{
    m_seed->setText(QString::number(seed));
}

std::size_t SimulateDialog::regionCount() const
{
    return static_cast<std::size_t>(m_regions->value());
}

void SimulateDialog::setRegionCount(std::size_t regions)
{
    m_regions->setValue(static_cast<int>(std::min<std::size_t>(regions, importers::kMaxSimulatedRegions)));
}

bool SimulateDialog::seedIsValid() const
{
    bool ok = false;
    m_seed->text().toULongLong(&ok);
    return ok;
}

void SimulateDialog::updateOk()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(seedIsValid());
}

} // namespace fleet::app
