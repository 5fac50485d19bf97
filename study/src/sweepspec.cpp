#include "dct/study/sweepspec.h"

#include "dct/model/jsonread.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>

namespace dct::study {

using nlohmann::json;

namespace {

/** SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): the same numbers on every platform, which
 *  std::uniform_real_distribution does not promise. */
std::uint64_t splitMix(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/** "1234567" as "1,234,567". */
std::string grouped(std::uint64_t n)
{
    std::string digits = std::to_string(n);
    for (std::size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, 1, ',');
    return digits;
}

/** An axis as the spec defines it: checked and counted, not yet expanded. */
struct AxisDefinition
{
    enum class Kind
    {
        List,
        Range,
        Sample
    };
    Kind kind = Kind::List;
    std::string pointer;
    std::string specPath;
    const json* list = nullptr; ///< The spec's list (Kind::List).
    double from = 0.0;          ///< Kind::Range.
    double step = 0.0;
    bool integral = false;
    bool logUniform = false; ///< Kind::Sample.
    double low = 0.0;
    double high = 0.0;
    std::uint64_t seed = 0;
    std::uint64_t count = 0; ///< Values of the axis.
};

struct Reader
{
    std::string file;

    tl::unexpected<Error> error(const std::string& path, const std::string& message,
                                const std::string& accepted = {}) const
    {
        return makeError(file, path, message, accepted);
    }

    Result<double> number(const json& object, const char* key, const std::string& path) const
    {
        if (!object.contains(key))
            return error(path + "/" + key, std::string("missing key '") + key + "'", "a number");
        const json& v = object[key];
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            return error(path + "/" + key, "expected a number, found " + v.dump(), "a number");
        return v.get<double>();
    }

    /** Checks the axis \a a and counts its values without expanding them. */
    Result<AxisDefinition> define(const std::string& pointer, const json& a,
                                  const std::string& path) const
    {
        AxisDefinition out;
        out.pointer = pointer;
        out.specPath = path;
        if (pointer.empty() || pointer[0] != '/')
            return error(path, "invalid field pointer '" + pointer + "'",
                         "a JSON pointer such as \"/compute/node_count\"");
        if (a.is_array()) {
            out.list = &a;
        } else if (!a.is_object()) {
            return error(path, "expected an object or a list of values",
                         "{\"values\": [...]}, {\"from\", \"to\", \"step\"} or "
                         "{\"sample\": \"uniform\", \"min\", \"max\", \"count\", \"seed\"}");
        } else if (a.contains("values")) {
            if (!a["values"].is_array())
                return error(path + "/values", "expected a list of values", "[v1, v2, ...]");
            out.list = &a["values"];
        } else if (a.contains("from") || a.contains("to") || a.contains("step")) {
            auto from = number(a, "from", path);
            auto to = number(a, "to", path);
            auto step = number(a, "step", path);
            if (!from)
                return tl::unexpected(from.error());
            if (!to)
                return tl::unexpected(to.error());
            if (!step)
                return tl::unexpected(step.error());
            if (*step <= 0.0 || *to < *from)
                return error(path, "empty range", "\"step\" > 0 and \"to\" >= \"from\"");
            // Count first and multiply, so that 0.1 steps do not accumulate rounding errors.
            const double steps = std::floor((*to - *from) / *step + 1e-9);
            if (!(steps < static_cast<double>(maxSweepAxisValues)))
                return error(path + "/step", "the range has more than 10 million values",
                             "a larger step");
            out.kind = AxisDefinition::Kind::Range;
            out.from = *from;
            out.step = *step;
            out.integral = a["from"].is_number_integer() && a["step"].is_number_integer();
            out.count = static_cast<std::uint64_t>(steps) + 1;
        } else if (a.contains("sample")) {
            const json& kind = a["sample"];
            if (kind != "uniform" && kind != "log_uniform")
                return error(path + "/sample", "unknown sampling " + kind.dump(),
                             "\"uniform\" or \"log_uniform\"");
            auto lo = number(a, "min", path);
            auto hi = number(a, "max", path);
            auto count = number(a, "count", path);
            if (!lo)
                return tl::unexpected(lo.error());
            if (!hi)
                return tl::unexpected(hi.error());
            if (!count)
                return tl::unexpected(count.error());
            if (*hi < *lo)
                return error(path, "\"max\" is below \"min\"", "\"min\" <= \"max\"");
            if (*count < 1 || *count > static_cast<double>(maxSweepAxisValues) ||
                std::floor(*count) != *count)
                return error(path + "/count", "invalid count", "an integer from 1 to 10000000");
            if (kind == "log_uniform" && *lo <= 0.0)
                return error(path + "/min", "log-uniform sampling needs \"min\" > 0",
                             "a positive number");
            if (a.contains("seed")) {
                if (!a["seed"].is_number_integer())
                    return error(path + "/seed", "expected an integer seed", "an integer");
                out.seed = a["seed"].get<std::uint64_t>();
            }
            out.kind = AxisDefinition::Kind::Sample;
            out.logUniform = kind == "log_uniform";
            out.low = *lo;
            out.high = *hi;
            out.count = static_cast<std::uint64_t>(*count);
        } else {
            return error(path, "the axis has no values",
                         "\"values\", \"from\"/\"to\"/\"step\" or \"sample\"");
        }
        if (out.list) {
            out.count = out.list->size();
            for (std::size_t i = 0; i < out.list->size(); ++i) {
                const json& v = (*out.list)[i];
                if (!v.is_number() && !v.is_string() && !v.is_boolean())
                    return error(path + "/values/" + std::to_string(i),
                                 "unsupported value " + v.dump(),
                                 "a number, a string or a boolean");
            }
        }
        if (out.count == 0)
            return error(path, "the axis has no values", "at least one value");
        return out;
    }

    /** Returns the values of \a d (called once the grid's size is known to be acceptable). */
    static SweepAxis expand(const AxisDefinition& d)
    {
        SweepAxis out;
        out.pointer = d.pointer;
        out.specPath = d.specPath;
        out.values.reserve(static_cast<std::size_t>(d.count));
        switch (d.kind) {
        case AxisDefinition::Kind::List:
            out.values.assign(d.list->begin(), d.list->end());
            break;
        case AxisDefinition::Kind::Range:
            for (std::uint64_t k = 0; k < d.count; ++k) {
                const double v = d.from + static_cast<double>(k) * d.step;
                out.values.push_back(d.integral ? json(static_cast<long long>(std::llround(v)))
                                                : json(v));
            }
            break;
        case AxisDefinition::Kind::Sample: {
            std::uint64_t state = d.seed;
            for (std::uint64_t k = 0; k < d.count; ++k) {
                const double u = static_cast<double>(splitMix(state) >> 11) * 0x1.0p-53;
                const double v =
                    d.logUniform
                        ? std::exp(std::log(d.low) + u * (std::log(d.high) - std::log(d.low)))
                        : d.low + u * (d.high - d.low);
                out.values.push_back(v);
            }
            break;
        }
        }
        return out;
    }

    Result<std::string> metric(const json& item, const std::string& path) const
    {
        if (item.is_string())
            return item.get<std::string>();
        if (item.is_object() && item.contains("metric") && item["metric"].is_string())
            return item["metric"].get<std::string>();
        return error(path, "expected a metric key", "a key such as \"compute.training_days\"");
    }
};

} // namespace

std::uint64_t SweepSpec::variantCount() const
{
    std::uint64_t count = 1;
    for (const auto& axis : axes)
        count = multiplyCounts(count, axis.values.size()).value_or(UINT64_MAX);
    return count;
}

std::optional<std::uint64_t> multiplyCounts(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return std::nullopt;
    return a * b;
}

Result<SweepSpec> parseSweepSpec(const json& j, const std::string& file,
                                 const SweepSpecLimits& limits)
{
    Reader r{file};
    SweepSpec spec;
    spec.file = file;
    if (!j.is_object())
        return r.error("", "a sweep spec must be a JSON object",
                       "{\"base\": \"scenario.json\", \"axes\": [...]}");
    static const std::vector<std::string> keys = {"base",        "axes",    "fields",
                                                  "metrics",     "filters", "pareto",
                                                  "description", "name",    "feasible_only"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
            return r.error(
                "/" + it.key(), "unknown key '" + it.key() + "'",
                "base, axes, fields, metrics, filters, feasible_only, pareto, name, description");
    if (!j.contains("base") || !j["base"].is_string())
        return r.error("/base", "missing the base scenario", "a scenario file path (string)");
    spec.base = j["base"].get<std::string>();
    if (spec.base.is_relative() && !file.empty())
        spec.base = std::filesystem::path(file).parent_path() / spec.base;

    // Check and count every axis first: a grid over the limits is refused before any axis is
    // expanded, so that its memory stays bounded by what is accepted.
    std::vector<AxisDefinition> definitions;
    if (j.contains("axes")) {
        if (!j["axes"].is_array())
            return r.error("/axes", "expected a list of axes",
                           "[{\"field\": \"/compute/node_count\", \"values\": [...]}, ...]");
        for (std::size_t i = 0; i < j["axes"].size(); ++i) {
            const json& a = j["axes"][i];
            const std::string path = "/axes/" + std::to_string(i);
            if (!a.is_object() || !a.contains("field") || !a["field"].is_string())
                return r.error(path + "/field", "missing the field's JSON pointer",
                               "\"field\": \"/compute/node_count\"");
            auto axis = r.define(a["field"].get<std::string>(), a, path);
            if (!axis)
                return tl::unexpected(axis.error());
            definitions.push_back(std::move(*axis));
        }
    }
    if (j.contains("fields")) {
        if (!j["fields"].is_object())
            return r.error("/fields", "expected an object of JSON pointers",
                           "{\"/compute/node_count\": [16, 32]}");
        for (auto it = j["fields"].begin(); it != j["fields"].end(); ++it) {
            std::string escaped;
            for (char c : it.key())
                escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
            auto axis = r.define(it.key(), it.value(), "/fields/" + escaped);
            if (!axis)
                return tl::unexpected(axis.error());
            definitions.push_back(std::move(*axis));
        }
    }
    if (definitions.empty())
        return r.error("/axes", "the sweep has no axes", "at least one field with values");
    for (std::size_t i = 0; i < definitions.size(); ++i)
        for (std::size_t k = 0; k < i; ++k)
            if (definitions[i].pointer == definitions[k].pointer)
                return r.error(definitions[i].specPath,
                               "the field " + definitions[i].pointer + " is swept twice",
                               "each field on one axis");
    std::uint64_t total = 1;
    std::uint64_t values = 0;
    bool overflow = false;
    for (const auto& d : definitions) {
        const auto product = multiplyCounts(total, d.count);
        overflow |= !product;
        total = product.value_or(UINT64_MAX);
        values += d.count; // each count is below 10^7: no overflow
    }
    if (overflow || total > maxSweepVariants)
        return r.error("/axes",
                       "the grid has more than 10^15 variants" +
                           (overflow ? std::string() : " (" + grouped(total) + ")"),
                       "fewer values");
    if (values > maxSweepAxisValues)
        return r.error(
            "/axes", "the axes have " + grouped(values) + " values together, more than 10,000,000",
            "fewer values per axis");
    const std::uint64_t shards = std::max<std::uint64_t>(1, limits.shards);
    const std::uint64_t perRun = total / shards + (total % shards ? 1 : 0);
    if (perRun > limits.maxVariantsPerRun)
        return r.error("/axes",
                       "the grid has " + grouped(total) + " variants" +
                           (shards > 1 ? " (up to " + grouped(perRun) + " per shard of " +
                                             grouped(shards) + ")"
                                       : std::string()) +
                           ", more than " + grouped(limits.maxVariantsPerRun) + " per run",
                       limits.accepted.empty() ? "fewer values" : limits.accepted);
    for (const auto& d : definitions)
        spec.axes.push_back(Reader::expand(d));

    if (j.contains("metrics")) {
        if (!j["metrics"].is_array())
            return r.error("/metrics", "expected a list of metric keys",
                           "[\"compute.training_days\", ...]");
        for (std::size_t i = 0; i < j["metrics"].size(); ++i) {
            auto m = r.metric(j["metrics"][i], "/metrics/" + std::to_string(i));
            if (!m)
                return tl::unexpected(m.error());
            spec.metrics.push_back(*m);
        }
    }
    if (j.contains("filters")) {
        if (!j["filters"].is_array())
            return r.error("/filters", "expected a list of filters",
                           "[{\"metric\": \"compute.training_days\", \"max\": 30}]");
        for (std::size_t i = 0; i < j["filters"].size(); ++i) {
            const json& f = j["filters"][i];
            const std::string path = "/filters/" + std::to_string(i);
            auto m = r.metric(f, path + "/metric");
            if (!m)
                return tl::unexpected(m.error());
            SweepFilter filter;
            filter.metric = *m;
            filter.specPath = path;
            if (!f.contains("min") && !f.contains("max"))
                return r.error(path, "a filter needs \"min\" or \"max\"", "a number bound");
            if (f.contains("min")) {
                auto v = r.number(f, "min", path);
                if (!v)
                    return tl::unexpected(v.error());
                filter.minimum = *v;
            }
            if (f.contains("max")) {
                auto v = r.number(f, "max", path);
                if (!v)
                    return tl::unexpected(v.error());
                filter.maximum = *v;
            }
            spec.filters.push_back(filter);
        }
    }
    if (j.contains("feasible_only")) {
        if (!j["feasible_only"].is_boolean())
            return r.error("/feasible_only", "expected true or false",
                           "true to drop the infeasible variants");
        spec.feasibleOnly = j["feasible_only"].get<bool>();
    }
    if (j.contains("pareto")) {
        const json& p = j["pareto"];
        if (p.is_object() && p.contains("include_infeasible")) {
            if (!p["include_infeasible"].is_boolean())
                return r.error("/pareto/include_infeasible", "expected true or false",
                               "true to let infeasible variants onto the front");
            spec.paretoIncludeInfeasible = p["include_infeasible"].get<bool>();
        }
        const json& list = p.is_object() && p.contains("objectives") ? p["objectives"] : p;
        const std::string base = p.is_object() ? "/pareto/objectives" : "/pareto";
        if (!list.is_array() || list.size() < 2)
            return r.error(base, "a Pareto front needs at least two objectives",
                           "[{\"metric\": \"cost.tco_usd_per_year\", \"goal\": \"minimize\"}, "
                           "...]");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string path = base + "/" + std::to_string(i);
            auto m = r.metric(list[i], path + "/metric");
            if (!m)
                return tl::unexpected(m.error());
            SweepObjective o;
            o.metric = *m;
            o.specPath = path;
            if (list[i].is_object() && list[i].contains("goal")) {
                const json& goal = list[i]["goal"];
                if (goal != "minimize" && goal != "maximize")
                    return r.error(path + "/goal", "unknown goal " + goal.dump(),
                                   "\"minimize\" or \"maximize\"");
                o.minimize = goal == "minimize";
                o.goalGiven = true;
            }
            spec.objectives.push_back(o);
        }
    }
    return spec;
}

Result<SweepSpec> readSweepSpecFile(const std::filesystem::path& path,
                                    const SweepSpecLimits& limits)
{
    auto j = model::readJsonFile(path, "a readable JSON object (a sweep spec)");
    if (!j)
        return tl::unexpected(j.error().error);
    return parseSweepSpec(*j, path.string(), limits);
}

} // namespace dct::study
