// SPDX-License-Identifier: Apache-2.0
#pragma once
// The question asked before unsaved work is closed: Save / Discard / Cancel, Save the default
// and Escape cancelling (the order and wording of the platform's own "unsaved changes" box).

#include <QMessageBox>
#include <QString>

class QWidget;

namespace fleet::app {

/// What the box says: its title, the first line, the question under it, and whether Save
/// asks for a file name first (its text then ends with an ellipsis, "Save...").
struct UnsavedChangesQuestion {
    QString objectName; // for tests that find the box among the top-level widgets
    QString title;
    QString text;
    QString question;
    bool saveAsksForName = false;
};

/// Shows the box modally over `parent` and returns QMessageBox::Save, Discard or Cancel
/// (Cancel also when the box is closed). Thread: GUI.
[[nodiscard]] QMessageBox::StandardButton askToSaveChanges(QWidget* parent, const UnsavedChangesQuestion& question);

/// Asks before undone steps that Redo could bring back, and that no saved file holds, go with
/// the plan although it is at its saved state (nothing else to save): a QMessageBox titled
/// "Unsaved Undone Steps" (objectName unsavedRedoBox) saying "2 undone steps that Redo could bring
/// back were never saved.", `question` under it, with Discard and Cancel (the default, and
/// Escape). Saving cannot keep them: a plan file holds the plan shown, not its undo history.
/// True for Discard. Thread: GUI.
[[nodiscard]] bool askToLoseUndoneSteps(QWidget* parent, int steps, const QString& question);

} // namespace fleet::app
