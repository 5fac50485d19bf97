#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dct::study {

/**
 * A running checksum of a sweep output as it is written or read: two FNV-1a 64 passes (Fowler,
 * Noll, Vo; IETF draft-eastlake-fnv) from different offsets, and the byte count. Not
 * cryptographic: it detects truncated, damaged or rewritten parts.
 */
class SweepChecksum
{
public:
    /** Adds \a text. */
    void add(std::string_view text)
    {
        constexpr std::uint64_t prime = 0x100000001b3ULL;
        for (const unsigned char c : text) {
            m_first = (m_first ^ c) * prime;
            m_second = (m_second ^ c) * prime;
        }
        m_bytes += text.size();
    }

    /** Returns the bytes added. */
    std::uint64_t bytes() const { return m_bytes; }

    /** Returns the checksum as 32 hex digits. */
    std::string hex() const
    {
        static const char* digits = "0123456789abcdef";
        std::string out;
        for (const std::uint64_t value : {m_first, m_second})
            for (int shift = 60; shift >= 0; shift -= 4)
                out += digits[(value >> shift) & 0xf];
        return out;
    }

private:
    std::uint64_t m_first = 0xcbf29ce484222325ULL;
    std::uint64_t m_second = 0x84222325cbf29ce4ULL;
    std::uint64_t m_bytes = 0;
};

} // namespace dct::study
