#pragma once

#include "dct/model/error.h"

#include <string>

namespace dct::study {

/** Part \a index (from 0) of \a count equal parts of a sweep, for array jobs. */
struct SweepShard
{
    int index = 0;
    int count = 1;

    /** Parses "i/N" with 0 <= i < N. */
    static Result<SweepShard> parse(const std::string& text);
    /** Returns "i/N". */
    std::string toString() const { return std::to_string(index) + "/" + std::to_string(count); }
};

} // namespace dct::study
