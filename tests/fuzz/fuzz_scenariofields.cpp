// libFuzzer target: a bundled example with up to eight fields set to values the fuzzer picks
// (any field of the field tables; a number inside, at or beyond its range, a choice, a catalog
// id, a wrong type), then read, resolved and evaluated as `dctwin-cli eval` does. Mutated text
// (fuzz_scenario) rarely stays a scenario that reaches the solvers; this target mostly does.
// Any crash, sanitizer report or exception that escapes is a defect (docs/fuzzing.md).
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenario.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
namespace model = dct::model;

/**
 * Hands out the fuzzer's bytes as choices (like clang's FuzzedDataProvider, which g++ builds of
 * the replay test cannot include); past the end every choice is 0.
 */
class Choices
{
public:
    Choices(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}

    bool empty() const { return m_position >= m_size; }

    /** Returns a number from 0 to \a count - 1. */
    std::size_t pick(std::size_t count)
    {
        std::uint32_t raw = 0;
        for (int i = 0; i < 4 && !empty(); ++i)
            raw = (raw << 8) | m_data[m_position++];
        return count == 0 ? 0 : raw % count;
    }

    /** Returns a fraction from 0 to 1. */
    double fraction() { return static_cast<double>(pick(1u << 24)) / double(1u << 24); }

    /** Returns any finite double (eight bytes as its bit pattern). */
    double anyDouble()
    {
        std::uint64_t bits = 0;
        for (int i = 0; i < 8 && !empty(); ++i)
            bits = (bits << 8) | m_data[m_position++];
        double value = 0.0;
        std::memcpy(&value, &bits, sizeof value);
        return std::isfinite(value) ? value : 0.0;
    }

    /** Returns a string of up to \a maxLength bytes. */
    std::string text(std::size_t maxLength)
    {
        std::string out;
        const std::size_t length = pick(maxLength + 1);
        while (out.size() < length && !empty())
            out += static_cast<char>(m_data[m_position++]);
        return out;
    }

private:
    const std::uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_position = 0;
};

/** One field the fuzzer may set: its JSON pointer and what its table says it accepts. */
struct Target
{
    std::string pointer;
    std::optional<double> minimum;
    std::optional<double> maximum;
    std::vector<std::string> choices; ///< Enum strings, or the ids of its catalog kind.
};

const model::Catalog& catalog()
{
    static const model::Catalog loaded = [] {
        auto c = model::Catalog::load(model::Catalog::defaultDirectory());
        if (!c)
            std::abort(); // the bundled catalog must load: see DCT_DATA_DIR
        return std::move(*c);
    }();
    return loaded;
}

const std::vector<Target>& targets()
{
    static const std::vector<Target> all = [] {
        std::vector<Target> list;
        model::forEachSection([&](const model::SectionInfo& info, auto member) {
            using S = std::decay_t<decltype(std::declval<model::Scenario&>().*member)>;
            for (const auto& field : S::fields()) {
                Target t{std::string("/") + info.key + "/" + field.key, field.minimum,
                         field.maximum, field.choices};
                if (!field.catalogKind.empty())
                    t.choices = catalog().ids(field.catalogKind);
                list.push_back(std::move(t));
            }
        });
        list.push_back({"/site", std::nullopt, std::nullopt, catalog().ids("site")});
        return list;
    }();
    return all;
}

const std::vector<json>& examples()
{
    static const std::vector<json> all = [] {
        std::vector<json> list;
        std::vector<std::filesystem::path> files;
        for (const auto& e :
             std::filesystem::directory_iterator(model::Catalog::dataDirectory() / "examples"))
            if (e.path().extension() == ".json")
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            std::ifstream in(file);
            list.push_back(json::parse(in));
        }
        if (list.empty())
            std::abort(); // the bundled examples must be there: see DCT_DATA_DIR
        return list;
    }();
    return all;
}

/** Returns a value for \a t, chosen by the fuzzer. */
json value(Choices& in, const Target& t)
{
    const double low = t.minimum.value_or(-1e6);
    const double high = t.maximum.value_or(std::max(low, 0.0) + 1e6);
    switch (in.pick(7)) {
    case 0:
        return low + (high - low) * in.fraction();
    case 1: {
        const double lowest = std::max(low, -1e12), highest = std::min(high, 1e12);
        return static_cast<long long>(std::floor(lowest + (highest - lowest) * in.fraction()));
    }
    case 2: { // at or just beyond the ends of the range, and the extremes of a double
        const double picks[] = {low,
                                high,
                                std::nextafter(low, -1e308),
                                std::nextafter(high, 1e308),
                                std::numeric_limits<double>::denorm_min(),
                                1e-300,
                                1e300,
                                -0.0};
        return picks[in.pick(std::size(picks))];
    }
    case 3:
        if (!t.choices.empty())
            return t.choices[in.pick(t.choices.size())];
        return in.anyDouble();
    case 4:
        return in.text(24);
    case 5:
        return in.pick(2) == 1;
    default:
        return json::array({in.anyDouble()});
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Choices in(data, size);
    json document = examples()[in.pick(examples().size())];
    const std::size_t edits = 1 + in.pick(8);
    for (std::size_t i = 0; i < edits && !in.empty(); ++i) {
        const Target& t = targets()[in.pick(targets().size())];
        document[json::json_pointer(t.pointer)] = value(in, t);
    }
    // Through text, as a file gives it (the reader takes only valid UTF-8, as every caller has).
    const std::string text = document.dump(-1, ' ', false, json::error_handler_t::replace);
    // Triage: DCT_FUZZ_PRINT=1 fuzz_scenariofields FILE prints the scenario an input makes.
    static const bool print = std::getenv("DCT_FUZZ_PRINT") != nullptr;
    if (print)
        std::fprintf(stderr, "%s\n",
                     document.dump(2, ' ', false, json::error_handler_t::replace).c_str());
    const auto read = model::readScenarioText(text, "fuzz.json");
    if (!read.scenario || read.diagnostics.hasErrors())
        return 0;
    const auto resolved = model::resolveScenario(*read.scenario, catalog(), "fuzz.json");
    if (!resolved.resolved || resolved.diagnostics.hasErrors())
        return 0;
    const auto evaluation = dct::solvers::evaluate(*resolved.resolved);
    (void)evaluation;
    return 0;
}
