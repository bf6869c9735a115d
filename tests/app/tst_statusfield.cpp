// SPDX-License-Identifier: Apache-2.0
// StatusField: the longest variant that fits, then the shortest elided in the middle; never wider
// than asked; the whole text in its tooltip.

#include "app/window/statusfield.h"

#include <QApplication>
#include <QFontMetrics>
#include <QtTest>

using fleet::app::StatusField;

class TestStatusField : public QObject {
    Q_OBJECT
private slots:
    void fitText_data();
    void fitText();
    void widget();
    void sentenceElidedAtItsEnd();
};

namespace {
const QStringList kVariants { QStringLiteral("Nodes 100,000 (99,000 ready) | GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores"),
    QStringLiteral("Nodes 100,000 | GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores"),
    QStringLiteral("GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores") };
}

void TestStatusField::fitText_data()
{
    QTest::addColumn<int>("extraPx"); // width = the width of variant `base` + extraPx
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("expected"); // index of the variant shown, -1 for the last one elided
    QTest::newRow("all fits") << 0 << 0 << 0;
    QTest::newRow("wide") << 500 << 0 << 0;
    QTest::newRow("one pixel short of the full") << -1 << 0 << 1;
    QTest::newRow("second exactly") << 0 << 1 << 1;
    QTest::newRow("third") << 0 << 2 << 2;
    QTest::newRow("below the shortest: elided") << -1 << 2 << -1;
}

void TestStatusField::fitText()
{
    QFETCH(int, extraPx);
    QFETCH(int, base);
    QFETCH(int, expected);
    const QFontMetrics fm(QApplication::font());
    const int width = fm.horizontalAdvance(kVariants[base]) + extraPx;
    const QString shown = StatusField::fitText(kVariants, fm, width);
    QVERIFY2(fm.horizontalAdvance(shown) <= width, qPrintable(shown));
    if (expected >= 0) {
        QCOMPARE(shown, kVariants[expected]);
    } else {
        // Elided in the middle: the head and the tail of the shortest variant stay.
        const qsizetype cut = shown.indexOf(QChar(0x2026));
        QVERIFY2(cut > 0 && cut < shown.size() - 1, qPrintable(shown));
        QVERIFY2(kVariants.back().startsWith(shown.left(cut)), qPrintable(shown));
        QVERIFY2(kVariants.back().endsWith(shown.mid(cut + 1)), qPrintable(shown));
    }
}

void TestStatusField::sentenceElidedAtItsEnd()
{
    // A sentence reads from its start: cut at its end, never in its middle; whole in the tooltip.
    const QString sentence = QStringLiteral("Live updates resumed; they still wait while the plan has actions, and the actions they make stale are marked.");
    StatusField field;
    field.setElideMode(Qt::ElideRight);
    field.setText(sentence);
    const QFontMetrics fm(field.font());
    field.resize(fm.horizontalAdvance(sentence) / 2, field.sizeHint().height());
    const QString shown = field.displayedText();
    QVERIFY2(shown.size() > 10 && shown.endsWith(QChar(0x2026)), qPrintable(shown));
    QVERIFY2(sentence.startsWith(shown.chopped(1)), qPrintable(shown));
    QVERIFY(fm.horizontalAdvance(shown) <= field.contentsRect().width());
    QCOMPARE(field.toolTipText(), sentence);
    // Variants still come first: the shortest that fits is shown whole.
    field.setVariants({ sentence, QStringLiteral("Live updates resumed.") });
    QCOMPARE(field.displayedText(), QStringLiteral("Live updates resumed."));
    QCOMPARE(StatusField::fitText({ sentence }, fm, fm.horizontalAdvance(sentence) / 3, Qt::ElideRight).chopped(1),
        sentence.left(StatusField::fitText({ sentence }, fm, fm.horizontalAdvance(sentence) / 3, Qt::ElideRight).size() - 1));
}

void TestStatusField::widget()
{
    StatusField field;
    field.setVariants(kVariants);
    QCOMPARE(field.text(), kVariants.front());
    QVERIFY(field.sizeHint().width() > QFontMetrics(field.font()).horizontalAdvance(kVariants.front()));
    QVERIFY(field.minimumSizeHint().width() < QFontMetrics(field.font()).horizontalAdvance(kVariants.back()) / 4);
    field.resize(field.sizeHint());
    QCOMPARE(field.displayedText(), kVariants.front());
    field.resize(QFontMetrics(field.font()).horizontalAdvance(kVariants.back()) + 2, field.height());
    QCOMPARE(field.displayedText(), kVariants.back());
    // Its tooltip: the full text, and once shortened the full text before the field's own tooltip.
    QCOMPARE(field.toolTipText(), kVariants.front());
    field.setToolTip(QStringLiteral("What the figures count"));
    QCOMPARE(field.toolTipText(), kVariants.front() + QStringLiteral("\n\nWhat the figures count"));
    field.resize(field.sizeHint());
    QCOMPARE(field.toolTipText(), QStringLiteral("What the figures count"));
    field.setText(QString());
    QCOMPARE(field.displayedText(), QString());
}

QTEST_MAIN(TestStatusField)
#include "tst_statusfield.moc"
