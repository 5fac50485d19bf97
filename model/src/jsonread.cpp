#include "dct/model/jsonread.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

namespace dct::model {

using nlohmann::json;

namespace {

/**
 * An iterator over the text that records how far the parser has read, so that the handler
 * below can tell where a key was found (nlohmann/json 3.11 gives SAX events no position).
 */
class TrackingIterator
{
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator() = default;
    TrackingIterator(const char* position, const char** reached)
        : m_position(position), m_reached(reached)
    {}

    reference operator*() const { return *m_position; }
    TrackingIterator& operator++()
    {
        ++m_position;
        if (m_reached)
            *m_reached = m_position;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& other) const { return m_position == other.m_position; }
    bool operator!=(const TrackingIterator& other) const { return m_position != other.m_position; }

private:
    const char* m_position = nullptr;
    const char** m_reached = nullptr;
};

/** Returns \a key as one JSON pointer reference token (RFC 6901: "~" as "~0", "/" as "~1"). */
std::string pointerToken(const std::string& key)
{
    std::string token;
    token.reserve(key.size());
    for (const char c : key) {
        if (c == '~')
            token += "~0";
        else if (c == '/')
            token += "~1";
        else
            token += c;
    }
    return token;
}

/** Returns the 1-based "line:column" (column in bytes, as nlohmann counts) of \a offset. */
std::string lineColumn(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    const std::string_view before = text.substr(0, offset);
    const auto lines = std::count(before.begin(), before.end(), '\n');
    const std::size_t lineStart =
        before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    return "line " + std::to_string(lines + 1) + ", column " +
           std::to_string(offset - lineStart + 1);
}

/**
 * Builds the document from nlohmann's SAX events with a stack of its own (the parser itself is
 * iterative), checking the depth, duplicate keys and numbers as it goes. The first problem stops
 * the parse; the partial document is then dropped (nlohmann destroys values iteratively).
 */
class Builder
{
public:
    Builder(std::string_view text, const char* const* reached, const std::string& file,
            const std::string& accepted)
        : m_text(text), m_reached(reached), m_file(file), m_accepted(accepted)
    {}

