// SPDX-License-Identifier: Apache-2.0
#pragma once
// User folders (HOME, the XDG ones) of the test process's own, for tests that write settings
// or a data folder through QStandardPaths (Open Recent, the autosave).

#include <QByteArray>
#include <QFile>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace fleet::testing {

/// A temporary folder, removed when this object goes, as HOME and as each XDG user folder
/// (config, data, state, cache) of this process, with QStandardPaths' test mode on.
///
/// Test mode alone puts the folders under $HOME/.qttest, named after the test executable: two
/// runs of the same test at once (ctest in two checkouts, a CI clone beside a developer's run
/// on one machine) shared them, one run's start removed the other's files, and a window of one
/// offered the other's autosaves back. Call activate() before anything reads the folders (in
/// initTestCase(), before the first QSettings or data folder is used: QSettings keeps the
/// path it saw first). Thread: the main thread, while no other thread reads the environment.
class PrivateUserFolders {
public:
    /// Sets the environment; false when the temporary folder could not be made.
    [[nodiscard]] bool activate()
    {
        if (!m_dir.isValid())
            return false;
        const QByteArray home = QFile::encodeName(m_dir.path());
        qputenv("HOME", home);
        qputenv("XDG_CONFIG_HOME", home + "/.config");
        qputenv("XDG_DATA_HOME", home + "/.local/share");
        qputenv("XDG_STATE_HOME", home + "/.local/state");
        qputenv("XDG_CACHE_HOME", home + "/.cache");
        QStandardPaths::setTestModeEnabled(true);
        return true;
    }
    [[nodiscard]] QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
};

} // namespace fleet::testing
