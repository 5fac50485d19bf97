#include "dct/model/textformat.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <set>

namespace dct {

namespace {

std::string groupThousands(const std::string& digits)
{
    std::string out;
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 != n)
            out += ',';
    }
    return out;
}

std::string printf(const char* format, int precision, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, precision, value);
    return buffer;
}

/** Appends \a code as "\xNN" (a byte) or "\uNNNN" (a code point). */
void appendEscape(std::string& out, const char* format, unsigned code)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, format, code);
    out += buffer;
}

/**
 * Returns the length of the UTF-8 sequence at \a i of \a text and its code point, or 0 when
 * the bytes there are not UTF-8 (RFC 3629, section 4: no overlong forms, no surrogates, nothing
 * above U+10FFFF).
 */
std::size_t utf8Sequence(std::string_view text, std::size_t i, std::uint32_t& codePoint)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned lead = byte(i);
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xBF; // the range of the second byte
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        codePoint = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        codePoint = lead & 0x0Fu;
        low = lead == 0xE0 ? 0xA0 : 0x80;
        high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        codePoint = lead & 0x07u;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned next = byte(i + k);
        if (next < (k == 1 ? low : 0x80u) || next > (k == 1 ? high : 0xBFu))
            return 0;
        codePoint = (codePoint << 6) | (next & 0x3Fu);
    }
    return length;
}

} // namespace

std::string humanLabel(const std::string& key, const std::string& unit)
{
    // The unit is shown beside the label, so a key's unit suffix would only repeat it.
    static const std::array<const char*, 17> unitSuffixes = {
        "_gbyte_per_s", "_w_per_m2", "_usd_per_kw", "_usd_per_tb", "_tb_per_month",
        "_m2_per_rack", "_kw",       "_m2",         "_ms",         "_mb",
        "_tb",          "_usd",      "_kb",         "_hours",      "_years",
        "_bytes",       "_m"};
    static const std::set<std::string> acronyms = {
        "mtu", "ups",  "pdu",  "mfu",    "hvdc", "pfc",  "ecn",  "wan",  "tcp",
        "cv",  "iops", "rtt",  "rdma",   "gpu",  "nic",  "it",   "tdp",  "hbm",
        "pue", "cdu",  "rdhx", "bf16",   "fp8",  "fp16", "gemm", "ecmp", "sm",
        "tco", "cue",  "wue",  "tflops", "hfu",  "mda",  "mtp",  "tp"};
    std::string stem = key;
    if (!unit.empty()) {
        for (const char* suffix : unitSuffixes) {
            const std::string s = suffix;
            if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0) {
                stem.erase(stem.size() - s.size());
                if (s == "_m2_per_rack")
                    stem += "_per_rack";
                break;
            }
        }
    }
    std::string label;
    std::size_t start = 0;
    while (start <= stem.size()) {
        std::size_t end = stem.find('_', start);
        if (end == std::string::npos)
            end = stem.size();
        std::string word = stem.substr(start, end - start);
        if (acronyms.count(word)) {
            for (auto& c : word)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        } else if (word == "gpus") {
            word = "GPUs";
        } else if (word == "layer2") {
            word = "layer-2";
        }
        if (!label.empty())
            label += ' ';
        label += word;
        start = end + 1;
    }
    if (!label.empty())
        label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    return label;
}

std::string labelWithUnit(const std::string& key)
{
    // The key's unit suffix, longest first, and the unit people write for it.
    static const std::array<std::pair<const char*, const char*>, 36> units = {{
        {"_usd_per_kw_month", "USD/kW/month"},
        {"_c_per_w", "\u00b0C/W"},
        {"_w_per_kw", "W/kW"},
        {"_w_per_m2", "W/m\u00b2"},
        {"_usd_per_kwh", "USD/kWh"},
        {"_kg_per_kwh", "kg/kWh"},
        {"_usd_per_kw", "USD/kW"},
        {"_usd_per_gb", "USD/GB"},
        {"_usd_per_tb", "USD/TB"},
        {"_usd_per_month", "USD/month"},
        {"_usd_per_m", "USD/m"},
        {"_gbyte_per_s", "GB/s"},
        {"_tb_per_month", "TB/month"},
        {"_tbps", "TB/s"},
        {"_gbps", "Gb/s"},
        {"_kwh", "kWh"},
        {"_kw", "kW"},
        {"_mw", "MW"},
        {"_w", "W"},
        {"_c", "\u00b0C"},
        {"_m2", "m\u00b2"},
        {"_m", "m"},
        {"_usd", "USD"},
        {"_mhz", "MHz"},
        {"_ns", "ns"},
        {"_us", "\u00b5s"},
        {"_ms", "ms"},
        {"_kpa", "kPa"},
        {"_gb", "GB"},
        {"_tb", "TB"},
        {"_mb", "MB"},
        {"_hours", "hours"},
        {"_years", "years"},
        {"_deg", "\u00b0"},
        {"_u", "U"},
        {"_bytes", "bytes"},
    }};
    // Keys whose last word is a name, not a unit (a GEMM tile's m and n sides).
    if (key.rfind("gemm_tile_", 0) == 0)
        return humanLabel(key, {});
    for (const auto& [suffix, unit] : units) {
        const std::string s = suffix;
        if (key.size() > s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0)
            return humanLabel(key.substr(0, key.size() - s.size()), {}) + " (" + unit + ")";
    }
    return humanLabel(key, {});
}

