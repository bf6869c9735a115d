// SPDX-License-Identifier: Apache-2.0
#pragma once

class QLabel;
class QScrollArea;
class QWidget;

namespace fleet::app {

/// Lays out `label` (a dialog's result or note, its text set later) in an area of a fixed
/// height, `lines` lines of the label's font: text that appears, changes or grows never moves
/// the widgets under it. A dialog's buttons moved down when a result showed, so a click meant
/// for one (Close) landed on the next (Place), or on a radio button above them; text longer
/// than the area scrolls in it. The label word-wraps, aligned to the top-left, and keeps its
/// object name, text and selection flags; the area takes the label's minimum width (with room
/// for the scroll bar) and the label wraps at the area's width.
/// Returns the area (parented to `parent`) to add to the layout in the label's place. GUI thread.
QScrollArea* fixedTextArea(QLabel* label, int lines, QWidget* parent);

} // namespace fleet::app
