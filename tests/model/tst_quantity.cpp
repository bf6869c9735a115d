// SPDX-License-Identifier: Apache-2.0
// Tests of model/quantity.h: Kubernetes resource.Quantity parsing, exact and rounded away
// from zero like Quantity.Value() and Quantity.MilliValue().
//
// Expected values follow k8s.io/apimachinery/pkg/api/resource (quantity.go, suffix.go,
// amount.go) and the cases of its quantity_test.go (TestQuantityParse, TestQuantityRoundUp,
// the "invalid" list). Where this parser is deliberately stricter than ParseQuantity
// (no digits at all; values beyond int64), the case says so.

#include "model/quantity.h"

#include "common/units.h"

#include <QtTest>

#include <cstdint>
#include <limits>
#include <string>

using fleet::model::formatMilli;
using fleet::model::parseQuantity;
using fleet::model::parseQuantityMilli;
using fleet::model::QuantityError;

namespace {
constexpr qint64 kMax = std::numeric_limits<std::int64_t>::max();
constexpr qint64 kMin = std::numeric_limits<std::int64_t>::min();
using fleet::testing::kGi;
using fleet::testing::kKi;
using fleet::testing::kMi;
using fleet::testing::kTi;
constexpr qint64 kPi = kTi * 1024;
constexpr qint64 kEi = kPi * 1024;

// Returns what() of the QuantityError thrown by `parse`, or a null string when none was.
template <class Parse> QString errorOf(Parse parse, const QByteArray& text)
{
    try {
        (void)parse(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    } catch (const QuantityError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}
} // namespace

class TestQuantity : public QObject {
    Q_OBJECT

private slots:
    void validForms_data();
    void validForms();
    void milliOutOfRange_data();
    void milliOutOfRange();
    void invalidForms_data();
    void invalidForms();
    void quantityErrorIsInvalidArgument();
    void formatMilli_data();
    void formatMilli();
    void formatBytes_data();
    void formatBytes();
};

// text -> Value() and MilliValue(), both in range.
void TestQuantity::validForms_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("value");
    QTest::addColumn<qint64>("milli");

    // plain numbers and signs
    QTest::newRow("0") << QByteArray("0") << 0LL << 0LL;
    QTest::newRow("-0") << QByteArray("-0") << 0LL << 0LL;
    QTest::newRow("1") << QByteArray("1") << 1LL << 1000LL;
    QTest::newRow("+1") << QByteArray("+1") << 1LL << 1000LL;
    QTest::newRow("-1 (negative parses)") << QByteArray("-1") << -1LL << -1000LL;
    QTest::newRow("leading zeros") << QByteArray("000123") << 123LL << 123000LL;
    QTest::newRow("1.5") << QByteArray("1.5") << 2LL << 1500LL;
    QTest::newRow("0.1 (memory: 1 byte)") << QByteArray("0.1") << 1LL << 100LL;
    QTest::newRow(".5") << QByteArray(".5") << 1LL << 500LL;
    QTest::newRow("5.") << QByteArray("5.") << 5LL << 5000LL;
    QTest::newRow("9.01") << QByteArray("9.01") << 10LL << 9010LL;
    QTest::newRow("0.001") << QByteArray("0.001") << 1LL << 1LL;
    QTest::newRow("0.0005 (milli rounds up)") << QByteArray("0.0005") << 1LL << 1LL;
    QTest::newRow("0.00050 trailing zero") << QByteArray("0.00050") << 1LL << 1LL;
    // negatives round away from zero (TestQuantityRoundUp: -9.01 at scale 0 -> -10)
    QTest::newRow("-9.01") << QByteArray("-9.01") << -10LL << -9010LL;
    QTest::newRow("-1500m") << QByteArray("-1500m") << -2LL << -1500LL;
    QTest::newRow("-0.1") << QByteArray("-0.1") << -1LL << -100LL;
    QTest::newRow("-1.5Ki") << QByteArray("-1.5Ki") << -1536LL << -1536000LL;

    // decimal SI suffixes
    QTest::newRow("5n") << QByteArray("5n") << 1LL << 1LL;
    QTest::newRow("123456789n (metrics nanocores)") << QByteArray("123456789n") << 1LL << 124LL;
    QTest::newRow("2500000000n") << QByteArray("2500000000n") << 3LL << 2500LL;
    QTest::newRow("4u") << QByteArray("4u") << 1LL << 1LL;
    QTest::newRow("1500000u") << QByteArray("1500000u") << 2LL << 1500LL;
    QTest::newRow("100m") << QByteArray("100m") << 1LL << 100LL;
    QTest::newRow("1500m (memory: 2 bytes)") << QByteArray("1500m") << 2LL << 1500LL;
    QTest::newRow("1m (millibyte: 1 byte)") << QByteArray("1m") << 1LL << 1LL;
    QTest::newRow("1000m") << QByteArray("1000m") << 1LL << 1000LL;
    QTest::newRow("1001m (memory: 2 bytes)") << QByteArray("1001m") << 2LL << 1001LL;
    QTest::newRow("0.5m (sub-milli rounds up)") << QByteArray("0.5m") << 1LL << 1LL;
    QTest::newRow("1k") << QByteArray("1k") << 1000LL << 1000000LL;
    QTest::newRow("50k") << QByteArray("50k") << 50000LL << 50000000LL;
    QTest::newRow("1M") << QByteArray("1M") << 1000000LL << 1000000000LL;
    QTest::newRow("1G") << QByteArray("1G") << 1000000000LL << 1000000000000LL;
    QTest::newRow("1T") << QByteArray("1T") << 1000000000000LL << 1000000000000000LL;
    QTest::newRow("1P") << QByteArray("1P") << 1000000000000000LL << 1000000000000000000LL;
    QTest::newRow("100.035k") << QByteArray("100.035k") << 100035LL << 100035000LL;
    QTest::newRow("10.035M") << QByteArray("10.035M") << 10035000LL << 10035000000LL;
    QTest::newRow("8.1k") << QByteArray("8.1k") << 8100LL << 8100000LL;
    QTest::newRow("0.0005k") << QByteArray("0.0005k") << 1LL << 500LL;
    QTest::newRow(".0001k") << QByteArray(".0001k") << 1LL << 100LL;
    QTest::newRow("1.G") << QByteArray("1.G") << 1000000000LL << 1000000000000LL;

    // binary SI suffixes
    QTest::newRow("2Ki") << QByteArray("2Ki") << 2 * kKi << 2 * kKi * 1000;
    QTest::newRow("2Mi") << QByteArray("2Mi") << 2 * kMi << 2 * kMi * 1000;
    QTest::newRow("2Gi") << QByteArray("2Gi") << 2 * kGi << 2 * kGi * 1000;
    QTest::newRow("2Ti") << QByteArray("2Ti") << 2 * kTi << 2 * kTi * 1000;
    QTest::newRow("2Pi") << QByteArray("2Pi") << 2 * kPi << 2 * kPi * 1000;
    QTest::newRow("0Ki") << QByteArray("0Ki") << 0LL << 0LL;
    QTest::newRow("1.5Ki") << QByteArray("1.5Ki") << 1536LL << 1536000LL;
    QTest::newRow("0.5Mi") << QByteArray("0.5Mi") << 524288LL << 524288000LL;
    QTest::newRow("100.035Ki") << QByteArray("100.035Ki") << 102436LL << 102435840LL;
    QTest::newRow("0.05Gi") << QByteArray("0.05Gi") << 53687092LL << 53687091200LL;
    QTest::newRow("0.000000000001Ki") << QByteArray("0.000000000001Ki") << 1LL << 1LL;

    // exponents: "E" alone is Exa, "E" followed by digits is an exponent
    QTest::newRow("129e6") << QByteArray("129e6") << 129000000LL << 129000000000LL;
    QTest::newRow("12E6 (exponent, not Exa)") << QByteArray("12E6") << 12000000LL << 12000000000LL;
    QTest::newRow("1e3") << QByteArray("1e3") << 1000LL << 1000000LL;
    QTest::newRow("1E+3") << QByteArray("1E+3") << 1000LL << 1000000LL;
    QTest::newRow("1E-3") << QByteArray("1E-3") << 1LL << 1LL;
    QTest::newRow("1e0") << QByteArray("1e0") << 1LL << 1000LL;
    QTest::newRow("1.2e3") << QByteArray("1.2e3") << 1200LL << 1200000LL;
    QTest::newRow("1.3E+6") << QByteArray("1.3E+6") << 1300000LL << 1300000000LL;
    QTest::newRow("0.5e-1") << QByteArray("0.5e-1") << 1LL << 50LL;
    QTest::newRow("0.5e-9") << QByteArray("0.5e-9") << 1LL << 1LL;
    QTest::newRow("1.1E-9") << QByteArray("1.1E-9") << 1LL << 1LL;
    QTest::newRow("1e15") << QByteArray("1e15") << 1000000000000000LL << 1000000000000000000LL;
    QTest::newRow("1e-1000 (tiny, rounds up)") << QByteArray("1e-1000") << 1LL << 1LL;

    // large values near INT64_MAX, and INT64_MIN
    QTest::newRow("INT64_MAX m") << QByteArray("9223372036854775807m") << 9223372036854776LL << kMax;
    QTest::newRow("-INT64_MIN m") << QByteArray("-9223372036854775808m") << -9223372036854776LL << kMin;
    // more than 30 significant digits: the dropped digits still round up
    QTest::newRow("32 significant digits") << QByteArray("1.0000000000000000000000000000001") << 2LL << 1001LL;
    QTest::newRow("32 digits with exponent")
        << QByteArray("12345678901234567890123456789012e-20") << 123456789013LL << 123456789012346LL;
    QTest::newRow("many trailing zeros") << QByteArray("1.000000000000000000000000000000000000000") << 1LL << 1000LL;
}

void TestQuantity::validForms()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, value);
    QFETCH(qint64, milli);
    const std::string_view s(text.constData(), static_cast<std::size_t>(text.size()));
    QCOMPARE(errorOf(parseQuantity, text), QString());
    QCOMPARE(errorOf(parseQuantityMilli, text), QString());
    QCOMPARE(static_cast<qint64>(parseQuantity(s)), value);
    QCOMPARE(static_cast<qint64>(parseQuantityMilli(s)), milli);
}

