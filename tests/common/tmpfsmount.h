// SPDX-License-Identifier: Apache-2.0
#pragma once
// A real, small tmpfs for the tests of what a full disk does to a write (the output writer,
// importers/output/outputfile.h, and every command that writes through it). Mounting needs
// root (CAP_SYS_ADMIN): the tests run as root here and in CI; where mounting is not permitted
// the test fails with the reason, it never skips.

#include <QByteArray>
#include <QDir>
#include <QString>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace fleet::tests {

/// A tmpfs of `sizeBytes` mounted on a fresh temporary folder, unmounted (lazily, so that a
/// failed test's open files do not keep it) and removed by the destructor. isMounted() false
/// means error() says why. Thread: the test's.
class TmpfsMount {
public:
    explicit TmpfsMount(qint64 sizeBytes = 1024 * 1024)
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("cannot make a temporary folder: %1").arg(m_dir.errorString());
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(sizeBytes) + ",mode=0755";
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0, options.constData()) != 0) {
            m_error = QStringLiteral("mount -t tmpfs -o %1 tmpfs %2 failed: %3 (the full-disk tests need root)")
                          .arg(QString::fromLatin1(options), m_dir.path(), QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        m_mounted = true;
    }
    ~TmpfsMount()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    [[nodiscard]] bool isMounted() const { return m_mounted; }
    [[nodiscard]] const QString& error() const { return m_error; }
    [[nodiscard]] QString path() const { return m_dir.path(); }
    [[nodiscard]] QString filePath(const QString& name) const { return m_dir.filePath(name); }

    /// Fills the file system so that exactly `freeBytes` (a multiple of the 4 KiB page) stay
    /// free: a spacer of that size is written, then a filler until the disk says ENOSPC, then
    /// the spacer is removed. A later write larger than `freeBytes` is cut after them, as on a
    /// real disk that fills up mid-write. Returns "" or what went wrong.
    [[nodiscard]] QString fill(qint64 freeBytes)
    {
        const QByteArray page(4096, 'x');
        const QString spacer = filePath(QStringLiteral(".spacer"));
        if (freeBytes > 0) {
            QFile s(spacer);
            if (!s.open(QIODevice::WriteOnly))
                return QStringLiteral("cannot make the spacer: %1").arg(s.errorString());
            for (qint64 left = freeBytes; left > 0; left -= page.size())
                if (s.write(page) != page.size() || !s.flush())
                    return QStringLiteral("the spacer of %1 bytes does not fit").arg(freeBytes);
        }
        const int fd
            = ::open(QFile::encodeName(filePath(QStringLiteral(".filler"))).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            return QStringLiteral("cannot make the filler: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        int error = 0;
        for (;;) {
            if (::write(fd, page.constData(), static_cast<size_t>(page.size())) < 0) {
                error = errno;
                break;
            }
        }
        ::close(fd);
        if (error != ENOSPC)
            return QStringLiteral("the filler stopped with %1, not ENOSPC").arg(QString::fromLocal8Bit(std::strerror(error)));
        if (freeBytes > 0 && !QFile::remove(spacer))
            return QStringLiteral("cannot remove the spacer");
        return {};
    }

    /// The names in the folder other than the filler: what a write left behind.
    [[nodiscard]] QStringList entries() const
    {
        QStringList names = QDir(m_dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        names.removeAll(QStringLiteral(".filler"));
        return names;
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_error;
};

} // namespace fleet::tests
