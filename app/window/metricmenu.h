// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window's Metric menu: what the fleet map is coloured by.

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QActionGroup;
class QMenu;
class QWidget;

namespace fleet::app {

/// Fills `menu` with one checkable action per metric id, in one exclusive group, and runs
/// `choose` (MainWindow::setMetric(const QString&): false for an unknown id) when one is
/// triggered. The sections, in the order the window adds them: every metric of
/// model::MetricRegistry::builtin() (Ctrl+1 onwards), the predefined label metrics and
/// "Colour by Label…" for any other key (addRegistryMetrics()); the plan differences
/// (addPlanMetrics()); the usage metrics, enabled while the shown cluster has usage
/// (addUsageMetrics(), setUsageAvailable()). To add a metric to the menu: a model::Metric in
/// the registry (it appears by itself), or an entry in one of the sections' tables.
/// Thread: GUI thread.
class MetricMenu : public QObject {
    Q_OBJECT
public:
    MetricMenu(QWidget* window, QMenu* menu, std::function<bool(const QString&)> choose);

    void addRegistryMetrics();
    void addPlanMetrics();
    void addUsageMetrics();
    /// Enables the usage section (the shown cluster has usage) or not; `tip` says from where.
    void setUsageAvailable(bool available, const QString& tip);
    /// Checks the action of metric `id`, or "Colour by Label…" for a metric the menu does not list.
    void check(const QString& id);

private:
    QAction* addMetric(const QString& text, const QString& id, const QString& objectName);

    QWidget* m_window = nullptr;
    QMenu* m_menu = nullptr;
    std::function<bool(const QString&)> m_choose;
    QString m_checked; // the metric id last checked
    QActionGroup* m_group = nullptr;
    QHash<QString, QAction*> m_actions; // by metric id, every action of the menu
    QAction* m_otherLabel = nullptr; // "Colour by Label...": checked for an unlisted label key
    QList<QAction*> m_usageActions;
};

} // namespace fleet::app
