// SPDX-License-Identifier: Apache-2.0
#pragma once
// The filter field: a label selector, "workload:NS/NAME" or "namespace:NS" that dims the
// nodes of the map it does not select.

#include "views/panels/nodefilter.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTimer;

namespace fleet::views {

/// A line edit evaluated (evaluateNodeFilter) on Enter and 300 ms after the last keystroke;
/// emits maskChanged with the mask to give FleetMapView::setNodeMask (null: no filter).
/// A wrong text keeps the last valid mask, outlines the field in red and shows the error
/// under it with the offending character highlighted and a caret (formatFilterError), and on
/// Enter puts the text cursor there; the
/// count of matching nodes shows beside the field. Thread: GUI thread.
class FilterField : public QWidget {
    Q_OBJECT
public:
    explicit FilterField(QWidget* parent = nullptr);

    void setStore(std::shared_ptr<const model::ClusterStore> store);
    /// Evaluates the field's text now (what Enter does) and returns the result.
    NodeFilterResult apply();
    /// Shows an error as apply() would (for a caller that evaluates elsewhere).
    void showError(const QString& message, int position);
    [[nodiscard]] QLineEdit* lineEdit() const noexcept { return m_edit; }
    /// The error as shown (rich text), empty when the text is valid.
    [[nodiscard]] QString errorText() const;
    [[nodiscard]] QString countText() const;

signals:
    void maskChanged(std::shared_ptr<const std::vector<std::uint8_t>> mask);

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    QLineEdit* m_edit = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_error = nullptr;
    QTimer* m_debounce = nullptr;
    QString m_lastApplied;
};

} // namespace fleet::views