// Forms whose Value() fits in int64 but whose MilliValue() does not.
void TestQuantity::milliOutOfRange_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("value");

    QTest::newRow("1E (Exa, 10^18)") << QByteArray("1E") << 1000000000000000000LL;
    QTest::newRow("1E18") << QByteArray("1E18") << 1000000000000000000LL;
    QTest::newRow("1.01E") << QByteArray("1.01E") << 1010000000000000000LL;
    QTest::newRow("9.2E") << QByteArray("9.2E") << 9200000000000000000LL;
    QTest::newRow("2Ei") << QByteArray("2Ei") << 2 * kEi;
    QTest::newRow("7Ei") << QByteArray("7Ei") << 7 * kEi;
    QTest::newRow("10P") << QByteArray("10P") << 10000000000000000LL;
    QTest::newRow("INT64_MAX") << QByteArray("9223372036854775807") << kMax;
    QTest::newRow("INT64_MAX as k") << QByteArray("9223372036854775.807k") << kMax;
    QTest::newRow("INT64_MIN") << QByteArray("-9223372036854775808") << kMin;
}

void TestQuantity::milliOutOfRange()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, value);
    QCOMPARE(errorOf(parseQuantity, text), QString());
    QCOMPARE(
        static_cast<qint64>(parseQuantity(std::string_view(text.constData(), static_cast<std::size_t>(text.size())))), value);
    const QString error = errorOf(parseQuantityMilli, text);
    QVERIFY2(error.contains(QLatin1String("out of range")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1Char('"') + QString::fromLatin1(text) + QLatin1Char('"')), qPrintable(error));
}

