// SPDX-License-Identifier: Apache-2.0
// Tests of importers/export/exportquoting.h, the one place that quotes input text for exported
// scripts and CSV, against the real readers: bash reads every shell word back to the exact bytes
// (every byte value, and names built to break out of quotes), a comment line holding any of them
// runs nothing, and Python's csv module reads every CSV field back to its cells.

#include "importers/export/exportquoting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace fleet::importers;

Q_DECLARE_METATYPE(std::string)

namespace {

// Names made to escape a quote or a comment: each would touch $PWNED if the shell ran any of it.
std::vector<std::string> hostileNames()
{
    return {
        "plain-node.example",
        "",
        "with space",
        "new\nline; touch \"$PWNED\"",
        "$(touch \"$PWNED\")",
        "`touch \"$PWNED\"`",
        "quote'; touch \"$PWNED\"; echo '",
        "double\"; touch \"$PWNED\"; echo \"",
        "back\\slash\\n\\'",
        "cr\rtouch \"$PWNED\"",
        "semi;touch \"$PWNED\"",
        "--kubeconfig=/dev/null",
        "~root",
        "{a,b}",
        "*",
        "a=b",
        "!$",
        "\x1b]0;title\x07\x1b[2K",
        "\xc3\xa9t\xc3\xa9 \xe2\x80\xae", // UTF-8 and a right-to-left override
        "\xff\xfe",
        "tab\tand\vvertical",
    };
}

QByteArray runProcess(
    const QString& program, const QStringList& args, const QByteArray& input, int* exitCode, const QProcessEnvironment& env = {})
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted(10'000))
        return "cannot start " + program.toUtf8();
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(30'000);
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput() + p.readAllStandardError();
}

} // namespace

class TstExportQuoting : public QObject {
    Q_OBJECT
private slots:
    void shellWordsReadBackExactly();
    void shellWordShapes_data();
    void shellWordShapes();
    void shellWordRefusesNul();
    void commentsRunNothing();
    void csvTextFields_data();
    void csvTextFields();
    void csvReadsBackWithPython();
    void randomNamesRoundTrip();
};

// bash reads each word back to its exact bytes: every single byte 1..255, and the hostile names.
void TstExportQuoting::shellWordsReadBackExactly()
{
    std::vector<std::string> words = hostileNames();
    for (int c = 1; c < 256; ++c)
        words.push_back(std::string("x") + static_cast<char>(c) + "y");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pwned = dir.filePath(QStringLiteral("pwned"));
    std::string script = "printf '%s\\0'";
    for (const std::string& w : words)
        script += " " + shellWord(w);
    script += "\n";
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PWNED"), pwned);
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    int exitCode = 0;
    const QByteArray out
        = runProcess(QStringLiteral("bash"), { QStringLiteral("-s") }, QByteArray::fromStdString(script), &exitCode, env);
    QCOMPARE(exitCode, 0);
    QVERIFY2(!QFile::exists(pwned), "a shell word ran its payload");
    std::string expected;
    for (const std::string& w : words)
        expected += w + '\0';
    QCOMPARE(out.toStdString(), expected);
    // The script shows no raw control character: a reviewer sees every escape.
    for (const char c : script)
        QVERIFY2(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f),
            qPrintable(
                QStringLiteral("raw byte 0x%1 in the script").arg(static_cast<unsigned char>(c), 2, 16, QLatin1Char('0'))));
}

void TstExportQuoting::shellWordShapes_data()
{
    QTest::addColumn<std::string>("word");
    QTest::addColumn<std::string>("expected");
    QTest::newRow("DNS name stays bare") << std::string("ip-10-0-0-1.ec2.internal") << std::string("ip-10-0-0-1.ec2.internal");
    QTest::newRow("URL stays bare") << std::string("https://api.example:6443") << std::string("https://api.example:6443");
    QTest::newRow("empty") << std::string() << std::string("''");
    QTest::newRow("space") << std::string("a b") << std::string("'a b'");
    QTest::newRow("single quote") << std::string("it's") << std::string("'it'\\''s'");
    QTest::newRow("command substitution") << std::string("$(id)") << std::string("'$(id)'");
    QTest::newRow("newline") << std::string("a\nb") << std::string("$'a\\nb'");
    QTest::newRow("quote and CR") << std::string("'\r") << std::string("$'\\'\\r'");
    QTest::newRow("escape byte") << std::string("\x1b[2K") << std::string("$'\\x1b[2K'");
}

