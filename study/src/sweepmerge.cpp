#include "dct/study/sweepmerge.h"

#include "dct/model/textformat.h"
#include "dct/solvers/verdict.h"
#include "dct/study/paretofront.h"
#include "dct/study/sweepchecksum.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace dct::study {

namespace {

using nlohmann::json;

/** A row is a few kB (one number per metric); a longer line is not a sweep row. */
constexpr std::size_t maxLineBytes = 1u << 20;
constexpr std::size_t blockBytes = 1u << 20;

std::string lineAt(std::uint64_t number)
{
    return "line " + std::to_string(number);
}

/**
 * Reads \a path in blocks, adds every byte to \a checksum and calls \a visit with each line (its
 * newline included), its number and whether it ends with a newline (only the last may not).
 * Stops at the first error \a visit returns.
 */
Result<void>
scanLines(const std::filesystem::path& path, SweepChecksum& checksum,
          const std::function<Result<void>(const std::string&, std::uint64_t, bool)>& visit)
{
    const std::string file = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(file, "", "cannot read the sweep part", "a readable sweep output");
    std::string block(blockBytes, '\0');
    std::string pending;
    std::uint64_t number = 0;
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        const std::string_view data(block.data(), got);
        checksum.add(data);
        std::size_t at = 0;
        while (at < data.size()) {
            const std::size_t newline = data.find('\n', at);
            const std::size_t end = newline == std::string_view::npos ? data.size() : newline + 1;
            pending.append(data.substr(at, end - at));
            at = end;
            if (pending.size() > maxLineBytes)
                return makeError(file, lineAt(number + 1),
                                 "a line longer than 1 MiB: not a sweep row",
                                 "rows written by dctwin-cli sweep");
            if (newline != std::string_view::npos) {
                if (auto r = visit(pending, ++number, true); !r)
                    return r;
                pending.clear();
            }
        }
    }
    if (in.bad())
        return makeError(file, "", "reading the sweep part failed", "a readable sweep output");
    if (!pending.empty())
        return visit(pending, ++number, false);
    return {};
}

/** Returns true when \a text is a number as the sweep writes it (to_chars, nan, inf, -inf). */
bool isNumberText(std::string_view text)
{
    if (text.empty() || text.front() == '+' || text.front() == ' ')
        return false;
    if (text == "nan" || text == "inf" || text == "-inf")
        return true;
    double v = 0.0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(v);
}

/** Returns the variant number \a text, or nothing when it is not plain decimal digits. */
std::optional<std::uint64_t> variantNumber(std::string_view text)
{
    std::uint64_t v = 0;
    if (text.empty() || text.front() < '0' || text.front() > '9')
        return std::nullopt;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::string csvHeader(const std::vector<SweepColumn>& columns)
{
    std::string line;
    for (const auto& column : columns)
        line += (line.empty() ? "" : ",") + csvField(column.name);
    return line + "\n";
}

bool sameColumns(const std::vector<SweepColumn>& a, const std::vector<SweepColumn>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].name != b[i].name || a[i].role != b[i].role || a[i].type != b[i].type)
            return false;
    return true;
}

/** Checks one part's rows against its record, line by line. */
class PartChecker
{
public:
    PartChecker(const std::filesystem::path& path, const SweepPartRecord& record)
        : m_file(path.string()), m_record(record)
    {
        for (std::size_t k = 0; k < record.columns.size(); ++k)
            if (record.columns[k].role == SweepColumnRole::Status)
                m_status = k;
    }

    Result<void> line(const std::string& text, std::uint64_t number, bool complete)
    {
        if (!complete)
            return fail(number, "the last line has no newline: the part is truncated");
        const std::string_view row(text.data(), text.size() - 1);
        if (m_record.format == SweepFormat::Csv && number == 1) {
            if (text != csvHeader(m_record.columns))
                return fail(number, "the header differs from the columns of the part's record");
            return {};
        }
        if (row.empty())
            return fail(number, "an empty line");
        auto checked =
            m_record.format == SweepFormat::Csv ? csvRow(row, number) : jsonRow(row, number);
        if (!checked)
            return checked;
        ++m_rows;
        if (m_rows > m_record.rows)
            return fail(number, "more rows than the part's record says (" +
                                    std::to_string(m_record.rows) + ")");
        return {};
    }

