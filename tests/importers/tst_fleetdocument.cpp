// SPDX-License-Identifier: Apache-2.0
// The .fleet document (importers/document/fleetdocument.h) in process, on real SQLite images: a
// state and its plans round trip exactly; the shipped version-1 fixture opens; a newer version,
// another application's database and another schema are refused by name; bit flips and
// truncation at many offsets give an error naming the file or a correct open, never a crash;
// opening leaves the file's bytes and mtime as they were and nothing beside it.

#include "importers/clusterloader.h"
#include "importers/document/fleetdocument.h"
#include "importers/document/sqlitehandle_p.h"
#include "importers/export/summaryjson.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>

using namespace fleet;
using importers::FleetDocument;
using importers::FleetDocumentError;

namespace {

const QString kData = QStringLiteral(FLEET_TEST_DATA_DIR);

std::vector<std::string> schedulingFiles()
{
    std::vector<std::string> files;
    for (const char* f : { "scheduling-nodes.json", "scheduling-pods.json", "scheduling-pdbs.json", "scheduling-pvs.json",
                           "scheduling-namespaces.json" })
        files.push_back((kData + QStringLiteral("/kube/") + QLatin1String(f)).toStdString());
    return files;
}

std::string summaryOf(const importers::LoadedCluster& c)
{
    std::ostringstream out;
    importers::writeSummaryJson(*c.store, c.report, out);
    return out.str();
}

// The plan fixture's state with its plan: what the version-1 fixture holds.
FleetDocument planDocument()
{
    const std::string cluster = (kData + QStringLiteral("/plan/cluster.json")).toStdString();
    FleetDocument doc;
    doc.cluster = importers::loadClusterFiles({ cluster });
    doc.provenance = importers::sourceOfFiles({ cluster });
    doc.provenance.files.front().name = "cluster.json";
    doc.takenAt = "2026-12-06T07:00:00Z";
    doc.topologyKeys = model::TopologySpec::defaults().levelKeys;
    const importers::PlanDocument plan = importers::readPlanFile((kData + QStringLiteral("/plan/plan.json")).toStdString());
    doc.plans.push_back({ "plan", importers::planJson(plan), "{\"evaluated\": true}", "moves web off cpu-a1", doc.takenAt });
    return doc;
}

std::string errorOf(std::string_view bytes, const std::string& name = "doc.fleet")
{
    try {
        (void)importers::readFleetDocument(bytes, name);
    } catch (const FleetDocumentError& e) {
        return e.what();
    }
    return {};
}

// The image with one SQL statement run on a writable copy.
std::string altered(const std::string& image, const char* sql)
{
    using namespace importers::document;
    Sqlite db(":memory:");
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(image.size()));
    std::memcpy(copy, image.data(), image.size());
    if (sqlite3_deserialize(db.handle(), "main", copy, image.size(), image.size(), SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        != SQLITE_OK)
        return {};
    db.run(sql);
    return db.serialize();
}

} // namespace

class TestFleetDocument : public QObject {
    Q_OBJECT
private slots:
    void roundTripsStateAndPlans();
    void shippedVersion1FixtureOpens();
    void shippedVersion2FixtureOpens();
    void textsAreChecksummed();
    void refusesNewerVersionAndOtherFiles();
    void refusesOtherSchemaAndValues();
    void bitFlipsAndTruncationNeverCrash();
    void flippedPodUidIsRefused();
    void openLeavesFileUnchanged();
    void saveRefusesOverNewerDocument();
    void refusesControlCharactersInNames_data();
    void refusesControlCharactersInNames();
    void checksNamesOncePerString();
    void stringsInternedAsInflated();
    void refusesDuplicatePods();
};

