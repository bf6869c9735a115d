// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the fleet map is coloured by, and the prices its cost metrics use.

#include "views/map/mapmetric.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QMenu;
class QWidget;

namespace fleet::model {
class Metric;
class PriceTable;
}
namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class MetricMenu;
class PlanController;
struct ImportedCluster;

/// The main window's choice of metric and its prices: it owns the id of the metric chosen
/// (m_metricId, "gpu" until another is chosen), the prices in use for the cost metrics and the
/// plan's costs (the shipped table, maybe with the rows of an override file), and the Metric
/// menu's MetricMenu, which it fills. It colours `map` by the chosen metric: the plan's version
/// of it while `plan` has an engine (PlanController::planMetricFor()), the usage version over
/// the shown cluster's usage (`shownCluster`), else the registry's metric. The window calls
/// applyMetric() when the plan changes and updateUsageMenu() when the shown cluster's usage does.
/// Thread: GUI thread.
class MetricSelection : public QObject {
    Q_OBJECT
public:
    /// Fills `menu` (registry metrics, plan differences, usage), loads the shipped prices and
    /// colours `map` by its current metric. `window`: the parent and the menu's dialogs' parent.
    MetricSelection(QWidget* window, QMenu* menu, views::FleetMapView* map, PlanController* plan,
                    std::function<std::shared_ptr<const ImportedCluster>()> shownCluster);

    /// Colours the map by `metric` and checks the matching Metric menu action.
    void setMetric(views::MapMetric metric);
    /// Colours the map by the metric with `id` in model::MetricRegistry::builtin() ("gpu",
    /// "cost", "label:KEY", ...), a plan metric or a usage metric, and checks its menu action.
    /// Returns false, changing nothing, for an unknown id.
    bool setMetric(const QString& id);
    /// Colours the map by the chosen metric again, through its plan-aware version while a plan
    /// exists (after the plan changed: same id, new values).
    void applyMetric();
    /// Prices for the cost metrics: the shipped table with the rows of `overrideFile`
    /// (importers::loadPriceTable(); empty: the shipped table alone). Returns false and sets
    /// `error` ("FILE:LINE:COLUMN: ...") when the file is refused; the prices stay as they were.
    bool setPriceOverrideFile(const QString& overrideFile, QString& error);
    /// Enables the Metric menu's usage section when the shown cluster has usage, and recolours
    /// a usage metric over the new usage (or falls back to GPU requested).
    void updateUsageMenu();

    /// The prices in use (never null after construction).
    [[nodiscard]] std::shared_ptr<const model::PriceTable> prices() const noexcept { return m_prices; }
    /// The id of the metric chosen ("gpu", "cost", ...; the map may show its plan version).
    [[nodiscard]] QString metricId() const { return m_metricId; }

private:
    /// The usage metric `id` over the shown cluster's usage; null for other ids or no usage.
    [[nodiscard]] std::shared_ptr<const model::Metric> usageMetricFor(const QString& id) const;

    views::FleetMapView* m_map = nullptr;
    PlanController* m_plan = nullptr;
    std::function<std::shared_ptr<const ImportedCluster>()> m_shownCluster;
    MetricMenu* m_menu = nullptr;
    QString m_metricId = QStringLiteral("gpu");
    std::shared_ptr<const model::PriceTable> m_prices;
};

} // namespace fleet::app
