#include "dct/study/sweepspec.h"

#include "dct/model/jsonread.h"

#include <cmath>
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

    Result<SweepAxis> axis(const std::string& pointer, const json& a, const std::string& path) const
    {
        SweepAxis out;
        out.pointer = pointer;
        out.specPath = path;
        if (pointer.empty() || pointer[0] != '/')
            return error(path, "invalid field pointer '" + pointer + "'",
                         "a JSON pointer such as \"/compute/node_count\"");
        if (a.is_array()) {
            out.values = a.get<std::vector<json>>();
        } else if (!a.is_object()) {
            return error(path, "expected an object or a list of values",
                         "{\"values\": [...]}, {\"from\", \"to\", \"step\"} or "
                         "{\"sample\": \"uniform\", \"min\", \"max\", \"count\", \"seed\"}");
        } else if (a.contains("values")) {
            if (!a["values"].is_array())
                return error(path + "/values", "expected a list of values", "[v1, v2, ...]");
            out.values = a["values"].get<std::vector<json>>();
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
            if (steps >= 1e7)
                return error(path + "/step", "the range has more than 10 million values",
                             "a larger step");
            const bool integral = a["from"].is_number_integer() && a["step"].is_number_integer();
            for (int k = 0; k <= static_cast<int>(steps); ++k) {
                const double v = *from + k * *step;
                out.values.push_back(integral ? json(static_cast<long long>(std::llround(v)))
                                              : json(v));
            }
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
            if (*count < 1 || *count > 1e7 || std::floor(*count) != *count)
                return error(path + "/count", "invalid count", "an integer from 1 to 10000000");
            if (kind == "log_uniform" && *lo <= 0.0)
                return error(path + "/min", "log-uniform sampling needs \"min\" > 0",
                             "a positive number");
            std::uint64_t state = 0;
            if (a.contains("seed")) {
                if (!a["seed"].is_number_integer())
                    return error(path + "/seed", "expected an integer seed", "an integer");
                state = a["seed"].get<std::uint64_t>();
            }
            for (int k = 0; k < static_cast<int>(*count); ++k) {
                const double u = static_cast<double>(splitMix(state) >> 11) * 0x1.0p-53;
                const double v =
                    kind == "uniform"
                        ? *lo + u * (*hi - *lo)
                        : std::exp(std::log(*lo) + u * (std::log(*hi) - std::log(*lo)));
                out.values.push_back(v);
            }
        } else {
            return error(path, "the axis has no values",
                         "\"values\", \"from\"/\"to\"/\"step\" or \"sample\"");
        }
        if (out.values.empty())
            return error(path, "the axis has no values", "at least one value");
        for (std::size_t i = 0; i < out.values.size(); ++i) {
            const json& v = out.values[i];
            if (!v.is_number() && !v.is_string() && !v.is_boolean())
                return error(path + "/values/" + std::to_string(i), "unsupported value " + v.dump(),
                             "a number, a string or a boolean");
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
        count *= axis.values.size();
    return count;
}

Result<SweepSpec> parseSweepSpec(const json& j, const std::string& file)
{
    Reader r{file};
    SweepSpec spec;
    spec.file = file;
    if (!j.is_object())
        return r.error("", "a sweep spec must be a JSON object",
                       "{\"base\": \"scenario.json\", \"axes\": [...]}");
    static const std::vector<std::string> keys = {"base",    "axes",   "fields",      "metrics",
                                                  "filters", "pareto", "description", "name"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
            return r.error("/" + it.key(), "unknown key '" + it.key() + "'",
                           "base, axes, fields, metrics, filters, pareto, name, description");
    if (!j.contains("base") || !j["base"].is_string())
        return r.error("/base", "missing the base scenario", "a scenario file path (string)");
    spec.base = j["base"].get<std::string>();
    if (spec.base.is_relative() && !file.empty())
        spec.base = std::filesystem::path(file).parent_path() / spec.base;

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
            auto axis = r.axis(a["field"].get<std::string>(), a, path);
            if (!axis)
                return tl::unexpected(axis.error());
            spec.axes.push_back(std::move(*axis));
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
            auto axis = r.axis(it.key(), it.value(), "/fields/" + escaped);
            if (!axis)
                return tl::unexpected(axis.error());
            spec.axes.push_back(std::move(*axis));
        }
    }
    if (spec.axes.empty())
        return r.error("/axes", "the sweep has no axes", "at least one field with values");
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
        for (std::size_t k = 0; k < i; ++k)
            if (spec.axes[i].pointer == spec.axes[k].pointer)
                return r.error(spec.axes[i].specPath,
                               "the field " + spec.axes[i].pointer + " is swept twice",
                               "each field on one axis");
    long double total = 1;
    for (const auto& axis : spec.axes)
        total *= static_cast<long double>(axis.values.size());
    if (total > 1e15L)
        return r.error("/axes", "the grid has more than 10^15 variants", "fewer values");

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
    if (j.contains("pareto")) {
        const json& p = j["pareto"];
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

Result<SweepSpec> readSweepSpecFile(const std::filesystem::path& path)
{
    auto j = model::readJsonFile(path, "a readable JSON object (a sweep spec)");
    if (!j)
        return tl::unexpected(j.error().error);
    return parseSweepSpec(*j, path.string());
}

} // namespace dct::study
