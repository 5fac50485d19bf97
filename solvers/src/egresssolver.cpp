#include "dct/solvers/egresssolver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace dct::solvers {

namespace {

/** A month as billing periods count it on average: 8760 h / 12. */
constexpr double kSecondsPerMonth = 8760.0 / 12.0 * 3600.0;

std::string num(double v)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

double tierEnd(const model::PriceTier& t)
{
    return t.upToGb > 0.0 ? t.upToGb : std::numeric_limits<double>::infinity();
}

} // namespace

double averageGbpsOfMonthlyTb(double tbPerMonth)
{
    return tbPerMonth * 1e12 * 8.0 / kSecondsPerMonth / 1e9;
}

double tieredEgressUsd(const model::EgressPricing& pricing, double gb)
{
    // Cumulative tiers: the GB between the previous tier's end and this one's are billed at this
    // tier's price (AWS "first 10 TB / next 40 TB / ..." tables written as cumulative ends).
    double usd = 0.0;
    double start = 0.0;
    for (const auto& t : pricing.tiers) {
        const double end = tierEnd(t);
        if (gb > start)
            usd += (std::min(gb, end) - start) * t.usdPerGb;
        if (gb <= end)
            break;
        start = end;
    }
    return usd;
}

double tieredEgressBreakEvenGb(const model::EgressPricing& pricing, double usd)
{
    double start = 0.0;
    double spent = 0.0;
    for (const auto& t : pricing.tiers) {
        const double end = tierEnd(t);
        const double tierUsd =
            std::isinf(end) ? std::numeric_limits<double>::infinity() : (end - start) * t.usdPerGb;
        if (spent + tierUsd >= usd && t.usdPerGb > 0.0)
            return start + (usd - spent) / t.usdPerGb;
        if (std::isinf(end))
            break;
        spent += tierUsd;
        start = end;
    }
    return -1.0;
}

EgressResult solveEgress(const model::ResolvedScenario& r, Diagnostics& diagnostics)
{
    EgressResult out;
    const auto& e = r.scenario.economics;
    out.monthlyGb = e.egressTbPerMonth * 1000.0;
    out.averageGbps = averageGbpsOfMonthlyTb(e.egressTbPerMonth);

    if (r.hasEgressPricing) {
        out.hasMetered = true;
        out.pricingId = r.egressPricing.id;
        out.meteredUsdPerMonth = tieredEgressUsd(r.egressPricing, out.monthlyGb);
        out.meteredUsdPerGb = out.monthlyGb > 0.0 ? out.meteredUsdPerMonth / out.monthlyGb : 0.0;
    }
    if (r.hasUnmeteredPort) {
        out.hasPort = true;
        out.portId = r.unmeteredPort.id;
        out.portGbps = r.unmeteredPort.portGbps;
        out.portUsdPerMonth = r.unmeteredPort.usdPerMonth;
        out.portUtilization = out.portGbps > 0.0 ? out.averageGbps / out.portGbps : 0.0;
        out.portCarries = out.averageGbps <= out.portGbps;
        if (out.hasMetered) {
            const double gb = tieredEgressBreakEvenGb(r.egressPricing, out.portUsdPerMonth);
            out.breakEvenTbPerMonth = gb >= 0.0 ? gb / 1000.0 : 0.0;
        }
        if (!out.portCarries)
            diagnostics.warning("/economics/unmetered_port",
                                num(e.egressTbPerMonth) + " TB a month average " +
                                    num(out.averageGbps) + " Gb/s, more than the " +
                                    num(out.portGbps) + " Gb/s port '" + out.portId + "' carries",
                                "a port of at least " + num(std::ceil(out.averageGbps)) + " Gb/s",
                                "port-too-small");
    }
    // The cheapest offer that carries the average rate.
    for (const auto& p : r.portOffers) {
        if (p.portGbps < out.averageGbps)
            continue;
        if (!out.hasCheapestPort || p.usdPerMonth < out.cheapestPortUsdPerMonth) {
            out.hasCheapestPort = true;
            out.cheapestPortId = p.id;
            out.cheapestPortGbps = p.portGbps;
            out.cheapestPortUsdPerMonth = p.usdPerMonth;
        }
    }
    // What egress costs: the cheaper of the metered table and the chosen port when it carries.
    if (out.hasPort && out.portCarries &&
        (!out.hasMetered || out.portUsdPerMonth <= out.meteredUsdPerMonth)) {
        out.choice = "port";
        out.egressUsdPerMonth = out.portUsdPerMonth;
    } else if (out.hasMetered) {
        out.choice = "metered";
        out.egressUsdPerMonth = out.meteredUsdPerMonth;
    } else if (out.hasPort) {
        out.choice = "port";
        out.egressUsdPerMonth = out.portUsdPerMonth;
    }

    // WAN transfer: one TCP stream moves at most one window per round trip (bandwidth-delay
    // product: throughput <= window / RTT); the port caps the sum of all streams.
    out.datasetTb = e.wanDatasetTb;
    out.rttMs = e.wanRttMs;
    out.tcpWindowMb = e.tcpWindowMb;
    out.pathGbps = out.hasPort ? out.portGbps : (out.hasCheapestPort ? out.cheapestPortGbps : 0.0);
    out.perStreamGbps = e.wanRttMs > 0.0 ? e.tcpWindowMb * 1e6 * 8.0 / (e.wanRttMs / 1000.0) / 1e9
                                         : std::numeric_limits<double>::infinity();
    out.singleStreamGbps =
        out.pathGbps > 0.0 ? std::min(out.pathGbps, out.perStreamGbps) : out.perStreamGbps;
    const double bits = e.wanDatasetTb * 1e12 * 8.0;
    if (std::isfinite(out.singleStreamGbps) && out.singleStreamGbps > 0.0)
        out.singleStreamHours = bits / (out.singleStreamGbps * 1e9) / 3600.0;
    if (out.pathGbps > 0.0) {
        out.portLimitedHours = bits / (out.pathGbps * 1e9) / 3600.0;
        // A vanishing window needs streams beyond counting: the count saturates (at 10^9, far
        // past any real stream limit) instead of overflowing the int it is kept in.
        const double streams = std::isfinite(out.perStreamGbps) && out.perStreamGbps > 0.0
                                   ? std::ceil(out.pathGbps / out.perStreamGbps - 1e-9)
                                   : 1.0;
        out.streamsToFillPort = static_cast<int>(std::clamp(streams, 1.0, 1e9));
    }
    if (!std::isfinite(out.perStreamGbps))
        out.perStreamGbps = 0.0;
    return out;
}

} // namespace dct::solvers