void TestFleetDocument::roundTripsStateAndPlans()
{
    FleetDocument doc;
    doc.cluster = importers::loadClusterFiles(schedulingFiles());
    doc.provenance = importers::sourceOfFiles(schedulingFiles());
    doc.takenAt = "2026-12-06T07:00:00Z";
    doc.topologyKeys = { "topology.kubernetes.io/zone" };
    doc.priceTableCsv = "region,instance_type,capacity_type,usd_per_hour\n";
    doc.plans.push_back({ "first", importers::planJson(importers::readPlanFile((kData + "/plan/plan.json").toStdString())), "{}", "notes",
                          doc.takenAt });
    doc.plans.push_back({ "second", doc.plans.front().planJson, "", "", doc.takenAt });
    const std::string image = importers::serializeFleetDocument(doc, "doc.fleet");
    const FleetDocument back = importers::readFleetDocument(image, "doc.fleet");
    QCOMPARE(summaryOf(back.cluster), summaryOf(doc.cluster));
    QCOMPARE(back.cluster.store->disruptionBudgets().size(), doc.cluster.store->disruptionBudgets().size());
    QVERIFY(back.cluster.store->namespacesKnown());
    QCOMPARE(back.provenance.files.size(), doc.provenance.files.size());
    QCOMPARE(back.provenance.files[0].sha256, doc.provenance.files[0].sha256);
    QCOMPARE(importers::sourceDifference(doc.provenance, back.provenance), std::string());
    QCOMPARE(back.takenAt, doc.takenAt);
    QCOMPARE(back.topologyKeys, doc.topologyKeys);
    QCOMPARE(back.cluster.topology->levelKeys(), std::vector<std::string>({ "topology.kubernetes.io/zone" }));
    QCOMPARE(back.priceTableCsv, doc.priceTableCsv);
    QCOMPARE(back.plans.size(), std::size_t(2));
    QCOMPARE(back.plans[0].name, std::string("first"));
    QCOMPARE(back.plans[0].planJson, doc.plans[0].planJson);
    QCOMPARE(back.plans[0].evaluationJson, std::string("{}"));
    QCOMPARE(back.plans[0].notes, std::string("notes"));
    QCOMPARE(back.plans[1].name, std::string("second"));
    // Serializing what was opened gives the same cluster again (the columns are a fixed point).
    const FleetDocument again = importers::readFleetDocument(importers::serializeFleetDocument(back, "again.fleet"), "again.fleet");
    QCOMPARE(summaryOf(again.cluster), summaryOf(doc.cluster));

    doc.plans.push_back({ "first", "", "", "", "" });
    QVERIFY_THROWS_EXCEPTION(FleetDocumentError, (void)importers::serializeFleetDocument(doc, "doc.fleet"));
}

void TestFleetDocument::shippedVersion1FixtureOpens()
{
    // Written by the first version and never rewritten: every later version must open it
    // (a migration from version 1, when there is a version 2, is tested here).
    const std::string path = (kData + QStringLiteral("/document/plan-cluster-v1.fleet")).toStdString();
    QVERIFY(importers::isFleetDocumentFile(path));
    const FleetDocument doc = importers::openFleetDocument(path);
    QCOMPARE(summaryOf(doc.cluster), summaryOf(planDocument().cluster));
    QCOMPARE(doc.plans.size(), std::size_t(1));
    QCOMPARE(doc.plans[0].name, std::string("plan"));
    QCOMPARE(importers::parsePlanText(doc.plans[0].planJson, "plan").actions.size(), std::size_t(4));
    QCOMPARE(doc.provenance.files.at(0).name, std::string("cluster.json"));
    QVERIFY2(doc.takenAt.size() == 20 && doc.takenAt.starts_with("2026-") && doc.takenAt.ends_with("Z"), doc.takenAt.c_str());
    QVERIFY(doc.plans[0].evaluationJson.find("\"actions\"") != std::string::npos);
    // Migrated: saved again it is a version-3 document (plans compressed, texts checksummed)
    // with the same plans.
    const std::string image = importers::serializeFleetDocument(doc, "migrated.fleet");
    QCOMPARE(image.substr(60, 4), std::string("\0\0\0\3", 4));
    const FleetDocument migrated = importers::readFleetDocument(image, "migrated.fleet");
    QCOMPARE(summaryOf(migrated.cluster), summaryOf(doc.cluster));
    QCOMPARE(migrated.plans.size(), std::size_t(1));
    QCOMPARE(migrated.plans[0].planJson, doc.plans[0].planJson);
    QCOMPARE(migrated.plans[0].evaluationJson, doc.plans[0].evaluationJson);
    QCOMPARE(migrated.plans[0].savedAt, doc.plans[0].savedAt);
    // Its plans, read alone, are the same.
    const QString copy = QDir::temp().filePath(QStringLiteral("tst_fleetdocument-migrated-%1.fleet").arg(QCoreApplication::applicationPid()));
    {
        QFile f(copy);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(image.data(), qint64(image.size())) == qint64(image.size()));
    }
    const auto plans = importers::readFleetDocumentPlans(copy.toStdString());
    QFile::remove(copy);
    QCOMPARE(plans.size(), std::size_t(1));
    QCOMPARE(plans[0].evaluationJson, doc.plans[0].evaluationJson);
}