namespace {

/** Most decimals a percentage just below 100 shows (99.9999999999 %: twelve nines). */
constexpr int maxShortfallDecimals = 10;

/** Returns the decimals that show \a shortfall (> 0) from a whole with two significant
 *  digits: 0.00117 -> 4 (99.9988). */
int decimalsOfShortfall(double shortfall)
{
    return std::max(2, 1 - static_cast<int>(std::floor(std::log10(shortfall))));
}

} // namespace

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
    const double a = std::fabs(value);
    if (a != 0.0 && (a >= 1e15 || a < 1e-4))
        return printf("%.*g", 4, value);
    // The decade of the value as rounded to four digits: 9.9996 shows as "10.00", not "10.000".
    const double ra = std::fabs(std::strtod(printf("%.*e", 3, value).c_str(), nullptr));
    if (ra >= 1000.0) {
        const auto rounded = static_cast<long long>(std::llround(a));
        return (value < 0 ? "-" : "") + groupThousands(std::to_string(rounded));
    }
    // About four significant digits: 253.2, 19.47, 3.142, 0.3581, 0.004712.
    const int decimals = ra >= 100  ? 1
                         : ra >= 10 ? 2
                         : ra >= 1  ? 3
                         : ra == 0  ? 0
                                    : 3 - static_cast<int>(std::floor(std::log10(ra)));
    std::string text = printf("%.*f", decimals, value);
    if (text.find('.') != std::string::npos) {
        // Trailing zeros go where they say nothing: 0.5 is "0.5", 2 is "2", and 12.30001 (a
        // fifth digit that is zero too) "12.3". Where the next digit is not zero they are
        // significant and stay: a PUE of 1.1001 is "1.100", read as precisely as its
        // neighbour's "1.098", not "1.1".
        auto stripped = [](std::string t) {
            while (t.back() == '0')
                t.pop_back();
            if (t.back() == '.')
                t.pop_back();
            return t;
        };
        const std::string shorter = stripped(text);
        if (shorter == stripped(printf("%.*f", decimals + 1, value)))
            text = shorter;
    }
    return text == "-0" ? "0" : text;
}

QuantityText formatQuantityParts(double value, std::string_view unit)
{
    if (unit.substr(0, 3) == "USD" && std::isfinite(value)) {
        const double a = std::fabs(value);
        const std::string rest(unit.substr(3));
        if (a >= 1e9)
            return {formatNumber(value / 1e9), "B USD" + rest};
        if (a >= 1e6)
            return {formatNumber(value / 1e6), "M USD" + rest};
        if (a >= 1e4)
            return {formatNumber(value / 1e3), "k USD" + rest};
    }
    if (unit == "share") {
        // A share below a millionth of a percent is rounding noise of a difference (a failure
        // share of 1.6e-14 prints as "< 0.0001 %", not "1.6e-12 %").
        const double percent = value * 100.0;
        if (percent != 0.0 && std::fabs(percent) < 1e-4)
            return {percent > 0.0 ? "< 0.0001" : "> -0.0001", "%"};
        // Just below 100 %, the digits that show the shortfall: an availability of 99.9988 %
        // (4.9 nines) is not "100 %".
        if (percent < 100.0 && percent > 99.0 && printf("%.*f", 2, percent) == "100.00") {
            const int decimals = decimalsOfShortfall(100.0 - percent);
            if (decimals > maxShortfallDecimals)
                return {"> 99." + std::string(maxShortfallDecimals, '9'), "%"};
            return {printf("%.*f", decimals, percent), "%"};
        }
        return {formatNumber(percent), "%"};
    }
    if (unit == "yes/no" && std::isfinite(value))
        return {value != 0.0 ? "yes" : "no", ""};
    if (unit == "us")
        return {formatNumber(value), "\xc2\xb5s"};
    return {formatNumber(value), std::string(unit)};
}

