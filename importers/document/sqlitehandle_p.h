// SPDX-License-Identifier: Apache-2.0
#pragma once
// Thin owners of an SQLite connection and its prepared statements for the .fleet document
// (fleetdocument.cpp). Every SQL text is a constant; values are bound, never spliced.
//
// Thread: one connection per thread.

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fleet::importers::document {

/// SQLite said no; what() is sqlite3_errmsg's text.
class SqliteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Sqlite {
public:
    /// Opens `name` (":memory:" for a database in memory). Throws SqliteError.
    explicit Sqlite(const char* name)
    {
        if (sqlite3_open_v2(name, &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY, nullptr) != SQLITE_OK)
            fail();
    }
    Sqlite(Sqlite&& o) noexcept : m_db(o.m_db) { o.m_db = nullptr; }
    Sqlite& operator=(Sqlite&&) = delete;
    ~Sqlite() { sqlite3_close_v2(m_db); }

    /// A read-only connection over `bytes` (which must outlive it), hardened for an untrusted
    /// file: defensive mode, no triggers or views, untrusted schema, cell size checks, bounded
    /// lengths. The bytes are never written (SQLITE_DESERIALIZE_READONLY).
    static Sqlite openReadOnlyImage(std::string_view bytes)
    {
        Sqlite db(":memory:");
        int off = 0;
        sqlite3_db_config(db.m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, &off);
        sqlite3_db_config(db.m_db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &off);
        sqlite3_db_config(db.m_db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &off);
        sqlite3_db_config(db.m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &off);
        sqlite3_limit(db.m_db, SQLITE_LIMIT_SQL_LENGTH, 100000);
        sqlite3_limit(db.m_db, SQLITE_LIMIT_ATTACHED, 0);
        auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
        const auto size = static_cast<sqlite3_int64>(bytes.size());
        if (sqlite3_deserialize(db.m_db, "main", data, size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
            db.fail();
        db.run("PRAGMA trusted_schema = OFF");
        db.run("PRAGMA cell_size_check = ON");
        db.run("PRAGMA query_only = ON");
        return db;
    }

    /// Runs one statement that returns no rows (constant SQL). Throws SqliteError.
    void run(const char* sql);

    /// The main database as bytes (sqlite3_serialize). Throws SqliteError.
    [[nodiscard]] std::string serialize()
    {
        sqlite3_int64 size = 0;
        unsigned char* bytes = sqlite3_serialize(m_db, "main", &size, 0);
        if (!bytes)
            throw SqliteError("cannot serialize the database (out of memory)");
        std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
        sqlite3_free(bytes);
        return out;
    }

    [[noreturn]] void fail() const { throw SqliteError(m_db ? sqlite3_errmsg(m_db) : "out of memory"); }
    [[nodiscard]] sqlite3* handle() const noexcept { return m_db; }

private:
    sqlite3* m_db = nullptr;
};

class Statement {
public:
    Statement(Sqlite& db, const char* sql) : m_db(db)
    {
        if (sqlite3_prepare_v3(db.handle(), sql, -1, 0, &m_stmt, nullptr) != SQLITE_OK)
            db.fail();
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement() { sqlite3_finalize(m_stmt); }

    /// Steps once: true with a row, false when done. Throws SqliteError.
    bool step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        m_db.fail();
    }
    /// Steps a statement that returns no row, then resets it for the next bindings.
    void stepDone()
    {
        if (step())
            throw SqliteError("a statement returned a row where none was expected");
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    void bindText(int i, std::string_view v) { check(sqlite3_bind_text64(m_stmt, i, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8)); }
    void bindBlob(int i, std::string_view v) { check(sqlite3_bind_blob64(m_stmt, i, v.data(), v.size(), SQLITE_STATIC)); }
    void bindInt(int i, std::int64_t v) { check(sqlite3_bind_int64(m_stmt, i, v)); }

    /// Column `i` of the current row as text; a column of another type is an error (a version-1
    /// document stores each value in its declared type).
    [[nodiscard]] std::string text(int i) const
    {
        if (sqlite3_column_type(m_stmt, i) != SQLITE_TEXT)
            throw SqliteError(std::string("column ") + sqlite3_column_name(m_stmt, i) + " holds a " + typeName(i) + ", expected text");
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, i));
        return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, i)));
    }
    [[nodiscard]] std::string blob(int i) const
    {
        if (sqlite3_column_type(m_stmt, i) != SQLITE_BLOB)
            throw SqliteError(std::string("column ") + sqlite3_column_name(m_stmt, i) + " holds a " + typeName(i) + ", expected a blob");
        const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, i));
        return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, i)));
    }
    [[nodiscard]] std::int64_t integer(int i) const
    {
        if (sqlite3_column_type(m_stmt, i) != SQLITE_INTEGER)
            throw SqliteError(std::string("column ") + sqlite3_column_name(m_stmt, i) + " holds a " + typeName(i) + ", expected an integer");
        return sqlite3_column_int64(m_stmt, i);
    }

private:
    void check(int rc)
    {
        if (rc != SQLITE_OK)
            m_db.fail();
    }
    [[nodiscard]] const char* typeName(int i) const
    {
        switch (sqlite3_column_type(m_stmt, i)) {
        case SQLITE_INTEGER: return "integer";
        case SQLITE_FLOAT: return "real";
        case SQLITE_TEXT: return "text";
        case SQLITE_BLOB: return "blob";
        default: return "null";
        }
    }
    Sqlite& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

inline void Sqlite::run(const char* sql)
{
    Statement s(*this, sql);
    while (s.step()) { } // a PRAGMA may answer with its new value
}

} // namespace fleet::importers::document
