// SPDX-License-Identifier: Apache-2.0
// Every YAML reader (pod templates, node groups, the usage config, kubeconfig) takes its YAML
// through loadBoundedYaml() (importers/yamlinput.h): a self-referencing alias, an alias bomb,
// nesting past the limit, a mapping key that is not a plain value and a key given twice are
// refused with the reader's own error, naming the file and the line, and never crash or eat
// the machine. Each case runs through each reader's file entry point, as a user hands it in.

#include "importers/kube/kubeconfig.h"
#include "importers/plan/nodegroupsettings.h"
#include "importers/plan/podtemplate.h"
#include "importers/prometheus/usageconfig.h"
#include "importers/yamlinput.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <functional>

using namespace fleet;

namespace {

// A reader's file entry point: the message of the error it throws, or "" when it read the file.
using Reader = std::function<std::string(const std::string& path)>;

std::string podTemplate(const std::string& path)
{
    try {
        (void)importers::podTemplateFromFile(path, "placed");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return {};
}
std::string nodeGroups(const std::string& path)
{
    try {
        (void)importers::readNodeGroupSettings(path);
    } catch (const importers::NodeGroupSettingsError& e) {
        return e.what();
    }
    return {};
}
std::string usageConfig(const std::string& path)
{
    try {
        (void)importers::prometheus::readUsageConfig(path);
    } catch (const importers::ImportError& e) {
        return e.what();
    }
    return {};
}
std::string kubeconfig(const std::string& path)
{
    importers::kube::KubeconfigRequest request;
    request.explicitPath = path;
    try {
        (void)importers::kube::loadKubeconfig(request);
    } catch (const importers::kube::KubeconfigError& e) {
        return e.what();
    }
    return {};
}

// The classic "billion laughs": nine levels of nine aliases, 9^9 = 387,420,489 strings from
// 342 bytes.
std::string aliasBomb()
{
    std::string s = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    const std::string levels = "abcdefghi";
    for (std::size_t i = 1; i < levels.size(); ++i) {
        s += std::string(1, levels[i]) + ": &" + levels[i] + " [";
        for (int k = 0; k < 9; ++k)
            s += std::string(k ? "," : "") + "*" + levels[i - 1];
        s += "]\n";
    }
    return s;
}

} // namespace

class TestYamlInput : public QObject {
    Q_OBJECT
private slots:
    void refusedByEveryReader_data();
    void refusedByEveryReader();
    void validDocumentsWithAliasesRead();
    void podTemplateThatContainsItself();
    void budgetScalesWithTheText();
};

void TestYamlInput::refusedByEveryReader_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    const std::pair<const char*, Reader> readers[] = { { "pod template", podTemplate }, { "node groups", nodeGroups },
        { "usage config", usageConfig }, { "kubeconfig", kubeconfig } };
    // The documents start with a line each reader accepts so far, so that the YAML check, not
    // the reader's schema, is what refuses them.
    for (const auto& [name, reader] : readers) {
        (void)reader;
        QTest::addRow("%s: alias inside its anchor", name) << QByteArray("a: &a [*a]\n") << 1
                                                         << QStringLiteral("an alias (*name) refers to a mapping or list that contains it");
        QTest::addRow("%s: alias inside its anchor, deeper", name)
            << QByteArray("x: 1\nb: &b\n  c:\n    d: [1, *b]\n") << 0 << QStringLiteral("refers to a mapping or list that contains it");
        QTest::addRow("%s: alias bomb", name) << QByteArray::fromStdString(aliasBomb()) << 0 << QStringLiteral("an alias bomb");
        QTest::addRow("%s: nested too deep", name)
            << (QByteArray("a: ") + QByteArray(150, '[') + QByteArray(150, ']') + "\n") << 1 << QStringLiteral("nested more than 100 levels deep");
        // Past yaml-cpp's own parser guard, whose message was "bad file".
        QTest::addRow("%s: nested far too deep", name)
            << (QByteArray("a: ") + QByteArray(1500, '[') + QByteArray(1500, ']') + "\n") << 1 << QStringLiteral("nested more than 100 levels deep");
        QTest::addRow("%s: key twice", name) << QByteArray("a: 1\nb: 2\na: 3\n") << 3
                                             << QStringLiteral("a: the key \"a\" is given twice in one mapping (lines 1 and 3)");
        QTest::addRow("%s: key twice, nested", name) << QByteArray("a:\n  - b: 1\n    b: 2\n") << 3
                                                     << QStringLiteral("a[0].b: the key \"b\" is given twice in one mapping (lines 2 and 3)");
        QTest::addRow("%s: key twice on one line", name) << QByteArray("a: {b: 1, b: 2}\n") << 1
                                                         << QStringLiteral("a.b: the key \"b\" is given twice in one mapping (on line 1); give it once");
        QTest::addRow("%s: list as a key", name) << QByteArray("? [x, y]\n: 1\n") << 1
                                                 << QStringLiteral("a mapping key must be a plain value (a string), not a list");
    }
}

