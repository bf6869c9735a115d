// SPDX-License-Identifier: Apache-2.0
#include "helptext.h"

#include <QCommandLineParser>

namespace fleet::app {

QString helpTextWithUsage(const QCommandLineParser& parser, const QString& usage)
{
    QString text = parser.helpText();
    const qsizetype firstLineEnd = text.indexOf(QLatin1Char('\n'));
    return QStringLiteral("Usage: ") + usage + (firstLineEnd < 0 ? QString(QLatin1Char('\n')) : text.mid(firstLineEnd));
}

} // namespace fleet::app
