#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dct {

/**
 * Returns the label people read for the JSON key \a key: "Node count" for "node_count", acronyms
 * upper-cased ("MTU", "GPU", "TDP"), and, when the field has a \a unit (shown beside the label),
 * the key's unit suffix dropped ("Rack power limit" for "rack_power_limit_kw").
 */
std::string humanLabel(const std::string& key, const std::string& unit);

/**
 * Returns the label of the JSON key \a key with the unit its suffix names in parentheses, for
 * places that list keys without a unit of their own (a report's assumptions):
 * "Thermal resistance air (°C/W)" for "thermal_resistance_air_c_per_w", "TDP (W)" for "tdp_w".
 */
std::string labelWithUnit(const std::string& key);

/**
 * Returns \a value as people read it, the one rule of every face (CLI tables, the desktop,
 * reports): thousands separators from 1,000 up, about four significant digits below, a
 * mantissa-exponent form only for the very large and very small, "n/a" for a figure that is
 * not a number and "inf" for an infinite one.
 */
std::string formatNumber(double value);

/** A figure as a table shows it: the number and the unit printed after it, each aligned apart. */
struct QuantityText
{
    std::string number; ///< "12.3", "35.81", "yes".
    std::string unit;   ///< "M USD", "%", "" (none, or a yes/no).
};

/**
 * Returns \a value with \a unit as people read it, split into number and unit; the one rule of
 * every face (CLI tables, the desktop, reports), by the unit a metric declares:
 * - money ("USD", "USD/year", ...) of 10,000 and more in k, M or B ("12.3 M USD");
 * - "share" (a fraction of one) as a percentage ("35.81 %");
 * - "yes/no" (1 or 0) as "yes" or "no";
 * - "us" as "µs"; every other unit ("kW", "°C", "days") unchanged after the number.
 */
QuantityText formatQuantityParts(double value, std::string_view unit);

/** Returns formatQuantityParts() as one text: "41.2 kW", "12.3 M USD", "35.81 %", "yes". */
std::string formatQuantity(double value, std::string_view unit);

/**
 * Returns whether \a a and \a b differ as people read them: formatQuantity() under \a unit
 * shows them differently. A difference below the display precision (3.9e-06 days on 45.12 days)
 * is not a difference: compare and the comparison report neither list nor colour it.
 */
bool differsAtDisplay(double a, double b, std::string_view unit);

/**
 * Returns the unit a table column of \a unit is headed with: "%" for a share, "" for a yes/no,
 * "µs" for "us", otherwise \a unit ("USD", "kW"). Cells of the column are formatCell().
 */
std::string columnUnit(std::string_view unit);

/**
 * Returns \a value for a table column headed with columnUnit(\a unit): the number, with the
 * scale that column's unit does not say ("11.36 M" under "USD", "35.81" under "%", "yes").
 */
std::string formatCell(double value, std::string_view unit);

/** Returns \a bytes in binary units, as a message size axis reads: "512 B", "1 KiB", "64 MiB",
 *  "1.5 GiB". */
std::string formatBytes(double bytes);

/**
 * Returns \a value for a CSV file read by people and spreadsheets: the significant digits of
 * formatNumber() without thousands separators ("8960000", "0.3581"); formatExact() keeps every
 * digit where full precision is asked for.
 */
std::string formatPlain(double value);

/**
 * Returns formatPlain(\a value) for a value of \a unit; a share just below one keeps the digits
 * that tell it from one ("0.9999883", not "1"): an availability of 4.9 nines is not 100 %.
 */
std::string formatPlain(double value, std::string_view unit);

/** Returns \a value with full precision for machine reading (CSV, JSON lines): "%.10g". */
std::string formatExact(double value);

/**
 * Returns \a text as one CSV field: control characters (line breaks among them) made visible as
 * printableText does, then quoted when it holds a comma or a quote (RFC 4180).
 */
std::string csvField(std::string_view text);

/** Splits one CSV line into its fields (RFC 4180 quotes; a trailing CR or LF is dropped). */
std::vector<std::string> csvFields(std::string_view line);

/** Whether printableText keeps line feeds and tabs (multi-line text) or escapes them too. */
enum class LineBreaks
{
    Escape, ///< One line: "\n" and "\t" are written as such, two visible characters each.
    Keep    ///< A paragraph: line feeds and tabs stay.
};

/**
 * Returns \a text safe to show on a terminal or in a report, the one rule for text that came
 * from a file (scenario names, descriptions, keys): control characters, which start ANSI escape
 * sequences and can rewrite a terminal, become visible escapes ("\x1b", "\r"); so do the C1
 * controls ("\u009b"), the bidirectional overrides U+202A to U+202E and U+2066 to U+2069 (which
 * reorder what is shown) and bytes that are not UTF-8 ("\xff"). Everything else is unchanged.
 */
std::string printableText(std::string_view text, LineBreaks lineBreaks = LineBreaks::Escape);

/**
 * Returns \a text whole when it has at most \a maxBytes bytes, otherwise its first characters
 * up to that many bytes (never half a UTF-8 character) and a visible note saying how long the
 * whole text is: reports render text of any length in bounded time.
 */
std::string shortenedText(std::string_view text, std::size_t maxBytes);

} // namespace dct
