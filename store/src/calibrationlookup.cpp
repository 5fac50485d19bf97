#include "dct/store/calibrationlookup.h"

#include "dct/store/scenariostore.h"

#include <memory>
#include <optional>

namespace dct::store {

CalibrationLookup calibrationLookup(std::filesystem::path path)
{
    // One store per lookup, opened when a scenario first names a profile.
    auto opened = std::make_shared<std::optional<ScenarioStore>>();
    return [path = std::move(path),
            opened](const std::string& name) -> Result<model::CalibrationProfile> {
        if (!opened->has_value()) {
            std::error_code ec;
            if (!std::filesystem::exists(path, ec))
                return makeError(path.string(), "",
                                 "no scenario library here, so no calibration profile '" + name +
                                     "'",
                                 "the library `dctwin-cli calibrate nccl-tests` stored the "
                                 "profile in (--store or DCT_STORE)");
            auto store = ScenarioStore::open(path);
            if (!store)
                return tl::unexpected(store.error());
            opened->emplace(std::move(*store));
        }
        auto stored = (*opened)->loadCalibrationProfile(name);
        if (!stored)
            return tl::unexpected(stored.error());
        return model::readCalibrationProfile(
            stored->json, path.string() + " (calibration profile '" + name + "')");
    };
}

} // namespace dct::store
