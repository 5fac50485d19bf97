#include "dct/study/sweepmerge.h"

#include "dct/model/textformat.h"
#include "dct/study/paretofront.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

namespace dct::study {

namespace {

double parseNumber(const std::string& text)
{
    if (text.empty() || text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-inf")
        return -std::numeric_limits<double>::infinity();
    double v = std::numeric_limits<double>::quiet_NaN();
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

} // namespace

std::string MergedSweep::text() const
{
    std::string out = header;
    for (const auto& row : rows)
        out += row.second;
    return out;
}

Result<MergedSweep> mergeSweepParts(const std::vector<std::filesystem::path>& parts)
{
    MergedSweep merged;
    std::vector<std::size_t> source; // part of each row, for messages
    bool first = true;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const std::string file = parts[p].string();
        std::ifstream in(parts[p], std::ios::binary);
        if (!in)
            return makeError(file, "", "cannot read the sweep part", "a readable sweep output");
        std::string line;
        std::size_t lineNumber = 0;
        bool headerSeen = false;
        while (std::getline(in, line)) {
            ++lineNumber;
            if (line.empty())
                continue;
            line += '\n';
            const bool jsonLine = line[0] == '{';
            if (!headerSeen) {
                headerSeen = true;
                const SweepFormat format = jsonLine ? SweepFormat::Jsonl : SweepFormat::Csv;
                const std::string header = jsonLine ? std::string() : line;
                if (first) {
                    merged.format = format;
                    merged.header = header;
                    first = false;
                } else if (format != merged.format || header != merged.header) {
                    return makeError(file, "line 1",
                                     "this part's format or columns differ from " +
                                         parts[0].string() + "'s",
                                     "parts of one sweep, written with one --format");
                }
                if (!jsonLine)
                    continue;
            }
            std::uint64_t index = 0;
            const char* begin = line.data();
            const char* end = line.data() + line.size();
            if (merged.format == SweepFormat::Jsonl) {
                static const std::string prefix = "{\"variant\":";
                if (line.compare(0, prefix.size(), prefix) != 0)
                    return makeError(file, "line " + std::to_string(lineNumber), "not a sweep row",
                                     "{\"variant\": N, ...}");
                begin += prefix.size();
            }
            const auto parsed = std::from_chars(begin, end, index);
            if (parsed.ec != std::errc() || parsed.ptr == begin)
                return makeError(file, "line " + std::to_string(lineNumber),
                                 "the row does not start with a variant number",
                                 "rows written by dctwin-cli sweep");
            merged.rows.emplace_back(index, std::move(line));
            source.push_back(p);
        }
    }
    if (first)
        return makeError(parts.empty() ? "" : parts[0].string(), "", "no sweep rows to merge",
                         "one or more sweep outputs");
    std::vector<std::size_t> order(merged.rows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return merged.rows[a].first < merged.rows[b].first;
    });
    std::vector<std::pair<std::uint64_t, std::string>> sorted;
    sorted.reserve(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (k > 0 && merged.rows[order[k]].first == merged.rows[order[k - 1]].first)
            return makeError(parts[source[order[k]]].string(), "",
                             "variant " + std::to_string(merged.rows[order[k]].first) +
                                 " is also in " + parts[source[order[k - 1]]].string(),
                             "each shard once");
        sorted.push_back(std::move(merged.rows[order[k]]));
    }
    merged.rows = std::move(sorted);
    return merged;
}

Result<std::vector<std::string>> paretoRows(const MergedSweep& merged,
                                            const std::vector<SweepObjective>& objectives)
{
    std::vector<std::vector<double>> points;
    std::vector<std::size_t> rowOf;
    std::vector<bool> minimize;
    for (const auto& o : objectives)
        minimize.push_back(o.minimize);
    std::vector<std::size_t> columns;
    std::size_t okColumn = 0;
    if (merged.format == SweepFormat::Csv) {
        const auto names = csvFields(merged.header);
        okColumn =
            static_cast<std::size_t>(std::find(names.begin(), names.end(), "ok") - names.begin());
        for (const auto& o : objectives) {
            const auto it = std::find(names.begin(), names.end(), o.metric);
            if (it == names.end())
                return makeError("", o.specPath, "the sweep output has no column " + o.metric,
                                 "a metric written by the sweep");
            columns.push_back(static_cast<std::size_t>(it - names.begin()));
        }
    }
    for (std::size_t r = 0; r < merged.rows.size(); ++r) {
        const std::string& line = merged.rows[r].second;
        std::vector<double> point;
        if (merged.format == SweepFormat::Csv) {
            const auto fields = csvFields(line);
            if (okColumn < fields.size() && fields[okColumn] != "1")
                continue;
            for (const std::size_t c : columns)
                point.push_back(c < fields.size() ? parseNumber(fields[c])
                                                  : std::numeric_limits<double>::quiet_NaN());
        } else {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.value("ok", false))
                continue;
            for (const auto& o : objectives) {
                const auto& m = j["metrics"];
                point.push_back(m.contains(o.metric) && m[o.metric].is_number()
                                    ? m[o.metric].get<double>()
                                    : std::numeric_limits<double>::quiet_NaN());
            }
        }
        points.push_back(std::move(point));
        rowOf.push_back(r);
    }
    std::vector<std::string> rows;
    for (const std::size_t i : paretoFront(points, minimize))
        rows.push_back(merged.rows[rowOf[i]].second);
    return rows;
}

} // namespace dct::study
