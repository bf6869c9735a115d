// SPDX-License-Identifier: Apache-2.0
#include "metricmenu.h"

#include "model/metrics/metricregistry.h"
#include "model/metrics/usagemetrics.h"

#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>

namespace fleet::app {

MetricMenu::MetricMenu(QWidget* window, QMenu* menu, std::function<bool(const QString&)> choose)
    : QObject(window)
    , m_window(window)
    , m_menu(menu)
    , m_choose(std::move(choose))
{
    m_group = new QActionGroup(this);
    m_group->setExclusive(true);
}

QAction* MetricMenu::addMetric(const QString& text, const QString& id, const QString& objectName)
{
    QAction* a = m_menu->addAction(text);
    a->setCheckable(true);
    a->setObjectName(objectName);
    m_group->addAction(a);
    connect(a, &QAction::triggered, this, [this, id] { m_choose(id); });
    m_actions.insert(id, a);
    return a;
}

void MetricMenu::addRegistryMetrics()
{
    // Every metric of the registry, in its order, Ctrl+1 onwards; then the predefined
    // label metrics and "Colour by Label..." for any other key.
    struct MenuEntry {
        const char* id;
        const char* text;
        const char* name;
    };
    static constexpr MenuEntry kEntries[] = {
        { "gpu", QT_TR_NOOP("&GPU Requested"), "actionMetricGpu" },
        { "cpu", QT_TR_NOOP("&CPU Requested"), "actionMetricCpu" },
        { "memory", QT_TR_NOOP("&Memory Requested"), "actionMetricMemory" },
        { "gpu-unallocated", QT_TR_NOOP("&Unallocated GPUs"), "actionMetricGpuUnallocated" },
        { "gpu-fragmentation", QT_TR_NOOP("GPU &Fragmentation"), "actionMetricGpuFragmentation" },
        { "cost", QT_TR_NOOP("C&ost per Hour"), "actionMetricCost" },
        { "cost-unallocated", QT_TR_NOOP("Cost of Unallocated &Capacity"), "actionMetricCostUnallocated" },
        { "state", QT_TR_NOOP("Node &State"), "actionMetricState" },
    };
    int shortcut = 0;
    for (const auto& m : model::MetricRegistry::builtin().metrics()) {
        const QString id = QString::fromStdString(m->id());
        QString text = QString::fromStdString(m->title());
        QString name = QStringLiteral("actionMetric_") + id;
        for (const MenuEntry& e : kEntries)
            if (id == QLatin1String(e.id)) {
                text = tr(e.text);
                name = QLatin1String(e.name);
            }
        QAction* a = addMetric(text, id, name);
        if (shortcut < 9)
            a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + shortcut++)));
    }
    m_menu->addSeparator();
    addMetric(tr("Colour by Node &Group"), QStringLiteral("label:eks.amazonaws.com/nodegroup"), QStringLiteral("actionMetricNodeGroup"));
    addMetric(tr("Colour by Capacity &Type"), QStringLiteral("label:eks.amazonaws.com/capacityType"),
        QStringLiteral("actionMetricCapacityType"));
    addMetric(tr("Colour by &Instance Type"), QStringLiteral("label:node.kubernetes.io/instance-type"),
        QStringLiteral("actionMetricInstanceType"));
    m_otherLabel = m_menu->addAction(tr("Colour by &Label\u2026"));
    m_otherLabel->setCheckable(true);
    m_otherLabel->setObjectName(QStringLiteral("actionMetricLabel"));
    m_group->addAction(m_otherLabel);
    connect(m_otherLabel, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString key = QInputDialog::getText(m_window, tr("Colour by Label"),
            tr("Node label key (for example topology.kubernetes.io/zone):"), QLineEdit::Normal, QString(), &ok)
                                .trimmed();
        if (!ok || key.isEmpty() || !m_choose(QStringLiteral("label:") + key))
            m_choose(m_checked); // restore the check mark
    });
}

void MetricMenu::addPlanMetrics()
{
    m_menu->addSeparator();
    struct Entry {
        const char* id;
        const char* text;
    };
    static constexpr Entry kPlanEntries[] = {
        { "plan-diff-gpu", QT_TR_NOOP("Plan Difference: &GPU Requested") },
        { "plan-diff-cpu", QT_TR_NOOP("Plan Difference: C&PU Requested") },
        { "plan-diff-memory", QT_TR_NOOP("Plan Difference: Memor&y Requested") },
    };
    for (const Entry& e : kPlanEntries) {
        const QString id = QLatin1String(e.id);
        QAction* a = addMetric(tr(e.text), id, QStringLiteral("actionMetric_") + id);
        a->setToolTip(tr("The requested share under the plan minus now (red gains, blue loses)"));
    }
}

void MetricMenu::addUsageMetrics()
{
    m_menu->addSeparator();
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
    for (const Entry& e : kEntries)
        m_usageActions << addMetric(tr(e.text), QString::fromLatin1(model::usageMetricId(e.kind)), QLatin1String(e.name));
}

void MetricMenu::setUsageAvailable(bool available, const QString& tip)
{
    for (QAction* a : m_usageActions) {
        a->setEnabled(available);
        a->setToolTip(tip);
    }
}

void MetricMenu::check(const QString& id)
{
    m_checked = id;
    if (QAction* a = m_actions.value(id))
        a->setChecked(true);
    else if (m_otherLabel)
        m_otherLabel->setChecked(true);
}

} // namespace fleet::app
