#include "dct/report/stepbreakdownsvg.h"

#include "dct/report/svgchart.h"
#include "dct/solvers/stepbreakdown.h"

#include <cmath>
#include <cstdio>

namespace dct::report {

std::string stepBreakdownChartSvg(const solvers::Evaluation& e, int widthPx)
{
    if (!(e.compute.stepSeconds > 0.0) || !e.metric("compute.step_seconds"))
        return {};
    const auto parts = solvers::stepBreakdown(e.compute, &e.goodput);
    double total = 0.0;
    for (const auto& p : parts)
        total += p.seconds;
    if (!(total > 0.0))
        return {};
    std::vector<ChartBar> bars;
    for (const auto& p : parts) {
        const double percent = 100.0 * p.seconds / total;
        char share[32];
        std::snprintf(share, sizeof share, " (%.*f%%)", percent > 0.0 && percent < 10.0 ? 1 : 0,
                      percent);
        bars.push_back({p.label + share, p.seconds});
    }
    char title[128];
    std::snprintf(title, sizeof title,
                  "Training step breakdown: %.4g s, checkpoints and failures included", total);
    return horizontalBarChartSvg(title, bars, "s", widthPx);
}

} // namespace dct::report
