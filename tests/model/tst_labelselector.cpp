// SPDX-License-Identifier: Apache-2.0
// Tests of model/labelselector.h: kubectl's label selector syntax, parsed as
// k8s.io/apimachinery/pkg/labels (Parse) parses it, errors pointing at the character, and
// matching against node labels (NotIn and != also match a node without the key).

#include "model/labelselector.h"

#include <QtTest>

using fleet::model::LabelSelector;
using fleet::model::LabelSelectorError;
using fleet::model::LabelSelectorOp;

namespace {

QString opText(LabelSelectorOp op)
{
    switch (op) {
    case LabelSelectorOp::Equals: return QStringLiteral("=");
    case LabelSelectorOp::NotEquals: return QStringLiteral("!=");
    case LabelSelectorOp::In: return QStringLiteral(" in ");
    case LabelSelectorOp::NotIn: return QStringLiteral(" notin ");
    case LabelSelectorOp::Exists: return QStringLiteral("");
    case LabelSelectorOp::DoesNotExist: return QStringLiteral("!");
    case LabelSelectorOp::GreaterThan: return QStringLiteral(">");
    case LabelSelectorOp::LessThan: return QStringLiteral("<");
    }
    return {};
}

// The parsed selector written back in one canonical form: "key=v;!k;x in (a|b)".
QString canonical(const LabelSelector& s)
{
    QStringList parts;
    for (const auto& r : s.requirements) {
        const QString key = QString::fromStdString(r.key);
        QStringList values;
        for (const auto& v : r.values)
            values << QString::fromStdString(v);
        switch (r.op) {
        case LabelSelectorOp::Exists: parts << key; break;
        case LabelSelectorOp::DoesNotExist: parts << QStringLiteral("!") + key; break;
        case LabelSelectorOp::In:
        case LabelSelectorOp::NotIn: parts << key + opText(r.op) + QStringLiteral("(") + values.join(QLatin1Char('|')) + QStringLiteral(")"); break;
        default: parts << key + opText(r.op) + values.join(QLatin1Char('|')); break;
        }
    }
    return parts.join(QLatin1Char(';'));
}

// A store of three nodes with labels, for matching.
struct Fixture {
    fleet::model::ClusterStore store;
    Fixture()
    {
        auto add = [&](const char* name, std::vector<std::pair<std::string, std::string>> labels) {
            fleet::model::NodeRecord r;
            r.name = name;
            r.labels = std::move(labels);
            store.addNode(r);
        };
        add("a", {{"zone", "us-east-1a"}, {"gpu", "true"}, {"rank", "5"}});
        add("b", {{"zone", "us-east-1b"}, {"rank", "12"}});
        add("c", {{"zone", "us-east-1a"}, {"rank", "x"}});
        store.finalize();
    }
};

} // namespace

class TestLabelSelector : public QObject {
    Q_OBJECT
private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
    void match_data();
    void match();
    void emptyMatchesAll();
};

void TestLabelSelector::valid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("parsed");
    QTest::newRow("empty") << "" << "";
    QTest::newRow("blank") << "  \t " << "";
    QTest::newRow("equals") << "app=web" << "app=web";
    QTest::newRow("double equals") << "app==web" << "app=web";
    QTest::newRow("not equals") << "app!=web" << "app!=web";
    QTest::newRow("exists") << "gpu" << "gpu";
    QTest::newRow("does not exist") << "!gpu" << "!gpu";
    QTest::newRow("does not exist, blank") << "! gpu" << "!gpu";
    QTest::newRow("in") << "zone in (b,a)" << "zone in (a|b)";
    QTest::newRow("in, blanks") << "zone  in  ( a , b )" << "zone in (a|b)";
    QTest::newRow("in, duplicates") << "zone in (a,a)" << "zone in (a)";
    QTest::newRow("notin") << "zone notin (a)" << "zone notin (a)";
    QTest::newRow("empty set is the empty value") << "x in ()" << "x in ()";
    QTest::newRow("empty values in a set") << "x in (foo,,baz)" << "x in (|baz|foo)";
    QTest::newRow("leading comma") << "x in (,a)" << "x in (|a)";
    QTest::newRow("trailing comma") << "x in (a,)" << "x in (|a)";
    QTest::newRow("empty exact value") << "x=" << "x=";
    QTest::newRow("empty exact value before comma") << "x=,y" << "x=;y";
    QTest::newRow("keywords as key and value") << "in in (in,notin)" << "in in (in|notin)";
    QTest::newRow("notin key") << "notin=x" << "notin=x";
    QTest::newRow("greater") << "rank>3" << "rank>3";
    QTest::newRow("less") << "rank<3" << "rank<3";
    QTest::newRow("sorted by key") << "z=1,a=2,m" << "a=2;m;z=1";
    QTest::newRow("prefixed keys") << "topology.kubernetes.io/zone=us-east-1a,nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3"
                                   << "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3;topology.kubernetes.io/zone=us-east-1a";
    QTest::newRow("the apimachinery example") << "x in (foo,,baz),y,z notin ()" << "x in (|baz|foo);y;z notin ()";
    QTest::newRow("63-character name") << QString(63, QLatin1Char('k')) << QString(63, QLatin1Char('k'));
    QTest::newRow("newline blanks") << "a=b,\nc" << "a=b;c";
}

void TestLabelSelector::valid()
{
    QFETCH(QString, text);
    try {
        const LabelSelector s = fleet::model::parseLabelSelector(text.toStdString());
        QTEST(canonical(s), "parsed");
    } catch (const LabelSelectorError& e) {
        QFAIL(e.what());
    }
}

