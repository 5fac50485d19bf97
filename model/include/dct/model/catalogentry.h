#pragma once

#include <map>
#include <string>

namespace dct::model {

/**
 * What every catalog entry has: an id that scenarios use, a display name, and the source of its
 * numbers (one for the whole entry, and per field where a field has another).
 */
struct CatalogEntry
{
    std::string id;
    std::string name;
    std::string source;                         ///< Source of every number without its own.
    std::map<std::string, std::string> sources; ///< Per-field sources, by JSON key.
    std::string notes;

    /** Returns the source of field \a key: its own when given, else the entry's. */
    std::string sourceOf(const std::string& key) const
    {
        auto it = sources.find(key);
        return it != sources.end() ? it->second : source;
    }

    /**
     * Entries are equal when no evaluation can tell them apart: the same id here, and every
     * number of the derived entry (their defaulted operator== compares those). The name, the
     * sources and the notes describe an entry; no figure or diagnostic reads them, so they are
     * not compared (a reused Evaluation compares its inputs every time: solvers/evaluator.cpp).
     */
    bool operator==(const CatalogEntry& other) const { return id == other.id; }
};

} // namespace dct::model
