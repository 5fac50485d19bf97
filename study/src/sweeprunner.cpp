#include "dct/study/sweeprunner.h"

#include "dct/model/contenthash.h"
#include "dct/model/jsonread.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/textformat.h"
#include "dct/solvers/evaluator.h"
#include "dct/solvers/finitecheck.h"
#include "dct/solvers/modelversion.h"
#include "dct/solvers/verdict.h"
#include "dct/study/paretofront.h"
#include "dct/study/sweepchecksum.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <ostream>
#include <string_view>
#include <thread>
#include <tuple>

namespace dct::study {

using nlohmann::json;

namespace {

/** Appends \a v in the shortest form that reads back to the same double. */
void appendNumber(std::string& out, double v, bool json)
{
    if (!std::isfinite(v)) {
        out += json ? "null" : (std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, r.ptr);
}

std::string valueText(const json& v, bool forJson)
{
    if (v.is_number()) {
        std::string s;
        if (v.is_number_integer())
            s = v.dump();
        else
            appendNumber(s, v.get<double>(), forJson);
        return s;
    }
    if (v.is_string())
        return forJson ? v.dump() : csvField(v.get<std::string>());
    return v.dump();
}

/** Returns the position of \a key in \a metrics, trying \a hint first; npos when absent. */
std::size_t findMetric(const std::vector<solvers::Metric>& metrics, const std::string& key,
                       std::size_t hint)
{
    if (hint < metrics.size() && metrics[hint].key == key)
        return hint;
    for (std::size_t i = 0; i < metrics.size(); ++i)
        if (metrics[i].key == key)
            return i;
    return std::string::npos;
}

} // namespace

Result<SweepShard> SweepShard::parse(const std::string& text)
{
    const auto slash = text.find('/');
    SweepShard shard;
    auto bad = [&] {
        return makeError("", "--shard", "invalid shard '" + text + "'",
                         "i/N with 0 <= i < N, e.g. 0/8 ($SLURM_ARRAY_TASK_ID/"
                         "$SLURM_ARRAY_TASK_COUNT)");
    };
    if (slash == std::string::npos)
        return bad();
    const auto a = std::from_chars(text.data(), text.data() + slash, shard.index);
    const auto b = std::from_chars(text.data() + slash + 1, text.data() + text.size(), shard.count);
    if (a.ec != std::errc() || a.ptr != text.data() + slash || b.ec != std::errc() ||
        b.ptr != text.data() + text.size() || shard.count < 1 || shard.index < 0 ||
        shard.index >= shard.count)
        return bad();
    return shard;
}

Result<SweepRunner> SweepRunner::create(const SweepSpec& spec, const model::Scenario& base,
                                        const model::Catalog& catalog, SweepEvaluator evaluator)
{
    return prepare(spec, &base, &catalog, nullptr, std::move(evaluator));
}

Result<SweepRunner> SweepRunner::create(const SweepSpec& spec, const model::ResolvedScenario& base,
                                        SweepEvaluator evaluator)
{
    return prepare(spec, nullptr, nullptr, &base, std::move(evaluator));
}

Result<SweepRunner> SweepRunner::prepare(const SweepSpec& spec, const model::Scenario* base,
                                         const model::Catalog* catalog,
                                         const model::ResolvedScenario* resolved,
                                         SweepEvaluator evaluator)
{
    SweepRunner r;
    r.m_spec = spec;
    // Without an evaluator of its own, run() evaluates into one Evaluation per thread.
    r.m_evaluateInPlace = !evaluator;
    r.m_evaluate =
        evaluator
            ? std::move(evaluator)
            : SweepEvaluator([](const model::ResolvedScenario& s) { return solvers::evaluate(s); });
    const std::string& file = spec.file;

    // Compile the axes; strides make the last axis vary fastest.
    std::uint64_t stride = 1;
    std::uint64_t groups = 1;
    for (auto it = spec.axes.rbegin(); it != spec.axes.rend(); ++it) {
        auto patcher = ScenarioPatcher::compile(it->pointer, file, it->specPath);
        if (!patcher)
            return tl::unexpected(patcher.error());
        Axis axis;
        axis.patcher = std::move(*patcher);
        axis.stride = stride;
        stride *= it->values.size();
        if (axis.patcher.isCatalogReference()) {
            if (!base)
                return makeError(file, it->specPath,
                                 "cannot sweep the catalog reference " + it->pointer +
                                     " without a catalog",
                                 "a numeric field");
            axis.groupStride = groups;
            groups *= it->values.size();
            if (groups > 100000)
                return makeError(file, it->specPath,
                                 "more than 100000 combinations of catalog entries",
                                 "fewer catalog ids");
        }
        for (std::size_t i = 0; i < it->values.size(); ++i) {
            const json& v = it->values[i];
            const std::string valuePath = it->specPath + "/values/" + std::to_string(i);
            if (!axis.patcher.isCatalogReference()) {
                auto number = axis.patcher.toNumber(v, valuePath);
                if (!number)
                    return tl::unexpected(number.error());
                axis.numbers.push_back(*number);
            } else if (!v.is_string()) {
                return makeError(file, valuePath,
                                 "invalid value " + v.dump() + " for " + it->pointer,
                                 "a catalog id (string)");
            }
            axis.csvText.push_back(valueText(v, false));
            axis.jsonText.push_back(valueText(v, true));
        }
        r.m_axes.insert(r.m_axes.begin(), std::move(axis));
    }
    r.m_variantCount = stride;

    // Resolve the base once per combination of catalog-reference values.
    r.m_groups.reserve(groups);
    for (std::uint64_t g = 0; g < groups; ++g) {
        if (!base) {
            r.m_groups.push_back(*resolved);
            continue;
        }
        model::Scenario scenario = *base;
        for (std::size_t a = 0; a < r.m_axes.size(); ++a) {
            const Axis& axis = r.m_axes[a];
            if (!axis.patcher.isCatalogReference())
                continue;
            const std::size_t value = (g / axis.groupStride) % spec.axes[a].values.size();
            const std::string valuePath =
                spec.axes[a].specPath + "/values/" + std::to_string(value);
            const std::string problem =
                axis.patcher.setReference(scenario, spec.axes[a].values[value]);
            if (!problem.empty())
                return makeError(file, valuePath, "invalid value for " + axis.patcher.pointer(),
                                 problem);
        }
        auto result = model::resolveScenario(scenario, *catalog, spec.base.string());
        if (!result.resolved) {
            // Name the axis value that broke resolution when we can tell.
            for (const auto& d : result.diagnostics)
                if (d.severity == Severity::Error)
                    for (std::size_t a = 0; a < r.m_axes.size(); ++a)
                        if (r.m_axes[a].patcher.isCatalogReference() &&
                            d.path.rfind(r.m_axes[a].patcher.pointer(), 0) == 0) {
                            const std::size_t value =
                                (g / r.m_axes[a].groupStride) % spec.axes[a].values.size();
                            return makeError(
                                file, spec.axes[a].specPath + "/values/" + std::to_string(value),
                                d.message, d.hint);
                        }
            std::string text;
            for (const auto& d : result.diagnostics)
                if (d.severity == Severity::Error)
                    text += (text.empty() ? "" : "; ") + d.path + ": " + d.message;
            return makeError(file, "/base", "the base scenario does not resolve: " + text);
        }
        r.m_groups.push_back(std::move(*result.resolved));
    }
    // Every swept field is set by each variant, as if its file set it: the checks that depend
    // on what a file sets (a parameters_billion beside a catalog model is not used) then find
    // in a variant what eval finds in the variant written out.
    for (model::ResolvedScenario& group : r.m_groups)
        for (const SweepAxis& axis : spec.axes)
            group.scenario.present.insert(axis.pointer);

    // The columns: all metrics of the base, or the chosen ones plus those filters and the
    // Pareto front need. Evaluating the base (not a variant) gives every shard the same header.
    const solvers::Evaluation probe = r.m_evaluate(r.m_groups.front());
    std::vector<std::string> available;
    for (const auto& m : probe.metrics)
        available.push_back(m.key);
    auto known = [&](const std::string& key) {
        return std::find(available.begin(), available.end(), key) != available.end();
    };
    auto acceptedKeys = [&] {
        std::string text;
        for (std::size_t i = 0; i < available.size() && i < 40; ++i)
            text += (text.empty() ? "" : ", ") + available[i];
        return available.size() > 40 ? text + ", ..." : text;
    };
    if (!probe.ok() && spec.metrics.empty())
        return makeError(file, "/base",
                         "the base scenario does not evaluate, so the metrics are unknown",
                         "a base scenario without errors, or a \"metrics\" list");
    auto addColumn = [&](const std::string& key, const std::string& path) -> Result<std::size_t> {
        if (probe.ok() && !known(key))
            return makeError(file, path, "unknown metric '" + key + "'",
                             "one of " + acceptedKeys());
        const auto it = std::find(r.m_metrics.begin(), r.m_metrics.end(), key);
        if (it != r.m_metrics.end())
            return static_cast<std::size_t>(it - r.m_metrics.begin());
        r.m_metrics.push_back(key);
        const std::size_t hint = findMetric(probe.metrics, key, 0);
        const bool found = hint != std::string::npos;
        r.m_columns.push_back(
            {key, found ? hint : 0, found ? probe.metrics[hint].unit : std::string()});
        return r.m_metrics.size() - 1;
    };
    if (spec.metrics.empty()) {
        for (const auto& key : available)
            addColumn(key, "/metrics").value();
    } else {
        for (std::size_t i = 0; i < spec.metrics.size(); ++i)
            if (auto c = addColumn(spec.metrics[i], "/metrics/" + std::to_string(i)); !c)
                return tl::unexpected(c.error());
    }
    for (const auto& f : spec.filters) {
        auto c = addColumn(f.metric, f.specPath + "/metric");
        if (!c)
            return tl::unexpected(c.error());
        r.m_filterColumns.push_back(*c);
    }
    for (auto& o : r.m_spec.objectives) {
        auto c = addColumn(o.metric, o.specPath + "/metric");
        if (!c)
            return tl::unexpected(c.error());
        r.m_objectiveColumns.push_back(*c);
        if (o.goalGiven)
            continue;
        // Without a goal in the spec, the objective goes the way its metric declares.
        const solvers::Metric* m = probe.metric(o.metric);
        if (!m || m->traits.better == solvers::Better::Neither)
            return makeError(file, o.specPath + "/goal",
                             "metric '" + o.metric +
                                 "' is neither better lower nor higher, so "
                                 "the objective needs a goal",
                             "\"minimize\" or \"maximize\"");
        o.minimize = m->traits.better == solvers::Better::Lower;
    }

    // The columns of a row, the one place that defines them: the variant, the swept values,
    // the status, then the metrics.
    auto axisType = [](const std::vector<json>& values) {
        const auto all = [&](auto test) { return std::all_of(values.begin(), values.end(), test); };
        if (all([](const json& v) { return v.is_number(); }))
            return SweepValueType::Number;
        if (all([](const json& v) { return v.is_boolean(); }))
            return SweepValueType::Flag;
        if (all([](const json& v) { return v.is_string(); }))
            return SweepValueType::Text;
        return SweepValueType::Any;
    };
    r.m_layout.push_back({"variant", SweepColumnRole::Variant, SweepValueType::Integer, 0});
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        r.m_layout.push_back(
            {spec.axes[a].pointer, SweepColumnRole::Axis, axisType(spec.axes[a].values), a});
    r.m_layout.push_back({"ok", SweepColumnRole::Status, SweepValueType::Flag, 0});
    r.m_layout.push_back({"verdict", SweepColumnRole::Verdict, SweepValueType::Text, 0});
    for (std::size_t c = 0; c < r.m_metrics.size(); ++c)
        r.m_layout.push_back({r.m_metrics[c], SweepColumnRole::Metric, SweepValueType::Number, c});
    for (const auto& column : r.m_layout)
        r.m_jsonKeys.push_back(json(column.name).dump() + ":");

    // What the rows depend on, hashed: shards of one sweep carry the same hash.
    json canonical;
    for (const auto& axis : spec.axes)
        canonical["axes"].push_back({axis.pointer, model::contentHash(json(axis.values).dump())});
    canonical["metrics"] = r.m_metrics;
    for (const auto& f : spec.filters)
        canonical["filters"].push_back({f.metric, f.minimum, f.maximum});
    for (const auto& o : r.m_spec.objectives)
        canonical["pareto"].push_back({o.metric, o.minimize});
    canonical["feasible_only"] = spec.feasibleOnly;
    canonical["pareto_include_infeasible"] = spec.paretoIncludeInfeasible;
    canonical["base"] = model::writeScenario(base ? *base : resolved->scenario);
    canonical["catalog"] = catalog ? model::catalogFingerprint(*catalog) : "resolved";
    canonical["model"] = solvers::modelVersion;
    r.m_specHash = model::contentHash(canonical.dump());
    return r;
}

std::pair<std::uint64_t, std::uint64_t> SweepRunner::shardRange(const SweepShard& shard) const
{
    // Contiguous blocks: shard i gets [n i / N, n (i + 1) / N), the same on every machine.
    // floor(n i / N) = q i + floor(r i / N) with n = q N + r: exact without a 128-bit product,
    // since r i < N^2 fits in 64 bits for any int N.
    const std::uint64_t count = static_cast<std::uint64_t>(std::max(1, shard.count));
    const std::uint64_t q = m_variantCount / count;
    const std::uint64_t r = m_variantCount % count;
    auto boundary = [&](std::uint64_t i) { return q * i + r * i / count; };
    const auto index = static_cast<std::uint64_t>(std::max(0, shard.index));
    return {boundary(index), boundary(index + 1)};
}

SweepRunner::Workspace SweepRunner::workspace() const
{
    Workspace w;
    w.scenarios.resize(m_groups.size());
    w.copied.assign(m_groups.size(), false);
    w.values.resize(m_columns.size());
    for (const auto& column : m_columns)
        w.hints.push_back(column.hint);
    return w;
}

SweepRunner::VariantOutcome SweepRunner::evaluateVariant(std::uint64_t index, Workspace& w) const
{
    std::size_t group = 0;
    for (std::size_t a = 0; a < m_axes.size(); ++a)
        if (m_axes[a].patcher.isCatalogReference())
            group += valueIndex(a, index) * m_axes[a].groupStride;
    // Each workspace edits its own copies of the resolved bases; every swept field is set for
    // every variant, so no copy is needed between variants.
    if (!w.copied[group]) {
        w.scenarios[group] = m_groups[group];
        w.copied[group] = true;
    }
    model::ResolvedScenario& scenario = w.scenarios[group];
    for (const Axis& axis : m_axes)
        if (!axis.patcher.isCatalogReference())
            axis.patcher.apply(scenario, axis.numbers[(index / axis.stride) % axis.numbers.size()]);
    ScenarioPatcher::updateDerived(scenario);
    solvers::Evaluation& e = w.evaluation;
    if (m_evaluateInPlace)
        solvers::evaluate(scenario, e);
    else
        e = m_evaluate(scenario);
    solvers::checkFiniteMetrics(e); // a NaN or infinite figure is an error, never an ok row
    if (!e.ok())
        return m_spec.feasibleOnly ? VariantOutcome::FilteredOut : VariantOutcome::Failed;
    if (m_spec.feasibleOnly &&
        solvers::feasibilityOf(e.diagnostics) == solvers::Feasibility::Infeasible)
        return VariantOutcome::FilteredOut;
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        const std::size_t at = findMetric(e.metrics, m_columns[c].key, w.hints[c]);
        if (at != std::string::npos)
            w.hints[c] = at;
        w.values[c] = at == std::string::npos ? std::numeric_limits<double>::quiet_NaN()
                                              : e.metrics[at].value;
    }
    for (std::size_t f = 0; f < m_filterColumns.size(); ++f) {
        const double v = w.values[m_filterColumns[f]];
        if (!(v >= m_spec.filters[f].minimum && v <= m_spec.filters[f].maximum))
            return VariantOutcome::FilteredOut;
    }
    return VariantOutcome::Ok;
}

std::string SweepRunner::header(SweepFormat format) const
{
    if (format == SweepFormat::Jsonl)
        return {};
    std::string line;
    for (const auto& column : m_layout)
        line += (line.empty() ? "" : ",") + csvField(column.name);
    return line + "\n";
}

void SweepRunner::appendRow(std::string& text, bool jsonl, bool display, std::uint64_t index,
                            bool ok, const std::vector<double>& values,
                            const solvers::Evaluation& evaluation) const
{
    if (!jsonl) {
        for (std::size_t k = 0; k < m_layout.size(); ++k) {
            const SweepColumn& column = m_layout[k];
            if (k)
                text += ',';
            switch (column.role) {
            case SweepColumnRole::Variant: {
                char buffer[24];
                text.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, index).ptr);
                break;
            }
            case SweepColumnRole::Axis:
                text += m_axes[column.source].csvText[valueIndex(column.source, index)];
                break;
            case SweepColumnRole::Status:
                text += ok ? '1' : '0';
                break;
            case SweepColumnRole::Verdict:
                text += solvers::feasibilityKey(solvers::feasibilityOf(evaluation.diagnostics));
                break;
            case SweepColumnRole::Metric:
                if (ok) {
                    const double v = values[column.source];
                    // Display precision rounds finite values as tables do; nan and inf stay
                    // as every CSV row writes them.
                    if (display && std::isfinite(v))
                        text += formatPlain(v, m_columns[column.source].unit);
                    else
                        appendNumber(text, v, false);
                }
                break;
            }
        }
        text += '\n';
        return;
    }
    // One object; columns of a role with a JSON group ("values", "metrics") sit in it.
    text += '{';
    std::string_view group;
    bool topItems = false;
    bool groupItems = false;
    for (std::size_t k = 0; k < m_layout.size(); ++k) {
        const SweepColumn& column = m_layout[k];
        const std::string_view wanted = jsonGroup(column.role);
        if (wanted != group) {
            if (!group.empty())
                text += '}';
            group = wanted;
            if (!group.empty()) {
                text += topItems ? ",\"" : "\"";
                text += group;
                text += "\":{";
                topItems = true;
                groupItems = false;
            }
        }
        if (column.role == SweepColumnRole::Metric && !ok)
            continue;
        bool& items = group.empty() ? topItems : groupItems;
        if (items)
            text += ',';
        items = true;
        text += m_jsonKeys[k];
        switch (column.role) {
        case SweepColumnRole::Variant: {
            char buffer[24];
            text.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, index).ptr);
            break;
        }
        case SweepColumnRole::Axis:
            text += m_axes[column.source].jsonText[valueIndex(column.source, index)];
            break;
        case SweepColumnRole::Status:
            text += ok ? "true" : "false";
            break;
        case SweepColumnRole::Verdict:
            text += '"';
            text += solvers::feasibilityKey(solvers::feasibilityOf(evaluation.diagnostics));
            text += '"';
            break;
        case SweepColumnRole::Metric:
            appendNumber(text, values[column.source], true);
            break;
        }
    }
    if (!group.empty())
        text += '}';
    if (!ok) {
        std::string message;
        for (const auto& d : evaluation.diagnostics)
            if (d.severity == Severity::Error) {
                message = d.path + ": " + d.message;
                break;
            }
        text += ",\"error\":" + model::jsonText(json(message), -1);
    }
    text += "}\n";
}

