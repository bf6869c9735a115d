// SPDX-License-Identifier: Apache-2.0
#pragma once
// The node inspector's table of pods, whose rows are dragged onto the fleet map (what-if).

#include <QTableView>

#include <memory>

class QDrag;

namespace fleet::views {

/// A QTableView whose drag shows a small label of the dragged pod beside the pointer, above and
/// to the right of it (the map's tooltip shows below and right), instead of Qt's picture of the
/// whole row under the pointer: the picture covered the map's cell the pod is dropped on and
/// its feasibility ring. Thread: GUI thread.
class PodTableView : public QTableView {
    Q_OBJECT
public:
    /// The gap, in device-independent pixels, between the pointer and the drag label's
    /// bottom-left corner (both ways): the cell under the pointer and its ring stay visible.
    static constexpr int kPointerGapPx = 18;

    explicit PodTableView(QWidget* parent = nullptr);

    /// The drag startDrag() runs for the selected rows (their model's mimeData()): its pixmap
    /// is a label of the first row's namespace and name, its hot spot (-kPointerGapPx, the
    /// label's height + kPointerGapPx). Null when the model gives no data for them.
    [[nodiscard]] std::unique_ptr<QDrag> createDrag();

protected:
    void startDrag(Qt::DropActions supportedActions) override;
};

} // namespace fleet::views
