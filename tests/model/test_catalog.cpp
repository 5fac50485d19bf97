#include "testsupport.h"

#include <fstream>

using namespace dct;
using namespace dct::model;

TEST_CASE("The bundled catalog loads and holds the required entries", "[model][catalog]")
{
    const Catalog& c = test::catalog();
    for (const char* id : {"a100-sxm4-80gb", "h100-sxm5", "h200-sxm", "b200", "mi300x"})
        CHECK(c.gpus().entries.count(id) == 1);
    for (const char* id : {"qm9700", "qm8700", "sn5600"})
        CHECK(c.switches().entries.count(id) == 1);
    for (const char* id : {"dallas", "london", "frankfurt", "singapore"})
        CHECK(c.sites().entries.count(id) == 1);
    for (const char* id : {"aws", "gcp", "azure"})
        CHECK(c.egressPricing().entries.count(id) == 1);
    CHECK(c.nodes().entries.count("dgx-h100") == 1);
    CHECK(c.coolingSystems().entries.count("crac-air") == 1);
    CHECK(c.coolingSystems().entries.count("d2c-rdhx") == 1);
}

TEST_CASE("Published catalog figures: DGX H100 and QM9700", "[model][catalog][validation]")
{
    const Catalog& c = test::catalog();
    // NVIDIA DGX H100 user guide: 10.2 kW maximum, 8U, 8 x H100 SXM5 at up to 700 W.
    const NodeSpec& dgx = c.nodes().entries.at("dgx-h100");
    CHECK(dgx.maxPowerKw == Approx(10.2).epsilon(1e-9));
    CHECK(dgx.heightU == 8);
    CHECK(dgx.gpusPerNode == 8);
    CHECK(c.gpus().entries.at("h100-sxm5").tdpW == Approx(700.0));
    // NVIDIA Quantum-2 QM9700: 64 ports of 400 Gb/s NDR (DGX SuperPOD RA-11333-001).
    const SwitchSpec& qm = c.switches().entries.at("qm9700");
    CHECK(qm.ports == 64);
    CHECK(qm.portRateGbps == Approx(400.0));
    CHECK(qm.protocol == Protocol::Infiniband);
}

TEST_CASE("Every catalog entry names the source of its numbers", "[model][catalog]")
{
    const Catalog& c = test::catalog();
    auto check = [](const auto& shelf) {
        REQUIRE_FALSE(shelf.entries.empty());
        for (const auto& [id, entry] : shelf.entries) {
            INFO(shelf.file << ": " << id);
            CHECK_FALSE(entry.source.empty());
            CHECK_FALSE(entry.name.empty());
        }
    };
    check(c.gpus());
    check(c.nodes());
    check(c.nics());
    check(c.switches());
    check(c.cables());
    check(c.coolingSystems());
    check(c.sites());
    check(c.egressPricing());
    check(c.ports());
}

TEST_CASE("Nodes name GPUs and NICs that the catalog has", "[model][catalog]")
{
    const Catalog& c = test::catalog();
    for (const auto& [id, node] : c.nodes().entries) {
        INFO(id);
        CHECK(c.gpus().entries.count(node.gpu) == 1);
        CHECK(c.nics().entries.count(node.nic) == 1);
    }
}

TEST_CASE("Sites give climate normals, or climate bins covering the year", "[model][catalog]")
{
    for (const auto& [id, site] : test::catalog().sites().entries) {
        INFO(id);
        if (site.climateNormals.present) {
            const auto& n = site.climateNormals;
            for (std::size_t m = 0; m < 12; ++m) {
                CHECK(n.tminC[m] <= n.tmaxC[m]);
                CHECK(n.designDryBulbC >= n.tmaxC[m]);
                CHECK(n.heatingDryBulbC <= n.tminC[m]);
            }
            CHECK(n.designWetBulbC <= n.designDryBulbC);
            continue;
        }
        double hours = 0.0;
        for (const auto& bin : site.climateBins)
            hours += bin.hours;
        CHECK(hours == Approx(8760.0).margin(1.0));
    }
}

TEST_CASE("Site climate normals: a bad month count is an error naming the field",
          "[model][catalog][bad-input]")
{
    model::SiteSpec s;
    const auto* field = findField(model::SiteSpec::fields(), "climate_normals");
    REQUIRE(field != nullptr);
    nlohmann::json j = {{"tmax_c", nlohmann::json::array({1.0, 2.0})},
                        {"tmin_c", nlohmann::json::array({0.0, 1.0})},
                        {"dew_point_c", nlohmann::json::array({0.0, 1.0})},
                        {"design_dry_bulb_c", 30.0},
                        {"design_wet_bulb_c", 20.0},
                        {"heating_dry_bulb_c", -5.0}};
    CHECK_THAT(field->set(s, j), Catch::Contains("arrays of 12 monthly numbers"));
    CHECK_FALSE(s.climateNormals.present);
    CHECK(field->set(s, nullptr).empty());
    const auto* tariff = findField(model::SiteSpec::fields(), "tariff");
    REQUIRE(tariff != nullptr);
    nlohmann::json t = {{"peak_usd_per_kwh", 0.1},
                        {"off_peak_usd_per_kwh", 0.05},
                        {"peak_start_hour", 20},
                        {"peak_end_hour", 14},
                        {"demand_usd_per_kw_month", 5.0}};
    CHECK_THAT(tariff->set(s, t), Catch::Contains("peak_end_hour"));
    CHECK_FALSE(s.tariff.present);
}

