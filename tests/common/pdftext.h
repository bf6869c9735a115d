// SPDX-License-Identifier: Apache-2.0
#pragma once
// A PDF read back the way a reader's tools read it, with Debian's poppler-utils: its text
// (pdftotext -layout) with thousands separators taken out, so that its figures compare with JSON
// numbers, its page count (pdfinfo), its pages as images (pdftoppm) and the images it embeds
// (pdfimages). Thread: the test's. Each call runs a process and waits for it (at most 120 s).

#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <vector>

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

/// "" when every one of `tools` (pdftotext, pdfinfo, pdftoppm, pdfimages) is on the PATH, else
/// which are not and where they come from: for a test's initTestCase().
inline QString missingPopplerTools(std::initializer_list<const char*> tools)
{
    QStringList missing;
    for (const char* tool : tools)
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            missing << QString::fromLatin1(tool);
    return missing.isEmpty() ? QString()
                             : missing.join(QStringLiteral(", "))
            + QStringLiteral(" not found: poppler-utils is not installed (installer/install-deps.sh installs it)");
}

/// The first page (1-based) of `pdf` whose text (pdfText()) holds `text`; 0 when none does.
inline int firstPageWith(const QString& pdf, const QString& text)
{
    const int pages = pdfPages(pdf);
    for (int p = 1; p <= pages; ++p)
        if (pdfText(pdf, p, p).contains(text))
            return p;
    return 0;
}

/// `text` with each run of white space made one space: a paragraph or a cell that wraps reads as
/// the one line it was laid out from (pdftotext ends each of its lines with a line break).
inline QString oneLine(QString text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return text.replace(space, QStringLiteral(" "));
}

/// The PNG files `PREFIX-*.png` beside `prefix` (what pdftoppm and pdfimages wrote), in name
/// order (page order: both number their files with a fixed width), as RGB32 images.
inline std::vector<QImage> imagesWrittenAs(const QString& prefix)
{
    const QFileInfo info(prefix);
    std::vector<QImage> images;
    for (const QString& f : QDir(info.path()).entryList({ info.fileName() + QStringLiteral("-*.png") }, QDir::Files, QDir::Name))
        images.push_back(QImage(info.path() + QLatin1Char('/') + f).convertToFormat(QImage::Format_RGB32));
    return images;
}

/// Pages [first, last] of `pdf` (1-based; 0: all) as images at `dpi` (pdftoppm -png, written as
/// PREFIX-N.png: `prefix` names files no other call writes), in page order; empty when pdftoppm
/// fails.
inline std::vector<QImage> pdfPageImages(const QString& pdf, const QString& prefix, int dpi, int first = 0, int last = 0)
{
    QStringList args { QStringLiteral("-r"), QString::number(dpi), QStringLiteral("-png") };
    if (first > 0)
        args << QStringLiteral("-f") << QString::number(first) << QStringLiteral("-l") << QString::number(last);
    int code = -1;
    runTool(QStringLiteral("pdftoppm"), args << pdf << prefix, &code);
    return code == 0 ? imagesWrittenAs(prefix) : std::vector<QImage>();
}

/// The images embedded in pages [first, last] of `pdf` (1-based; 0: all) at their own pixels
/// (pdfimages -png, written as PREFIX-NNN.png: `prefix` names files no other call writes), in
/// page order; empty when pdfimages fails.
inline std::vector<QImage> pdfEmbeddedImages(const QString& pdf, const QString& prefix, int first = 0, int last = 0)
{
    QStringList args { QStringLiteral("-png") };
    if (first > 0)
        args << QStringLiteral("-f") << QString::number(first) << QStringLiteral("-l") << QString::number(last);
    int code = -1;
    runTool(QStringLiteral("pdfimages"), args << pdf << prefix, &code);
    return code == 0 ? imagesWrittenAs(prefix) : std::vector<QImage>();
}

} // namespace fleet::tests