void TestFleetDocument::shippedVersion2FixtureOpens()
{
    // Written by version 2 (`fleetscope save cluster.json --plan plan.json` of that version) and
    // never rewritten: its texts have no checksum, and it opens as it is.
    const std::string path = (kData + QStringLiteral("/document/plan-cluster-v2.fleet")).toStdString();
    std::string bytes;
    {
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        bytes.assign(all.constData(), static_cast<std::size_t>(all.size()));
    }
    QCOMPARE(bytes.substr(60, 4), std::string("\0\0\0\2", 4));
    const FleetDocument doc = importers::openFleetDocument(path);
    QCOMPARE(summaryOf(doc.cluster), summaryOf(planDocument().cluster));
    QCOMPARE(doc.plans.size(), std::size_t(1));
    QCOMPARE(doc.plans[0].name, std::string("plan"));
    QCOMPARE(importers::parsePlanText(doc.plans[0].planJson, "plan").actions.size(), std::size_t(4));
    QVERIFY(doc.plans[0].evaluationJson.find("\"actions\"") != std::string::npos);
    QCOMPARE(doc.provenance.files.at(0).name, std::string("cluster.json"));
    QCOMPARE(importers::readFleetDocumentPlans(path).size(), std::size_t(1));
    QCOMPARE(importers::readFleetDocumentProvenance(path).files.at(0).sha256, doc.provenance.files.at(0).sha256);
    // A version-2 file never has the checksum: a key version 2 does not write.
    const std::string keyed = errorOf(altered(bytes, "INSERT INTO document VALUES ('text_crc32', '00000000')"), "v2.fleet");
    QVERIFY2(keyed.find("document.text_crc32 is not a key version 2 writes") != std::string::npos, keyed.c_str());
    // Migrated: saved again it is a version-3 document, its texts checksummed, the same state.
    const std::string image = importers::serializeFleetDocument(doc, "migrated.fleet");
    QCOMPARE(image.substr(60, 4), std::string("\0\0\0\3", 4));
    const FleetDocument migrated = importers::readFleetDocument(image, "migrated.fleet");
    QCOMPARE(summaryOf(migrated.cluster), summaryOf(doc.cluster));
    QCOMPARE(migrated.plans.size(), std::size_t(1));
    QCOMPARE(migrated.plans[0].planJson, doc.plans[0].planJson);
    QCOMPARE(migrated.plans[0].notes, doc.plans[0].notes);
    QCOMPARE(migrated.provenance.files.at(0).sha256, doc.provenance.files.at(0).sha256);
    QCOMPARE(migrated.takenAt, doc.takenAt);
}

// The texts that zlib's checksums do not cover (the document table's values, the source files'
// names and digests, warnings, topology keys, plans' names, notes and times) are covered by
// the document's CRC-32 from version 3 on: a text changed in the file, though still a valid
// value, is refused by every reader, naming what is wrong.
void TestFleetDocument::textsAreChecksummed()
{
    FleetDocument doc = planDocument();
    doc.cluster.report.warnings = { "a warning" };
    const std::string image = importers::serializeFleetDocument(doc, "doc.fleet");
    QVERIFY(errorOf(image).empty());
    const char* changes[] = {
        "UPDATE document SET value = '2026-12-06T07:00:01Z' WHERE key = 'taken_at'",
        "UPDATE document SET value = value || 'x' WHERE key = 'source_label'",
        "UPDATE document SET value = value || '0' WHERE key = 'nodes_read'",
        "UPDATE source_files SET sha256 = replace(sha256, substr(sha256, 1, 1), CASE substr(sha256, 1, 1) WHEN 'a' THEN 'b' ELSE 'a' END)",
        "UPDATE source_files SET name = 'other.json'",
        "UPDATE warnings SET text = 'a warnin'",
        "DELETE FROM warnings",
        "UPDATE topology_keys SET key = 'zone' WHERE position = 0",
        "UPDATE plans SET notes = 'moves web off cpu-a2'",
        "UPDATE plans SET saved_at = '2026-12-06T07:00:01Z'",
        "UPDATE plans SET name = 'plan 2'",
        "UPDATE document SET value = CASE substr(value, 1, 1) WHEN '0' THEN '1' ELSE '0' END || substr(value, 2) WHERE key = 'text_crc32'",
    };
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("changed.fleet"));
    for (const char* sql : changes) {
        const std::string changed = altered(image, sql);
        QVERIFY2(!changed.empty() && changed != image, sql);
        const std::string e = errorOf(changed);
        QVERIFY2(e.starts_with("doc.fleet: damaged: its texts") && e.find("do not match their CRC-32") != std::string::npos,
                 (std::string(sql) + " -> " + e).c_str());
        // The readers of the provenance alone and of the plans alone check it too.
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(f.write(changed.data(), qint64(changed.size())), qint64(changed.size()));
        f.close();
        QVERIFY_THROWS_EXCEPTION(FleetDocumentError, (void)importers::readFleetDocumentProvenance(path.toStdString()));
        QVERIFY_THROWS_EXCEPTION(FleetDocumentError, (void)importers::readFleetDocumentPlans(path.toStdString()));
    }
    const std::string missing = errorOf(altered(image, "DELETE FROM document WHERE key = 'text_crc32'"));
    QVERIFY2(missing.find("document.text_crc32 is missing") != std::string::npos, missing.c_str());
}

