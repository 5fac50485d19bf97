#include "dct/model/error.h"

#include "dct/model/textformat.h"

namespace dct {

std::string Error::toString() const
{
    std::string text;
    if (!file.empty())
        text += file + ": ";
    if (!path.empty())
        text += path + ": ";
    text += message;
    if (!accepted.empty())
        text += " (accepted: " + accepted + ")";
    // Keys and values quoted from a file may hold control characters: never printed raw.
    return printableText(text);
}

} // namespace dct
