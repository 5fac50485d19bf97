#include "dct/model/error.h"

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
    return text;
}

} // namespace dct