void TestFleetDocument::refusesNewerVersionAndOtherFiles()
{
    std::string image = importers::serializeFleetDocument(planDocument(), "doc.fleet");
    QCOMPARE(image.substr(68, 4), std::string("FSCP"));
    QCOMPARE(image.substr(60, 4), std::string("\0\0\0\3", 4));

    std::string newer = image;
    newer[63] = 4;
    const std::string e = errorOf(newer, "new.fleet");
    QVERIFY2(e.starts_with("new.fleet: written by a newer Fleetscope (document version 4)"), e.c_str());
    // A version-3 file that says it is version 1 has the wrong tables for it.
    std::string older = image;
    older[63] = 1;
    QVERIFY2(errorOf(older).find("its tables are not those of a version-1 document") != std::string::npos, errorOf(older).c_str());

    std::string other = image;
    other.replace(68, 4, "ABCD");
    QVERIFY2(errorOf(other).find("not a Fleetscope document (an SQLite database with application_id 0x41424344") != std::string::npos,
             errorOf(other).c_str());
    QVERIFY2(errorOf("{\"kind\": \"List\"}").find("not a Fleetscope document (not an SQLite database)") != std::string::npos,
             errorOf("{}").c_str());
    QVERIFY2(errorOf(image.substr(0, 50)).find("cut short: 50 bytes, less than an SQLite header") != std::string::npos,
             errorOf(image.substr(0, 50)).c_str());
    // Cut past its header (a copy that ended early): SQLite finds it malformed, and the error
    // says the file is shorter than its header gives.
    QVERIFY2(image.size() > 20000, std::to_string(image.size()).c_str());
    const std::string cut = errorOf(image.substr(0, 10000));
    QVERIFY2(cut.find("the file is cut short, 10,000 bytes of the ") != std::string::npos, cut.c_str());

    // user_version is signed: -1 is said as -1, not as 4294967295.
    std::string negative = image;
    negative.replace(60, 4, "\xff\xff\xff\xff");
    QCOMPARE(errorOf(negative, "neg.fleet"),
             std::string("neg.fleet: document version -1 is not one Fleetscope ever wrote (user_version -1)"));
    // WAL journal mode (header bytes 18 and 19 set to 2, as PRAGMA journal_mode=WAL sets them):
    // said as such, not as SQLite's "unable to open database file".
    std::string wal = image;
    wal[18] = 2;
    wal[19] = 2;
    QCOMPARE(errorOf(wal, "wal.fleet"),
             std::string("wal.fleet: is in SQLite's WAL journal mode, which Fleetscope never writes (another program changed it): "
                         "turn WAL off with  sqlite3 FILE 'PRAGMA journal_mode=DELETE'  and open it again"));
    // A damaged header (the largest root page, bytes 52-55) makes quick_check list some 15
    // problems, a line each: the message keeps the first two, on one line, and counts the rest.
    std::string rootPage = image;
    rootPage[52] = '\xff';
    const std::string damaged = errorOf(rootPage, "root.fleet");
    QVERIFY2(damaged.starts_with("root.fleet: damaged (SQLite quick_check: max rootpage ("), damaged.c_str());
    QVERIFY2(damaged.find('\n') == std::string::npos, damaged.c_str());
    QVERIFY2(damaged.find("*** in database main ***") == std::string::npos, damaged.c_str());
    QVERIFY2(damaged.ends_with(" more)"), damaged.c_str());
    // A bad plan inside a document names the file once, then the plan (the plan_zlib bytes are
    // {"fleetscopePlan": 7}, 21 bytes, deflated at level 1).
    const std::string badPlan = errorOf(altered(image, "UPDATE plans SET plan_zlib = X'7801ab564acb494d2d294ece2f480dc849cc53b25230af0500575e0783', plan_size = 21"), "doc.fleet");
    QVERIFY2(badPlan.starts_with("doc.fleet: plan \"plan\""), badPlan.c_str());
    QVERIFY2(badPlan.find("doc.fleet", 1) == std::string::npos, badPlan.c_str());
}

