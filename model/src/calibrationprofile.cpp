#include "dct/model/calibrationprofile.h"

#include "dct/model/jsonread.h"
#include "dct/model/resolvedscenario.h"

#include <cmath>
#include <cstdio>

namespace dct::model {

using nlohmann::json;

namespace {

struct Parameter
{
    const char* key;
    const char* label;
    double CollectiveCalibration::*member;
};

constexpr std::array<Parameter, CollectiveCalibration::count> parameters = {{
    {"launch_latency_factor", "launch latency (NCCL base)",
     &CollectiveCalibration::launchLatencyFactor},
    {"scale_up_latency_factor", "NVLink step latency",
     &CollectiveCalibration::scaleUpLatencyFactor},
    {"fabric_latency_factor", "network step latency", &CollectiveCalibration::fabricLatencyFactor},
    {"scale_up_bandwidth_factor", "NVLink bandwidth",
     &CollectiveCalibration::scaleUpBandwidthFactor},
    {"fabric_bandwidth_factor", "network transport bandwidth",
     &CollectiveCalibration::fabricBandwidthFactor},
    {"ll_latency_factor", "LL protocol latency", &CollectiveCalibration::llLatencyFactor},
    {"ll128_latency_factor", "LL128 protocol latency", &CollectiveCalibration::ll128LatencyFactor},
    {"simple_latency_factor", "Simple protocol latency",
     &CollectiveCalibration::simpleLatencyFactor},
    {"chunk_step_factor", "chunk step (tree pipeline)", &CollectiveCalibration::chunkStepFactor},
    {"ll128_bandwidth_factor", "LL128 bandwidth (vs Simple)",
     &CollectiveCalibration::ll128BandwidthFactor},
    {"proxy_post_factor", "proxy posts (per channel)", &CollectiveCalibration::proxyPostFactor},
}};

const char* protocolName(Protocol p)
{
    return p == Protocol::Infiniband ? "infiniband" : "roce_v2";
}

const char* topologyName(TopologyKind t)
{
    switch (t) {
    case TopologyKind::FatTree:
        return "fat_tree";
    case TopologyKind::RailOptimized:
        return "rail_optimized";
    case TopologyKind::RailOnly:
        return "rail_only";
    case TopologyKind::MultiPlane:
        return "multi_plane";
    }
    return "fat_tree";
}

} // namespace

std::string CalibrationTiming::ncclVersionText() const
{
    if (!hasNcclVersion())
        return {};
    return std::to_string(ncclMajor) + "." + std::to_string(ncclMinor) + "." +
           std::to_string(ncclPatch);
}

const char* CalibrationTiming::choiceKey() const
{
    return choice == Choice::NcclRelease ? "nccl_release" : "engine";
}

std::string CalibrationTiming::text() const
{
    if (choice == Choice::NcclRelease)
        return "the algorithm and protocol NCCL " + ncclVersionText() +
               "'s tuner picks, its tree pipelined as that release does";
    return "the engine's fastest algorithm and protocol";
}

double& CollectiveCalibration::at(std::size_t i)
{
    return this->*parameters.at(i).member;
}

double CollectiveCalibration::at(std::size_t i) const
{
    return this->*parameters.at(i).member;
}

const char* CollectiveCalibration::key(std::size_t i)
{
    return parameters.at(i).key;
}

const char* CollectiveCalibration::label(std::size_t i)
{
    return parameters.at(i).label;
}

bool CollectiveCalibration::identity() const
{
    for (std::size_t i = 0; i < count; ++i)
        if (at(i) != heldValue(i))
            return false;
    return true;
}

CalibrationSystem CalibrationSystem::of(const ResolvedScenario& r)
{
    CalibrationSystem s;
    s.gpus = r.gpuCount();
    s.gpusPerNode = r.gpusPerNode;
    s.gpu = r.gpu.id;
    s.nic = r.nic.id;
    s.fabricSwitch = r.fabricSwitch.id;
    s.rails = r.rails;
    s.protocol = protocolName(r.scenario.network.protocol);
    s.topology = topologyName(r.scenario.network.topology);
    return s;
}

double CalibrationPoint::residualPercent() const
{
    return measuredUs > 0.0 && modelUs > 0.0 ? (measuredUs / modelUs - 1.0) * 100.0 : 0.0;
}

json calibrationProfileJson(const CalibrationProfile& p)
{
    json factors = json::object();
    json fitted = json::array();
    json errors = json::object();
    for (std::size_t i = 0; i < CollectiveCalibration::count; ++i) {
        factors[CollectiveCalibration::key(i)] = p.factors.at(i);
        if (p.fitted[i]) {
            fitted.push_back(CollectiveCalibration::key(i));
            errors[CollectiveCalibration::key(i)] = p.relativeError[i];
        }
    }
    json points = json::array();
    for (const auto& pt : p.points)
        points.push_back({{"test", pt.test},
                          {"file", pt.file},
                          {"line", pt.line},
                          {"bytes", pt.bytes},
                          {"measured_us", pt.measuredUs},
                          {"measured_busbw_gbyte_per_s", pt.measuredBusbwGbytePerS},
                          {"model_us", pt.modelUs},
                          {"model_busbw_gbyte_per_s", pt.modelBusbwGbytePerS},
                          {"algorithm", pt.algorithm}});
    const CalibrationSystem& s = p.system;
    return {{"name", p.name},
            {"created_at", p.createdAt},
            {"logs", p.logs},
            {"system",
             {{"gpus", s.gpus},
              {"gpus_per_node", s.gpusPerNode},
              {"gpu", s.gpu},
              {"nic", s.nic},
              {"switch", s.fabricSwitch},
              {"rails", s.rails},
              {"protocol", s.protocol},
              {"topology", s.topology}}},
            {"timing",
             {{"choice", p.timing.choiceKey()},
              {"nccl_version",
               p.timing.hasNcclVersion() ? json(p.timing.ncclVersionText()) : json(nullptr)}}},
            {"factors", factors},
            {"fitted", fitted},
            {"relative_error", errors},
            {"rms_residual_percent", p.rmsResidualPercent},
            {"model_version", p.modelVersion},
            {"points", points}};
}

Result<CalibrationProfile> readCalibrationProfile(const std::string& text,
                                                  const std::string& origin)
{
    auto parsed = parseJson(text, origin, "a calibration profile");
    if (!parsed)
        return tl::unexpected(parsed.error().error);
    const json& j = *parsed;
    auto bad = [&](const std::string& pointer, const std::string& accepted) {
        return makeError(origin, pointer, "missing or invalid in the calibration profile",
                         accepted);
    };
    if (!j.is_object())
        return bad("", "a JSON object as `dctwin-cli calibrate` stores it");
    CalibrationProfile p;
    try {
        p.name = j.at("name").get<std::string>();
        p.createdAt = j.value("created_at", "");
        p.modelVersion = j.value("model_version", "");
        if (j.contains("logs"))
            p.logs = j.at("logs").get<std::vector<std::string>>();
        const json& s = j.at("system");
        p.system.gpus = s.at("gpus").get<int>();
        p.system.gpusPerNode = s.at("gpus_per_node").get<int>();
        p.system.gpu = s.at("gpu").get<std::string>();
        p.system.nic = s.at("nic").get<std::string>();
        p.system.fabricSwitch = s.at("switch").get<std::string>();
        p.system.rails = s.at("rails").get<int>();
        p.system.protocol = s.at("protocol").get<std::string>();
        p.system.topology = s.at("topology").get<std::string>();
        p.rmsResidualPercent = j.value("rms_residual_percent", 0.0);
    } catch (const json::exception&) {
        return bad("/system", "name, and system with gpus, gpus_per_node, gpu, nic, switch, "
                              "rails, protocol and topology");
    }
    const json factors = j.value("factors", json::object());
    for (std::size_t i = 0; i < CollectiveCalibration::count; ++i) {
        const char* key = CollectiveCalibration::key(i);
        const std::string pointer = std::string("/factors/") + key;
        // A profile stored before the later parameters existed lacks them: its engine ran
        // with their held values (1, the proxy's serial posts 0), which keep what it computed.
        if (!factors.contains(key) && i >= CollectiveCalibration::firstOptional)
            continue;
        // The proxy's serial posts may be 0 (off); every factor multiplies and is above 0.
        const bool mayBeZero = CollectiveCalibration::heldValue(i) == 0.0;
        const char* accepted = mayBeZero ? "a number >= 0 and <= 1000" : "a number > 0 and <= 1000";
        if (!factors.contains(key) || !factors[key].is_number())
            return bad(pointer, accepted);
        const double v = factors[key].get<double>();
        if (!std::isfinite(v) || v < 0.0 || (v == 0.0 && !mayBeZero) || v > 1e3)
            return bad(pointer, accepted);
        p.factors.at(i) = v;
        for (const auto& name : j.value("fitted", json::array()))
            if (name.is_string() && name.get<std::string>() == key)
                p.fitted[i] = true;
        const json errors = j.value("relative_error", json::object());
        if (errors.contains(key) && errors[key].is_number())
            p.relativeError[i] = errors[key].get<double>();
    }
    // How the sizes were timed (absent from profiles stored before it was recorded).
    if (j.contains("timing")) {
        const json& t = j["timing"];
        const char* timingAccepted =
            "an object with choice \"engine\" or \"nccl_release\" and nccl_version \"2.9.9\" "
            "(null when the logs name no release; required with nccl_release)";
        if (!t.is_object())
            return bad("/timing", timingAccepted);
        const json choice = t.value("choice", json("engine"));
        if (choice == "nccl_release")
            p.timing.choice = CalibrationTiming::Choice::NcclRelease;
        else if (choice != "engine")
            return bad("/timing/choice", "\"engine\" or \"nccl_release\"");
        const json version = t.value("nccl_version", json(nullptr));
        if (version.is_string()) {
            int major = 0;
            int minor = 0;
            int patch = 0;
            char tail = 0;
            if (std::sscanf(version.get<std::string>().c_str(), "%d.%d.%d%c", &major, &minor,
                            &patch, &tail) != 3 ||
                major <= 0 || minor < 0 || patch < 0)
                return bad("/timing/nccl_version", "a release as \"2.9.9\", or null");
            p.timing.ncclMajor = major;
            p.timing.ncclMinor = minor;
            p.timing.ncclPatch = patch;
        } else if (!version.is_null()) {
            return bad("/timing/nccl_version", "a release as \"2.9.9\", or null");
        }
        if (p.timing.choice == CalibrationTiming::Choice::NcclRelease && !p.timing.hasNcclVersion())
            return bad("/timing/nccl_version", "the release whose tuner timed the fit");
    } else if (p.fitted[CollectiveCalibration::chunkStepIndex]) {
        // Only a release's timing reads the chunk step: the profile was fitted that way, but
        // does not say which release, so eval cannot time as the fit did.
        return bad("/timing", "a profile that records how it was timed: fit the logs again "
                              "with this program's `dctwin-cli calibrate nccl-tests`");
    }
    for (const auto& pt : j.value("points", json::array())) {
        if (!pt.is_object())
            return bad("/points", "objects with test, bytes, measured_us and model_us");
        CalibrationPoint c;
        c.test = pt.value("test", "");
        c.file = pt.value("file", "");
        c.line = pt.value("line", 0);
        c.bytes = pt.value("bytes", 0.0);
        c.measuredUs = pt.value("measured_us", 0.0);
        c.measuredBusbwGbytePerS = pt.value("measured_busbw_gbyte_per_s", 0.0);
        c.modelUs = pt.value("model_us", 0.0);
        c.modelBusbwGbytePerS = pt.value("model_busbw_gbyte_per_s", 0.0);
        c.algorithm = pt.value("algorithm", "");
        p.points.push_back(std::move(c));
    }
    return p;
}

std::string calibrationMismatch(const CalibrationSystem& m, const CalibrationSystem& s)
{
    std::string out;
    auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
    if (m.gpus != s.gpus)
        add("measured on " + std::to_string(m.gpus) + " GPUs, the scenario has " +
            std::to_string(s.gpus));
    if (m.gpusPerNode != s.gpusPerNode)
        add(std::to_string(m.gpusPerNode) + " GPUs per node, the scenario has " +
            std::to_string(s.gpusPerNode));
    auto text = [&](const char* what, const std::string& a, const std::string& b) {
        if (a != b)
            add(std::string(what) + " '" + a + "', the scenario has '" + b + "'");
    };
    text("GPU", m.gpu, s.gpu);
    text("NIC", m.nic, s.nic);
    text("switch", m.fabricSwitch, s.fabricSwitch);
    if (m.rails != s.rails)
        add(std::to_string(m.rails) + " rails, the scenario has " + std::to_string(s.rails));
    text("protocol", m.protocol, s.protocol);
    text("topology", m.topology, s.topology);
    return out;
}

} // namespace dct::model