// Every form that must fail, with a word of the reason the message must give.
void TestQuantity::invalidForms_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("reason");

    const QString suffix = QStringLiteral("suffix");
    const QString digits = QStringLiteral("digits");
    const QString range = QStringLiteral("out of range");
    const QString exponent = QStringLiteral("exponent");
    const QString after = QStringLiteral("after the exponent");

    QTest::newRow("empty") << QByteArray("") << QStringLiteral("empty");
    QTest::newRow("2GB") << QByteArray("2GB") << suffix;
    QTest::newRow("64K (k is lower case)") << QByteArray("64K") << suffix;
    QTest::newRow("1ki") << QByteArray("1ki") << suffix;
    QTest::newRow("1Kib") << QByteArray("1Kib") << suffix;
    QTest::newRow("1KiB") << QByteArray("1KiB") << suffix;
    QTest::newRow("1Gb") << QByteArray("1Gb") << suffix;
    QTest::newRow("1g") << QByteArray("1g") << suffix;
    QTest::newRow("1kk") << QByteArray("1kk") << suffix;
    QTest::newRow("1Mi3") << QByteArray("1Mi3") << suffix;
    QTest::newRow("0.1mi") << QByteArray("0.1mi") << suffix;
    QTest::newRow("0.1am") << QByteArray("0.1am") << suffix;
    QTest::newRow(".5i") << QByteArray(".5i") << suffix;
    QTest::newRow("1i") << QByteArray("1i") << suffix;
    QTest::newRow("-3.01i") << QByteArray("-3.01i") << suffix;
    QTest::newRow("1+1.0M") << QByteArray("1+1.0M") << suffix;
    QTest::newRow("1,5") << QByteArray("1,5") << suffix;
    QTest::newRow("0x10") << QByteArray("0x10") << suffix;
    QTest::newRow("1_000") << QByteArray("1_000") << suffix;
    QTest::newRow("leading space") << QByteArray(" 1") << digits;
    QTest::newRow("trailing space") << QByteArray("1 ") << suffix;
    QTest::newRow("leading tab") << QByteArray("\t1") << digits;
    QTest::newRow("trailing newline") << QByteArray("1m\n") << suffix;
    QTest::newRow("1.2.3") << QByteArray("1.2.3") << QStringLiteral("decimal point");
    QTest::newRow("1.1.M") << QByteArray("1.1.M") << QStringLiteral("decimal point");
    QTest::newRow("--1") << QByteArray("--1") << digits;
    QTest::newRow("+-1") << QByteArray("+-1") << digits;
    QTest::newRow("aoeu") << QByteArray("aoeu") << digits;
    // ParseQuantity takes these as 0 (apimachinery issue #165); rejected here on purpose.
    QTest::newRow("Ki (no digits)") << QByteArray("Ki") << digits;
    QTest::newRow("m (no digits)") << QByteArray("m") << digits;
    QTest::newRow("e3 (no digits)") << QByteArray("e3") << digits;
    QTest::newRow(". (no digits)") << QByteArray(".") << digits;
    QTest::newRow("- (no digits)") << QByteArray("-") << digits;
    QTest::newRow("+ (no digits)") << QByteArray("+") << digits;
    // exponents
    QTest::newRow("1e3m") << QByteArray("1e3m") << after;
    QTest::newRow("1e3.5") << QByteArray("1e3.5") << after;
    QTest::newRow("1e") << QByteArray("1e") << exponent;
    QTest::newRow("1E+") << QByteArray("1E+") << exponent;
    QTest::newRow("-3.01e-") << QByteArray("-3.01e-") << exponent;
    QTest::newRow("1e4294967297") << QByteArray("1e4294967297") << exponent;
    // beyond int64 (ParseQuantity caps these at 2^63-1; an error here on purpose)
    QTest::newRow("10E") << QByteArray("10E") << range;
    QTest::newRow("12E") << QByteArray("12E") << range;
    QTest::newRow("8Ei (2^63)") << QByteArray("8Ei") << range;
    QTest::newRow("9Ei") << QByteArray("9Ei") << range;
    QTest::newRow("INT64_MAX Ki") << QByteArray("9223372036854775807Ki") << range;
    QTest::newRow("INT64_MAX + 1") << QByteArray("9223372036854775808") << range;
    QTest::newRow("INT64_MIN - 1") << QByteArray("-9223372036854775809") << range;
    QTest::newRow("1e19") << QByteArray("1e19") << range;
    QTest::newRow("1e1000") << QByteArray("1e1000") << range;
    QTest::newRow("40 integer digits") << QByteArray("1234567890123456789012345678901234567890") << range;
}

