#pragma once

#include "dct/model/error.h"

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

namespace dct::model {

/**
 * The deepest nesting of arrays and objects the JSON reader accepts. 128 is the default
 * recursion limit of serde_json, the JSON reader of Rust (RFC 8259, section 9, lets a parser
 * set such a limit). The deepest file DC Twin reads (the site catalog, data/catalog/sites.json)
 * is five levels deep; the limit keeps every later step (copy, compare, dump: all recursive in
 * nlohmann/json) far from the end of the stack.
 */
inline constexpr std::size_t jsonDepthLimit = 128;

/**
 * The largest file the JSON reader reads, 64 MiB. A scenario or a sweep spec is a few kB (the
 * largest bundled file, the site catalog, is under 100 kB; a scenario with a 10 MB description
 * still reads); parsing takes about four times a file's size in memory, so the limit bounds what
 * any file can make a program allocate before its content is checked.
 */
inline constexpr std::uintmax_t jsonFileSizeLimit = 64ull * 1024 * 1024;

/**
 * The error for \a path when it is larger than jsonFileSizeLimit (code "file-size"), or nothing
 * when it is not (or its size cannot be read: opening it then says why).
 */
std::optional<Error> jsonFileTooLarge(const std::filesystem::path& path,
                                      const std::string& accepted);

/** Why a JSON text was refused: the Error (file, JSON pointer, message, accepted) and its kind. */
struct JsonReadError
{
    Error error;      ///< Names the file, the JSON pointer where reading stopped, what is accepted.
    std::string code; ///< "json-syntax", "json-depth", "duplicate-key", "number-range", "io" or
                      ///< "file-size".
};

/** A parsed JSON document, or why it was refused. */
using JsonReadResult = tl::expected<nlohmann::json, JsonReadError>;

/**
 * Parses \a text as one JSON document, the one reader of every JSON file a user gives DC Twin
 * (scenarios, catalog files, sweep specs). Beyond the syntax it refuses nesting deeper than
 * jsonDepthLimit, a key given twice in one object (naming both positions as line:column) and a
 * number too large for a double (1e309), each with the JSON pointer where it was found. It never
 * recurses, so no input can exhaust the stack; \a file names the input in errors and
 * \a accepted says what a syntax error should have been instead.
 */
JsonReadResult parseJson(std::string_view text, const std::string& file,
                         const std::string& accepted);

/**
 * Returns \a value as JSON text indented by \a indent (-1: one line). Strings holding bytes that
 * are not UTF-8 (a file name from the command line, a message quoting a damaged file) are written
 * with U+FFFD in their place: nlohmann/json would throw on them.
 */
std::string jsonText(const nlohmann::json& value, int indent = 2);

/**
 * Reads the file at \a path and parses it as parseJson does; an unreadable file is "io", one
 * over jsonFileSizeLimit "file-size".
 */
JsonReadResult readJsonFile(const std::filesystem::path& path, const std::string& accepted);

} // namespace dct::model
