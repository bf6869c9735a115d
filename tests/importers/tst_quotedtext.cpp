// SPDX-License-Identifier: Apache-2.0
// Tests of importers/quotedtext.h: quoting input text in error messages, and telling binary
// files from text by their first bytes.

#include "importers/importreport.h"
#include "importers/quotedtext.h"
#include "importers/terminaltext.h"

#include <QtTest>

#include <string>

using namespace fleet::importers;

Q_DECLARE_METATYPE(std::string)

class TstQuotedText : public QObject {
    Q_OBJECT
private slots:
    void escaped_data();
    void escaped();
    void quotedAddsQuotes();
    void binaryFile_data();
    void binaryFile();
    void terminalTextKeepsOnlyLineBreaks();
    void reportAndErrorsAreEscaped();
};

void TstQuotedText::escaped_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<std::string>("expected");
    const std::string sixty(60, 'a');
    QTest::newRow("plain ASCII") << std::string("openb-node-0001") << 60 << std::string("openb-node-0001");
    QTest::newRow("empty") << std::string() << 60 << std::string();
    QTest::newRow("quotes and backslashes kept") << std::string(R"({"a": "b\"c"})") << 60 << std::string(R"({"a": "b\"c"})");
    QTest::newRow("invalid byte FF") << std::string("node-\xFF-1") << 60 << std::string("node-\\xFF-1");
    QTest::newRow("NUL") << std::string("a\0b", 3) << 60 << std::string("a\\x00b");
    QTest::newRow("ESC sequence") << std::string("\x1b[2J") << 60 << std::string("\\x1B[2J");
    QTest::newRow("tab, CR, LF") << std::string("a\tb\r\nc") << 60 << std::string("a\\x09b\\x0D\\x0Ac");
    QTest::newRow("DEL") << std::string("a\x7f") << 60 << std::string("a\\x7F");
    QTest::newRow("valid two-byte kept") << std::string("caf\xC3\xA9") << 60 << std::string("caf\xC3\xA9");
    QTest::newRow("valid CJK kept") << std::string("\xE8\x8A\x82\xE7\x82\xB9") << 60 << std::string("\xE8\x8A\x82\xE7\x82\xB9");
    QTest::newRow("valid four-byte kept") << std::string("\xF0\x9F\x98\x80") << 60 << std::string("\xF0\x9F\x98\x80");
    QTest::newRow("truncated sequence at the end") << std::string("ab\xE8\x8A") << 60 << std::string("ab\\xE8\\x8A");
    QTest::newRow("lone continuation byte") << std::string("\x80x") << 60 << std::string("\\x80x");
    QTest::newRow("overlong slash") << std::string("\xC0\xAF") << 60 << std::string("\\xC0\\xAF");
    QTest::newRow("overlong three-byte") << std::string("\xE0\x80\xAF") << 60 << std::string("\\xE0\\x80\\xAF");
    QTest::newRow("surrogate D800") << std::string("\xED\xA0\x80") << 60 << std::string("\\xED\\xA0\\x80");
    QTest::newRow("above U+10FFFF") << std::string("\xF4\x90\x80\x80") << 60 << std::string("\\xF4\\x90\\x80\\x80");
    QTest::newRow("C1 control CSI") << std::string("a\xC2\x9B"
                                                   "2J")
                                    << 60 << std::string("a\\xC2\\x9B2J");
    QTest::newRow("right-to-left override") << std::string("a\xE2\x80\xAE"
                                                           "b")
                                            << 60 << std::string("a\\xE2\\x80\\xAEb");
    QTest::newRow("bidi isolate") << std::string("\xE2\x81\xA6") << 60 << std::string("\\xE2\\x81\\xA6");
    QTest::newRow("zero-width space") << std::string("\xE2\x80\x8B") << 60 << std::string("\\xE2\\x80\\x8B");
    QTest::newRow("BOM inside") << std::string("\xEF\xBB\xBFx") << 60 << std::string("\\xEF\\xBB\\xBFx");
    QTest::newRow("en dash kept") << std::string("\xE2\x80\x93") << 60 << std::string("\xE2\x80\x93");
    QTest::newRow("exactly the limit") << sixty << 60 << sixty;
    QTest::newRow("one over the limit") << sixty + "b" << 60 << sixty + "...";
    QTest::newRow("limit counts characters")
        << std::string("\xC3\xA9\xC3\xA9\xC3\xA9") << 2 << std::string("\xC3\xA9\xC3\xA9...");
    QTest::newRow("limit counts escapes") << std::string("\xFF\xFF\xFF") << 2 << std::string("\\xFF\\xFF...");
    QTest::newRow("limit inside an invisible character") << std::string("a\xE2\x80\xAE") << 2 << std::string("a\\xE2...");
}

void TstQuotedText::escaped()
{
    QFETCH(std::string, text);
    QFETCH(int, maxChars);
    QFETCH(std::string, expected);
    const std::string got = escapedText(text, static_cast<std::size_t>(maxChars));
    QCOMPARE(QByteArray::fromStdString(got), QByteArray::fromStdString(expected));
    // Whatever the input, the result is printable, valid UTF-8.
    QVERIFY(QUtf8StringView(got).isValidUtf8());
    for (const char c : got)
        QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F, got.c_str());
}

void TstQuotedText::quotedAddsQuotes()
{
    QCOMPARE(QByteArray::fromStdString(quotedText("2GB")), QByteArray("\"2GB\""));
    QCOMPARE(QByteArray::fromStdString(quotedText(std::string(61, 'x'))), QByteArray("\"" + QByteArray(60, 'x') + "...\""));
    QCOMPARE(QByteArray::fromStdString(quotedText("\xFF", 1)), QByteArray("\"\\xFF\""));
}