void TestFleetDocument::refusesOtherSchemaAndValues()
{
    const std::string image = importers::serializeFleetDocument(planDocument(), "doc.fleet");
    QVERIFY(errorOf(image).empty());
    // A trigger, a view or a table more: the schema is matched exactly.
    for (const char* sql : { "CREATE TABLE extra(a)", "CREATE VIEW v AS SELECT 1",
                             "CREATE TRIGGER t AFTER INSERT ON warnings BEGIN DELETE FROM plans; END",
                             "CREATE INDEX i ON plans(notes)" }) {
        const std::string e = errorOf(altered(image, sql));
        QVERIFY2(e.find("the schema differs") != std::string::npos, (std::string(sql) + ": " + e).c_str());
    }
    // Values the reader checks.
    const std::pair<const char*, const char*> cases[] = {
        { "UPDATE document SET value = 'many' WHERE key = 'nodes_read'", "document.nodes_read is \"many\", expected a count" },
        { "DELETE FROM document WHERE key = 'taken_at'", "document.taken_at is missing" },
        { "INSERT INTO document VALUES ('extra', '')", "document.extra is not a key version 3 writes" },
        { "UPDATE columns SET raw_size = raw_size + 1 WHERE name = 'nodes'", "column nodes: the compressed data is damaged" },
        { "UPDATE columns SET raw_size = 1000000000000 WHERE name = 'pods'", "more than zlib can hold" },
        { "UPDATE columns SET compression = 'lz4' WHERE name = 'pods'", "column pods is compressed with \"lz4\"" },
        { "DELETE FROM columns WHERE name = 'usage'", "column usage is missing" },
        { "UPDATE columns SET data = 1 WHERE name = 'strings'", "holds a integer, expected a blob" },
        { "UPDATE plans SET plan_size = plan_size + 1", "column plans.plan.plan: the compressed data is damaged" },
        { "UPDATE plans SET evaluation_zlib = X'00', evaluation_size = 0", "plans.plan.evaluation holds data but its size says 0" },
        { "UPDATE plans SET evaluation_size = -1", "plans.plan.evaluation has a negative size" },
        // A tiny file claiming a huge inflated plan is refused before anything is inflated.
        { "UPDATE plans SET evaluation_size = 300000000", "more than the 268435456 bytes a plan's evaluation may hold" },
        { "UPDATE plans SET plan_size = 900000000", "more than the 536870912 bytes a plan may hold" },
        { "UPDATE plans SET plan_zlib = X'78014b4a4c4c010003d50189', plan_size = 4", "plan \"plan\"" },
        // A compressed stream is consumed exactly: bytes after its end were not written by a save.
        { "UPDATE plans SET plan_zlib = CAST(plan_zlib || X'00112233' AS BLOB)", "plans.plan.plan: 4 bytes follow the end of the compressed data" },
        { "UPDATE columns SET data = CAST(data || X'0011' AS BLOB) WHERE name = 'nodes'", "column nodes: 2 bytes follow the end of the compressed data" },
        // A plan's name is typed back on a command line and shown in the Plans list.
        { "UPDATE plans SET name = CAST(X'61FFFE62' AS TEXT)", "a plan's name \"a\\xFF\\xFEb\" is not printable UTF-8 text" },
        { "UPDATE plans SET name = 'a' || char(9) || 'b'", "a plan's name \"a\\x09b\" is not printable UTF-8 text" },
        { "UPDATE plans SET name = 'a' || char(8238) || 'b'", "is not printable UTF-8 text" },
        { "UPDATE source_files SET sha256 = 'x'", "has no SHA-256 digest" },
        { "UPDATE columns SET data = (SELECT data FROM columns WHERE name = 'pods'), raw_size = (SELECT raw_size FROM columns WHERE "
          "name = 'pods') WHERE name = 'nodes'",
          "column nodes, byte" },
    };
    for (const auto& [sql, expected] : cases) {
        const std::string e = errorOf(altered(image, sql));
        QVERIFY2(e.starts_with("doc.fleet: ") && e.find(expected) != std::string::npos, (std::string(sql) + " -> " + e).c_str());
    }
    // The writer refuses what the reader would.
    FleetDocument named = planDocument();
    named.plans.front().name = "tab\there";
    try {
        (void)importers::serializeFleetDocument(named, "named.fleet");
        QFAIL("a plan named with a tab was saved");
    } catch (const importers::FleetDocumentError& e) {
        QVERIFY2(std::string(e.what()).find("\"tab\\x09here\" is not printable UTF-8 text") != std::string::npos, e.what());
    }
}