    bool null() { return place(json(nullptr)); }
    bool boolean(bool value) { return place(json(value)); }
    bool number_integer(json::number_integer_t value) { return place(json(value)); }
    bool number_unsigned(json::number_unsigned_t value) { return place(json(value)); }
    bool number_float(json::number_float_t value, const json::string_t&)
    {
        return place(json(value));
    }
    bool string(json::string_t& value) { return place(json(std::move(value))); }
    bool binary(json::binary_t& value) { return place(json::binary(std::move(value))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& key)
    {
        Frame& top = m_stack.back();
        const std::size_t at = keyOffset();
        if (const auto first = top.keyOffsets.find(key); first != top.keyOffsets.end()) {
            fail(pointer() + "/" + pointerToken(key),
                 "duplicate key '" + key + "': first at " + lineColumn(m_text, first->second) +
                     ", again at " + lineColumn(m_text, at),
                 "each key at most once in an object", "duplicate-key");
            return false;
        }
        top.keyOffsets.emplace(key, at);
        top.key = std::move(key);
        return true;
    }

    bool parse_error(std::size_t, const std::string& lastToken, const json::exception& e)
    {
        // 406: nlohmann's "number overflow" (strtod gave an infinity).
        if (e.id == 406) {
            fail(pointer() + nextToken(), "number " + lastToken + " is too large for a double",
                 "a number from -1.7976931348623157e308 to 1.7976931348623157e308", "number-range");
            return false;
        }
        std::string message = e.what();
        // nlohmann's messages start with "[json.exception.parse_error.101] "; keep what follows.
        if (auto pos = message.find("] "); pos != std::string::npos)
            message = message.substr(pos + 2);
        fail(m_stack.empty() ? std::string() : pointer() + nextToken(),
             "not valid JSON: " + message, m_accepted, "json-syntax");
        return false;
    }

    json takeDocument() { return std::move(m_root); }
    bool failed() const { return m_error.has_value(); }
    JsonReadError takeError() { return std::move(*m_error); }

private:
    struct Frame
    {
        json* value = nullptr;
        std::string key;                               ///< The key whose value comes next.
        std::map<std::string, std::size_t> keyOffsets; ///< Where each key began, for duplicates.
    };

    /** Puts \a value where the document expects its next value; returns where it now lives. */
    json* insert(json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        Frame& top = m_stack.back();
        if (top.value->is_array()) {
            top.value->push_back(std::move(value));
            return &top.value->back();
        }
        json& slot = (*top.value)[top.key];
        slot = std::move(value);
        return &slot;
    }

    bool place(json value)
    {
        insert(std::move(value));
        return true;
    }

    bool open(json container)
    {
        if (m_stack.size() >= jsonDepthLimit) {
            fail(pointer() + nextToken(),
                 "arrays and objects nested deeper than " + std::to_string(jsonDepthLimit) +
                     " levels",
                 "at most " + std::to_string(jsonDepthLimit) +
                     " levels of nested arrays and objects",
                 "json-depth");
            return false;
        }
        json* where = insert(std::move(container));
        m_stack.push_back(Frame{where, {}, {}});
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        return true;
    }

    /** Returns the JSON pointer of the innermost open array or object. */
    std::string pointer() const
    {
        std::string path;
        for (std::size_t i = 0; i + 1 < m_stack.size(); ++i) {
            const Frame& frame = m_stack[i];
            // An open container is the last element of its array, or the value of its key.
            path += "/" + (frame.value->is_array() ? std::to_string(frame.value->size() - 1)
                                                   : pointerToken(frame.key));
        }
        return path;
    }

    /** Returns the reference token of the value the innermost container expects next. */
    std::string nextToken() const
    {
        if (m_stack.empty())
            return {};
        const Frame& top = m_stack.back();
        return "/" +
               (top.value->is_array() ? std::to_string(top.value->size()) : pointerToken(top.key));
    }

    /**
     * Returns the offset of the opening quote of the key just read: the parser has read up to
     * its closing quote, and a quote inside a key is always escaped (an odd run of backslashes).
     */
    std::size_t keyOffset() const
    {
        const std::size_t end = static_cast<std::size_t>(*m_reached - m_text.data());
        if (end < 2)
            return 0;
        for (std::size_t i = end - 1; i-- > 0;) {
            if (m_text[i] != '"')
                continue;
            std::size_t backslashes = 0;
            while (backslashes < i && m_text[i - 1 - backslashes] == '\\')
                ++backslashes;
            if (backslashes % 2 == 0)
                return i;
        }
        return 0;
    }

    void fail(std::string path, std::string message, std::string accepted, std::string code)
    {
        if (!m_error)
            m_error = JsonReadError{
                Error{m_file, std::move(path), std::move(message), std::move(accepted)},
                std::move(code)};
    }

    std::string_view m_text;
    const char* const* m_reached = nullptr;
    const std::string& m_file;
    const std::string& m_accepted;
    json m_root;
    std::vector<Frame> m_stack;
    std::optional<JsonReadError> m_error;
};

} // namespace

JsonReadResult parseJson(std::string_view text, const std::string& file,
                         const std::string& accepted)
{
    const char* reached = text.data();
    Builder builder(text, &reached, file, accepted);
    const TrackingIterator first(text.data(), &reached);
    const TrackingIterator last(text.data() + text.size(), nullptr);
    const bool parsed = json::sax_parse(first, last, &builder);
    if (!parsed || builder.failed()) {
        if (builder.failed())
            return tl::unexpected(builder.takeError());
        return tl::unexpected(
            JsonReadError{Error{file, "", "not valid JSON", accepted}, "json-syntax"});
    }
    return builder.takeDocument();
}

std::string jsonText(const nlohmann::json& value, int indent)
{
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Error> jsonFileTooLarge(const std::filesystem::path& path,
                                      const std::string& accepted)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size <= jsonFileSizeLimit)
        return std::nullopt;
    const auto mib = [](std::uintmax_t bytes) {
        return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024));
    };
    return Error{path.string(), "",
                 "is " + mib(size) + " MiB, larger than the " + mib(jsonFileSizeLimit) +
                     " MiB a file may have (not read)",
                 accepted + ", at most " + mib(jsonFileSizeLimit) + " MiB"};
}

JsonReadResult readJsonFile(const std::filesystem::path& path, const std::string& accepted)
{
    const std::string file = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return tl::unexpected(
            JsonReadError{Error{file, "", "is a directory, not a JSON file", accepted}, "io"});
    if (auto tooLarge = jsonFileTooLarge(path, accepted))
        return tl::unexpected(JsonReadError{*tooLarge, "file-size"});
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return tl::unexpected(
            JsonReadError{Error{file, "", "cannot open the file for reading", accepted}, "io"});
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    return parseJson(text, file, accepted);
}

} // namespace dct::model
