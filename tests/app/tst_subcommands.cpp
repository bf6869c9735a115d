// SPDX-License-Identifier: Apache-2.0
// The subcommand table (app/cli/subcommands.h) against the real program: every verb in it runs
// (its --help exits 0 and names it), --help lists every usage line of the table, each verb's
// own --help starts with its line of the table, and a word that is not a verb still opens the
// window's parser (which refuses an unknown option).

#include "app/cli/subcommands.h"
#include "fleetscoperun.h"

#include <QtTest>

using namespace fleet::app;
using fleet::tests::runFleetscope;

class TstSubcommands : public QObject {
    Q_OBJECT
private slots:
    void tableIsWellFormed()
    {
        QVERIFY(!subcommands().empty());
        QStringList names;
        for (const Subcommand& s : subcommands()) {
            const QString name = QString::fromUtf8(s.name);
            QVERIFY2(!names.contains(name), qPrintable("duplicate verb " + name));
            names << name;
            QVERIFY2((s.run == nullptr) != (s.runOwnApplication == nullptr), s.name);
            for (const QString& line : QString::fromUtf8(s.usage).split(QLatin1Char('\n')))
                QVERIFY2(line.startsWith(QStringLiteral("fleetscope ") + name + QLatin1Char(' ')), qPrintable(line));
            QCOMPARE(findSubcommand(s.name), &s);
        }
        QCOMPARE(findSubcommand("no-such-verb"), nullptr);
        QCOMPARE(findSubcommand(""), nullptr);
    }

    void helpListsEveryUsageLine()
    {
        const auto r = runFleetscope({ QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out).simplified();
        for (const Subcommand& s : subcommands())
            for (const QString& line : QString::fromUtf8(s.usage).split(QLatin1Char('\n')))
                QVERIFY2(out.contains(line.simplified()), qPrintable("--help lacks: " + line));
    }

    void everyVerbRuns_data()
    {
        QTest::addColumn<QString>("verb");
        for (const Subcommand& s : subcommands())
            QTest::newRow(s.name) << QString::fromUtf8(s.name);
    }
    void everyVerbRuns()
    {
        QFETCH(QString, verb);
        const auto r = runFleetscope({ verb, QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QString::fromUtf8(r.out).contains(verb), r.out.constData());
    }

    // Each verb's own --help prints the table's usage of it (subcommandUsage()), form by form
    // for a verb of several forms (`plan check --help`, ...): one text, so the two cannot drift.
    void everyVerbsHelpPrintsItsTableUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("usage");
        for (const Subcommand& s : subcommands()) {
            const QStringList lines = QString::fromUtf8(s.usage).split(QLatin1Char('\n'));
            for (const QString& line : lines) {
                // "fleetscope VERB [FORM] ...": a verb of several forms takes its form's word.
                const QStringList words = line.split(QLatin1Char(' '));
                QStringList arguments { words.at(1) };
                if (lines.size() > 1)
                    arguments << words.at(2);
                arguments << QStringLiteral("--help");
                QTest::newRow(qPrintable(arguments.mid(0, arguments.size() - 1).join(QLatin1Char(' ')))) << arguments << line;
            }
        }
    }
    void everyVerbsHelpPrintsItsTableUsage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, usage);
        const auto r = runFleetscope(arguments);
        QCOMPARE(r.exitCode, 0);
        const QString firstLine = QString::fromUtf8(r.out).section(QLatin1Char('\n'), 0, 0);
        QCOMPARE(firstLine, QStringLiteral("Usage: ") + usage);
    }

    void usageLookup()
    {
        QCOMPARE(subcommandUsage("summary"), QString::fromUtf8(findSubcommand("summary")->usage));
        QVERIFY(subcommandUsage("plan", "check").startsWith(QStringLiteral("fleetscope plan check ")));
        QVERIFY(!subcommandUsage("plan", "check").contains(QLatin1Char('\n')));
        QVERIFY(subcommandUsage("plan", "add-nodes").startsWith(QStringLiteral("fleetscope plan add-nodes ")));
        QVERIFY(subcommandUsage("plan", "no-such-form").isEmpty());
        QVERIFY(subcommandUsage("no-such-verb").isEmpty());
    }

    void unknownWordIsNotAVerb()
    {
        const auto r = runFleetscope({ QStringLiteral("--no-such-option") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no-such-option"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstSubcommands)
#include "tst_subcommands.moc"
