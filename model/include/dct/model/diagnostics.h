#pragma once

#include <string>
#include <vector>

namespace dct {

/** How serious a diagnostic is. Errors stop an evaluation; warnings and notes do not. */
enum class Severity
{
    Note,
    Warning,
    Error
};

/** Returns "note", "warning" or "error". */
const char* severityName(Severity severity);

/** One finding about a scenario or an evaluation, pointing at the field it concerns. */
struct Diagnostic
{
    Severity severity = Severity::Error;
    std::string path;    ///< JSON pointer of the field concerned ("" for the whole scenario).
    std::string message; ///< What is wrong or noteworthy.
    std::string hint;    ///< What would be accepted, or what to do about it.
    std::string code; ///< A stable identifier, e.g. "range", "unknown-key", "rack-over-capacity".
    std::string file; ///< The file the scenario came from, when known.

    /** Returns "file: severity: /path: message (hint)". */
    std::string toString() const;

    /** Same severity, path, message, hint, code and file. */
    bool operator==(const Diagnostic&) const = default;
};

/** An ordered list of diagnostics. */
class Diagnostics
{
public:
    /** Appends a diagnostic. */
    void add(Diagnostic diagnostic);
    /** Appends an error at \a path. */
    void error(std::string path, std::string message, std::string hint = {}, std::string code = {});
    /** Appends a warning at \a path. */
    void warning(std::string path, std::string message, std::string hint = {},
                 std::string code = {});
    /** Appends a note at \a path. */
    void note(std::string path, std::string message, std::string hint = {}, std::string code = {});
    /** Appends every diagnostic of \a other. */
    void append(const Diagnostics& other);
    /** Sets the file of every diagnostic that has none. */
    void setFile(const std::string& file);

    /** Returns true when at least one diagnostic is an error. */
    bool hasErrors() const;
    /** Returns the number of diagnostics of \a severity. */
    int count(Severity severity) const;
    /** Returns true when some diagnostic has code \a code. */
    bool hasCode(const std::string& code) const;

    const std::vector<Diagnostic>& items() const { return m_items; }
    bool empty() const { return m_items.empty(); }
    std::size_t size() const { return m_items.size(); }
    auto begin() const { return m_items.begin(); }
    auto end() const { return m_items.end(); }

private:
    std::vector<Diagnostic> m_items;
};

} // namespace dct
