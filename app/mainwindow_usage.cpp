// MainWindow's usage metrics (issue 8): the Metric menu's usage section.
#include "mainwindow.h"

#include "importcontroller.h"
#include "model/metrics/usagemetrics.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace fleet::app {

void MainWindow::createUsageMenu(QMenu* metric)
{
    metric->addSeparator();
    struct Entry {
        model::UsageMetricKind kind;
        const char* text;
        const char* name;
    };
    static constexpr Entry kEntries[] = {
        { model::UsageMetricKind::CpuUsed, QT_TR_NOOP("CPU &Used"), "actionMetricCpuUsed" },
        { model::UsageMetricKind::MemoryUsed, QT_TR_NOOP("Memory U&sed"), "actionMetricMemoryUsed" },
        { model::UsageMetricKind::GpuUsed, QT_TR_NOOP("GPU Uti&lization"), "actionMetricGpuUsed" },
        { model::UsageMetricKind::GpuIdle, QT_TR_NOOP("Allocated but &Idle GPUs"), "actionMetricGpuIdle" },
    };
    for (const Entry& e : kEntries) {
        const QString id = QString::fromLatin1(model::usageMetricId(e.kind));
        QAction* a = metric->addAction(tr(e.text));
        a->setCheckable(true);
        a->setObjectName(QLatin1String(e.name));
        m_metricGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, id] { setMetric(id); });
        m_metricActions.insert(id, a);
        m_usageActions << a;
    }
    updateUsageMenu();
}

void MainWindow::updateUsageMenu()
{
    const bool has = m_cluster && m_cluster->usage;
    const QString tip = has ? tr("Usage from %1").arg(QString::fromStdString(m_cluster->usage->source))
                            : tr("No usage for this cluster: the simulated cluster has its own; files and live lists need a usage source");
    for (QAction* a : m_usageActions) {
        a->setEnabled(has);
        a->setToolTip(tip);
    }
    model::UsageMetricKind kind;
    if (model::usageMetricKind(m_metricId.toStdString(), kind)) {
        if (has)
            applyMetric(); // the same id over the new cluster's usage
        else
            setMetric(QStringLiteral("gpu"));
    }
}

std::shared_ptr<const model::Metric> MainWindow::usageMetricFor(const QString& id) const
{
    model::UsageMetricKind kind;
    if (!m_cluster || !m_cluster->usage || !model::usageMetricKind(id.toStdString(), kind))
        return nullptr;
    return model::makeUsageMetric(m_cluster->usage, kind);
}

} // namespace fleet::app
