// SPDX-License-Identifier: Apache-2.0
#include "filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace fleet::app {

QString lastFileFolder()
{
    const QString folder = QSettings().value(QLatin1String(kLastFileFolderKey)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

void rememberFileFolder(const QString& file)
{
    if (file.isEmpty())
        return;
    QSettings().setValue(QLatin1String(kLastFileFolderKey), QFileInfo(file).absolutePath());
}

QString fileDialogStart(const QString& suggested)
{
    if (QFileInfo(suggested).isAbsolute())
        return suggested;
    const QString folder = lastFileFolder();
    if (folder.isEmpty())
        return suggested;
    return suggested.isEmpty() ? folder : QDir(folder).filePath(suggested);
}

QString askSaveFileName(QWidget* parent, const QString& caption, const QString& suggested, const QString& filter)
{
    const QString path = QFileDialog::getSaveFileName(parent, caption, fileDialogStart(suggested), filter);
    rememberFileFolder(path);
    return path;
}

QString askOpenFileName(QWidget* parent, const QString& caption, const QString& filter)
{
    const QString path = QFileDialog::getOpenFileName(parent, caption, lastFileFolder(), filter);
    rememberFileFolder(path);
    return path;
}

QStringList askOpenFileNames(QWidget* parent, const QString& caption, const QString& filter)
{
    const QStringList paths = QFileDialog::getOpenFileNames(parent, caption, lastFileFolder(), filter);
    if (!paths.isEmpty())
        rememberFileFolder(paths.front());
    return paths;
}

} // namespace fleet::app