TEST_CASE("A broken catalog file is an error naming file and path", "[model][catalog][bad-input]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-test-catalog";
    std::filesystem::remove_all(dir);
    std::filesystem::copy(test::dataDir() / "catalog", dir);
    {
        std::ofstream out(dir / "gpus.json");
        out << R"({"kind": "gpu", "entries": [{"id": "x", "name": "X", "source": "s",
                   "tdp_w": -5}]})";
    }
    auto loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().file, Catch::EndsWith("gpus.json"));
    CHECK(loaded.error().path == "/entries/0/tdp_w");
    {
        std::ofstream out(dir / "gpus.json");
        out << R"({"kind": "gpu", "entries": [{"id": "x", "name": "X", "tdp_w": 5}]})";
    }
    loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().path == "/entries/0/source");
    std::filesystem::remove_all(dir);
}

TEST_CASE("A broken failure rate is an error naming file and path",
          "[model][catalog][bad-input][reliability]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-test-catalog-failures";
    std::filesystem::remove_all(dir);
    std::filesystem::copy(test::dataDir() / "catalog", dir);
    {
        std::ofstream out(dir / "failures.json");
        out << R"({"kind": "failure", "entries": [{"id": "x", "name": "X", "source": "s",
                   "component": "GPU", "per": "gpu", "failures_per_million_hours": -1}]})";
    }
    auto loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().file, Catch::EndsWith("failures.json"));
    CHECK(loaded.error().path == "/entries/0/failures_per_million_hours");
    {
        std::ofstream out(dir / "failures.json");
        out << R"({"kind": "failure", "entries": [{"id": "x", "name": "X", "source": "s",
                   "component": "GPU", "per": "rack", "failures_per_million_hours": 1}]})";
    }
    loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().path == "/entries/0/per");
    CHECK_THAT(loaded.error().toString(), Catch::Contains("'link'"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("A broken plant unit is an error naming file and path", "[model][catalog][bad-input]")
{
    const auto dir = std::filesystem::temp_directory_path() / "dct-test-catalog-plant";
    std::filesystem::remove_all(dir);
    std::filesystem::copy(test::dataDir() / "catalog", dir);
    {
        std::ofstream out(dir / "plant.json");
        out << R"({"kind": "plant", "entries": [{"id": "x", "name": "X", "source": "s",
                   "role": "ups", "module_sizes_kw": [500, 250], "usd_per_kw": 1,
                   "failures_per_million_hours": 1, "repair_hours": 8}]})";
    }
    auto loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().file, Catch::EndsWith("plant.json"));
    CHECK(loaded.error().path == "/entries/0/module_sizes_kw");
    CHECK_THAT(loaded.error().toString(), Catch::Contains("ascending"));
    {
        std::ofstream out(dir / "plant.json");
        out << R"({"kind": "plant", "entries": [{"id": "x", "name": "X", "source": "s",
                   "role": "transformer", "module_sizes_kw": [], "usd_per_kw": 1,
                   "failures_per_million_hours": 1, "repair_hours": 8}]})";
    }
    loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().path == "/entries/0/role");
    CHECK_THAT(loaded.error().toString(), Catch::Contains("'generator'"));
    // An efficiency curve out of order, or a part without its source, names its path.
    {
        std::ofstream out(dir / "plant.json");
        out << R"({"kind": "plant", "entries": [{"id": "x", "name": "X", "source": "s",
                   "role": "ups", "module_sizes_kw": [250], "usd_per_kw": 1,
                   "efficiency_curve": [[0.5, 0.97], [0.25, 0.96]]}]})";
    }
    loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().path == "/entries/0/efficiency_curve");
    CHECK_THAT(loaded.error().toString(), Catch::Contains("ascending"));
    {
        std::ofstream out(dir / "plant.json");
        out << R"({"kind": "plant", "entries": [{"id": "x", "name": "X", "source": "s",
                   "role": "cdu", "module_sizes_kw": [], "usd_per_kw": 1,
                   "parts": [{"name": "pump", "count": 2, "needed": 1,
                              "failures_per_million_hours": 30, "repair_hours": 8}]}]})";
    }
    loaded = Catalog::load(dir);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().path == "/entries/0/parts");
    CHECK_THAT(loaded.error().toString(), Catch::Contains("'source'"));
    // Every bundled plant unit names its source.
    const auto bundled = Catalog::load(test::dataDir() / "catalog");
    REQUIRE(bundled);
    REQUIRE(bundled->plantUnits().entries.size() >= 5);
    for (const auto& [id, unit] : bundled->plantUnits().entries) {
        INFO(id);
        if (unit.standbyAvailability > 0.0) {
            // A standby unit's measured availability replaces its rate and repair time.
            CHECK(unit.sources.count("standby_availability") == 1);
            if (unit.runFailuresPerMillionHours > 0.0)
                CHECK(unit.sources.count("run_failures_per_million_hours") == 1);
        } else if (unit.parts.empty()) {
            CHECK_FALSE(unit.sourceOf("failures_per_million_hours").empty());
            CHECK_FALSE(unit.sourceOf("repair_hours").empty());
        } else {
            // A unit composed of parts says so, and every part names where its rate comes from.
            CHECK(unit.sources.count("parts") == 1);
            for (const auto& part : unit.parts)
                CHECK_FALSE(part.source.empty());
        }
        if (!unit.efficiencyCurve.empty())
            CHECK(unit.sources.count("efficiency_curve") == 1);
        if (unit.startFailureProbability > 0.0)
            CHECK(unit.sources.count("start_failure_probability") == 1);
    }
    std::filesystem::remove_all(dir);
}
