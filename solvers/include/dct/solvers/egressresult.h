#pragma once

#include <string>

namespace dct::solvers {

/** Monthly egress on a metered price table against an unmetered port, and WAN transfer time. */
struct EgressResult
{
    double monthlyGb = 0.0;   ///< Data leaving the site per month (1 TB = 1000 GB).
    double averageGbps = 0.0; ///< That volume spread over a month of 730 h.

    bool hasMetered = false;
    std::string pricingId;
    double meteredUsdPerMonth = 0.0; ///< On the cumulative tier table.
    double meteredUsdPerGb = 0.0;    ///< Average price per GB.

    bool hasPort = false;
    std::string portId;
    double portGbps = 0.0;
    double portUsdPerMonth = 0.0;
    double portUtilization = 0.0;     ///< Average rate over port rate.
    bool portCarries = false;         ///< Average rate fits the port.
    double breakEvenTbPerMonth = 0.0; ///< Volume at which metered cost equals the port price.

    bool hasCheapestPort = false; ///< Some port offer carries the volume.
    std::string cheapestPortId;   ///< Cheapest port offer that carries the volume.
    double cheapestPortGbps = 0.0;
    double cheapestPortUsdPerMonth = 0.0;

    std::string choice = "none";    ///< Cheapest way that carries it: "metered", "port", "none".
    double egressUsdPerMonth = 0.0; ///< Cost of that choice.

    double datasetTb = 0.0;
    double rttMs = 0.0;
    double tcpWindowMb = 0.0;
    double perStreamGbps = 0.0;     ///< TCP window / RTT.
    double pathGbps = 0.0;          ///< Port rate of the WAN path (0: not limited by a port).
    double singleStreamGbps = 0.0;  ///< min(port, window / RTT).
    double singleStreamHours = 0.0; ///< Data set over one TCP stream.
    int streamsToFillPort = 0;      ///< Parallel streams for the port rate.
    double portLimitedHours = 0.0;  ///< Data set at the port rate (enough streams).
};

} // namespace dct::solvers