void TestQuantity::invalidForms()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, reason);
    const QString quoted = QLatin1Char('"') + QString::fromLatin1(text) + QLatin1Char('"');
    for (const QString& error : { errorOf(parseQuantity, text), errorOf(parseQuantityMilli, text) }) {
        QVERIFY2(!error.isNull(), "no QuantityError thrown");
        QVERIFY2(error.contains(quoted), qPrintable(QStringLiteral("message does not name the value: ") + error));
        QVERIFY2(error.contains(reason), qPrintable(QStringLiteral("message does not say '%1': %2").arg(reason, error)));
    }
}

void TestQuantity::quantityErrorIsInvalidArgument()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)parseQuantity("2GB"));
}

void TestQuantity::formatMilli_data()
{
    QTest::addColumn<qint64>("milli");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << 0LL << QStringLiteral("0");
    QTest::newRow("250m") << 250LL << QStringLiteral("250m");
    QTest::newRow("4") << 4000LL << QStringLiteral("4");
    QTest::newRow("1500m") << 1500LL << QStringLiteral("1500m");
    QTest::newRow("-250m") << -250LL << QStringLiteral("-250m");
}

void TestQuantity::formatMilli()
{
    QFETCH(qint64, milli);
    QFETCH(QString, text);
    const std::string s = fleet::model::formatMilli(milli);
    QCOMPARE(QString::fromStdString(s), text);
    QCOMPARE(static_cast<qint64>(parseQuantityMilli(s)), milli); // round trip
}

void TestQuantity::formatBytes_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << 0LL << QStringLiteral("0");
    QTest::newRow("123") << 123LL << QStringLiteral("123");
    QTest::newRow("1Ki") << kKi << QStringLiteral("1Ki");
    QTest::newRow("1536Mi") << 1536 * kMi << QStringLiteral("1536Mi");
    QTest::newRow("16Gi") << 16 * kGi << QStringLiteral("16Gi");
    QTest::newRow("7Ei") << 7 * kEi << QStringLiteral("7Ei");
    QTest::newRow("1000") << 1000LL << QStringLiteral("1000");
}

void TestQuantity::formatBytes()
{
    QFETCH(qint64, bytes);
    QFETCH(QString, text);
    const std::string s = fleet::model::formatBytesQuantity(bytes);
    QCOMPARE(QString::fromStdString(s), text);
    QCOMPARE(static_cast<qint64>(parseQuantity(s)), bytes); // round trip
}

QTEST_GUILESS_MAIN(TestQuantity)
#include "tst_quantity.moc"