    /** Checks what can only be checked at the end: the row count. */
    Result<void> finish(std::uint64_t lines) const
    {
        if (m_record.format == SweepFormat::Csv && lines == 0)
            return fail(1, "the part is empty: no header");
        if (m_rows < m_record.rows)
            return fail(lines + 1, "the part ends after " + std::to_string(m_rows) +
                                       " rows, its record says " + std::to_string(m_record.rows) +
                                       ": it is truncated");
        return {};
    }

    std::uint64_t rows() const { return m_rows; }

private:
    tl::unexpected<Error> fail(std::uint64_t number, const std::string& message) const
    {
        return makeError(m_file, lineAt(number), message,
                         "an unchanged output of dctwin-cli sweep (with its .shard.json record)");
    }

    Result<void> variant(std::uint64_t index, std::uint64_t number)
    {
        if (index < m_record.firstVariant || index >= m_record.endVariant)
            return fail(number, "variant " + std::to_string(index) + " is outside shard " +
                                    m_record.shard.toString() + " (variants " +
                                    std::to_string(m_record.firstVariant) + " to " +
                                    std::to_string(m_record.endVariant) + ")");
        if (m_rows > 0 && index <= m_lastVariant)
            return fail(number, "variant " + std::to_string(index) + " is out of order");
        m_lastVariant = index;
        return {};
    }