void TestFleetDocument::bitFlipsAndTruncationNeverCrash()
{
    FleetDocument doc;
    doc.cluster = importers::loadClusterFiles(schedulingFiles());
    doc.plans = planDocument().plans;
    const std::string image = importers::serializeFleetDocument(doc, "doc.fleet");
    const std::string expected = summaryOf(doc.cluster);
    int errors = 0, opened = 0;
    auto tryOpen = [&](const std::string& bytes, const std::string& what) {
        try {
            const FleetDocument d = importers::readFleetDocument(bytes, "doc.fleet");
            ++opened;
            // A flip SQLite and zlib cannot see (an unused byte, a free page) leaves a store
            // that is whole: the same nodes and pods.
            QVERIFY2(d.cluster.store->nodeCount() == doc.cluster.store->nodeCount()
                         && d.cluster.store->podCount() == doc.cluster.store->podCount(),
                     what.c_str());
            for (model::PodId p { 0 }; p.value < d.cluster.store->podCount(); ++p.value)
                QVERIFY2(d.cluster.store->podUid(p) == doc.cluster.store->podUid(p), what.c_str());
        } catch (const FleetDocumentError& e) {
            ++errors;
            QVERIFY2(std::string(e.what()).starts_with("doc.fleet: "), (what + ": " + e.what()).c_str());
        }
    };
    // Every 7th byte of the first 8 KB (header, schema, document table), then spread over the rest.
    for (std::size_t at = 0; at < image.size(); at += at < 8192 ? 7 : 97) {
        std::string flipped = image;
        flipped[at] = static_cast<char>(flipped[at] ^ (1 << (at % 8)));
        tryOpen(flipped, "bit flip at " + std::to_string(at));
    }
    for (std::size_t size = 0; size < image.size(); size += size < 200 ? 1 : 509)
        tryOpen(image.substr(0, size), "cut at " + std::to_string(size));
    QVERIFY(errors > 100);
    QVERIFY(opened > 0);
    QCOMPARE(summaryOf(importers::readFleetDocument(image, "doc.fleet").cluster), expected);
}

void TestFleetDocument::flippedPodUidIsRefused()
{
    // A pod's uid is kept as its 16 bytes; a bit flipped in them must not open as another uid
    // (the column is checked as every other one is: zlib's Adler-32).
    FleetDocument doc;
    doc.cluster = importers::loadClusterFiles(schedulingFiles());
    const std::string image = importers::serializeFleetDocument(doc, "doc.fleet");
    std::string uidBytes;
    for (model::PodId p { 0 }; p.value < doc.cluster.store->podCount() && uidBytes.empty(); ++p.value) {
        const QByteArray hex = QByteArray(doc.cluster.store->podUid(p).data(), static_cast<qsizetype>(doc.cluster.store->podUid(p).size())).replace('-', "");
        if (hex.size() == 32)
            uidBytes = QByteArray::fromHex(hex).toStdString();
    }
    QVERIFY2(uidBytes.size() == 16, "the fixture has a pod with a canonical uid");
    const std::size_t at = image.find(uidBytes);
    QVERIFY2(at != std::string::npos, "the uid's bytes are in the file");
    std::string flipped = image;
    flipped[at + 5] = static_cast<char>(flipped[at + 5] ^ 0x10);
    try {
        (void)importers::readFleetDocument(flipped, "doc.fleet");
        QFAIL("a flipped uid opened");
    } catch (const FleetDocumentError& e) {
        QVERIFY2(std::string(e.what()).find("pod_uids") != std::string::npos, e.what());
    }
}

