// SPDX-License-Identifier: Apache-2.0
#include "unsavedchangesbox.h"

#include <QAbstractButton>
#include <QCoreApplication>

namespace fleet::app {

QMessageBox::StandardButton askToSaveChanges(QWidget* parent, const UnsavedChangesQuestion& q)
{
    QMessageBox box(QMessageBox::Warning, q.title, q.text, QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setObjectName(q.objectName);
    box.setInformativeText(q.question);
    const auto tr = [](const char* text) { return QCoreApplication::translate("UnsavedChangesBox", text); };
    box.button(QMessageBox::Save)->setText(q.saveAsksForName ? tr("&Save\u2026") : tr("&Save"));
    box.button(QMessageBox::Discard)->setText(tr("&Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("&Cancel"));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    const int choice = box.exec();
    if (choice == QMessageBox::Save || choice == QMessageBox::Discard)
        return static_cast<QMessageBox::StandardButton>(choice);
    return QMessageBox::Cancel;
}

bool askToLoseUndoneSteps(QWidget* parent, int steps, const QString& question)
{
    const auto tr = [](const char* text, int n = -1) { return QCoreApplication::translate("UnsavedChangesBox", text, nullptr, n); };
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Undone Steps"),
        steps == 1 ? tr("1 undone step that Redo could bring back was never saved.")
                   : tr("%1 undone steps that Redo could bring back were never saved.").arg(steps),
        QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setObjectName(QStringLiteral("unsavedRedoBox"));
    box.setInformativeText(question);
    box.button(QMessageBox::Discard)->setText(tr("&Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("&Cancel"));
    box.setDefaultButton(QMessageBox::Cancel);
    box.setEscapeButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Discard;
}

} // namespace fleet::app
