// SPDX-License-Identifier: Apache-2.0
#pragma once
// The window's file dialogs (File > Open, Open Plan, Save, Save As, Save Plan, Export Report,
// the plan exports, Compare With's Export Changes): each starts in the folder the user last
// chose a file in, in any of them, and remembers the folder of the file chosen. A dialog that
// started in the working folder made the user walk back to the folder just used (user trial).

#include <QString>
#include <QStringList>

class QWidget;

namespace fleet::app {

/// The QSettings key of the folder last used: one for every file dialog of the window (a plan
/// saved beside a cluster is opened from there, a report exported beside them).
inline constexpr const char* kLastFileFolderKey = "fileDialogs/lastFolder";

/// The folder the user last chose a file in with one of these dialogs, when it still exists;
/// else "" (the dialog then starts where Qt's does: the working folder). Thread: GUI thread.
[[nodiscard]] QString lastFileFolder();
/// Remembers the folder of `file` (a file chosen in a dialog; relative to the working folder
/// when relative). Nothing for "". Thread: GUI thread.
void rememberFileFolder(const QString& file);
/// Where a dialog starts: `suggested` as it is when it names a folder (an absolute path: the
/// file saved to before); else the file name `suggested` in lastFileFolder() (just the folder
/// for ""); else `suggested`. Thread: GUI thread.
[[nodiscard]] QString fileDialogStart(const QString& suggested);

/// QFileDialog::getSaveFileName() starting at fileDialogStart(`suggested`); remembers the
/// folder of the file chosen. "" when cancelled. Thread: GUI thread.
[[nodiscard]] QString askSaveFileName(QWidget* parent, const QString& caption, const QString& suggested, const QString& filter);
/// QFileDialog::getOpenFileName() starting in lastFileFolder(); remembers the file's folder.
[[nodiscard]] QString askOpenFileName(QWidget* parent, const QString& caption, const QString& filter);
/// QFileDialog::getOpenFileNames() starting in lastFileFolder(); remembers the first file's folder.
[[nodiscard]] QStringList askOpenFileNames(QWidget* parent, const QString& caption, const QString& filter);

} // namespace fleet::app
