// SPDX-License-Identifier: Apache-2.0
#include "fleetdocument.h"
#include "importers/optionfile.h"

#include "bytecolumns.h"
#include "inflatingcolumn.h"
#include "phasetimer.h"
#include "sqlitehandle_p.h"
#include "storecodec.h"

#include "importers/plan/plansource.h"
#include "importers/plan/plantextcheck.h"
#include "importers/quotedtext.h"
#include "model/figures.h"

#include <algorithm>
#include <vector>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <future>
#include <map>
#include <set>

#include <fcntl.h>
#include <zlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fleet::importers {

using document::DocumentFormatError;
using document::Sqlite;
using document::Statement;

namespace {

// The schema of each version. The reader compares a file's sqlite_schema with the schema an
// empty database made from its version's statements has: any other table, index, trigger or
// view is refused. Version 2 keeps each plan's JSON and its evaluation zlib-compressed (an
// evaluation of a 20,000-action plan at 100,000 nodes is ~60 MB of JSON, ~15x smaller
// compressed); the rest is version 1's.
constexpr const char* kSchemaCommon[] = {
    "CREATE TABLE document(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE source_files(position INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)",
    "CREATE TABLE warnings(position INTEGER PRIMARY KEY, text TEXT NOT NULL)",
    "CREATE TABLE topology_keys(position INTEGER PRIMARY KEY, key TEXT NOT NULL)",
    "CREATE TABLE columns(name TEXT PRIMARY KEY NOT NULL, compression TEXT NOT NULL, raw_size INTEGER NOT NULL, data BLOB NOT NULL)",
};
constexpr const char* kPlansV1 = "CREATE TABLE plans(position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, plan_json TEXT NOT NULL, "
                                 "evaluation_json TEXT NOT NULL, notes TEXT NOT NULL, saved_at TEXT NOT NULL)";
constexpr const char* kPlansV2 = "CREATE TABLE plans(position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, plan_zlib BLOB NOT NULL, "
                                 "plan_size INTEGER NOT NULL, evaluation_zlib BLOB NOT NULL, evaluation_size INTEGER NOT NULL, "
                                 "notes TEXT NOT NULL, saved_at TEXT NOT NULL)";

// The keys of the document table that hold the state's texts; each is present exactly once.
const std::vector<std::string>& documentKeys()
{
    static const std::vector<std::string> keys { "source_label", "taken_at", "server", "resource_version", "simulated",
                                                 "nodes_read", "pods_read", "bytes_read", "price_table_csv", "partial_view" };
    return keys;
}

// From version 3 on, the document table also holds the CRC-32 of the document's texts
// (textChecksum()), as 8 lowercase hex digits.
constexpr const char* kTextChecksumKey = "text_crc32";

bool isDocumentKey(const std::string& key, int version)
{
    return std::find(documentKeys().begin(), documentKeys().end(), key) != documentKeys().end()
        || (version >= 3 && key == kTextChecksumKey);
}

// The CRC-32 (zlib's) of every text of the document that no other checksum covers: the
// document table's values (the checksum's own aside), the source files and their digests, the
// warnings, the topology keys, and each plan's name, notes and time. zlib's Adler-32 covers
// the store's columns and each plan's JSON and evaluation; without this, a damaged digest,
// warning or note would be read as written. Each text is counted with its length and table,
// so that moving characters from one text to the next changes the sum. Read back from the
// database being written (the writer) and from the file (the reader), the same way.
std::string textChecksum(Sqlite& db)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    auto add = [&crc](std::string_view text) {
        const std::string length = std::to_string(text.size()) + ":";
        crc = crc32(crc, reinterpret_cast<const Bytef*>(length.data()), static_cast<uInt>(length.size()));
        // A text of up to 2 GiB (the largest document) in pieces that fit zlib's uInt.
        for (std::size_t at = 0; at < text.size(); at += std::size_t { 1 } << 30) {
            const std::string_view piece = text.substr(at, std::size_t { 1 } << 30);
            crc = crc32(crc, reinterpret_cast<const Bytef*>(piece.data()), static_cast<uInt>(piece.size()));
        }
    };
    // Each table by its name (summed first: which table each text is of), the query of its
    // rows (an integer position first, 0 for the document table's keys, then texts) and how
    // many columns that query has.
    struct Table {
        const char* name;
        const char* sql;
        int columns;
    };
    const Table tables[] = {
        { "document", "SELECT 0, key, value FROM document WHERE key <> 'text_crc32' ORDER BY key", 3 },
        { "source_files", "SELECT position, name, sha256 FROM source_files ORDER BY position", 3 },
        { "warnings", "SELECT position, text FROM warnings ORDER BY position", 2 },
        { "topology_keys", "SELECT position, key FROM topology_keys ORDER BY position", 2 },
        { "plans", "SELECT position, name, notes, saved_at FROM plans ORDER BY position", 4 },
    };
    for (const auto& [name, sql, columns] : tables) {
        add(name);
        Statement q(db, sql);
        while (q.step()) {
            add(std::to_string(q.integer(0)));
            for (int i = 1; i < columns; ++i)
                add(q.text(i));
        }
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08lx", static_cast<unsigned long>(crc & 0xffffffffUL));
    return hex;
}

// A version-3 file's texts against their checksum (a version 1 or 2 file has none).
void checkTextChecksum(Sqlite& db, int version)
{
    if (version < 3)
        return;
    Statement q(db, "SELECT value FROM document WHERE key = 'text_crc32'");
    if (!q.step())
        throw DocumentFormatError("document.text_crc32 is missing");
    const std::string stored = q.text(0);
    if (const std::string computed = textChecksum(db); stored != computed)
        throw DocumentFormatError("damaged: its texts (provenance, warnings, topology keys or plans' names, notes and times) do not "
                                  "match their CRC-32 (" + computed + ", the file says \"" + stored.substr(0, 16) + "\")");
}

std::uint32_t bigEndian32(const unsigned char* p) noexcept
{
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

std::string hex32(std::uint32_t v)
{
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return b;
}

void createSchema(Sqlite& db, int version)
{
    for (const char* sql : kSchemaCommon)
        db.run(sql);
    db.run(version == 1 ? kPlansV1 : kPlansV2);
}

// sqlite_schema of `db` as text, one line per object, ordered by name.
std::string schemaText(Sqlite& db)
{
    Statement q(db, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY name");
    std::string text;
    while (q.step())
        text += q.text(0) + "|" + q.text(1) + "|" + q.text(2) + "|" + q.text(3) + "\n";
    return text;
}

const std::string& expectedSchema(int version)
{
    static const std::string texts[2] = { [] {
                                             Sqlite db(":memory:");
                                             createSchema(db, 1);
                                             return schemaText(db);
                                         }(),
                                          [] {
                                              Sqlite db(":memory:");
                                              createSchema(db, 2);
                                              return schemaText(db);
                                          }() };
    return texts[version == 1 ? 0 : 1];
}

// A check of the header before SQLite reads anything: says "not a document" or "newer" plainly.
void checkHeader(std::string_view bytes)
{
    static constexpr char kMagic[] = "SQLite format 3";
    if (bytes.size() < 100 || std::memcmp(bytes.data(), kMagic, 16) != 0)
        throw DocumentFormatError(bytes.size() < 100 && bytes.size() >= 16 && std::memcmp(bytes.data(), kMagic, 16) == 0
                                      ? "cut short: " + std::to_string(bytes.size()) + " bytes, less than an SQLite header"
                                      : "not a Fleetscope document (not an SQLite database)");
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint32_t app = bigEndian32(p + 68);
    if (app != kFleetApplicationId)
        throw DocumentFormatError("not a Fleetscope document (an SQLite database with application_id " + hex32(app)
                                  + ", expected " + hex32(kFleetApplicationId) + " \"FSCP\")");
    // user_version is a signed 32-bit integer (SQLite's file format, offset 60).
    const auto version = static_cast<std::int32_t>(bigEndian32(p + 60));
    if (version > kFleetDocumentVersion)
        throw DocumentFormatError("written by a newer Fleetscope (document version " + std::to_string(version)
                                  + "); this Fleetscope reads versions 1 to " + std::to_string(kFleetDocumentVersion)
                                  + ": open it with a newer Fleetscope");
    if (version < 1)
        throw DocumentFormatError("document version " + std::to_string(version) + " is not one Fleetscope ever wrote (user_version "
                                  + std::to_string(version) + ")");
    // Bytes 18 and 19 are 2 in WAL journal mode. Fleetscope never writes one: another program
    // changed the file, and its latest changes may sit in a -wal file beside it, which an
    // image read into memory cannot see (SQLite would say only "unable to open database file").
    if (p[18] == 2 || p[19] == 2)
        throw DocumentFormatError("is in SQLite's WAL journal mode, which Fleetscope never writes (another program changed it): "
                                  "turn WAL off with  sqlite3 FILE 'PRAGMA journal_mode=DELETE'  and open it again");
}

std::string readAll(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw FleetDocumentError(path, std::string("cannot open the file: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer { fd };
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw FleetDocumentError(path, std::string("cannot read the file: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        throw FleetDocumentError(path, "is a folder, not a .fleet document");
    if (!S_ISREG(st.st_mode))
        throw FleetDocumentError(path, "is not a regular file (pipes and devices are not read)");
    if (static_cast<std::uint64_t>(st.st_size) > kMaxFleetDocumentBytes)
        throw FleetDocumentError(path, "is " + std::to_string(st.st_size) + " bytes, more than the "
                                           + std::to_string(kMaxFleetDocumentBytes >> 20) + " MiB a document may have");
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw FleetDocumentError(path, std::string("cannot read the file: ") + std::strerror(errno));
        if (n == 0)
            throw FleetDocumentError(path, "the file shrank while it was read");
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

// The header check, then SQLite over the bytes with the untrusted checks: quick_check, the
// exact schema, the version again.
Sqlite openChecked(std::string_view bytes)
{
    checkHeader(bytes);
    Sqlite db = Sqlite::openReadOnlyImage(bytes);
    {
        // quick_check lists up to 100 problems, several to a row and one a line, most of them
        // consequences of the first: the message keeps the first two (one line, each cut at
        // 200 characters) and says how many more there are.
        Statement check(db, "PRAGMA quick_check");
        std::vector<std::string> problems;
        while (check.step()) {
            const std::string row = check.text(0);
            if (row == "ok")
                continue;
            std::size_t start = 0;
            while (start <= row.size()) {
                const std::size_t end = std::min(row.find('\n', start), row.size());
                const std::string line = row.substr(start, end - start);
                if (!line.empty() && line != "*** in database main ***")
                    problems.push_back(line.size() > 200 ? line.substr(0, 200) + "..." : line);
                start = end + 1;
            }
        }
        if (!problems.empty()) {
            std::string shown = problems[0];
            if (problems.size() > 1)
                shown += "; " + problems[1];
            if (problems.size() > 2)
                shown += "; and " + std::to_string(problems.size() - 2) + " more";
            throw DocumentFormatError("damaged (SQLite quick_check: " + shown + ")");
        }
    }
    const int version = static_cast<int>(bigEndian32(reinterpret_cast<const unsigned char*>(bytes.data()) + 60));
    if (schemaText(db) != expectedSchema(version))
        throw DocumentFormatError("its tables are not those of a version-" + std::to_string(version) + " document (the schema differs)");
    Statement v(db, "PRAGMA user_version");
    if (!v.step() || v.integer(0) != version)
        throw DocumentFormatError("user_version differs from the header's");
    return db;
}

// The version the header names (checkHeader() passed).
int documentVersion(std::string_view bytes)
{
    return static_cast<int>(bigEndian32(reinterpret_cast<const unsigned char*>(bytes.data()) + 60));
}

PlanSource readProvenance(Sqlite& db)
{
    PlanSource source;
    Statement kv(db, "SELECT key, value FROM document WHERE key IN ('server', 'resource_version', 'simulated')");
    while (kv.step())
        (kv.text(0) == "server" ? source.server : kv.text(0) == "simulated" ? source.simulated : source.resourceVersion) = kv.text(1);
    Statement q(db, "SELECT name, sha256 FROM source_files ORDER BY position");
    while (q.step()) {
        PlanSource::File f { q.text(0), q.text(1) };
        if (f.sha256.size() != 64 || !std::all_of(f.sha256.begin(), f.sha256.end(), [](char ch) {
                return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
            }))
            throw DocumentFormatError("source file \"" + f.name.substr(0, 80) + "\" has no SHA-256 digest");
        source.files.push_back(std::move(f));
    }
    return source;
}

// A plan as the plans table holds it: version 1's texts, or version 2's compressed texts.
struct PlanRow {
    DocumentPlan plan; // name, notes, savedAt; version 1: the texts too
    std::string planZlib, evaluationZlib;
    std::int64_t planSize = 0, evaluationSize = 0;
};

std::vector<PlanRow> readPlanRows(Sqlite& db, int version)
{
    std::vector<PlanRow> rows;
    Statement q(db, version == 1 ? "SELECT name, plan_json, evaluation_json, notes, saved_at FROM plans ORDER BY position"
                                 : "SELECT name, plan_zlib, plan_size, evaluation_zlib, evaluation_size, notes, saved_at FROM plans "
                                   "ORDER BY position");
    while (q.step()) {
        PlanRow& r = rows.emplace_back();
        r.plan.name = q.text(0);
        if (r.plan.name.empty())
            throw DocumentFormatError("a plan has no name");
        if (version == 1) {
            r.plan.planJson = q.text(1);
            r.plan.evaluationJson = q.text(2);
            r.plan.notes = q.text(3);
            r.plan.savedAt = q.text(4);
        } else {
            r.planZlib = q.blob(1);
            r.planSize = q.integer(2);
            r.evaluationZlib = q.blob(3);
            r.evaluationSize = q.integer(4);
            r.plan.notes = q.text(5);
            r.plan.savedAt = q.text(6);
        }
    }
    return rows;
}

// A compressed text inflated to exactly its size ("" for size 0).
std::string inflatedText(const std::string& data, std::int64_t rawSize, const std::string& what)
{
    if (rawSize < 0)
        throw DocumentFormatError(what + " has a negative size");
    if (rawSize == 0) {
        if (!data.empty())
            throw DocumentFormatError(what + " holds data but its size says 0");
        return {};
    }
    return document::decompressColumn(data, static_cast<std::uint64_t>(rawSize), what);
}

// What a document's plans may inflate to, checked on their stated sizes before anything is
// inflated (zlib lets a 1 MB file claim about 1 GB): a plan's JSON at most a plan file's
// limit (optionFileMaxBytes(Plan)); its evaluation at most 256 MiB (a 100,000-node
// consolidation's is about 60 MB); all the plans of a document together at most 1 GiB.
constexpr std::int64_t kMaxEvaluationBytes = std::int64_t { 256 } << 20;
constexpr std::int64_t kMaxAllPlansBytes = std::int64_t { 1 } << 30;

void checkStatedSize(std::int64_t size, std::int64_t limit, const std::string& what, const char* kind)
{
    if (size > limit)
        throw DocumentFormatError(what + " says it holds " + std::to_string(size) + " bytes, more than the " + std::to_string(limit)
                                  + " bytes " + kind + " may hold");
}

// The plans: inflated (version 2), each plan's JSON read as a plan file. Thread: any.
std::vector<DocumentPlan> finishPlans(std::vector<PlanRow> rows, int version, const std::string& fileName)
{
    std::vector<DocumentPlan> plans;
    std::int64_t total = 0;
    for (PlanRow& r : rows) {
        DocumentPlan p = std::move(r.plan);
        if (p.name.empty())
            throw DocumentFormatError("a plan has no name");
        if (!isPrintablePlanName(p.name))
            throw DocumentFormatError("a plan's name " + quotedText(p.name) + " is not printable UTF-8 text");
        if (version != 1) {
            const std::string where = "plans." + p.name.substr(0, 40);
            checkStatedSize(r.planSize, static_cast<std::int64_t>(optionFileMaxBytes(OptionFileKind::Plan)), where + ".plan", "a plan");
            checkStatedSize(r.evaluationSize, kMaxEvaluationBytes, where + ".evaluation", "a plan's evaluation");
            total += std::max<std::int64_t>(r.planSize, 0) + std::max<std::int64_t>(r.evaluationSize, 0);
            checkStatedSize(total, kMaxAllPlansBytes, "plans", "the plans of a document");
            p.planJson = inflatedText(r.planZlib, r.planSize, where + ".plan");
            p.evaluationJson = inflatedText(r.evaluationZlib, r.evaluationSize, where + ".evaluation");
        }
        try {
            // Named by the plan only: the error that wraps this one names the file.
            checkPlanText(p.planJson, "plan " + quotedText(p.name));
        } catch (const PlanFileError& e) {
            throw DocumentFormatError(e.what());
        }
        plans.push_back(std::move(p));
    }
    return plans;
}

std::vector<DocumentPlan> readPlans(Sqlite& db, int version, const std::string& fileName)
{
    return finishPlans(readPlanRows(db, version), version, fileName);
}

std::uint64_t parseCount(const std::string& text, const char* key)
{
    if (text.empty() || text.size() > 19 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw DocumentFormatError(std::string("document.") + key + " is \"" + text.substr(0, 40) + "\", expected a count");
    return std::stoull(text);
}

} // namespace

bool isPrintablePlanName(std::string_view name)
{
    return escapedText(name, name.size() + 1) == name;
}

std::string utcNowIso()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&now, &tm);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return b;
}

std::string serializeFleetDocument(const FleetDocument& doc, const std::string& fileName, const std::function<bool()>& cancelled)
{
    auto stopIfCancelled = [&] {
        if (cancelled && cancelled())
            throw OutputCancelled(fileName + ": cancelled before it was written");
    };
    std::set<std::string> planNames;
    for (const DocumentPlan& p : doc.plans) {
        if (p.name.empty())
            throw FleetDocumentError(fileName, "a plan without a name cannot be saved");
        if (!isPrintablePlanName(p.name))
            throw FleetDocumentError(fileName, "the plan name " + quotedText(p.name) + " is not printable UTF-8 text");
        if (!planNames.insert(p.name).second)
            throw FleetDocumentError(fileName, "two plans are named \"" + p.name + "\"; plan names must differ");
    }
    if (!doc.cluster.store)
        throw FleetDocumentError(fileName, "no cluster to save");

    document::PhaseTimer timer("save");
    // zlib is most of a save's time: each column is compressed on a thread of its own from the
    // moment it is encoded, the strings (the largest, encoded first) while the pods are.
    // `raw` is declared before the futures that read it, so that it outlives them.
    std::vector<std::pair<std::string, std::string>> raw;
    std::vector<std::future<std::string>> compressed;
    document::encodeStoreInto(*doc.cluster.store, doc.cluster.usage.get(), raw, [&](const std::string& name, const std::string& bytes) {
        compressed.push_back(std::async(std::launch::async, [&bytes, level = document::columnZlibLevel(name)] {
            return document::compressColumn(bytes, level);
        }));
    });
    timer.mark("encode the columns");
    stopIfCancelled(); // the compressions running finish as the futures go

    // The plans' evaluations (tens of MB of JSON for a large plan) compress beside the columns.
    std::vector<std::shared_future<std::string>> planTexts;
    for (const DocumentPlan& p : doc.plans)
        planTexts.push_back(std::async(std::launch::async, [&p] {
            return p.evaluationJson.empty() ? std::string() : document::compressColumn(p.evaluationJson);
        }).share());

    try {
        Sqlite db(":memory:");
        // Large pages for a large state (fewer overflow pages to chain and check), small ones
        // for a small state (a document of a few nodes stays a few KB).
        std::size_t rawBytes = 0;
        for (const auto& column : raw)
            rawBytes += column.second.size();
        db.run(rawBytes > (std::size_t { 8 } << 20) ? "PRAGMA page_size = 65536" : "PRAGMA page_size = 4096");
        db.run("PRAGMA application_id = 1179861840"); // kFleetApplicationId, "FSCP"
        db.run("PRAGMA user_version = 3");            // kFleetDocumentVersion
        static_assert(kFleetApplicationId == 1179861840 && kFleetDocumentVersion == 3);
        db.run("BEGIN");
        createSchema(db, kFleetDocumentVersion);

        Statement kv(db, "INSERT INTO document(key, value) VALUES (?1, ?2)");
        const LoadedCluster& c = doc.cluster;
        const std::map<std::string, std::string> values {
            { "source_label", c.sourceLabel },
            { "taken_at", doc.takenAt },
            { "server", doc.provenance.server },
            { "resource_version", doc.provenance.resourceVersion },
            { "simulated", doc.provenance.simulated },
            { "nodes_read", std::to_string(c.report.nodesRead) },
            { "pods_read", std::to_string(c.report.podsRead) },
            { "bytes_read", std::to_string(c.report.bytesRead) },
            { "price_table_csv", doc.priceTableCsv },
            { "partial_view", c.partialView },
        };
        for (const std::string& key : documentKeys()) {
            kv.bindText(1, key);
            kv.bindText(2, values.at(key));
            kv.stepDone();
        }
        Statement file(db, "INSERT INTO source_files(position, name, sha256) VALUES (?1, ?2, ?3)");
        for (std::size_t i = 0; i < doc.provenance.files.size(); ++i) {
            file.bindInt(1, static_cast<std::int64_t>(i));
            file.bindText(2, doc.provenance.files[i].name);
            file.bindText(3, doc.provenance.files[i].sha256);
            file.stepDone();
        }
        Statement warning(db, "INSERT INTO warnings(position, text) VALUES (?1, ?2)");
        for (std::size_t i = 0; i < c.report.warnings.size(); ++i) {
            warning.bindInt(1, static_cast<std::int64_t>(i));
            warning.bindText(2, c.report.warnings[i]);
            warning.stepDone();
        }
        Statement key(db, "INSERT INTO topology_keys(position, key) VALUES (?1, ?2)");
        for (std::size_t i = 0; i < doc.topologyKeys.size(); ++i) {
            key.bindInt(1, static_cast<std::int64_t>(i));
            key.bindText(2, doc.topologyKeys[i]);
            key.stepDone();
        }
        Statement plan(db, "INSERT INTO plans(position, name, plan_zlib, plan_size, evaluation_zlib, evaluation_size, notes, saved_at) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
        for (std::size_t i = 0; i < doc.plans.size(); ++i) {
            const DocumentPlan& p = doc.plans[i];
            plan.bindInt(1, static_cast<std::int64_t>(i));
            plan.bindText(2, p.name);
            const std::string planZ = p.planJson.empty() ? std::string() : document::compressColumn(p.planJson);
            plan.bindBlob(3, planZ);
            plan.bindInt(4, static_cast<std::int64_t>(p.planJson.size()));
            const std::string& evaluationZ = planTexts[i].get();
            plan.bindBlob(5, evaluationZ);
            plan.bindInt(6, static_cast<std::int64_t>(p.evaluationJson.size()));
            plan.bindText(7, p.notes);
            plan.bindText(8, p.savedAt);
            plan.stepDone();
        }
        Statement column(db, "INSERT INTO columns(name, compression, raw_size, data) VALUES (?1, ?2, ?3, ?4)");
        for (std::size_t i = 0; i < raw.size(); ++i) {
            stopIfCancelled();
            const std::string data = compressed[i].get();
            column.bindText(1, raw[i].first);
            column.bindText(2, "zlib"); // "none" (a column as it is) is still read: files saved before checksummed every column
            column.bindInt(3, static_cast<std::int64_t>(raw[i].second.size()));
            column.bindBlob(4, data);
            column.stepDone();
        }
        // Last, over the texts as the database holds them: what a reader sums.
        kv.bindText(1, kTextChecksumKey);
        kv.bindText(2, textChecksum(db));
        kv.stepDone();
        timer.mark("insert the rows (zlib beside)");
        db.run("COMMIT");
        timer.mark("commit");
        stopIfCancelled();
        std::string image = db.serialize();
        timer.mark("serialize");
        return image;
    } catch (const document::SqliteError& e) {
        throw FleetDocumentError(fileName, std::string("cannot build the document: ") + e.what());
    }
}

void saveFleetDocument(const FleetDocument& doc, const std::string& path, const OutputFileOptions& options)
{
    // A newer Fleetscope's document may hold what this one cannot write back: never replace it.
    if (isFleetDocumentFile(path)) {
        unsigned char head[100];
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            const ssize_t n = ::read(fd, head, sizeof head);
            ::close(fd);
            const auto version = static_cast<std::int32_t>(bigEndian32(head + 60)); // signed, as SQLite's user_version
            if (n == static_cast<ssize_t>(sizeof head) && version > kFleetDocumentVersion)
                throw FleetDocumentError(path, "was written by a newer Fleetscope (document version " + std::to_string(version)
                                                   + "); saving over it would lose what that version keeps: save under another name");
        }
    }
    OutputFileOptions documentOutput = options;
    documentOutput.replacesDocument = true;
    checkOutputTarget(path, documentOutput);
    const std::string bytes = serializeFleetDocument(doc, path, options.cancelled);
    document::PhaseTimer timer("save");
    writeOutputFile(path, bytes, documentOutput);
    timer.mark("write, fsync, rename");
}

namespace {

// What SQLite said of a damaged file, and when the file is shorter than its own header says
// (the in-header page count, valid when its change counter matches, times the page size: SQLite's
// file format, section 1.3), that it was cut short: the usual cause (a copy or download that ended
// early, a full disk under another program).
std::string damagedText(std::string_view bytes, const char* sqliteSaid)
{
    std::string text = std::string("damaged (SQLite: ") + sqliteSaid + ")";
    if (bytes.size() < 100)
        return text;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint32_t rawPageSize = std::uint32_t(p[16]) << 8 | p[17];
    const std::uint64_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    const std::uint32_t pages = bigEndian32(p + 28);
    const bool countValid = bigEndian32(p + 24) == bigEndian32(p + 92); // the change counter and "version-valid-for"
    if (!countValid || pageSize < 512 || pages == 0)
        return text;
    const std::uint64_t expected = pageSize * pages;
    if (bytes.size() < expected)
        text += ": the file is cut short, " + model::formatCount(static_cast<std::int64_t>(bytes.size())) + " bytes of the "
            + model::formatCount(static_cast<std::int64_t>(expected)) + " its header gives";
    return text;
}

} // namespace

PlanSource readFleetDocumentProvenance(const std::string& path)
{
    const std::string bytes = readAll(path);
    try {
        Sqlite db = openChecked(bytes);
        PlanSource source = readProvenance(db);
        checkTextChecksum(db, documentVersion(bytes));
        return source;
    } catch (const DocumentFormatError& e) {
        throw FleetDocumentError(path, e.what());
    } catch (const document::SqliteError& e) {
        throw FleetDocumentError(path, damagedText(bytes, e.what()));
    }
}

std::vector<DocumentPlan> readFleetDocumentPlans(const std::string& path)
{
    const std::string bytes = readAll(path);
    try {
        Sqlite db = openChecked(bytes);
        std::vector<DocumentPlan> plans = readPlans(db, documentVersion(bytes), path);
        checkTextChecksum(db, documentVersion(bytes));
        return plans;
    } catch (const DocumentFormatError& e) {
        throw FleetDocumentError(path, e.what());
    } catch (const document::SqliteError& e) {
        throw FleetDocumentError(path, damagedText(bytes, e.what()));
    } catch (const std::bad_alloc&) {
        throw FleetDocumentError(path, "not enough memory to read the plans");
    }
}

FleetDocument openFleetDocument(const std::string& path, const model::TopologySpec* topologySpec)
{
    document::PhaseTimer timer("open");
    const std::string bytes = readAll(path);
    timer.mark("read the file");
    return readFleetDocument(bytes, path, topologySpec);
}

FleetDocument readFleetDocument(std::string_view bytes, const std::string& fileName, const model::TopologySpec* topologySpec)
{
    document::PhaseTimer timer("open");
    FleetDocument doc;
    try {
        Sqlite db = openChecked(bytes);
        timer.mark("header, quick_check, schema");
        const int version = documentVersion(bytes);
        std::map<std::string, std::string> values;
        {
            Statement q(db, "SELECT key, value FROM document");
            while (q.step()) {
                const std::string key = q.text(0);
                if (!isDocumentKey(key, version))
                    throw DocumentFormatError("document." + key.substr(0, 40) + " is not a key version " + std::to_string(version) + " writes");
                values[key] = q.text(1);
            }
            for (const std::string& key : documentKeys())
                if (!values.count(key))
                    throw DocumentFormatError("document." + key + " is missing");
        }
        LoadedCluster& c = doc.cluster;
        c.sourceLabel = values["source_label"];
        doc.takenAt = values["taken_at"];
        doc.provenance.server = c.server = values["server"];
        doc.provenance.resourceVersion = c.resourceVersion = values["resource_version"];
        doc.provenance.simulated = values["simulated"];
        c.report.nodesRead = parseCount(values["nodes_read"], "nodes_read");
        c.report.podsRead = parseCount(values["pods_read"], "pods_read");
        c.report.bytesRead = parseCount(values["bytes_read"], "bytes_read");
        doc.priceTableCsv = values["price_table_csv"];
        c.partialView = values["partial_view"];

        doc.provenance.files = readProvenance(db).files;
        {
            Statement q(db, "SELECT text FROM warnings ORDER BY position");
            while (q.step())
                c.report.warnings.push_back(q.text(0));
        }
        {
            Statement q(db, "SELECT key FROM topology_keys ORDER BY position");
            while (q.step())
                doc.topologyKeys.push_back(q.text(0));
        }
        // The plans (a large plan's evaluation is tens of MB to inflate) are finished beside the store.
        std::future<std::vector<DocumentPlan>> plans
            = std::async(std::launch::async, [rows = readPlanRows(db, version), version, &fileName]() mutable {
                  return finishPlans(std::move(rows), version, fileName);
              });

        // The columns: every one version 1 writes, no other. Each is inflated on a thread of its
        // own from the moment its row is read, and the store is rebuilt as the columns come:
        // the strings (written first, the largest) are interned as they are inflated
        // (inflatingcolumn.h), while the others inflate.
        struct Column {
            bool zlib = false;
            std::string raw;                           // compression "none"
            std::shared_future<std::string> inflated; // compression "zlib"
            std::unique_ptr<document::InflatingColumn> streamed; // "strings", compression "zlib"
        };
        std::map<std::string, Column> columns;
        {
            Statement q(db, "SELECT name, compression, raw_size, data FROM columns");
            while (q.step()) {
                const std::string name = q.text(0);
                const auto& names = document::storeColumnNames();
                if (std::find(names.begin(), names.end(), name) == names.end())
                    throw DocumentFormatError("column \"" + name.substr(0, 40) + "\" is not one version 1 writes");
                const std::string compression = q.text(1);
                if (compression != "zlib" && compression != "none")
                    throw DocumentFormatError("column " + name + " is compressed with \"" + compression.substr(0, 20)
                                              + "\", not zlib or none");
                const std::int64_t size = q.integer(2);
                if (size < 0)
                    throw DocumentFormatError("column " + name + " has a negative size");
                Column& column = columns[name];
                column.zlib = compression == "zlib";
                if (column.zlib && name == "strings") {
                    column.streamed = std::make_unique<document::InflatingColumn>(q.blob(3), static_cast<std::uint64_t>(size), name);
                    continue;
                }
                if (column.zlib) {
                    column.inflated = std::async(std::launch::async, [data = q.blob(3), rawSize = static_cast<std::uint64_t>(size), name] {
                                          return document::decompressColumn(data, rawSize, name);
                                      }).share();
                    continue;
                }
                column.raw = q.blob(3);
                if (column.raw.size() != static_cast<std::uint64_t>(size))
                    throw DocumentFormatError("column " + name + " holds " + std::to_string(column.raw.size())
                                              + " bytes, its size says " + std::to_string(size));
            }
        }
        for (const std::string& name : document::storeColumnNames())
            if (!columns.count(name))
                throw DocumentFormatError("column " + name + " is missing");
        timer.mark("document, plans, select columns");
        // The topology is built while the store's last check runs (decodeStore()).
        model::TopologySpec spec;
        if (topologySpec)
            spec = *topologySpec;
        else
            spec.levelKeys = doc.topologyKeys.empty() ? model::TopologySpec::defaults().levelKeys : doc.topologyKeys;
        document::DecodeHooks hooks;
        if (const Column& strings = columns.at("strings"); strings.streamed)
            hooks.stringsReady = [&strings](std::size_t end) { return strings.streamed->waitFor(end); };
        hooks.whileChecking = [&](const model::ClusterStore& store) {
            doc.cluster.topology = std::make_shared<model::Topology>(model::Topology::build(store, spec));
        };
        document::DecodedStore decoded = document::decodeStore(
            [&](const std::string& name) -> std::string_view {
                const Column& column = columns.at(name);
                return column.streamed ? column.streamed->bytes()
                    : column.zlib      ? std::string_view(column.inflated.get())
                                       : std::string_view(column.raw);
            },
            hooks);
        c.store = std::move(decoded.store);
        c.usage = std::move(decoded.usage);
        timer.mark("inflate and rebuild the store, topology");
        doc.plans = plans.get();
        // Last, so that a text the reader refuses says what is wrong with it, not only that it changed.
        checkTextChecksum(db, version);
    } catch (const DocumentFormatError& e) {
        throw FleetDocumentError(fileName, e.what());
    } catch (const document::SqliteError& e) {
        throw FleetDocumentError(fileName, damagedText(bytes, e.what()));
    } catch (const std::bad_alloc&) {
        throw FleetDocumentError(fileName, "not enough memory to open the document");
    }
    if (doc.cluster.store->nodeCount() == 0 && doc.cluster.store->podCount() == 0)
        throw FleetDocumentError(fileName, "holds no nodes and no pods");
    timer.mark("wait for the plans");
    return doc;
}

} // namespace fleet::importers
