// SPDX-License-Identifier: Apache-2.0
#include "outputpath.h"

#include <QFileInfo>

#include <sys/stat.h>

namespace fleet::app {

QString outputPathProblem(const QString& path)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st { };
    if (::stat(native.constData(), &st) == 0) {
        if (S_ISREG(st.st_mode))
            return {}; // replaced as a whole when the image is complete
        const char* kind = S_ISDIR(st.st_mode) ? "a folder"
            : S_ISCHR(st.st_mode)              ? "a character device"
            : S_ISBLK(st.st_mode)              ? "a block device"
            : S_ISFIFO(st.st_mode)             ? "a FIFO (named pipe)"
            : S_ISSOCK(st.st_mode)             ? "a socket"
                                               : "not a regular file";
        return QStringLiteral("%1 is %2, not a regular file: give a file name for the PNG").arg(path, QLatin1String(kind));
    }
    const QFileInfo info(path);
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists())
        return QStringLiteral("cannot write %1: the folder %2 does not exist").arg(path, folder.filePath());
    if (!folder.isDir())
        return QStringLiteral("cannot write %1: %2 is not a folder").arg(path, folder.filePath());
    if (!folder.isWritable())
        return QStringLiteral("cannot write %1: the folder %2 is not writable").arg(path, folder.filePath());
    return {};
}

} // namespace fleet::app
