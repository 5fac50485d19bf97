#include "dct/model/diagnostics.h"

#include "dct/model/textformat.h"

#include <algorithm>

namespace dct {

const char* severityName(Severity severity)
{
    switch (severity) {
    case Severity::Note:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

std::string Diagnostic::toString() const
{
    std::string text;
    if (!file.empty())
        text += file + ": ";
    text += severityName(severity);
    text += ": ";
    text += path.empty() ? std::string("(scenario)") : path;
    text += ": " + message;
    if (!hint.empty())
        text += " (" + hint + ")";
    // Keys and values quoted from a file may hold control characters: never printed raw.
    return printableText(text);
}

void Diagnostics::add(Diagnostic diagnostic)
{
    // Room for a few at once: an evaluation gives several, and growing one by one moves them.
    if (m_items.capacity() == 0)
        m_items.reserve(8);
    m_items.push_back(std::move(diagnostic));
}

void Diagnostics::error(std::string path, std::string message, std::string hint, std::string code)
{
    add({Severity::Error,
         std::move(path),
         std::move(message),
         std::move(hint),
         std::move(code),
         {}});
}

void Diagnostics::warning(std::string path, std::string message, std::string hint, std::string code)
{
    add({Severity::Warning,
         std::move(path),
         std::move(message),
         std::move(hint),
         std::move(code),
         {}});
}

void Diagnostics::note(std::string path, std::string message, std::string hint, std::string code)
{
    add({Severity::Note,
         std::move(path),
         std::move(message),
         std::move(hint),
         std::move(code),
         {}});
}

void Diagnostics::append(const Diagnostics& other)
{
    m_items.insert(m_items.end(), other.m_items.begin(), other.m_items.end());
}

void Diagnostics::setFile(const std::string& file)
{
    for (auto& d : m_items)
        if (d.file.empty())
            d.file = file;
}

bool Diagnostics::hasErrors() const
{
    return count(Severity::Error) > 0;
}

int Diagnostics::count(Severity severity) const
{
    return static_cast<int>(std::count_if(m_items.begin(), m_items.end(),
                                          [&](const auto& d) { return d.severity == severity; }));
}

bool Diagnostics::hasCode(const std::string& code) const
{
    return std::any_of(m_items.begin(), m_items.end(),
                       [&](const auto& d) { return d.code == code; });
}

} // namespace dct
