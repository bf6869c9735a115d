// SPDX-License-Identifier: Apache-2.0
// Tests of the kubectl JSON importer's windowing (importers/kube/kubejsonwindow.cpp): items cut
// at every window boundary and size, every truncation named, the same store whatever the
// window, paginated lists (metadata.continue) warned about, progress and cancellation.

#include "importers/kube/kubejson.h"
#include "kubejsontext.h"
#include "model/clusterstore.h"

#include <QtTest>

#include <algorithm>
#include <string>

using namespace fleet;
using namespace fleet::testing;
using model::CoreResource;
using model::NodeId;
using model::PodId;

Q_DECLARE_METATYPE(std::string)

class TestKubeJsonWindow : public QObject {
    Q_OBJECT

private slots:
    void windowBoundaries_data();
    void windowBoundaries();
    void everyWindowSize();
    void everyTruncation();
    void mutationsSameInEveryWindow();
    void paginatedListWarns();
    void progressAndCancel();
};

void TestKubeJsonWindow::windowBoundaries_data()
{
    // A list long enough to cross many windows, pretty-printed (cut after newlines) and
    // compact (cut before `{"`), with strings that hold braces, quotes and newlines escaped.
    std::string items;
    for (int i = 0; i < 40; ++i)
        items += R"({"kind":"Node","metadata":{"annotations":{"x":"}},{\"a\":[1,2]}\n{"},"labels":{"i":")" + std::to_string(i)
            + R"("},"name":"node-)" + std::to_string(i) + R"("},"status":{"allocatable":{"cpu":")" + std::to_string(i + 1)
            + R"("}}},)";
    for (int i = 0; i < 300; ++i)
        items += R"({"kind":"Pod","metadata":{"name":"p)" + std::to_string(i)
            + R"(","namespace":"ns","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}"}},"spec":{"nodeName":"node-)"
            + std::to_string(i % 40)
            + R"(","containers":[{"env":[{"name":"A","value":"{\"},{\""}],"resources":{"requests":{"cpu":")"
            + std::to_string(i % 7 + 1) + R"(00m","memory":")" + std::to_string(i % 5 + 1)
            + R"(Mi"}}}]},"status":{"phase":"Running"}})" + (i == 299 ? "" : ",");
    const std::string compact
        = "{\"apiVersion\":\"v1\",\"items\":[" + items + "],\"kind\":\"List\",\"metadata\":{\"continue\":\"\"}}";
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(compact));
    QVERIFY(doc.isObject());
    QTest::addColumn<std::string>("json");
    QTest::newRow("compact") << compact;
    QTest::newRow("pretty") << doc.toJson(QJsonDocument::Indented).toStdString();
}

void TestKubeJsonWindow::windowBoundaries()
{
    QFETCH(std::string, json);
    model::ClusterStore reference;
    importers::ImportReport referenceReport;
    importText(json, reference, referenceReport);
    reference.finalize();
    QCOMPARE(reference.nodeCount(), std::size_t { 40 });
    QCOMPARE(reference.podCount(), std::size_t { 300 });
    for (std::size_t window : { 64, 100, 257, 1000, 4099, 65536 }) {
        model::ClusterStore store;
        importers::ImportReport report;
        importText(json, store, report, window);
        store.finalize();
        QCOMPARE(store.nodeCount(), reference.nodeCount());
        QCOMPARE(store.podCount(), reference.podCount());
        QVERIFY(store.totalRequested() == reference.totalRequested());
        QVERIFY(store.totalAllocatable() == reference.totalAllocatable());
        for (std::size_t p = 0; p < store.podCount(); p += 37)
            QCOMPARE(
                store.podName(PodId(static_cast<std::uint32_t>(p))), reference.podName(PodId(static_cast<std::uint32_t>(p))));
        QCOMPARE(report.warnings.size(), std::size_t { 0 });
    }
}

