#pragma once

#include <string>
#include <tl/expected.hpp>

namespace dct {

/**
 * An error as a value: where it happened (file and JSON pointer path), what went wrong and what
 * would have been accepted instead.
 */
struct Error
{
    std::string file;     ///< The file concerned, empty when the input did not come from a file.
    std::string path;     ///< JSON pointer of the offending field ("" for the whole document).
    std::string message;  ///< What is wrong.
    std::string accepted; ///< What would be accepted, empty when there is nothing to say.

    /** Returns the one-line form "file: /path: message (accepted: ...)". */
    std::string toString() const;
};

/** The result of an operation that may fail with an Error. */
template <class T> using Result = tl::expected<T, Error>;

/** Returns an unexpected Error, for use in functions returning Result. */
inline tl::unexpected<Error> makeError(std::string file, std::string path, std::string message,
                                       std::string accepted = {})
{
    return tl::unexpected<Error>(
        Error{std::move(file), std::move(path), std::move(message), std::move(accepted)});
}

} // namespace dct