void TestLabelSelector::invalid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("message");
    QTest::newRow("trailing comma") << "a=b," << 4 << "expected: a label key after ','";
    QTest::newRow("leading comma") << ",a" << 0 << "found ','";
    QTest::newRow("two commas") << "a,,b" << 2 << "expected: a label key after ','";
    QTest::newRow("unclosed set") << "zone in (a,b" << 12 << "expected: ',' or ')'";
    QTest::newRow("in without set") << "zone in a" << 8 << "expected: '(' after 'in'";
    QTest::newRow("two values") << "zone in (a b)" << 11 << "found 'b', expected: ',' or ')'";
    QTest::newRow("operator in set") << "zone in (a,=)" << 11 << "found '='";
    QTest::newRow("missing operator") << "a b" << 2 << "found 'b', expected: in, notin";
    QTest::newRow("bang with operator") << "!a=b" << 2 << "'!' takes a key alone";
    QTest::newRow("bang alone") << "!" << 1 << "found the end of the selector, expected: a label key";
    QTest::newRow("double bang") << "!!a" << 1 << "found '!'";
    QTest::newRow("value then junk") << "a=b c" << 4 << "expected: ',' or the end";
    QTest::newRow("operator as value") << "a==!b" << 3 << "found '!', expected: a value";
    QTest::newRow("bad key character") << "a$b=c" << 0 << "invalid label key 'a$b'";
    QTest::newRow("key too long") << QString(64, QLatin1Char('k')) + "=v" << 0 << "at most 63 characters";
    QTest::newRow("bad prefix") << "Upper.io/x" << 0 << "the prefix must be a DNS subdomain";
    QTest::newRow("two slashes") << "a/b/c" << 0 << "at most one '/'";
    QTest::newRow("empty name") << "example.com/" << 0 << "invalid label key";
    QTest::newRow("bad value") << "a=-b" << 2 << "invalid label value '-b'";
    QTest::newRow("value too long") << "a=" + QString(64, QLatin1Char('v')) << 2 << "at most 63 characters";
    QTest::newRow("bad value in set") << "a in (ok,no!)" << 11 << "found '!'";
    QTest::newRow("gt not an integer") << "rank>x" << 5 << "expected: an integer after '>'";
    QTest::newRow("negative bound is not a label value") << "rank<-3" << 5 << "invalid label value '-3'";
    QTest::newRow("gt without value") << "rank>" << 5 << "expected: an integer";
    QTest::newRow("open paren first") << "(a)" << 0 << "found '('";
}

void TestLabelSelector::invalid()
{
    QFETCH(QString, text);
    QFETCH(int, position);
    QFETCH(QString, message);
    try {
        const LabelSelector s = fleet::model::parseLabelSelector(text.toStdString());
        QFAIL(qPrintable(QStringLiteral("accepted, as ") + canonical(s)));
    } catch (const LabelSelectorError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        QCOMPARE(static_cast<int>(e.position()), position);
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("at character %1: ").arg(position + 1)), e.what());
    }
}

void TestLabelSelector::match_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("matching"); // node names
    QTest::newRow("equals") << "zone=us-east-1a" << "ac";
    QTest::newRow("not equals matches a node without the key") << "gpu!=true" << "bc";
    QTest::newRow("in") << "zone in (us-east-1b,nowhere)" << "b";
    QTest::newRow("notin") << "zone notin (us-east-1b)" << "ac";
    QTest::newRow("notin matches a node without the key") << "gpu notin (true)" << "bc";
    QTest::newRow("exists") << "gpu" << "a";
    QTest::newRow("does not exist") << "!gpu" << "bc";
    QTest::newRow("and") << "zone=us-east-1a,!gpu" << "c";
    QTest::newRow("unknown key") << "nosuchkey" << "";
    QTest::newRow("unknown key, negated") << "!nosuchkey" << "abc";
    QTest::newRow("unknown value") << "zone=mars" << "";
    QTest::newRow("empty value matches no label here") << "zone=" << "";
    QTest::newRow("greater, integers only") << "rank>4" << "ab";
    QTest::newRow("less") << "rank<6" << "a";
}

void TestLabelSelector::match()
{
    QFETCH(QString, selector);
    QFETCH(QString, matching);
    Fixture f;
    const auto parsed = fleet::model::parseLabelSelector(selector.toStdString());
    const std::vector<std::uint8_t> mask = fleet::model::nodesMatchingSelector(f.store, parsed);
    QCOMPARE(mask.size(), std::size_t(3));
    QString got;
    for (std::uint32_t n = 0; n < 3; ++n) {
        const bool one = fleet::model::labelSelectorMatches(parsed, f.store.nodeLabels(fleet::model::NodeId(n)), f.store.strings());
        QCOMPARE(one, mask[n] != 0);
        if (mask[n])
            got += QString::fromUtf8(f.store.nodeName(fleet::model::NodeId(n)).data(), 1);
    }
    QCOMPARE(got, matching);
}

void TestLabelSelector::emptyMatchesAll()
{
    Fixture f;
    const auto mask = fleet::model::nodesMatchingSelector(f.store, fleet::model::parseLabelSelector(""));
    QCOMPARE(mask, std::vector<std::uint8_t>(3, 1));
}

QTEST_APPLESS_MAIN(TestLabelSelector)
#include "tst_labelselector.moc"
