// SPDX-License-Identifier: Apache-2.0
#pragma once
// The table view the exploring panels share: rows selected whole, sortable, compact rows.

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace fleet::views {

/// A read-only QTableView over `model`: sorting on, whole-row single selection, alternating
/// rows, no vertical header, rows one line high, last column stretched. Thread: GUI thread.
[[nodiscard]] QTableView* makePanelTable(QWidget* parent, QAbstractItemModel* model);

} // namespace fleet::views
