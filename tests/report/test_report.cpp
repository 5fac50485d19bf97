// Reports as a reader gets them: self-contained HTML with every section, and a real PDF.
#include "dct/model/calibrationprofile.h"
#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/model/textformat.h"
#include "dct/report/hallsvg.h"
#include "dct/report/reportrenderer.h"
#include "dct/report/svgchart.h"
#include "dct/solvers/evaluator.h"
#include "dct/ui/pdfreport.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <unistd.h>

using namespace dct;
namespace fs = std::filesystem;

namespace {

report::ReportScenario load(const char* name)
{
    static const auto catalog = model::Catalog::load(fs::path(DCT_TEST_DATA_DIR) / "catalog");
    REQUIRE(catalog);
    const fs::path file = fs::path(DCT_TEST_DATA_DIR) / "examples" / name;
    auto read = model::readScenarioFile(file);
    REQUIRE(read.scenario);
    auto resolved = model::resolveScenario(*read.scenario, *catalog, file.string());
    REQUIRE(resolved.resolved);
    report::ReportScenario s;
    s.file = file.string();
    s.evaluation = solvers::evaluate(*resolved.resolved);
    s.diagnostics = s.evaluation.diagnostics;
    s.resolved = std::move(resolved.resolved);
    return s;
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("the HTML report is self-contained and has every section", "[report][html]")
{
    const report::ReportRenderer renderer({load("seed-h100-dallas-d2c.json")});
    const std::string html = renderer.html();
    for (const char* section :
         {"Executive summary", "Headline figures", "Charts", "Results by section",
          "Assumptions and their sources", "Diagnostics"})
        CHECK(html.find(section) != std::string::npos);
    CHECK(count(html, "<svg") >= 3); // charts drawn inline
    CHECK(html.find("<style>") != std::string::npos);
    CHECK(html.find("<link") == std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("src=\"") == std::string::npos); // no external images
    CHECK(html.find("Training time") != std::string::npos);
    CHECK(html.find("Compute GPU: TDP (W)") != std::string::npos); // provenance, by name
    CHECK(html.find("catalog gpu") != std::string::npos);
}

TEST_CASE("a report opens with an executive summary and shows no internal keys",
          "[report][html][summary]")
{
    const report::ReportRenderer renderer({load("overpacked-air-h100-dallas.json")});
    const std::string html = renderer.html();
    const auto summary = html.find("Executive summary");
    const auto details = html.find("Headline figures");
    REQUIRE(summary != std::string::npos);
    REQUIRE(details != std::string::npos);
    const std::string first = html.substr(summary, details - summary);
    // The decision, the verdict, five headline figures and every warning whole, with its field.
    CHECK(first.find("Decision: the design cannot be built as described") != std::string::npos);
    CHECK(first.find("Verdict: Infeasible") != std::string::npos);
    CHECK(count(first, "<td class=\"num\"><b>") == 5);
    for (const char* figure :
         {"GPUs", "Facility design load", "Capex", "Total cost of ownership", "Training time"})
        CHECK(first.find(std::string("<td>") + figure) != std::string::npos);
    CHECK(first.find("server inlet air reaches 49.24 C") != std::string::npos);
    CHECK(first.find("field to fix: /cooling/system") != std::string::npos);
    // Money rounded by the one rule; no metric key anywhere. (Capex with the redundant plant
    // units of the default design, docs/redundancy.md.)
    CHECK(html.find("11.99 M USD") != std::string::npos);
    CHECK(html.find("11,986,822") == std::string::npos);
    CHECK(html.find("compute.training_days") == std::string::npos);
    CHECK(html.find("cost.tco_usd_per_year") == std::string::npos);
    // Headers repeat over page breaks; the topology stands once; a datasheet sentence once.
    CHECK(count(html, "<thead>") == count(html, "<table"));
    CHECK(count(html, "<h2>Topology</h2>") == 0);
    CHECK(count(html, "Switches, leaf") == 1);
    CHECK(count(html, "Supermicro SYS-821GE-TNHR product page") == 1);
    // Assumptions name inputs as the desktop's form does, not by their JSON keys.
    CHECK(html.find("peak_tflops_bf16") == std::string::npos);
    CHECK(html.find("Compute GPU: peak TFLOPS BF16") != std::string::npos);
}

TEST_CASE("an input's JSON pointer reads as the form's label", "[report][text]")
{
    CHECK(report::ReportRenderer::inputName("/compute/gpu/peak_tflops_bf16") ==
          "Compute GPU: peak TFLOPS BF16");
    CHECK(report::ReportRenderer::inputName("/network/mtu_bytes") == "Network: MTU (bytes)");
    // A key's unit suffix reads as its unit.
    CHECK(report::ReportRenderer::inputName("/compute/gpu/thermal_resistance_air_c_per_w") ==
          "Compute GPU: thermal resistance air (\u00b0C/W)");
    CHECK(report::ReportRenderer::inputName("/cooling/system/fan_power_w_per_kw") ==
          "Cooling system: fan power (W/kW)");
    CHECK(report::ReportRenderer::inputName("/name") == "Name");
}

TEST_CASE("a comparison report compares: coloured changes and every scenario's warnings first",
          "[report][html][compare]")
{
    const report::ReportRenderer renderer(
        {load("seed-h100-dallas-d2c.json"), load("overpacked-air-h100-dallas.json")});
    const std::string html = renderer.html();
    CHECK(html.find("comparison report") != std::string::npos);
    CHECK(count(html, "Executive summary") == 1);
    CHECK(html.find("1 of 2 designs can be built as described") != std::string::npos);
    // A higher PUE is worse: red; the air hall's warnings stand before any scenario's details.
    CHECK(html.find("<span class=\"worse\">+0.5353, ") != std::string::npos);
    const auto warnings = html.find("Warnings of every scenario");
    REQUIRE(warnings != std::string::npos);
    CHECK(html.find("server inlet air reaches", warnings) < html.find("always\">A: "));
    // Not two single reports stapled: the headline tables stand once, side by side.
    CHECK(count(html, "Headline figures") == 0);
}

TEST_CASE("a comparison report neither lists nor colours differences below display precision",
          "[report][html][compare]")
{
    report::ReportScenario a = load("seed-h100-dallas-d2c.json");
    report::ReportScenario b = a;
    b.file = "copy.json";
    // Training time moved by rounding noise (it reads the same), a non-headline figure too.
    const std::size_t figures = b.evaluation.metrics.size();
    std::string noisy;
    for (auto& m : b.evaluation.metrics) {
        if (m.key == "compute.training_days")
            m.value += 3.882e-06;
        else if (noisy.empty() && !m.headline() && m.value > 1.0 && m.unit != "yes/no") {
            m.value *= 1.0 + 1e-9;
            noisy = m.label;
        }
    }
    REQUIRE_FALSE(noisy.empty());
    REQUIRE(figures > 10);
    const std::string html = report::ReportRenderer({a, b}).html();
    CHECK(html.find("3.882e-06") == std::string::npos);
    CHECK(html.find("class=\"worse\"") == std::string::npos);
    CHECK(html.find("class=\"better\"") == std::string::npos);
    CHECK(html.find("None: every other figure is the same in every scenario.") !=
          std::string::npos);
}

TEST_CASE("the report's PUE chart colours the cooling options by rank", "[report][html][chart]")
{
    const std::string html = report::ReportRenderer({load("seed-h100-dallas-d2c.json")}).html();
    const auto title = html.find("PUE of the cooling options at this site (this scenario: #");
    REQUIRE(title != std::string::npos);
    const std::string svg = html.substr(title, html.find("</svg>", title) - title);
    // The lowest PUE green and the highest red, once each; the scenario's own D2C system, not
    // the worst, is not red.
    CHECK(count(svg, "fill=\"#2da44e\"") == 1);
    CHECK(count(svg, "fill=\"#cf222e\"") == 1);
    const auto own = svg.find("(this scenario)</text>");
    REQUIRE(own != std::string::npos);
    const auto bar = svg.find("<rect", own);
    REQUIRE(bar != std::string::npos);
    CHECK(svg.substr(bar, svg.find("/>", bar) - bar).find("#cf222e") == std::string::npos);
}

TEST_CASE("the PDF report is written", "[report][pdf]")
{
    const fs::path path =
        fs::temp_directory_path() / ("dct-report-" + std::to_string(::getpid()) + ".pdf");
    const report::ReportRenderer renderer({load("seed-h100-dallas-d2c.json")});
    REQUIRE(ui::writeReportPdf(renderer, path.string()).empty());
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes.rfind("%PDF-", 0) == 0);
    CHECK(bytes.size() > 20000);
    CHECK(count(bytes, "/Type /Page\n") + count(bytes, "/Type /Page ") +
              count(bytes, "/Type /Page>") + count(bytes, "/Type/Page") >=
          1);
    fs::remove(path);
    CHECK_FALSE(ui::writeReportPdf(renderer, "/nonexistent-dir/x.pdf").empty());
}

TEST_CASE("chart labels and values are escaped and figures formatted", "[report][chart]")
{
    const std::string svg =
        report::horizontalBarChartSvg("A & B", {{"<x>", 1234567.0}, {"y", 0.5}}, "kW");
    CHECK(svg.find("A &amp; B") != std::string::npos);
    CHECK(svg.find("&lt;x&gt;") != std::string::npos);
    CHECK(svg.find("1,234,567 kW") != std::string::npos);
    CHECK(dct::formatNumber(0.5) == "0.5");
    CHECK(dct::formatNumber(19.4123) == "19.41");
}

TEST_CASE("the collectives table prints small and large figures without an exponent",
          "[report][html][calibration]")
{
    // Busbw at the smallest nccl-tests sizes is a few hundred-thousandths of a GB/s: a planner
    // reads 0.00001234, not 1.234e-05 (which is what formatNumber() alone writes).
    report::ReportScenario s = load("seed-h100-dallas-d2c.json");
    model::CalibrationProfile c;
    c.name = "tiny";
    c.rmsResidualPercent = 0.0000071;
    c.factors.fabricLatencyFactor = 0.00004;
    c.factors.scaleUpBandwidthFactor = 2.5e15;
    for (const double busbw : {0.00001234, 0.0000005, 3.1e-9, 250.0}) {
        model::CalibrationPoint p;
        p.test = "all_reduce_perf";
        p.bytes = 8.0;
        p.measuredBusbwGbytePerS = busbw;
        p.modelBusbwGbytePerS = busbw * 1.00002;
        c.points.push_back(p);
    }
    s.calibration = c;
    const std::string html = report::ReportRenderer({std::move(s)}).html();
    const auto begin = html.find("Calibration of the collectives");
    REQUIRE(begin != std::string::npos);
    const auto end = html.find("</table>", html.find("Measured busbw", begin));
    REQUIRE(end != std::string::npos);
    const std::string section = html.substr(begin, end - begin);
    const std::regex scientific("[0-9][eE][-+]?[0-9]");
    std::smatch match;
    const bool found = std::regex_search(section, match, scientific);
    INFO("scientific notation: " << match.str());
    CHECK_FALSE(found);
    CHECK(section.find(">0.00001234<") != std::string::npos);
    CHECK(section.find(">0.0000005<") != std::string::npos);
    CHECK(section.find(">0.000000003100<") == std::string::npos); // trailing zeros dropped
    CHECK(section.find(">0.0000000031<") != std::string::npos);
    CHECK(section.find(">0.00004<") != std::string::npos);
    CHECK(section.find(">2,500,000,000,000,000<") != std::string::npos);
    CHECK(section.find("residual 0.0000071%") != std::string::npos);
    CHECK(section.find(">250<") != std::string::npos);
}

TEST_CASE("report scenarios are read, resolved and evaluated from a file or JSON",
          "[report][scenario]")
{
    const auto catalog = model::Catalog::load(fs::path(DCT_TEST_DATA_DIR) / "catalog");
    REQUIRE(catalog);
    const fs::path file = fs::path(DCT_TEST_DATA_DIR) / "examples" / "seed-h100-dallas-d2c.json";
    const auto fromFile = report::ReportScenario::fromFile(file, *catalog);
    REQUIRE(fromFile.usable());
    CHECK(fromFile.evaluation.ok());
    CHECK(fromFile.file == file.string());
    REQUIRE(fromFile.evaluation.metric("compute.gpus"));
    CHECK(fromFile.evaluation.metric("compute.gpus")->value == Approx(256.0).epsilon(1e-9));

    const auto bad = report::ReportScenario::fromJson(
        nlohmann::json{{"schema_version", 2}, {"name", "bad"}, {"compute", {{"node_count", -3}}}},
        *catalog, "bad.json");
    CHECK_FALSE(bad.usable());
    CHECK(bad.diagnostics.hasErrors());
}

TEST_CASE("a report written over an existing file replaces it whole", "[report][html]")
{
    const fs::path path =
        fs::temp_directory_path() / ("dct-report-" + std::to_string(::getpid()) + ".html");
    {
        std::ofstream old(path);
        old << std::string(1000000, 'x');
    }
    const report::ReportRenderer renderer({load("seed-h100-dallas-d2c.json")});
    REQUIRE(renderer.writeHtml(path.string()).empty());
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(text.find('x' + std::string(100, 'x')) == std::string::npos);
    CHECK(text.find("</html>") != std::string::npos);
    fs::remove(path);
    CHECK_FALSE(renderer.writeHtml("/nonexistent-dir/x.html").empty());
}

TEST_CASE("control characters of a name reach no report raw", "[report][html][text]")
{
    report::ReportScenario s = load("seed-h100-dallas-d2c.json");
    s.evaluation.scenarioName = "\x1b[31mRed\x07 <b>name</b>";
    s.resolved->scenario.description = "line one\nline\ttwo\x1b[2J\x0c";
    const std::string html = report::ReportRenderer({s}).html();
    CHECK(html.find(">\\x1b[31mRed\\x07 &lt;b&gt;name&lt;/b&gt;</h1>") != std::string::npos);
    CHECK(html.find("<p>line one\nline\ttwo\\x1b[2J\\x0c</p>") != std::string::npos);
    for (const char c : html)
        CHECK((static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t'));
}

TEST_CASE("a 10 MB description and name give a report of bounded size", "[report][html][text]")
{
    report::ReportScenario s = load("seed-h100-dallas-d2c.json");
    const std::string html = report::ReportRenderer({s}).html();
    s.evaluation.scenarioName = std::string(10 * 1024 * 1024, 'N');
    s.resolved->scenario.description = std::string(10 * 1024 * 1024, 'd');
    const std::string big = report::ReportRenderer({s}).html();
    // The name (in the summary and the heading) and the description are shortened, each with
    // a note.
    CHECK(big.size() < html.size() + 10000);
    CHECK(count(big, "shortened: the whole text has 10,485,760 characters") == 3);
    CHECK(big.find(std::string(201, 'N')) == std::string::npos);
    CHECK(big.find(std::string(4001, 'd')) == std::string::npos);
    CHECK(big.find(std::string(200, 'N')) != std::string::npos);
}

TEST_CASE("the report shows where a training step's time goes", "[report][html][step]")
{
    const report::ReportScenario s = load("multiplane-16k-h100.json");
    REQUIRE(s.evaluation.ok());
    const std::string html = report::ReportRenderer({s}).html();
    const auto at = html.find("Training step breakdown");
    REQUIRE(at != std::string::npos);
    // Every part by name, each with its share of the step.
    const std::string chart = html.substr(at, html.find("</svg>", at) - at);
    for (const char* part : {"Matrix math", "Exposed TP", "Exposed PP", "Exposed DP",
                             "Pipeline bubble", "Stragglers", "Checkpoints", "Failures"})
        CHECK(chart.find(part) != std::string::npos);
    CHECK(chart.find("%)") != std::string::npos);
}

TEST_CASE("the report shows the site year: heat maps of PUE and temperature, water and carbon "
          "by month, and the redundancy design",
          "[report][siteyear]")
{
    const report::ReportRenderer renderer({load("legacy-air-h100-dallas.json")});
    const std::string html = renderer.html();
    CHECK(html.find("The site year") != std::string::npos);
    CHECK(html.find("PUE by day and hour") != std::string::npos);
    CHECK(html.find("Server inlet air by day and hour") != std::string::npos);
    CHECK(html.find("Water and carbon by month") != std::string::npos);
    CHECK(html.find("Redundancy and availability") != std::string::npos);
    CHECK(html.find("UPS modules installed (2N)") != std::string::npos);
    // A heat map merges the hours of one colour in a day: far fewer than 8,760 cells, and more
    // than one per day (the PUE follows the day).
    const auto start = html.find("PUE by day and hour");
    const auto end = html.find("</svg>", start);
    const std::size_t cells = count(html.substr(start, end - start), "<rect");
    CHECK(cells > 365 + 32);
    CHECK(cells < 8760);
    if (const char* dir = std::getenv("DCT_SCREENSHOT_DIR")) {
        const fs::path pdf = fs::path(dir) / "siteyear-report.pdf";
        CHECK(ui::writeReportPdf(renderer, pdf.string()).empty());
        std::ofstream(fs::path(dir) / "siteyear-report.html") << html;
    }
}

TEST_CASE("the report has the floor plan: racks, aisles, and a legend of only the runs drawn",
          "[report][html][hall]")
{
    // The 16,384-GPU example: a 2-tier fabric (no spine-core links), node-leaf runs not drawn.
    const report::ReportScenario s = load("multiplane-16k-h100.json");
    REQUIRE(s.evaluation.network.hall.valid);
    const std::string html = report::ReportRenderer({s}).html();
    const auto at = html.find(">Floor plan</h2>");
    REQUIRE(at != std::string::npos);
    const auto end = html.find("</svg>", at);
    REQUIRE(end != std::string::npos);
    const std::string plan = html.substr(at, end - at);
    CHECK(plan.find("<svg") != std::string::npos);
    CHECK(plan.find("id=\"racks\"") != std::string::npos);
    CHECK(plan.find("R01-01") != std::string::npos);
    CHECK(plan.find("MDA1-01") != std::string::npos);
    CHECK(plan.find("cold aisle") != std::string::npos);
    CHECK(plan.find("id=\"runs-leaf-spine\"") != std::string::npos);
    CHECK(plan.find("leaf-spine runs") != std::string::npos);
    CHECK(plan.find("node-leaf runs") == std::string::npos);
    CHECK(plan.find("spine-core runs") == std::string::npos);
    // A 3-tier fabric lists its spine-core runs.
    const report::ReportScenario t = load("dgx-superpod-4su.json");
    const std::string svg = report::hallSvg(t.evaluation.network.hall, report::HallSvgOptions{});
    CHECK((t.evaluation.network.hall.summary(solvers::HallLinkClass::SpineCore) != nullptr) ==
          (svg.find("spine-core runs") != std::string::npos));
}

TEST_CASE("The hall's SVG plan draws the cooling units, rear doors and the MDA room",
          "[report][hall]")
{
    const report::ReportScenario seed = load("seed-h100-dallas-d2c.json");
    const solvers::HallResult& h = seed.evaluation.network.hall;
    REQUIRE(h.cdus > 0);
    const std::string svg = report::hallSvg(h, report::HallSvgOptions{});
    std::size_t cdus = 0;
    for (std::size_t at = svg.find("class=\"cdu\""); at != std::string::npos;
         at = svg.find("class=\"cdu\"", at + 1))
        ++cdus;
    CHECK(cdus == static_cast<std::size_t>(h.cdus));
    CHECK(svg.find("<g id=\"rear-doors\"") != std::string::npos);
    CHECK(svg.find("CDU01: CDU, 1350 kW, serves rows R01-R01 (block 1)") != std::string::npos);
    CHECK(svg.find("CDU (1350 kW)") != std::string::npos);
    CHECK(svg.find("rear door (RDHx)") != std::string::npos);
    CHECK(svg.find("CRAH/CRAC (") == std::string::npos);
    // The caption counts in the singular for one unit (the seed's hall has one CDU).
    if (h.cdus == 1)
        CHECK(svg.find(", 1 CDU") != std::string::npos);
    CHECK(svg.find(" 1 CDUs") == std::string::npos);
    if (h.mdaRoom.present)
        CHECK(svg.find("<g id=\"mda-room\"") != std::string::npos);
    // An air hall: room units, no CDUs or rear doors.
    const report::ReportScenario air = load("legacy-air-h100-dallas.json");
    const std::string airSvg =
        report::hallSvg(air.evaluation.network.hall, report::HallSvgOptions{});
    CHECK(airSvg.find("class=\"crah\"") != std::string::npos);
    CHECK(airSvg.find("CRAH/CRAC (29 kW)") != std::string::npos);
    CHECK(airSvg.find("class=\"cdu\"") == std::string::npos);
    CHECK(airSvg.find("rear-doors") == std::string::npos);
    // The 16k example's MDA room.
    const report::ReportScenario big = load("multiplane-16k-h100.json");
    REQUIRE(big.evaluation.network.hall.mdaRoom.present);
    const std::string bigSvg =
        report::hallSvg(big.evaluation.network.hall, report::HallSvgOptions{});
    CHECK(bigSvg.find("<g id=\"mda-room\"><rect") != std::string::npos);
    CHECK(bigSvg.find("MDA room (center)") != std::string::npos);
}
