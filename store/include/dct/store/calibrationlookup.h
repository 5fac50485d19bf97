#pragma once

#include "dct/model/calibrationprofile.h"
#include "dct/model/error.h"

#include <filesystem>
#include <functional>
#include <string>

namespace dct::store {

/** Finds a calibration profile by name (solvers::EvaluateOptions::calibrationProfile). */
using CalibrationLookup = std::function<Result<model::CalibrationProfile>(const std::string&)>;

/**
 * Returns a lookup of the calibration profiles stored in the scenario library at \a path. The
 * store is opened on the first lookup, read only for this purpose, and never created: a library
 * that does not exist is an error naming the path.
 */
CalibrationLookup calibrationLookup(std::filesystem::path path);

} // namespace dct::store