void TstExportQuoting::shellWordShapes()
{
    QFETCH(std::string, word);
    QFETCH(std::string, expected);
    QCOMPARE(shellWord(word), expected);
}

void TstExportQuoting::shellWordRefusesNul()
{
    try {
        (void)shellWord(std::string("node-a\0node-b", 13));
        QFAIL("a NUL byte was written as a shell word (bash would read node-a, another node)");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("node-a\\x00node-b") != std::string::npos, e.what());
    }
}

// A comment line holding any name (and every byte) stays one comment: bash runs nothing of it.
void TstExportQuoting::commentsRunNothing()
{
    std::vector<std::string> texts = hostileNames();
    std::string everyByte;
    for (int c = 0; c < 256; ++c)
        everyByte += static_cast<char>(c);
    texts.push_back(everyByte);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pwned = dir.filePath(QStringLiteral("pwned"));
    std::string script;
    for (const std::string& t : texts) {
        const std::string line = shellCommentText(t);
        for (const char c : line)
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f, line.c_str());
        script += "# " + line + "\n";
    }
    QCOMPARE(shellCommentText("a\\b\n\x01"), std::string("a\\\\b\\n\\x01"));
    script += "echo end\n";
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PWNED"), pwned);
    int exitCode = 0;
    const QByteArray out
        = runProcess(QStringLiteral("bash"), { QStringLiteral("-s") }, QByteArray::fromStdString(script), &exitCode, env);
    QCOMPARE(exitCode, 0);
    QCOMPARE(out, QByteArray("end\n"));
    QVERIFY2(!QFile::exists(pwned), "a comment ran its payload");
}

namespace {
// What a CSV reader gets back of csvTextField(text): control characters as \xNN (C1 as
// \xC2\xNN, bidi and invisible characters as the \xNN of their bytes), then a ' before a
// leading =, +, - or @.
std::string csvCell(const std::string& text)
{
    std::string cell;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        char b[16];
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
            && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            std::snprintf(b, sizeof b, "\\xC2\\x%02X", static_cast<unsigned char>(text[++i]));
            cell += b;
        } else if (c < 0x20 || c == 0x7f) {
            std::snprintf(b, sizeof b, "\\x%02X", c);
            cell += b;
        } else if (i + 2 < text.size()
            && ((c == 0xe2 && static_cast<unsigned char>(text[i + 1]) == 0x80
                    && ((static_cast<unsigned char>(text[i + 2]) >= 0x8b && static_cast<unsigned char>(text[i + 2]) <= 0x8f)
                        || (static_cast<unsigned char>(text[i + 2]) >= 0xa8 && static_cast<unsigned char>(text[i + 2]) <= 0xae)))
                || (c == 0xe2 && static_cast<unsigned char>(text[i + 1]) == 0x81 && static_cast<unsigned char>(text[i + 2]) >= 0xa6
                    && static_cast<unsigned char>(text[i + 2]) <= 0xa9)
                || (c == 0xef && static_cast<unsigned char>(text[i + 1]) == 0xbb && static_cast<unsigned char>(text[i + 2]) == 0xbf))) {
            // An invisible or reordering character: the \xNN of its three bytes.
            std::snprintf(b, sizeof b, "\\x%02X\\x%02X\\x%02X", c, static_cast<unsigned char>(text[i + 1]),
                static_cast<unsigned char>(text[i + 2]));
            cell += b;
            i += 2;
        } else {
            cell += text[i];
        }
    }
    const bool trigger = !cell.empty() && std::string("=+-@").find(cell.front()) != std::string::npos;
    return (trigger ? "'" : "") + cell;
}
} // namespace

