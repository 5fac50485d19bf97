#pragma once

#include "dct/model/error.h"

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
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

/** Why a JSON text was refused: the Error (file, JSON pointer, message, accepted) and its kind. */
struct JsonReadError
{
    Error error;      ///< Names the file, the JSON pointer where reading stopped, what is accepted.
    std::string code; ///< "json-syntax", "json-depth", "duplicate-key", "number-range" or "io".
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

/** Reads the file at \a path and parses it as parseJson does; an unreadable file is "io". */
JsonReadResult readJsonFile(const std::filesystem::path& path, const std::string& accepted);

} // namespace dct::model
