// SPDX-License-Identifier: Apache-2.0
#pragma once
// Undo and Redo keys in a text field edit the field, never the plan.

#include <QObject>
#include <QPointer>

class QAction;
class QLineEdit;

namespace fleet::app {

/// Keeps Edit > Undo and Redo's shortcuts (Ctrl+Z; Ctrl+Shift+Z and Ctrl+Y) for the focused
/// text field while one has the keyboard: the search, the filter, the inspector's pod filter.
/// A desktop's rule (GNOME HIG, KDE HIG, Qt's own QLineEdit): Undo in a field undoes the typing
/// there; only outside a field does it undo the document's (here: the plan's) last step. Qt's
/// QLineEdit claims only the platform's standard sequences (QKeySequence::Undo and ::Redo: on X11
/// Ctrl+Z and Ctrl+Shift+Z), so any other shortcut of the two actions (Ctrl+Y) went to the plan
/// while the user typed. Installed on the application: for a ShortcutOverride of one of the two
/// actions' shortcuts while an enabled, writable QLineEdit has the focus it claims the key for the
/// field (also while its completion popup is open), and on the KeyPress that follows it calls the
/// field's undo() or redo(). A field whose text is empty, or whose own undo (redo) has nothing
/// to take back, keeps the keys from itself so that the plan's Undo / Redo act. The native
/// render window of the map forwards key events to the focus widget (views/vtk), so the same
/// holds while it holds the X focus. Thread: GUI thread.
class TextFieldUndo : public QObject {
    Q_OBJECT
public:
    /// `undo` and `redo`: the window's Edit > Undo and Redo (their shortcuts are read at each key).
    TextFieldUndo(QAction* undo, QAction* redo, QObject* parent);
    ~TextFieldUndo() override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointer<QAction> m_undo;
    QPointer<QAction> m_redo;
};

} // namespace fleet::app
