#include "dct/model/contenthash.h"

#include "dct/model/catalog.h"

#include <cstdint>

namespace dct::model {

namespace {

/** FNV-1a 64 (Fowler, Noll, Vo; IETF draft-eastlake-fnv) from the offset basis \a hash. */
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash)
{
    constexpr std::uint64_t prime = 0x100000001b3ULL;
    for (const unsigned char c : text) {
        hash ^= c;
        hash *= prime;
    }
    return hash;
}

void appendHex(std::string& out, std::uint64_t value)
{
    static const char* digits = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4)
        out += digits[(value >> shift) & 0xf];
}

template <class T>
void appendShelf(std::string& text, const char* kind, const CatalogShelf<T>& shelf)
{
    text += kind;
    text += '\n';
    for (const auto& [id, json] : shelf.json) {
        text += id;
        text += '=';
        text += json.dump();
        text += '\n';
    }
}

} // namespace

std::string contentHash(std::string_view text)
{
    std::string out;
    out.reserve(32);
    appendHex(out, fnv1a(text, 0xcbf29ce484222325ULL));
    // The second pass starts from another basis and sees the length, so that two texts that
    // collide in the first pass are unlikely to collide in both.
    appendHex(out, fnv1a(text, 0x84222325cbf29ce4ULL ^ text.size()));
    return out;
}

std::string catalogFingerprint(const Catalog& catalog)
{
    std::string text;
    appendShelf(text, "gpu", catalog.gpus());
    appendShelf(text, "node", catalog.nodes());
    appendShelf(text, "nic", catalog.nics());
    appendShelf(text, "switch", catalog.switches());
    appendShelf(text, "cable", catalog.cables());
    appendShelf(text, "cooling", catalog.coolingSystems());
    appendShelf(text, "site", catalog.sites());
    appendShelf(text, "egress", catalog.egressPricing());
    appendShelf(text, "port", catalog.ports());
    return contentHash(text);
}

} // namespace dct::model
