// SPDX-License-Identifier: Apache-2.0
#include "textfieldundo.h"

#include <QAbstractItemView>
#include <QAction>
#include <QCompleter>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>

namespace fleet::app {

namespace {

bool matches(const QAction* action, const QKeySequence& key)
{
    if (!action)
        return false;
    for (const QKeySequence& s : action->shortcuts())
        if (s == key)
            return true;
    return false;
}

} // namespace

TextFieldUndo::TextFieldUndo(QAction* undo, QAction* redo, QObject* parent)
    : QObject(parent)
    , m_undo(undo)
    , m_redo(redo)
{
    qApp->installEventFilter(this);
}

TextFieldUndo::~TextFieldUndo()
{
    qApp->removeEventFilter(this);
}

bool TextFieldUndo::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
        return false;
    auto* edit = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    if (!edit || edit->isReadOnly() || !edit->isEnabled())
        return false;
    // Only the event sent to the field itself, or to its completion popup while that is open
    // (it has the keyboard, and QCompleter hands the keys to the field without an event
    // filter seeing them): not the window's copy, nor the map's native window, which forwards
    // key events to the field.
    if (watched != edit && !(edit->completer() && watched == edit->completer()->popup()))
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const QKeySequence sequence(key->keyCombination());
    const bool undo = matches(m_undo, sequence);
    if (!undo && !matches(m_redo, sequence))
        return false;
    // A field holding no typed text its own undo could take back (emptied by its clear
    // button, or given the focus back after a dialog) leaves the keys to Edit > Undo / Redo,
    // the plan's: kept from the field, the key fires the window's shortcut.
    if (edit->text().isEmpty() || !(undo ? edit->isUndoAvailable() : edit->isRedoAvailable())) {
        if (event->type() != QEvent::ShortcutOverride)
            return false;
        key->ignore();
        return true;
    }
    if (event->type() == QEvent::ShortcutOverride) {
        key->accept(); // the field takes the key: no shortcut fires, a KeyPress follows
        return true;
    }
    if (undo)
        edit->undo();
    else
        edit->redo();
    key->accept();
    return true;
}

} // namespace fleet::app
