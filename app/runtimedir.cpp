#include "runtimedir.h"

#include <QDir>

#include <cstdlib>

namespace fleet::app {

PrivateRuntimeDir::PrivateRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    QByteArray base = qgetenv("TMPDIR");
    if (base.isEmpty())
        base = "/tmp";
    QByteArray pattern = base + "/fleetscope-runtime-XXXXXX";
    // mkdtemp creates the folder with mode 0700, owned by us: what Qt checks.
    if (::mkdtemp(pattern.data()) == nullptr)
        return; // Qt falls back to its own warning; nothing to clean up
    m_path = pattern;
    qputenv("XDG_RUNTIME_DIR", m_path);
}

PrivateRuntimeDir::~PrivateRuntimeDir()
{
    if (m_path.isEmpty())
        return;
    QDir(QString::fromLocal8Bit(m_path)).removeRecursively();
    qunsetenv("XDG_RUNTIME_DIR");
}

} // namespace fleet::app