void TestKubeJsonWindow::everyWindowSize()
{
    // Every cut position of the window: the same nodes, pods and requests each time.
    QFile file(QString::fromStdString(kData + "mixed-list.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string json = file.readAll().toStdString();
    model::ClusterStore reference;
    importers::ImportReport referenceReport;
    importText(json, reference, referenceReport);
    reference.finalize();
    for (std::size_t window = 64; window <= json.size() + 1; ++window) {
        model::ClusterStore store;
        importers::ImportReport report;
        importText(json, store, report, window);
        store.finalize();
        QCOMPARE(store.nodeCount(), reference.nodeCount());
        QCOMPARE(store.podCount(), reference.podCount());
        QVERIFY(store.totalRequested() == reference.totalRequested());
        QVERIFY(store.totalAllocatable() == reference.totalAllocatable());
        QCOMPARE(report.warnings, referenceReport.warnings);
    }
}

void TestKubeJsonWindow::everyTruncation()
{
    // A file cut at any byte before its closing brace is an error naming the file, never a
    // partial cluster.
    QFile file(QString::fromStdString(kShared + "nodes.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string json = file.readAll().toStdString();
    const std::size_t end = json.rfind('}');
    for (std::size_t length = 0; length <= end; ++length) {
        for (std::size_t window : { std::size_t { 0 }, std::size_t { 512 } }) {
            model::ClusterStore store;
            importers::ImportReport report;
            bool failed = false;
            try {
                importText(json.substr(0, length), store, report, window);
            } catch (const importers::ImportError& e) {
                failed = std::string(e.what()).rfind("case.json", 0) == 0;
            }
            QVERIFY2(failed, qPrintable(QString("cut at %1 (window %2) was not reported").arg(length).arg(window)));
        }
    }
}

void TestKubeJsonWindow::mutationsSameInEveryWindow()
{
    // Deterministic byte mutations of a mixed list: small windows give what one window over
    // the whole text gives (the same store, or an ImportError naming the file).
    QFile file(QString::fromStdString(kData + "mixed-list.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string original = file.readAll().toStdString();
    const char replacements[] = { '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', '-' };
    std::uint64_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 33;
    };
    auto outcome = [](const std::string& json, std::size_t window) {
        model::ClusterStore store;
        importers::ImportReport report;
        try {
            importText(json, store, report, window);
        } catch (const importers::ImportError& e) {
            return std::string("error: ") + e.what();
        }
        store.finalize();
        return "ok: " + std::to_string(store.nodeCount()) + " nodes, " + std::to_string(store.podCount()) + " pods, cpu "
            + std::to_string(store.totalRequested()[CoreResource::Cpu]) + ", " + std::to_string(report.warnings.size())
            + " warnings";
    };
    int errors = 0;
    for (int round = 0; round < 1500; ++round) {
        std::string json = original;
        const int edits = 1 + static_cast<int>(next() % 3);
        for (int e = 0; e < edits; ++e)
            json[next() % json.size()] = replacements[next() % sizeof replacements];
        const std::string whole = outcome(json, 0);
        errors += whole.rfind("error", 0) == 0 ? 1 : 0;
        // With several errors in one text, a window may meet another one first (stage 1 of
        // simdjson sees the whole text at once): then both must fail, with any message.
        for (std::size_t window : { std::size_t { 64 }, std::size_t { 333 }, std::size_t { 1024 } }) {
            const std::string windowed = outcome(json, window);
            const bool same = whole.rfind("error", 0) == 0 ? windowed.rfind("error: case.json", 0) == 0 : windowed == whole;
            QVERIFY2(same,
                qPrintable(QString("round %1 window %2: %3 vs %4")
                               .arg(round)
                               .arg(window)
                               .arg(QString::fromStdString(windowed), QString::fromStdString(whole))));
        }
    }
    QVERIFY(errors > 500); // most mutations break the JSON, and each is reported
}

void TestKubeJsonWindow::paginatedListWarns()
{
    model::ClusterStore store;
    importers::ImportReport report;
    importers::importKubectlJsonFile(kData + "paginated.json", store, report);
    QCOMPARE(store.podCount(), std::size_t { 2 });
    QCOMPARE(report.warnings.size(), std::size_t { 1 });
    const std::string& w = report.warnings[0];
    QVERIFY2(w.find("paginated.json") != std::string::npos && w.find("incomplete") != std::string::npos
            && w.find("--chunk-size") != std::string::npos && w.find("1998 more items") != std::string::npos,
        w.c_str());
}

namespace {
class RecordingProgress : public importers::ImportProgress {
public:
    explicit RecordingProgress(bool cancel)
        : m_cancel(cancel)
    {
    }
    void progress(std::size_t done, std::size_t total) override
    {
        ++calls;
        lastDone = done;
        lastTotal = total;
    }
    bool isCancelled() const override { return m_cancel; }
    int calls = 0;
    std::size_t lastDone = 0;
    std::size_t lastTotal = 0;

private:
    bool m_cancel;
};
} // namespace

void TestKubeJsonWindow::progressAndCancel()
{
    const std::string path = kShared + "pods.json";
    {
        model::ClusterStore store;
        importers::ImportReport report;
        RecordingProgress progress(false);
        importers::importKubectlJsonFile(path, store, report, &progress);
        QVERIFY(progress.calls >= 1);
        QCOMPARE(progress.lastDone, report.bytesRead);
        QCOMPARE(progress.lastTotal, std::size_t { 162392 });
    }
    {
        model::ClusterStore store;
        importers::ImportReport report;
        RecordingProgress progress(true);
        QVERIFY_THROWS_EXCEPTION(importers::ImportCancelled, importers::importKubectlJsonFile(path, store, report, &progress));
    }
}

// Node conditions (all fields, times from RFC 3339), pod labels, the PodScheduled message
// when False, scheduling gates; the same in every window size, with kinds known or not.

QTEST_GUILESS_MAIN(TestKubeJsonWindow)
#include "tst_kubejsonwindow.moc"