    Result<void> csvRow(std::string_view row, std::uint64_t number)
    {
        const auto fields = csvFields(row);
        const auto& columns = m_record.columns;
        if (fields.size() != columns.size())
            return fail(number, std::to_string(fields.size()) + " columns, expected " +
                                    std::to_string(columns.size()));
        std::string rewritten;
        for (const auto& f : fields)
            rewritten += (rewritten.empty() ? "" : ",") + csvField(f);
        if (rewritten != row)
            return fail(number, "malformed CSV quoting");
        const bool ok = fields[m_status] == "1";
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const SweepColumn& c = columns[k];
            const std::string& v = fields[k];
            const auto where = [&] {
                return "column " + std::to_string(k + 1) + " (" + c.name + ")";
            };
            switch (c.role) {
            case SweepColumnRole::Variant: {
                const auto index = variantNumber(v);
                if (!index)
                    return fail(number, where() + ": '" + v + "' is not a variant number");
                if (auto r = variant(*index, number); !r)
                    return r;
                continue;
            }
            case SweepColumnRole::Status:
                if (v != "1" && v != "0")
                    return fail(number, where() + ": '" + v + "' is not 1 or 0");
                continue;
            case SweepColumnRole::Verdict:
                if (!solvers::isFeasibilityKey(v))
                    return fail(number, where() + ": '" + v +
                                            "' is not feasible, feasible_with_warnings or "
                                            "infeasible");
                continue;
            case SweepColumnRole::Metric:
                if (!ok) {
                    if (!v.empty())
                        return fail(number, where() + ": a failed variant has no metrics");
                    continue;
                }
                break;
            case SweepColumnRole::Axis:
                break;
            }
            if (auto r = csvValue(c, k, v, number); !r)
                return r;
        }
        return {};
    }

    Result<void> csvValue(const SweepColumn& c, std::size_t k, const std::string& v,
                          std::uint64_t number) const
    {
        const auto where = [&] { return "column " + std::to_string(k + 1) + " (" + c.name + ")"; };
        switch (c.type) {
        case SweepValueType::Integer:
            if (!variantNumber(v))
                return fail(number, where() + ": '" + v + "' is not an integer");
            break;
        case SweepValueType::Number:
            if (!isNumberText(v))
                return fail(number, where() + ": '" + v + "' is not a number");
            break;
        case SweepValueType::Flag:
            if (v != "true" && v != "false")
                return fail(number, where() + ": '" + v + "' is not true or false");
            break;
        case SweepValueType::Text:
        case SweepValueType::Any:
            break;
        }
        return {};
    }

    Result<void> jsonRow(std::string_view row, std::uint64_t number)
    {
        // A row is two levels deep: deeper nesting is discarded as it is read (no deep copy).
        const auto shallow = [](int depth, json::parse_event_t, json&) { return depth <= 2; };
        const json j = json::parse(row, shallow, false);
        if (j.is_discarded() || !j.is_object())
            return fail(number, "not a JSON object");
        const auto& columns = m_record.columns;
        const std::string statusName = columns[m_status].name;
        const auto status = j.find(statusName);
        if (status == j.end() || !status->is_boolean())
            return fail(number, "\"" + statusName + "\" is missing or not true/false");
        const bool ok = status->get<bool>();
        // Members expected in each object of the row ("" the row itself).
        std::map<std::string, std::size_t> expected;
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const SweepColumn& c = columns[k];
            const std::string group(jsonGroup(c.role));
            if (!group.empty()) {
                if (!expected.count(group))
                    ++expected[""];
                expected[group] += 0;
            }
            const auto holder = group.empty() ? j.find(c.name) : j.find(group);
            if (!group.empty()) {
                if (holder == j.end() || !holder->is_object())
                    return fail(number, "\"" + group + "\" is missing or not an object");
            }
            if (c.role == SweepColumnRole::Metric && !ok)
                continue;
            ++expected[group];
            const json* value = nullptr;
            if (group.empty()) {
                if (holder != j.end())
                    value = &*holder;
            } else if (const auto it = holder->find(c.name); it != holder->end()) {
                value = &*it;
            }
            const auto where = [&] { return "\"" + c.name + "\""; };
            if (!value)
                return fail(number, where() + " is missing");
            bool good = true;
            switch (c.type) {
            case SweepValueType::Integer:
                good = value->is_number_unsigned();
                break;
            case SweepValueType::Number:
                good = value->is_number() || value->is_null();
                break;
            case SweepValueType::Flag:
                good = value->is_boolean();
                break;
            case SweepValueType::Text:
                good = value->is_string();
                break;
            case SweepValueType::Any:
                good = value->is_primitive() && !value->is_null();
                break;
            }
            if (!good)
                return fail(number, where() + ": " + value->dump() + " is not " +
                                        std::string(typeName(c.type)));
            if (c.role == SweepColumnRole::Variant)
                if (auto r = variant(value->get<std::uint64_t>(), number); !r)
                    return r;
            if (c.role == SweepColumnRole::Verdict &&
                !solvers::isFeasibilityKey(value->get<std::string>()))
                return fail(number, where() + ": " + value->dump() +
                                        " is not feasible, feasible_with_warnings or infeasible");
        }
        if (!ok) {
            const auto error = j.find("error");
            if (error == j.end() || !error->is_string())
                return fail(number, "a failed variant without its \"error\" message");
            ++expected[""];
        }
        for (const auto& [group, count] : expected) {
            const json& holder = group.empty() ? j : j.at(group);
            if (holder.size() != count)
                return fail(number, (group.empty() ? std::string("the row") : "\"" + group + "\"") +
                                        " has " + std::to_string(holder.size()) +
                                        " members, expected " + std::to_string(count));
        }
        return {};
    }

    std::string m_file;
    const SweepPartRecord& m_record;
    std::size_t m_status = 0;
    std::uint64_t m_rows = 0;
    std::uint64_t m_lastVariant = 0;
};

/** Checks the part \a path against \a record: every line, the row count, size and checksum. */
Result<void> checkPart(const std::filesystem::path& path, const SweepPartRecord& record)
{
    PartChecker checker(path, record);
    SweepChecksum checksum;
    std::uint64_t lines = 0;
    auto scanned = scanLines(path, checksum,
                             [&](const std::string& text, std::uint64_t number, bool complete) {
                                 lines = number;
                                 return checker.line(text, number, complete);
                             });
    if (!scanned)
        return scanned;
    if (auto finished = checker.finish(lines); !finished)
        return finished;
    if (checksum.bytes() != record.bytes || checksum.hex() != record.checksum)
        return makeError(path.string(), lineAt(lines),
                         "the content differs from the part's record (" +
                             std::to_string(checksum.bytes()) + " bytes, checksum " +
                             checksum.hex() + "; the record says " + std::to_string(record.bytes) +
                             " bytes, " + record.checksum + ")",
                         "an unchanged output of dctwin-cli sweep");
    return {};
}

} // namespace