void TestFleetDocument::openLeavesFileUnchanged()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.fleet"));
    importers::saveFleetDocument(planDocument(), path.toStdString());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("state.fleet") });
    // An mtime in the past, so that a rewrite within the same second would show.
    const QByteArray native = QFile::encodeName(path);
    const struct timespec times[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
    QVERIFY(::utimensat(AT_FDCWD, native.constData(), times, 0) == 0);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    const FleetDocument doc = importers::openFleetDocument(path.toStdString());
    QCOMPARE(doc.plans.size(), std::size_t(1));
    struct stat st {};
    QVERIFY(::stat(native.constData(), &st) == 0);
    QCOMPARE(st.st_mtim.tv_sec, time_t(1000000000));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("state.fleet") });
}

void TestFleetDocument::saveRefusesOverNewerDocument()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.fleet"));
    std::string newer = importers::serializeFleetDocument(planDocument(), "x");
    newer[63] = 4;
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(newer.data(), static_cast<qint64>(newer.size()));
    f.close();
    try {
        importers::saveFleetDocument(planDocument(), path.toStdString());
        QFAIL("saved over a newer document");
    } catch (const FleetDocumentError& e) {
        QVERIFY2(std::string(e.what()).find("written by a newer Fleetscope (document version 4)") != std::string::npos, e.what());
    }
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray(newer.data(), static_cast<qsizetype>(newer.size())));
}


void TestFleetDocument::refusesControlCharactersInNames_data()
{
    QTest::addColumn<std::string>("nodeName");
    QTest::addColumn<std::string>("labelValue");
    QTest::addColumn<std::string>("expected");
    QTest::newRow("ESC in a node name") << std::string("cpu\x1b[2J") << std::string("z")
                                        << std::string("the node name \"cpu\\x1B[2J\" holds the control character \\x1B (byte 4)");
    QTest::newRow("NUL in a node name") << std::string("cpu\0x", 5) << std::string("z")
                                        << std::string("the node name \"cpu\\x00x\" holds the control character \\x00 (byte 4)");
    QTest::newRow("CR in a label value") << std::string("cpu") << std::string("z\r")
                                         << std::string("the label value \"z\\x0D\" holds the control character \\x0D (byte 2)");
}

// No Kubernetes name or label holds a control character: a document whose names hold one (a
// forged file; every importer refuses such names) is refused as a whole, naming the node.
void TestFleetDocument::refusesControlCharactersInNames()
{
    QFETCH(std::string, nodeName);
    QFETCH(std::string, labelValue);
    QFETCH(std::string, expected);
    FleetDocument doc = planDocument();
    auto store = std::make_shared<model::ClusterStore>();
    model::NodeRecord node;
    node.name = nodeName;
    node.labels.emplace_back("topology.kubernetes.io/zone", labelValue);
    store->addNode(node);
    store->finalize();
    doc.cluster.store = store;
    doc.cluster.usage.reset();
    const std::string e = errorOf(importers::serializeFleetDocument(doc, "forged.fleet"), "forged.fleet");
    QVERIFY2(e.starts_with("forged.fleet: "), e.c_str());
    QVERIFY2(e.find("column nodes: node 1: " + expected + ", which no Kubernetes name or label holds") != std::string::npos, e.c_str());
}