void TstExportQuoting::csvTextFields_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<std::string>("expected");
    // OWASP's formula triggers: each gets a leading ' (then RFC 4180 quoting where needed).
    QTest::newRow("=") << std::string("=HYPERLINK(\"http://x\")") << std::string("\"'=HYPERLINK(\"\"http://x\"\")\"");
    QTest::newRow("+") << std::string("+1") << std::string("'+1");
    QTest::newRow("-") << std::string("-2+3") << std::string("'-2+3");
    QTest::newRow("@") << std::string("@SUM(1)") << std::string("'@SUM(1)");
    // Control characters are written as \xNN (a CSV may go to a terminal): OWASP's TAB and CR
    // triggers cannot lead a field any more, and no field needs quotes for a line break.
    QTest::newRow("tab") << std::string("\tx") << std::string("\\x09x");
    QTest::newRow("CR") << std::string("\rx") << std::string("\\x0Dx");
    QTest::newRow("NUL") << std::string("\0x", 2) << std::string("\\x00x");
    QTest::newRow("ESC BEL") << std::string("a\x1b[2Jb\x07") << std::string("a\\x1B[2Jb\\x07");
    QTest::newRow("DEL") << std::string("a\x7f") << std::string("a\\x7F");
    QTest::newRow("C1 CSI") << std::string("a\xc2\x9b" "2J") << std::string("a\\xC2\\x9B2J");
    QTest::newRow("not C1: U+00A0") << std::string("a\xc2\xa0") << std::string("a\xc2\xa0");
    // Reordering and invisible characters as the \xNN of their bytes: a spreadsheet would show
    // "web-\u202Egnp.exe" as "web-exe.png".
    QTest::newRow("U+202E RLO") << std::string("web-\xe2\x80\xaegnp.exe") << std::string("web-\\xE2\\x80\\xAEgnp.exe");
    QTest::newRow("U+2066 LRI, U+2069 PDI") << std::string("\xe2\x81\xa6x\xe2\x81\xa9") << std::string("\\xE2\\x81\\xA6x\\xE2\\x81\\xA9");
    QTest::newRow("U+200B ZWSP, U+FEFF") << std::string("a\xe2\x80\x8b" "b\xef\xbb\xbf") << std::string("a\\xE2\\x80\\x8Bb\\xEF\\xBB\\xBF");
    QTest::newRow("U+2028 LS") << std::string("a\xe2\x80\xa8") << std::string("a\\xE2\\x80\\xA8");
    QTest::newRow("not bidi: U+2010 hyphen, U+20AC euro") << std::string("a\xe2\x80\x90\xe2\x82\xac") << std::string("a\xe2\x80\x90\xe2\x82\xac");
    QTest::newRow("= after a control") << std::string("\x1b=1") << std::string("\\x1B=1");
    QTest::newRow("plain") << std::string("web-0") << std::string("web-0");
    QTest::newRow("inner = stays") << std::string("a=b") << std::string("a=b");
    QTest::newRow("comma") << std::string("a,b") << std::string("\"a,b\"");
    QTest::newRow("newline") << std::string("a\nb") << std::string("a\\x0Ab");
    QTest::newRow("newline and comma") << std::string("a\r\n,b") << std::string("\"a\\x0D\\x0A,b\"");
    QTest::newRow("empty") << std::string() << std::string();
}

void TstExportQuoting::csvTextFields()
{
    QFETCH(std::string, text);
    QFETCH(std::string, expected);
    QCOMPARE(csvTextField(text), expected);
}

// Python's csv module (RFC 4180 reader) gives back every cell: the text (control characters as
// \xNN) with its ' prefix when it began with a formula trigger, numbers as numbers.
void TstExportQuoting::csvReadsBackWithPython()
{
    std::vector<std::string> texts = hostileNames();
    for (const char* t : { "=1+1", "+1", "-1", "@A1", "\t=1", "\r=1", "a,\"b\"\r\nc" })
        texts.emplace_back(t);
    std::string csv;
    for (std::size_t i = 0; i < texts.size(); ++i)
        csv += csvNumberField(-static_cast<std::int64_t>(i)) + "," + csvTextField(texts[i]) + "\r\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cells.csv"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(csv));
    f.close();
    // Cells as JSON arrays of byte values (Latin-1 keeps every byte as one code point).
    const QByteArray py
        = "import csv, json, sys\n"
          "with open(sys.argv[1], newline='', encoding='latin-1') as f:\n"
          "    print(json.dumps([[[ord(ch) for ch in cell] for cell in row] for row in csv.reader(f, strict=True)]))\n";
    int exitCode = 0;
    const QByteArray out
        = runProcess(QStringLiteral("python3"), { QStringLiteral("-c"), QString::fromLatin1(py), path }, {}, &exitCode);
    QVERIFY2(exitCode == 0, out.constData());
    const QJsonArray rows = QJsonDocument::fromJson(out).array();
    QCOMPARE(rows.size(), static_cast<qsizetype>(texts.size()));
    auto cell = [&](int row, int column) {
        std::string s;
        for (const QJsonValue& v : rows.at(row).toArray().at(column).toArray())
            s += static_cast<char>(v.toInt());
        return s;
    };
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const int row = static_cast<int>(i);
        QCOMPARE(rows.at(row).toArray().size(), 2);
        QCOMPARE(cell(row, 0), std::to_string(-static_cast<std::int64_t>(i)));
        QCOMPARE(cell(row, 1), csvCell(texts[i]));
    }
}