void TstQuotedText::binaryFile_data()
{
    QTest::addColumn<std::string>("head");
    QTest::addColumn<QString>("expected"); // empty: text
    const QString tail = ", not kubectl JSON or a trace CSV";
    QTest::newRow("ELF") << std::string("\x7f"
                                        "ELF\x02\x01\x01\0\0\0",
        10) << "binary file (looks like ELF)" + tail;
    QTest::newRow("PNG") << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << "binary file (looks like PNG)" + tail;
    QTest::newRow("zip") << std::string("PK\x03\x04\x14\0\0\0", 8) << "binary file (looks like zip)" + tail;
    QTest::newRow("empty zip") << std::string("PK\x05\x06\0\0", 6) << "binary file (looks like zip)" + tail;
    QTest::newRow("gzip") << std::string("\x1f\x8b\x08\0", 4) << "binary file (looks like gzip)" + tail;
    QTest::newRow("xz") << std::string("\xFD"
                                       "7zXZ\0\0",
        7) << "binary file (looks like xz)" + tail;
    QTest::newRow("zstd") << std::string("\x28\xB5\x2F\xFD\x24", 5) << "binary file (looks like zstd)" + tail;
    QTest::newRow("NUL after text") << std::string("{\"kind\": \"List\"\0", 16) << "binary file (it holds NUL bytes)" + tail;
    QTest::newRow("NUL at byte 4095") << std::string(4095, ' ') + std::string(1, '\0')
                                      << "binary file (it holds NUL bytes)" + tail;
    QTest::newRow("NUL at byte 4096 not looked at") << std::string(4096, ' ') + std::string(1, '\0') << QString();
    // An SQLite file: another application's database, or a .fleet document cut short.
    {
        std::string database = std::string("SQLite format 3\0", 16) + std::string(84, '\0');
        QTest::newRow("SQLite, application_id 0") << database
            << "a SQLite database that is not a Fleetscope document (application_id 0x00000000; a .fleet document has 0x46534350 \"FSCP\")" + tail;
        database.replace(68, 4, "ABCD");
        QTest::newRow("SQLite, application_id ABCD") << database
            << "a SQLite database that is not a Fleetscope document (application_id 0x41424344; a .fleet document has 0x46534350 \"FSCP\")" + tail;
        QTest::newRow("SQLite header cut at 50 bytes") << database.substr(0, 50)
            << "a truncated Fleetscope document (it ends after 50 bytes, inside SQLite's 100-byte header)" + tail;
    }
    QTest::newRow("UTF-16LE BOM") << std::string("\xFF\xFE{\0", 4) << "UTF-16 text";
    QTest::newRow("UTF-16BE BOM") << std::string("\xFE\xFF\0{", 4) << "UTF-16 text";
    QTest::newRow("JSON") << std::string("{\"kind\": \"List\"}") << QString();
    QTest::newRow("UTF-8 BOM and CSV") << std::string("\xEF\xBB\xBFsn,cpu_milli") << QString();
    QTest::newRow("invalid UTF-8 is text here") << std::string("sn\xFF,x") << QString();
    QTest::newRow("empty") << std::string() << QString();
    QTest::newRow("PK as text") << std::string("PKG,version") << QString();
}

void TstQuotedText::binaryFile()
{
    QFETCH(std::string, head);
    QFETCH(QString, expected);
    const auto message = binaryFileMessage(head);
    if (expected.isEmpty()) {
        QVERIFY2(!message, message ? message->c_str() : "");
        return;
    }
    QVERIFY(message.has_value());
    QVERIFY2(QString::fromStdString(*message).startsWith(expected), message->c_str());
}

// terminalLine() escapes line breaks too; terminalLines() keeps them and escapes the rest.
void TstQuotedText::terminalTextKeepsOnlyLineBreaks()
{
    QCOMPARE(fleet::importers::terminalLine("a\x1b[2J\r\nb\x07"), std::string("a\\x1B[2J\\x0D\\x0Ab\\x07"));
    QCOMPARE(fleet::importers::terminalLines("one\x1b]0;t\x07\ntwo\r\n"), std::string("one\\x1B]0;t\\x07\ntwo\\x0D\n"));
    QCOMPARE(fleet::importers::terminalLines(""), std::string());
    QCOMPARE(fleet::importers::terminalLineOf("node ", std::string("n\n1"), ": ", 3), std::string("node n\\x0A1: 3"));
    // Escaping twice gives what once gave: a sink may escape what a formatter escaped.
    const std::string once = fleet::importers::terminalLine("x\x1by");
    QCOMPARE(fleet::importers::terminalLine(once), once);
}

// The report's warning sink and ImportError escape what they are given; messageText() passes
// an ImportError's text as it is and makes any other exception's one line.
void TstQuotedText::reportAndErrorsAreEscaped()
{
    fleet::importers::ImportReport report;
    report.warn("pod a\nFORGED\x1b[2J on node b");
    QCOMPARE(report.warnings.back(), std::string("pod a\\x0AFORGED\\x1B[2J on node b"));
    const fleet::importers::ImportError error("f\x1b.json", 3, "items[0]", "bad \"x\x07\"\nsecond line");
    QCOMPARE(std::string(error.what()), std::string("f\\x1B.json:3: items[0]: bad \"x\\x07\"\nsecond line"));
    QCOMPARE(fleet::importers::messageText(error), std::string(error.what()));
    QCOMPARE(fleet::importers::messageText(std::invalid_argument("no node n\nFORGED")), std::string("no node n\\x0AFORGED"));
}

QTEST_GUILESS_MAIN(TstQuotedText)
#include "tst_quotedtext.moc"