Result<MergedSweep> mergeSweepParts(const std::vector<std::filesystem::path>& parts)
{
    if (parts.empty())
        return makeError("", "", "no sweep parts to merge", "one or more sweep outputs");
    MergedSweep merged;
    std::vector<SweepPartRecord> records;
    std::map<int, std::size_t> byShard; // shard index -> part
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const std::string file = parts[p].string();
        std::error_code ec;
        const auto status = std::filesystem::status(parts[p], ec);
        if (std::filesystem::is_directory(status))
            return makeError(file, "", "a folder, not a sweep part", "sweep output files");
        if (!std::filesystem::is_regular_file(status))
            return makeError(file, "", "cannot read the sweep part (no such file)",
                             "sweep output files");
        auto record = SweepPartRecord::readBeside(parts[p]);
        if (!record)
            return tl::unexpected(record.error());
        if (!records.empty()) {
            const SweepPartRecord& first = records.front();
            const std::string other = " than " + parts[0].string();
            if (record->specHash != first.specHash)
                return makeError(file, "",
                                 "written from another spec, base scenario, catalog or model "
                                 "version" +
                                     other + " (spec hash " + record->specHash + ", not " +
                                     first.specHash + ")",
                                 "the shards of one sweep");
            if (record->shard.count != first.shard.count || record->variants != first.variants)
                return makeError(file, "",
                                 "shard " + record->shard.toString() + " of another split" + other +
                                     " (shard " + first.shard.toString() + ")",
                                 "the shards of one run of --shard i/N, one N");
            if (record->format != first.format || !sameColumns(record->columns, first.columns))
                return makeError(file, "line 1",
                                 "this part's format or columns differ from " + parts[0].string() +
                                     "'s",
                                 "parts of one sweep, written with one --format");
            if (record->precision != first.precision)
                return makeError(file, "",
                                 "this part's values are at " +
                                     std::string(precisionName(record->precision)) +
                                     " precision, " + parts[0].string() + "'s at " +
                                     std::string(precisionName(first.precision)) +
                                     " precision: merged, the rows would mix rounded and "
                                     "unrounded values",
                                 "parts of one sweep, written with one --precision");
        }
        if (const auto it = byShard.find(record->shard.index); it != byShard.end())
            return makeError(file, "",
                             "shard " + record->shard.toString() + " is also in " +
                                 parts[it->second].string(),
                             "each shard once");
        if (auto checked = checkPart(parts[p], *record); !checked)
            return tl::unexpected(checked.error());
        byShard[record->shard.index] = p;
        records.push_back(std::move(*record));
    }
    const SweepPartRecord& first = records.front();
    for (int i = 0; i < first.shard.count; ++i)
        if (!byShard.count(i))
            return makeError(parts[0].string(), "",
                             "shard " + SweepShard{i, first.shard.count}.toString() +
                                 " of this sweep is missing: none of the " +
                                 std::to_string(parts.size()) + " parts given is it",
                             "all " + std::to_string(first.shard.count) +
                                 " shards of the sweep, each once");
    merged.format = first.format;
    merged.header = first.format == SweepFormat::Csv ? csvHeader(first.columns) : std::string();
    merged.record = first;
    merged.record.shard = SweepShard{};
    merged.record.firstVariant = 0;
    merged.record.endVariant = first.variants;
    merged.record.rows = 0;
    merged.record.bytes = 0;
    merged.record.checksum.clear();
    for (const auto& [index, p] : byShard) {
        merged.parts.push_back(parts[p]);
        merged.records.push_back(records[p]);
        merged.record.rows += records[p].rows;
    }
    return merged;
}

Result<void> MergedSweep::forEachRow(const std::function<void(const std::string&)>& row) const
{
    for (const auto& part : parts) {
        SweepChecksum ignored;
        auto scanned =
            scanLines(part, ignored, [&](const std::string& text, std::uint64_t number, bool) {
                if (!(format == SweepFormat::Csv && number == 1))
                    row(text);
                return Result<void>{};
            });
        if (!scanned)
            return scanned;
    }
    return {};
}