std::uint64_t SweepRunner::estimateOutputBytes(SweepFormat format, const SweepShard& shard,
                                               SweepPrecision precision) const
{
    const auto [first, last] = shardRange(shard);
    const std::uint64_t count = last - first;
    const std::uint64_t headerBytes = header(format).size();
    if (count == 0)
        return headerBytes;
    // Evaluate up to 64 variants spread evenly over the shard and write their rows: their mean
    // length (filtered rows count as none) times the variants.
    const std::uint64_t samples = std::min<std::uint64_t>(count, 64);
    Workspace w = workspace();
    std::string row;
    for (std::uint64_t k = 0; k < samples; ++k) {
        const std::uint64_t index = first + k * count / samples;
        const VariantOutcome outcome = evaluateVariant(index, w);
        if (outcome != VariantOutcome::FilteredOut)
            appendRow(row, format == SweepFormat::Jsonl, precision == SweepPrecision::Display,
                      index, outcome == VariantOutcome::Ok, w.values, w.evaluation);
    }
    const double perVariant = static_cast<double>(row.size()) / static_cast<double>(samples);
    return headerBytes +
           static_cast<std::uint64_t>(std::ceil(perVariant * static_cast<double>(count)));
}

SweepPartRecord SweepRunner::partRecord(const SweepShard& shard, SweepFormat format,
                                        const SweepSummary& summary) const
{
    SweepPartRecord record;
    record.specHash = m_specHash;
    record.shard = shard;
    record.variants = m_variantCount;
    std::tie(record.firstVariant, record.endVariant) = shardRange(shard);
    record.format = format;
    record.precision = format == SweepFormat::Jsonl ? SweepPrecision::Full : summary.precision;
    record.columns = m_layout;
    record.rows = summary.written;
    record.bytes = summary.bytes;
    record.checksum = summary.checksum;
    return record;
}

