#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dct::study {

/** Output format of sweep rows. */
enum class SweepFormat
{
    Csv,  ///< A header line, then one line per variant.
    Jsonl ///< One JSON object per line.
};

/**
 * How the metric values of CSV rows are written. A CSV file is opened by people (a spreadsheet,
 * a terminal), so by default it shows the digits the CLI tables and reports show
 * (formatPlain: "8960000", "0.3581"); every digit (the shortest text that reads back to the same
 * double) only where asked. JSON lines are read by programs and always keep every digit.
 */
enum class SweepPrecision
{
    Display, ///< About four significant digits, as tables show them (CSV only).
    Full     ///< The shortest text that reads back to the same double.
};

/** Returns "display" or "full", as part records and the CLI name it. */
inline std::string_view precisionName(SweepPrecision precision)
{
    return precision == SweepPrecision::Display ? "display" : "full";
}

/** Returns the precision named \a name ("display", "full"), or nothing. */
inline std::optional<SweepPrecision> precisionNamed(std::string_view name)
{
    if (name == "display")
        return SweepPrecision::Display;
    if (name == "full")
        return SweepPrecision::Full;
    return std::nullopt;
}

/** What a column of sweep rows holds; decides how it is written and checked. */
enum class SweepColumnRole
{
    Variant, ///< The variant index (an integer, ascending).
    Axis,    ///< A swept field's value (JSON lines: in "values").
    Status,  ///< "ok": 1/0 in CSV, true/false in JSON lines.
    Verdict, ///< "verdict": feasible, feasible_with_warnings or infeasible.
    Metric   ///< A metric's value, empty (CSV) or absent (JSON lines) when the variant failed.
};

/** The kind of value a column holds, for checking parts before a merge. */
enum class SweepValueType
{
    Integer, ///< Decimal digits.
    Number,  ///< A number as to_chars writes it, or nan, inf, -inf (CSV) / null (JSON lines).
    Flag,    ///< 1/0 (CSV) or true/false (JSON lines) for the status; true/false for an axis.
    Text,    ///< Any text (a catalog id, an enum value).
    Any      ///< Mixed values: not checked.
};

/**
 * One column of sweep rows: its name (CSV header, JSON key), role and value type. The runner's
 * column list is the one place that defines the rows; the writer, the CSV header, the part
 * record and the merge's checks all follow it.
 */
struct SweepColumn
{
    std::string name;
    SweepColumnRole role = SweepColumnRole::Metric;
    SweepValueType type = SweepValueType::Number;
    std::size_t source = 0; ///< The axis or metric number it comes from.
};

/** Returns the JSON object of a JSON-lines row that holds columns of \a role ("" at the top). */
inline std::string_view jsonGroup(SweepColumnRole role)
{
    switch (role) {
    case SweepColumnRole::Axis:
        return "values";
    case SweepColumnRole::Metric:
        return "metrics";
    case SweepColumnRole::Variant:
    case SweepColumnRole::Status:
    case SweepColumnRole::Verdict:
        break;
    }
    return {};
}

/** Returns the name of \a role in part records. */
inline std::string_view roleName(SweepColumnRole role)
{
    switch (role) {
    case SweepColumnRole::Variant:
        return "variant";
    case SweepColumnRole::Axis:
        return "axis";
    case SweepColumnRole::Status:
        return "status";
    case SweepColumnRole::Verdict:
        return "verdict";
    case SweepColumnRole::Metric:
        break;
    }
    return "metric";
}

/** Returns the name of \a type in part records. */
inline std::string_view typeName(SweepValueType type)
{
    switch (type) {
    case SweepValueType::Integer:
        return "integer";
    case SweepValueType::Number:
        return "number";
    case SweepValueType::Flag:
        return "flag";
    case SweepValueType::Text:
        return "text";
    case SweepValueType::Any:
        break;
    }
    return "any";
}

/** Returns the role named \a name, or nothing. */
inline std::optional<SweepColumnRole> roleNamed(std::string_view name)
{
    for (const auto role :
         {SweepColumnRole::Variant, SweepColumnRole::Axis, SweepColumnRole::Status,
          SweepColumnRole::Verdict, SweepColumnRole::Metric})
        if (roleName(role) == name)
            return role;
    return std::nullopt;
}

/** Returns the type named \a name, or nothing. */
inline std::optional<SweepValueType> typeNamed(std::string_view name)
{
    for (const auto type : {SweepValueType::Integer, SweepValueType::Number, SweepValueType::Flag,
                            SweepValueType::Text, SweepValueType::Any})
        if (typeName(type) == name)
            return type;
    return std::nullopt;
}

} // namespace dct::study