std::string formatQuantity(double value, std::string_view unit)
{
    const QuantityText text = formatQuantityParts(value, unit);
    return text.unit.empty() ? text.number : text.number + " " + text.unit;
}

bool differsAtDisplay(double a, double b, std::string_view unit)
{
    if (a == b || (std::isnan(a) && std::isnan(b)))
        return false;
    // Rounding noise of a sum taken in another order is no difference even where a figure
    // near zero would show it ("-4.441e-16").
    if (std::isfinite(a) && std::isfinite(b) &&
        std::fabs(a - b) <= 1e-12 * std::max({1.0, std::fabs(a), std::fabs(b)}))
        return false;
    return formatQuantity(a, unit) != formatQuantity(b, unit);
}

std::string columnUnit(std::string_view unit)
{
    if (unit == "yes/no")
        return {};
    if (unit == "USD" || unit.substr(0, 4) == "USD/")
        return std::string(unit);
    return formatQuantityParts(1.0, unit).unit;
}

std::string formatCell(double value, std::string_view unit)
{
    const QuantityText text = formatQuantityParts(value, unit);
    const std::string column = columnUnit(unit);
    if (text.unit.empty() || text.unit == column)
        return text.number;
    // "M USD/year" under "USD/year": the scale stays beside the number.
    if (text.unit.size() > column.size() &&
        text.unit.compare(text.unit.size() - column.size(), column.size(), column) == 0) {
        std::string scale = text.unit.substr(0, text.unit.size() - column.size());
        while (!scale.empty() && scale.back() == ' ')
            scale.pop_back();
        return text.number + " " + scale;
    }
    return text.number + " " + text.unit;
}

std::string formatBytes(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (!std::isfinite(bytes))
        return formatNumber(bytes);
    std::size_t i = 0;
    double v = bytes;
    while (std::fabs(v) >= 1024.0 && i + 1 < std::size(units)) {
        v /= 1024.0;
        ++i;
    }
    return formatNumber(v) + " " + units[i];
}

std::string formatPlain(double value)
{
    std::string text = formatNumber(value);
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    return text;
}

std::string formatPlain(double value, std::string_view unit)
{
    if (unit == "share" && value < 1.0 && value > 0.99 && printf("%.*f", 3, value) == "1.000") {
        const int decimals = decimalsOfShortfall(1.0 - value);
        return printf("%.*f", std::min(decimals, maxShortfallDecimals + 2), value);
    }
    return formatPlain(value);
}

std::string formatExact(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    return printf("%.*g", 10, value);
}

std::string csvField(std::string_view raw)
{
    // A record is one line, and a CSV file is read on terminals too: control characters (line
    // breaks among them) are written as visible escapes, as everywhere else text is shown.
    const std::string text = printableText(raw);
    if (text.find_first_of(",\"") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::vector<std::string> csvFields(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\n' && c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::string printableText(std::string_view text, LineBreaks lineBreaks)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t codePoint = 0;
        const std::size_t length = utf8Sequence(text, i, codePoint);
        if (length == 0) {
            appendEscape(out, "\\x%02x", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        if (codePoint < 0x20 || codePoint == 0x7F) {
            const bool keep =
                lineBreaks == LineBreaks::Keep && (text[i] == '\n' || text[i] == '\t');
            if (keep)
                out += text[i];
            else if (text[i] == '\n')
                out += "\\n";
            else if (text[i] == '\t')
                out += "\\t";
            else if (text[i] == '\r')
                out += "\\r";
            else
                appendEscape(out, "\\x%02x", codePoint);
        } else if ((codePoint >= 0x80 && codePoint <= 0x9F) ||
                   (codePoint >= 0x202A && codePoint <= 0x202E) ||
                   (codePoint >= 0x2066 && codePoint <= 0x2069)) {
            appendEscape(out, "\\u%04x", codePoint);
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    return out;
}

std::string shortenedText(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return std::string(text);
    // Back up to the start of a character: UTF-8 continuation bytes are 10xxxxxx.
    std::size_t cut = maxBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u)
        --cut;
    const auto characters = static_cast<double>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
    }));
    return std::string(text.substr(0, cut)) + " [... shortened: the whole text has " +
           formatNumber(characters) + " characters]";
}

} // namespace dct