Result<SweepPartRecord> MergedSweep::write(std::ostream& out,
                                           const std::function<bool()>& stop) const
{
    SweepChecksum written;
    out << header;
    written.add(header);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        SweepChecksum read;
        auto scanned =
            scanLines(parts[p], read, [&](const std::string& text, std::uint64_t number, bool) {
                if (format == SweepFormat::Csv && number == 1)
                    return Result<void>{};
                if (stop && number % 4096 == 0 && stop())
                    return Result<void>(
                        makeError(parts[p].string(), lineAt(number), "interrupted"));
                out << text;
                written.add(text);
                return Result<void>{};
            });
        if (!scanned)
            return tl::unexpected(scanned.error());
        if (p < records.size() &&
            (read.bytes() != records[p].bytes || read.hex() != records[p].checksum))
            return makeError(parts[p].string(), "", "the part changed while it was merged",
                             "parts that no job writes any more");
    }
    SweepPartRecord result = record;
    result.bytes = written.bytes();
    result.checksum = written.hex();
    return result;
}

std::string MergedSweep::text() const
{
    std::ostringstream out;
    write(out);
    return out.str();
}

Result<std::vector<std::string>> paretoRows(const MergedSweep& merged,
                                            const std::vector<SweepObjective>& objectives,
                                            bool includeInfeasible)
{
    std::vector<std::vector<double>> points;
    std::vector<bool> minimize;
    for (const auto& o : objectives)
        minimize.push_back(o.minimize);
    std::vector<std::size_t> columns;
    std::size_t okColumn = 0;
    std::size_t verdictColumn = 0;
    if (merged.format == SweepFormat::Csv) {
        const auto names = csvFields(merged.header);
        okColumn =
            static_cast<std::size_t>(std::find(names.begin(), names.end(), "ok") - names.begin());
        verdictColumn = static_cast<std::size_t>(std::find(names.begin(), names.end(), "verdict") -
                                                 names.begin());
        for (const auto& o : objectives) {
            const auto it = std::find(names.begin(), names.end(), o.metric);
            if (it == names.end())
                return makeError("", o.specPath, "the sweep output has no column " + o.metric,
                                 "a metric written by the sweep");
            columns.push_back(static_cast<std::size_t>(it - names.begin()));
        }
    }
    const double missing = std::numeric_limits<double>::quiet_NaN();
    // First pass: the objectives of every row (a failed row or one without them is off the
    // front); second pass: the rows on the front.
    auto read = merged.forEachRow([&](const std::string& line) {
        std::vector<double> point;
        if (merged.format == SweepFormat::Csv) {
            const auto fields = csvFields(line);
            // A failed row, or an infeasible one (unless asked for), is off the front.
            const bool ok = okColumn < fields.size() && fields[okColumn] == "1" &&
                            (includeInfeasible || verdictColumn >= fields.size() ||
                             fields[verdictColumn] != "infeasible");
            for (const std::size_t c : columns) {
                double v = missing;
                if (ok && c < fields.size() && isNumberText(fields[c]) && fields[c] != "nan")
                    std::from_chars(fields[c].data(), fields[c].data() + fields[c].size(), v);
                point.push_back(v);
            }
        } else {
            const auto shallow = [](int depth, json::parse_event_t, json&) { return depth <= 2; };
            const json j = json::parse(line, shallow, false);
            const bool ok = j.is_object() && j.value("ok", false) == true &&
                            (includeInfeasible || j.value("verdict", "") != "infeasible");
            const auto metrics = ok ? j.find("metrics") : j.end();
            const bool hasMetrics = ok && metrics != j.end() && metrics->is_object();
            for (const auto& o : objectives) {
                double v = missing;
                if (hasMetrics)
                    if (const auto m = metrics->find(o.metric);
                        m != metrics->end() && m->is_number())
                        v = m->get<double>();
                point.push_back(v);
            }
        }
        points.push_back(std::move(point));
    });
    if (!read)
        return tl::unexpected(read.error());
    const std::vector<std::size_t> front = paretoFront(points, minimize);
    std::vector<std::string> rows;
    std::size_t r = 0;
    std::size_t next = 0;
    auto collected = merged.forEachRow([&](const std::string& line) {
        if (next < front.size() && front[next] == r) {
            rows.push_back(line);
            ++next;
        }
        ++r;
    });
    if (!collected)
        return tl::unexpected(collected.error());
    return rows;
}

} // namespace dct::study