SweepSummary SweepRunner::run(const SweepRunOptions& options, SweepFormat format,
                              std::ostream& out) const
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto [first, last] = shardRange(options.shard);
    SweepSummary summary;
    summary.variants = last - first;
    const std::size_t chunkSize = std::max<std::size_t>(1, options.chunkVariants);
    const std::uint64_t chunks = (summary.variants + chunkSize - 1) / chunkSize;
    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(
        1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::uint64_t>(1, chunks))));
    const bool jsonl = format == SweepFormat::Jsonl;
    const bool display = !jsonl && options.precision == SweepPrecision::Display;
    summary.precision = display ? SweepPrecision::Display : SweepPrecision::Full;
    const bool pareto = m_objectiveColumns.size() >= 2;
    std::vector<bool> minimize;
    for (const auto& o : m_spec.objectives)
        minimize.push_back(o.minimize);

    struct Candidate
    {
        std::vector<double> objectives;
        std::string row;
    };
    struct Chunk
    {
        bool done = false;
        std::string text;
        std::vector<Candidate> candidates;
        std::uint64_t written = 0, failed = 0, filteredOut = 0;
    };

    std::mutex mutex;
    std::condition_variable changed;
    std::map<std::uint64_t, Chunk> finished; // chunk number -> result, until written
    std::uint64_t nextClaim = 0;
    std::uint64_t nextWrite = 0;
    const std::uint64_t window = threads * 8ULL; // chunks in flight, bounds memory

    auto worker = [&] {
        Workspace w = workspace();
        for (;;) {
            std::uint64_t chunk = 0;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock,
                             [&] { return nextClaim >= chunks || nextClaim < nextWrite + window; });
                if (nextClaim >= chunks)
                    return;
                if (options.stop && options.stop()) {
                    nextClaim = chunks; // no more claims: the writer stops too
                    changed.notify_all();
                    return;
                }
                chunk = nextClaim++;
            }
            Chunk result;
            const std::uint64_t begin = first + chunk * chunkSize;
            const std::uint64_t end = std::min<std::uint64_t>(last, begin + chunkSize);
            std::string& text = result.text;
            text.reserve((end - begin) * (32 + 20 * m_columns.size()));
            for (std::uint64_t index = begin; index < end; ++index) {
                const VariantOutcome outcome = evaluateVariant(index, w);
                if (outcome == VariantOutcome::FilteredOut) {
                    ++result.filteredOut;
                    continue;
                }
                const bool ok = outcome == VariantOutcome::Ok;
                if (!ok)
                    ++result.failed;
                const std::vector<double>& values = w.values;
                const solvers::Evaluation& e = w.evaluation;
                const std::size_t rowStart = text.size();
                appendRow(text, jsonl, display, index, ok, values, e);
                ++result.written;
                // Infeasible designs stay off the front unless the spec asks for them.
                if (pareto && ok &&
                    (m_spec.paretoIncludeInfeasible ||
                     solvers::feasibilityOf(e.diagnostics) != solvers::Feasibility::Infeasible)) {
                    Candidate candidate;
                    // The front of the rows as written: at display precision, of the rounded
                    // values (as sweep-merge --pareto reads them back from the parts).
                    for (const std::size_t c : m_objectiveColumns)
                        candidate.objectives.push_back(
                            display && std::isfinite(values[c])
                                ? std::strtod(formatPlain(values[c], m_columns[c].unit).c_str(),
                                              nullptr)
                                : values[c]);
                    candidate.row = text.substr(rowStart);
                    result.candidates.push_back(std::move(candidate));
                }
            }
            {
                std::lock_guard lock(mutex);
                result.done = true;
                finished[chunk] = std::move(result);
            }
            changed.notify_all();
        }
    };

    SweepChecksum checksum;
    const std::string headerLine = header(format);
    out << headerLine;
    checksum.add(headerLine);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(worker);

    // Write the chunks in order on this thread, keep the Pareto front and report progress.
    std::deque<Candidate> front;
    auto lastReport = Clock::now();
    std::uint64_t done = 0;
    while (nextWrite < chunks) {
        if (options.stop && options.stop()) {
            summary.stopped = true;
            std::lock_guard lock(mutex);
            nextClaim = chunks;
            break;
        }
        Chunk chunk;
        {
            std::unique_lock lock(mutex);
            changed.wait_for(lock, std::chrono::milliseconds(100),
                             [&] { return finished.count(nextWrite) > 0; });
            auto it = finished.find(nextWrite);
            if (it != finished.end()) {
                chunk = std::move(it->second);
                finished.erase(it);
                ++nextWrite;
            }
        }
        if (chunk.done) {
            changed.notify_all();
            out << chunk.text;
            checksum.add(chunk.text);
            summary.written += chunk.written;
            summary.failed += chunk.failed;
            summary.filteredOut += chunk.filteredOut;
            done = std::min(summary.variants, (nextWrite)*chunkSize);
            for (auto& candidate : chunk.candidates) {
                bool dominated = false;
                for (const auto& f : front)
                    if (dominates(f.objectives, candidate.objectives, minimize)) {
                        dominated = true;
                        break;
                    }
                if (dominated ||
                    std::any_of(candidate.objectives.begin(), candidate.objectives.end(),
                                [](double v) { return std::isnan(v); }))
                    continue;
                std::erase_if(front, [&](const Candidate& f) {
                    return dominates(candidate.objectives, f.objectives, minimize);
                });
                front.push_back(std::move(candidate));
            }
        }
        if (options.progress && Clock::now() - lastReport > std::chrono::milliseconds(100)) {
            lastReport = Clock::now();
            options.progress(done, summary.variants);
        }
    }
    changed.notify_all();
    for (auto& t : pool)
        t.join();
    summary.bytes = checksum.bytes();
    summary.checksum = checksum.hex();
    if (options.progress && !summary.stopped)
        options.progress(summary.variants, summary.variants);
    // Rows were added in variant order, so the front is in variant order too.
    for (auto& f : front)
        summary.paretoRows.push_back(std::move(f.row));
    summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return summary;
}

} // namespace dct::study
