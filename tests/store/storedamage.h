#pragma once
// Damage real store files the way disks and careless tools do, bypassing SQLite: the tests then
// check that the store notices, never writes to the file, and recovers what is readable.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sqlite3.h>
#include <stdexcept>
#include <string>

namespace dct::test {

/** Returns the bytes of \a path. */
inline std::string fileBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/** Replaces the file \a path by \a bytes. */
inline void writeBytes(const std::filesystem::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/** Runs \a sql on \a path with a plain connection, throwing on failure. */
inline void sqlOn(const std::filesystem::path& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        throw std::runtime_error("cannot open " + path.string());
    char* message = nullptr;
    const int status = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const std::string text = message ? message : "";
    sqlite3_free(message);
    sqlite3_close(db);
    if (status != SQLITE_OK)
        throw std::runtime_error(sql + ": " + text);
}

/** Returns the first row's first column of \a sql on \a path as text ("" when no row). */
inline std::string sqlText(const std::filesystem::path& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        throw std::runtime_error("cannot open " + path.string());
    sqlite3_stmt* s = nullptr;
    std::string text;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return text;
}

/** Returns every row of PRAGMA integrity_check on \a path, one per line. */
inline std::string integrityReport(const std::filesystem::path& path)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* s = nullptr;
    std::string text;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr) == SQLITE_OK)
        while (sqlite3_step(s) == SQLITE_ROW)
            text += reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) + std::string("\n");
    else
        text = sqlite3_errmsg(db);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return text;
}

/** Returns the page size and the root page of the b-tree \a name (a table or an index). */
inline std::pair<std::int64_t, std::int64_t> rootPage(const std::filesystem::path& path,
                                                      const std::string& name)
{
    const auto pageSize = std::stoll(sqlText(path, "PRAGMA page_size"));
    const auto root =
        std::stoll(sqlText(path, "SELECT rootpage FROM sqlite_master WHERE name = '" + name + "'"));
    return {pageSize, root};
}

/**
 * Replaces \a from by \a to (of the same length) in the root page of table \a table, writing
 * the file directly: the row then disagrees with its index entries, and integrity_check says
 * "row N missing from index ...". The table must fit in its root page.
 */
inline void rewriteInTable(const std::filesystem::path& path, const std::string& table,
                           const std::string& from, const std::string& to)
{
    if (from.size() != to.size())
        throw std::runtime_error("rewriteInTable: the texts differ in length");
    const auto [pageSize, root] = rootPage(path, table);
    std::string bytes = fileBytes(path);
    const auto begin = static_cast<std::size_t>((root - 1) * pageSize);
    const auto at = bytes.find(from, begin);
    if (at == std::string::npos || at + from.size() > begin + static_cast<std::size_t>(pageSize))
        throw std::runtime_error("rewriteInTable: '" + from + "' is not in the root page of " +
                                 table);
    bytes.replace(at, from.size(), to);
    writeBytes(path, bytes);
}

/** Overwrites page \a page (1 = the first) of \a path, after its first \a keep bytes, with
 *  \a fill. */
inline void overwritePage(const std::filesystem::path& path, std::int64_t page, char fill,
                          std::size_t keep = 0)
{
    const auto pageSize = std::stoll(sqlText(path, "PRAGMA page_size"));
    std::string bytes = fileBytes(path);
    const auto begin = static_cast<std::size_t>((page - 1) * pageSize);
    for (std::size_t i = begin + keep; i < begin + static_cast<std::size_t>(pageSize); ++i)
        bytes[i] = fill;
    writeBytes(path, bytes);
}

/** Returns the page (1 = the first) of \a path holding the first occurrence of \a text. */
inline std::int64_t pageHolding(const std::filesystem::path& path, const std::string& text)
{
    const auto pageSize = std::stoll(sqlText(path, "PRAGMA page_size"));
    const auto at = fileBytes(path).find(text);
    if (at == std::string::npos)
        throw std::runtime_error("pageHolding: '" + text + "' is not in " + path.string());
    return static_cast<std::int64_t>(at) / pageSize + 1;
}

} // namespace dct::test
