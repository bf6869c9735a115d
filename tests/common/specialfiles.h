// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the output tests make and read around a target (beside tmpfsmount.h, the full disk): a
// file's bytes and mode, and the targets that are not regular files a writer must refuse (a
// FIFO, a folder, a character device, symbolic links to a FIFO or to nothing). Making a device
// node needs root, as the tests run here and in CI. Thread: the test's.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace fleet::tests {

/// The bytes of the file at `path`, or "<unreadable>".
inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

/// Writes `bytes` to `path` (replacing it); false when that failed.
inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

/// st_mode of `path` itself (lstat: a link is a link), or 0 when it does not exist.
inline mode_t modeOf(const QString& path)
{
    struct stat st { };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode : 0;
}

/// Makes at `path` a target that is not a regular file: `kind` "fifo", "folder", "chardev" (the
/// numbers of /dev/null, made here so that the real one is never at risk), "link-to-fifo" (a
/// symbolic link to a FIFO made at `path` + ".target") or "dangling-link" (a symbolic link to
/// `path` + ".target", which does not exist). Returns "" or what went wrong.
inline QString makeSpecialFile(const QString& path, const QString& kind)
{
    const QByteArray native = QFile::encodeName(path);
    const QByteArray target = QFile::encodeName(path + QStringLiteral(".target"));
    int rc = -1;
    if (kind == QLatin1String("fifo"))
        rc = ::mkfifo(native.constData(), 0644);
    else if (kind == QLatin1String("folder"))
        rc = QDir().mkdir(path) ? 0 : -1;
    else if (kind == QLatin1String("chardev"))
        rc = ::mknod(native.constData(), S_IFCHR | 0666, makedev(1, 3));
    else if (kind == QLatin1String("link-to-fifo"))
        rc = ::mkfifo(target.constData(), 0644) == 0 ? ::symlink(target.constData(), native.constData()) : -1;
    else if (kind == QLatin1String("dangling-link"))
        rc = ::symlink(target.constData(), native.constData());
    else
        return QStringLiteral("unknown kind of special file: %1").arg(kind);
    return rc == 0 ? QString() : QStringLiteral("cannot make a %1 at %2: %3").arg(kind, path, QString::fromLocal8Bit(std::strerror(errno)));
}

} // namespace fleet::tests
