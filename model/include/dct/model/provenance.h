#pragma once

#include <string>

namespace dct::model {

/** Where a resolved input value came from. */
struct Provenance
{
    enum class Origin
    {
        User,    ///< Set in the scenario file (or an override of a catalog entry).
        Catalog, ///< Taken from a catalog entry.
        Default  ///< The program's default.
    };
    Origin origin = Origin::Default;
    std::string source; ///< The scenario file, the catalog entry and its source, or the default.

    /** Returns "user", "catalog" or "default". */
    static const char* originName(Origin origin);
};

} // namespace dct::model