void TestYamlInput::refusedByEveryReader()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    const Reader reader = tag.startsWith(QStringLiteral("pod template")) ? Reader(podTemplate)
        : tag.startsWith(QStringLiteral("node groups"))                  ? Reader(nodeGroups)
        : tag.startsWith(QStringLiteral("usage config"))                 ? Reader(usageConfig)
                                                                         : Reader(kubeconfig);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("input.yaml")).toStdString();
    std::ofstream(path, std::ios::binary) << text.toStdString();
    const QString what = QString::fromStdString(reader(path));
    QVERIFY2(what.contains(message), qPrintable(what));
    QVERIFY2(what.startsWith(QString::fromStdString(path) + QLatin1Char(':')), qPrintable(what));
    if (line > 0)
        QVERIFY2(what.contains(QStringLiteral("line %1").arg(line)) || what.contains(QStringLiteral(":%1:").arg(line)), qPrintable(what));
}

// Aliases within the budget are YAML as usual: a container written once and used twice.
void TestYamlInput::validDocumentsWithAliasesRead()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("pod.yaml")).toStdString();
    std::ofstream(path, std::ios::binary)
        << "kind: Pod\nmetadata: {name: two, labels: &l {app: a}, annotations: *l}\nspec:\n  containers:\n"
           "  - {name: main, resources: {requests: &r {cpu: '1', memory: 1Gi}, limits: *r}}\n";
    QCOMPARE(podTemplate(path), std::string());
    const std::string json = importers::podTemplateFromFile(path, "placed");
    QVERIFY2(json.find("\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}") != std::string::npos, json.c_str());
    QVERIFY2(json.find("\"annotations\":{\"app\":\"a\"}") != std::string::npos, json.c_str());
}

// A whole Pod whose spec contains itself through an alias: the template is written out as
// JSON by walking it, which recursed until the stack overflowed (a crash).
void TestYamlInput::podTemplateThatContainsItself()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("pod.yaml")).toStdString();
    std::ofstream(path, std::ios::binary) << "kind: Pod\nmetadata: {name: loop}\nspec: &s\n  containers: [{name: main}]\n  extra: *s\n";
    const std::string what = podTemplate(path);
    // A mapping reached again through an alias is refused at the depth bound; the cycle is named
    // when the node repeats on the walk's stack (a list inside its anchor), else as too deep.
    QVERIFY2(what.find(": line ") != std::string::npos
            && (what.find("refers to a mapping or list that contains it") != std::string::npos
                || what.find("nested more than 100 levels deep") != std::string::npos),
        what.c_str());
}

// The budget is 2 x the text's bytes + 1 MiB: a long document without aliases always passes
// (each node and scalar byte takes a byte of text), the same tree made of aliases does not.
void TestYamlInput::budgetScalesWithTheText()
{
    std::string plain = "items:\n";
    for (int i = 0; i < 50000; ++i)
        plain += "- [1, 2, 3]\n";
    QCOMPARE(importers::loadBoundedYaml(plain)["items"].size(), std::size_t(50000));
    // 4 MiB of scalars reached through aliases from a 1 KiB document.
    std::string aliased = "a: &a \"" + std::string(1024, 'x') + "\"\nb: &b [" ;
    for (int i = 0; i < 64; ++i)
        aliased += std::string(i ? "," : "") + "*a";
    aliased += "]\nc: [";
    for (int i = 0; i < 64; ++i)
        aliased += std::string(i ? "," : "") + "*b";
    aliased += "]\n";
    QVERIFY_THROWS_EXCEPTION(importers::YamlInputError, (void)importers::loadBoundedYaml(aliased));
}

QTEST_GUILESS_MAIN(TestYamlInput)
#include "tst_yamlinput.moc"
