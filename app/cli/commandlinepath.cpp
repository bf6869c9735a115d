// SPDX-License-Identifier: Apache-2.0
#include "commandlinepath.h"

#include <QByteArray>
#include <QFile>

#include <vector>

namespace fleet::app {

namespace {
std::vector<QByteArray>& rememberedArguments()
{
    static std::vector<QByteArray> arguments;
    return arguments;
}
} // namespace

void rememberCommandLine(int argc, const char* const* argv)
{
    std::vector<QByteArray>& arguments = rememberedArguments();
    arguments.clear();
    for (int i = 1; i < argc; ++i)
        arguments.emplace_back(argv[i]);
}

std::string commandLinePath(const QString& value)
{
    // Decoded as QCoreApplication::arguments() decodes argv.
    for (const QByteArray& raw : rememberedArguments()) {
        if (QString::fromLocal8Bit(raw) == value)
            return raw.toStdString();
        // --option=VALUE: an option's name has no '=', so its value starts after the first one.
        if (raw.startsWith("--")) {
            const qsizetype equals = raw.indexOf('=');
            if (equals > 0) {
                const QByteArray tail = raw.mid(equals + 1);
                if (QString::fromLocal8Bit(tail) == value)
                    return tail.toStdString();
            }
        }
    }
    return QFile::encodeName(value).toStdString();
}

} // namespace fleet::app
