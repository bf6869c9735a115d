// SPDX-License-Identifier: Apache-2.0
#pragma once
// A PDF read back the way a reader's tools read it, with Debian's poppler-utils: its text
// (pdftotext -layout) with thousands separators taken out, so that its figures compare with JSON
// numbers, and its page count (pdfinfo). Thread: the test's. Each call runs a process and waits
// for it (at most 120 s).

#include <QByteArray>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace fleet::tests {

/// Runs `program` with `args` and returns its standard output. `exitCode`, when given, receives
/// the exit code, or -1 when the program did not start, did not finish in 120 s or crashed.
inline QByteArray runTool(const QString& program, const QStringList& args, int* exitCode = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(program, args);
    if (!p.waitForStarted(10'000) || !p.waitForFinished(120'000)) {
        if (exitCode)
            *exitCode = -1;
        return {};
    }
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput();
}

/// "12,345,678" -> "12345678" wherever digits are grouped by commas.
inline QString withoutThousandsSeparators(QString text)
{
    static const QRegularExpression separator(QStringLiteral("(\\d),(\\d{3})(?!\\d)"));
    QString previous;
    while (previous != text) {
        previous = text;
        text.replace(separator, QStringLiteral("\\1\\2"));
    }
    return text;
}

/// The text of pages [first, last] (1-based; 0: all), layout kept, thousands separators taken out;
/// "" when pdftotext fails.
inline QString pdfText(const QString& pdf, int first = 0, int last = 0)
{
    QStringList args { QStringLiteral("-layout") };
    if (first > 0)
        args << QStringLiteral("-f") << QString::number(first) << QStringLiteral("-l") << QString::number(last);
    args << pdf << QStringLiteral("-");
    return withoutThousandsSeparators(QString::fromUtf8(runTool(QStringLiteral("pdftotext"), args)));
}

/// The page count pdfinfo reads, or -1 when it cannot.
inline int pdfPages(const QString& pdf)
{
    const QString info = QString::fromUtf8(runTool(QStringLiteral("pdfinfo"), { pdf }));
    static const QRegularExpression pages(QStringLiteral("^Pages:\\s+(\\d+)"), QRegularExpression::MultilineOption);
    const auto m = pages.match(info);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace fleet::tests