// Names are checked once per interned string: a control character in a string that is no name
// (a condition's message may hold a newline) leaves the document open, and a pod's name that
// holds one is refused naming that pod.
void TestFleetDocument::checksNamesOncePerString()
{
    FleetDocument doc = planDocument();
    auto store = std::make_shared<model::ClusterStore>();
    model::NodeRecord node;
    node.name = "cpu-1";
    node.labels.emplace_back("topology.kubernetes.io/zone", "z");
    node.conditions.push_back({ "Ready", model::Readiness::True, 0, "KubeletReady", "kubelet is ready.\nSecond line" });
    store->addNode(node);
    model::PodRecord pod;
    pod.namespaceName = "default";
    pod.name = "web-0";
    pod.nodeName = "cpu-1";
    store->addPod(pod);
    store->finalize();
    doc.cluster.store = store;
    doc.cluster.usage.reset();
    const FleetDocument opened = importers::readFleetDocument(importers::serializeFleetDocument(doc, "ok.fleet"), "ok.fleet");
    QCOMPARE(opened.cluster.store->nodeConditions(model::NodeId(0)).size(), std::size_t { 1 });
    QCOMPARE(std::string(opened.cluster.store->str(opened.cluster.store->nodeConditions(model::NodeId(0))[0].message)),
             std::string("kubelet is ready.\nSecond line"));

    pod.name = "web-1\x1b]0;x";
    store = std::make_shared<model::ClusterStore>();
    store->addNode(node);
    store->addPod(pod);
    store->finalize();
    doc.cluster.store = store;
    const std::string e = errorOf(importers::serializeFleetDocument(doc, "forged.fleet"), "forged.fleet");
    QVERIFY2(e.find("column pods: pod 1: the pod name \"web-1\\x1B]0;x\" holds the control character \\x1B (byte 6)") != std::string::npos,
             e.c_str());
}
// The strings column is interned while it is inflated, a chunk of 1 MiB at a time
// (inflatingcolumn.h): a state whose strings take several chunks opens exactly, and a byte
// damaged in the middle of them is reported as zlib's damage, not as whatever the garbage
// inflated before zlib's checksum decoded to.
void TestFleetDocument::stringsInternedAsInflated()
{
    FleetDocument doc;
    doc.cluster = importers::loadSimulatedCluster({ 10000, 7 });
    const std::string image = importers::serializeFleetDocument(doc, "big.fleet");
    using namespace importers::document;
    std::int64_t rawSize = 0, compressedSize = 0;
    {
        Sqlite db = Sqlite::openReadOnlyImage(image);
        Statement q(db, "SELECT raw_size, length(data) FROM columns WHERE name = 'strings'");
        QVERIFY(q.step());
        rawSize = q.integer(0);
        compressedSize = q.integer(1);
    }
    QVERIFY2(rawSize > 3 * (1 << 20), std::to_string(rawSize).c_str()); // several chunks
    QCOMPARE(summaryOf(importers::readFleetDocument(image, "big.fleet").cluster), summaryOf(doc.cluster));

    for (const std::int64_t at : { compressedSize / 2, compressedSize * 7 / 8 }) {
        const std::string sql = "UPDATE columns SET data = CAST(substr(data, 1, " + std::to_string(at) + ") || X'A5' || substr(data, "
            + std::to_string(at + 2) + ") AS BLOB) WHERE name = 'strings'";
        const std::string e = errorOf(altered(image, sql.c_str()), "big.fleet");
        QVERIFY2(e.starts_with("big.fleet: column strings: the compressed data is damaged (zlib: "), (sql + " -> " + e).c_str());
    }
    // Cut short (its size says more than the stream holds) and followed by bytes of no stream.
    QVERIFY(errorOf(altered(image, "UPDATE columns SET raw_size = raw_size + 1 WHERE name = 'strings'"), "big.fleet")
                .starts_with("big.fleet: column strings: the compressed data is damaged (zlib: inflates to "));
    QCOMPARE(errorOf(altered(image, "UPDATE columns SET data = CAST(data || X'0011' AS BLOB) WHERE name = 'strings'"), "big.fleet"),
             std::string("big.fleet: column strings: 2 bytes follow the end of the compressed data"));
}

// Two pods of one namespace and name (checked beside the store's finalize and topology) are
// refused naming both.
void TestFleetDocument::refusesDuplicatePods()
{
    FleetDocument doc = planDocument();
    auto store = std::make_shared<model::ClusterStore>();
    model::NodeRecord node;
    node.name = "cpu-1";
    store->addNode(node);
    model::PodRecord pod;
    pod.namespaceName = "default";
    pod.nodeName = "cpu-1";
    for (const char* name : { "web-0", "web-1", "web-0" }) {
        pod.name = name;
        store->addPod(pod);
    }
    store->finalize();
    doc.cluster.store = store;
    doc.cluster.usage.reset();
    QCOMPARE(errorOf(importers::serializeFleetDocument(doc, "dup.fleet"), "dup.fleet"),
             std::string("dup.fleet: column pods: pod 3 has the namespace/name of pod 1"));
}

QTEST_GUILESS_MAIN(TestFleetDocument)
#include "tst_fleetdocument.moc"