// A round of generated names (fixed seed, so a failure repeats): bytes drawn mostly from the
// characters that mean something to bash or a spreadsheet. bash reads every word back exactly
// and runs no payload; every comment is one printable line; Python reads every CSV cell back.
void TstExportQuoting::randomNamesRoundTrip()
{
    const std::string special = "\n\r\t\x1b\x7f'\"`$(){}[];&|<>*?~!#\\ =+-@,%^";
    std::mt19937 random(24);
    std::vector<std::string> names;
    for (int i = 0; i < 3000; ++i) {
        std::string name;
        const int length = static_cast<int>(random() % 24);
        for (int j = 0; j < length; ++j) {
            const unsigned r = random() % 4;
            name += r == 0 ? static_cast<char>(1 + random() % 255)
                : r == 1   ? "$(touch \"$PWNED\")"[random() % 17]
                           : special[random() % special.size()];
        }
        names.push_back(name);
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pwned = dir.filePath(QStringLiteral("pwned"));
    std::string script = "printf '%s\\0'", comments, csv, expected;
    for (const std::string& n : names) {
        script += " " + shellWord(n);
        comments += "# " + shellCommentText(n) + "\n";
        csv += csvTextField(n) + "\r\n";
        expected += n + '\0';
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PWNED"), pwned);
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    int exitCode = 0;
    const QByteArray out = runProcess(
        QStringLiteral("bash"), { QStringLiteral("-s") }, QByteArray::fromStdString(comments + script + "\n"), &exitCode, env);
    QCOMPARE(exitCode, 0);
    QVERIFY2(!QFile::exists(pwned), "a generated name ran its payload");
    QCOMPARE(out.toStdString(), expected);
    const QString path = dir.filePath(QStringLiteral("names.csv"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(csv));
    f.close();
    const QByteArray py
        = "import csv, json, sys\n"
          "with open(sys.argv[1], newline='', encoding='latin-1') as f:\n"
          "    print(json.dumps([[[ord(ch) for ch in cell] for cell in row] for row in csv.reader(f, strict=True)]))\n";
    const QByteArray cells
        = runProcess(QStringLiteral("python3"), { QStringLiteral("-c"), QString::fromLatin1(py), path }, {}, &exitCode);
    QVERIFY2(exitCode == 0, cells.constData());
    const QJsonArray rows = QJsonDocument::fromJson(cells).array();
    QCOMPARE(rows.size(), static_cast<qsizetype>(names.size()));
    for (std::size_t i = 0; i < names.size(); ++i) {
        const QJsonArray row = rows.at(static_cast<qsizetype>(i)).toArray();
        std::string cell;
        for (const QJsonValue& v : row.isEmpty() ? QJsonArray() : row.at(0).toArray())
            cell += static_cast<char>(v.toInt());
        const std::string& n = names[i];
        QCOMPARE(row.size(), n.empty() ? 0 : 1); // csv reads an empty line as no cell
        QCOMPARE(cell, csvCell(n));
        QVERIFY(std::none_of(cell.begin(), cell.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }));
    }
    qInfo("%zu generated names: bash read every word back exactly, no payload ran, every CSV cell read back", names.size());
}

QTEST_APPLESS_MAIN(TstExportQuoting)
#include "tst_exportquoting.moc"
