#!/usr/bin/env python3
"""Annual outdoor temperature bins for the site catalog (data/catalog/sites.json).

Data-generation tool, not part of the build. It turns published monthly climate normals into the
"climate_bins" array of a site: hours of the year in each dry-bulb bin, with the mean coincident
wet bulb of those hours. The hours of every site add up to exactly 8760 (365 days x 24 h).

Usage:
    python3 scripts/climate_bins.py                  # table of every site
    python3 scripts/climate_bins.py dallas           # one site
    python3 scripts/climate_bins.py --json dallas    # the climate_bins JSON array to paste
    python3 scripts/climate_bins.py --json-all       # {"site": [bins...], ...} for every site
    options: --width 2 (bin width in degC, default 2), --step-min 1 (time step, default 1 min)

Method (state exactly this in the site's "sources" for climate_bins):
  1. Each month has its mean daily maximum Tmax and mean daily minimum Tmin from the normals
     below. Every day of the month follows the same sinusoidal diurnal cycle between them:
         T(t) = (Tmax + Tmin)/2 - (Tmax - Tmin)/2 * cos(2 pi (t - 3 h) / 24 h)
     with the minimum at 03:00 and the maximum at 15:00 local solar time. There is no
     day-to-day variability, so the tails are compressed: the bins never go below the coldest
     monthly mean minimum nor above the warmest monthly mean maximum. Use design-day data
     (ASHRAE Handbook of Fundamentals climatic design conditions) for peak plant sizing.
  2. The day is sampled every --step-min minutes; each sample carries (days in month) x step of
     time, so the year sums to 8760 h. Dry-bulb bins are [c - w/2, c + w/2) around centres c
     that are multiples of the width w.
  3. Wet bulb: the month's mean dew point is held constant through the day (dew points vary
     little over a day) and capped at the dry bulb; it gives each sample's humidity ratio at the
     site's station pressure (ASHRAE Handbook of Fundamentals 2017, ch. 1, eq. 3 from elevation;
     saturation pressure from the Magnus form of Alduchov and Eskridge 1996). A bin's coincident
     wet bulb is the thermodynamic wet bulb at the bin's centre dry bulb and the time-weighted
     mean humidity ratio of its samples (psychrometric equation, Fundamentals eqs. 33 and 35),
     so it never exceeds the bin's dry bulb.
  4. Hours are rounded to 0.1 h by largest remainder so that they add up to exactly 8760.0.

Embedded normals (monthly mean daily max / min, January..December). The values were transcribed
by hand from the published normals tables named per site and rounded; they were not downloaded.
Spot-check them against the publisher before relying on a bin to better than about 0.5 degC.
Dew points are approximate climatological monthly means (from the same stations' humidity
normals where published, else estimated from mean relative humidity); they only set the wet bulb.
"""

import argparse
import json
import math
import sys

MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]  # 365-day year, 8760 h


def f_to_c(values):
    return [round((v - 32.0) * 5.0 / 9.0, 2) for v in values]


# Each site: normals (degC), station elevation (m) and the publisher of the normals.
SITES = {
    "dallas": {
        "station": "Dallas/Fort Worth International Airport (DFW), USW00003927",
        "normals": "NOAA NCEI U.S. Climate Normals 1991-2020, monthly mean daily max/min",
        "elevation_m": 171.0,
        # degF as published, converted below.
        "tmax": f_to_c([57.4, 61.6, 69.8, 77.4, 85.0, 92.7, 96.8, 96.9, 89.5, 79.1, 67.5, 58.5]),
        "tmin": f_to_c([37.3, 41.1, 48.9, 56.4, 65.5, 73.5, 77.4, 76.9, 69.6, 58.4, 47.1, 39.3]),
        "dew": f_to_c([35, 38, 45, 53, 62, 67, 67, 66, 62, 53, 44, 37]),
    },
    "ashburn": {
        "station": "Washington Dulles International Airport (IAD), USW00093738",
        "normals": "NOAA NCEI U.S. Climate Normals 1991-2020, monthly mean daily max/min",
        "elevation_m": 95.0,
        "tmax": f_to_c([43.2, 47.0, 55.8, 67.8, 76.2, 84.3, 88.5, 86.7, 79.8, 68.6, 57.4, 47.0]),
        "tmin": f_to_c([24.5, 26.3, 33.0, 42.6, 52.3, 61.6, 66.4, 64.8, 57.6, 45.4, 35.2, 28.6]),
        "dew": f_to_c([22, 23, 28, 37, 49, 59, 64, 63, 57, 45, 34, 26]),
    },
    "london": {
        "station": "London Heathrow",
        "normals": "Met Office UK climate averages 1991-2020, Heathrow, monthly mean daily max/min",
        "elevation_m": 25.0,
        "tmax": [8.4, 9.1, 12.0, 15.3, 18.6, 21.7, 24.0, 23.5, 20.4, 16.1, 11.6, 8.8],
        "tmin": [2.6, 2.5, 3.9, 5.5, 8.5, 11.5, 13.7, 13.6, 11.3, 8.7, 5.2, 3.0],
        "dew": [2.5, 2.2, 3.0, 4.3, 7.0, 10.0, 12.0, 12.2, 10.5, 8.5, 5.5, 3.3],
    },
    "frankfurt": {
        "station": "Frankfurt am Main Flughafen (DWD station 1420)",
        "normals": "DWD (Deutscher Wetterdienst) Klimareferenzperiode 1991-2020, Frankfurt/Main "
                   "Flughafen, monthly mean daily max/min",
        "elevation_m": 100.0,
        "tmax": [4.6, 6.5, 11.1, 16.3, 20.4, 23.9, 26.1, 25.6, 20.9, 14.8, 8.7, 5.2],
        "tmin": [-1.2, -0.8, 1.8, 4.9, 8.9, 12.3, 14.2, 13.8, 10.2, 6.3, 2.6, -0.1],
        "dew": [-0.5, -0.5, 1.0, 3.5, 7.5, 11.0, 12.8, 13.2, 10.5, 7.0, 3.5, 0.8],
    },
    "singapore": {
        "station": "Singapore Changi climate station",
        "normals": "Meteorological Service Singapore climate normals 1991-2020, Changi, monthly "
                   "mean daily max/min",
        "elevation_m": 15.0,
        "tmax": [30.4, 31.6, 32.2, 32.6, 32.3, 31.8, 31.3, 31.3, 31.4, 31.8, 31.1, 30.3],
        "tmin": [23.6, 23.9, 24.5, 25.2, 25.8, 25.7, 25.3, 25.3, 25.0, 24.8, 24.2, 23.8],
        "dew": [23.6, 23.4, 24.0, 24.7, 25.0, 24.7, 24.3, 24.3, 24.2, 24.4, 24.3, 23.8],
    },
    "stockholm": {
        "station": "Stockholm-Observatoriekullen (SMHI station 98210)",
        "normals": "SMHI normal period 1991-2020, Stockholm, monthly mean daily max/min",
        "elevation_m": 44.0,
        "tmax": [1.1, 1.4, 5.0, 10.9, 16.4, 20.7, 23.4, 22.0, 17.1, 10.5, 5.6, 2.5],
        "tmin": [-3.3, -3.5, -1.3, 2.5, 7.5, 12.0, 14.8, 14.0, 10.1, 5.3, 1.8, -1.3],
        "dew": [-3.0, -3.5, -3.0, 0.0, 4.5, 9.0, 12.5, 12.3, 9.0, 5.0, 1.5, -1.5],
    },
}


def saturation_pressure_kpa(t_c):
    """Saturation vapour pressure over water (t >= 0) or ice (t < 0), Alduchov & Eskridge 1996."""
    if t_c >= 0.0:
        return 0.61094 * math.exp(17.625 * t_c / (t_c + 243.04))
    return 0.61121 * math.exp(22.587 * t_c / (t_c + 273.86))


def station_pressure_kpa(elevation_m):
    """Standard atmosphere at elevation (ASHRAE Fundamentals 2017, ch. 1, eq. 3)."""
    return 101.325 * (1.0 - 2.25577e-5 * elevation_m) ** 5.2559


def humidity_ratio(pw_kpa, p_kpa):
    return 0.621945 * pw_kpa / (p_kpa - pw_kpa)


def humidity_ratio_at_dew(t_c, dew_c, p_kpa):
    """Humidity ratio of air at dry bulb t_c with dew point dew_c (capped at t_c)."""
    return humidity_ratio(saturation_pressure_kpa(min(dew_c, t_c)), p_kpa)


def wet_bulb_c(t_c, w, p_kpa):
    """Thermodynamic wet bulb from dry bulb and humidity ratio (Fundamentals eqs. 33 and 35)."""
    w = min(w, humidity_ratio(saturation_pressure_kpa(t_c), p_kpa))

    def w_of(twb):
        ws = humidity_ratio(saturation_pressure_kpa(twb), p_kpa)
        if twb >= 0.0:
            return ((2501.0 - 2.326 * twb) * ws - 1.006 * (t_c - twb)) / (
                2501.0 + 1.86 * t_c - 4.186 * twb)
        return ((2830.0 - 0.24 * twb) * ws - 1.006 * (t_c - twb)) / (
            2830.0 + 1.86 * t_c - 2.1 * twb)

    lo, hi = t_c - 60.0, t_c  # w_of rises with twb; the root lies below the dry bulb
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if w_of(mid) > w:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def largest_remainder(values, total, decimals):
    """Rounds values to `decimals` so that they add up to `total` exactly."""
    scale = 10 ** decimals
    scaled = [v * scale for v in values]
    floors = [math.floor(s) for s in scaled]
    missing = int(round(total * scale)) - sum(floors)
    order = sorted(range(len(values)), key=lambda i: scaled[i] - floors[i], reverse=True)
    for i in order[:missing]:
        floors[i] += 1
    return [f / scale for f in floors]


def bins_for(site, width=2.0, step_min=1.0):
    p = station_pressure_kpa(site["elevation_m"])
    steps_per_day = int(round(24 * 60 / step_min))
    hours = {}
    w_weighted = {}
    for month in range(12):
        tmax, tmin, dew = site["tmax"][month], site["tmin"][month], site["dew"][month]
        mean, amplitude = 0.5 * (tmax + tmin), 0.5 * (tmax - tmin)
        sample_hours = MONTH_DAYS[month] * 24.0 / steps_per_day
        for k in range(steps_per_day):
            t_of_day = (k + 0.5) * 24.0 / steps_per_day
            t = mean - amplitude * math.cos(2.0 * math.pi * (t_of_day - 3.0) / 24.0)
            centre = width * math.floor(t / width + 0.5)
            centre = round(centre, 6) + 0.0  # no "-0.0"
            hours[centre] = hours.get(centre, 0.0) + sample_hours
            w_weighted[centre] = w_weighted.get(centre, 0.0) + sample_hours * (
                humidity_ratio_at_dew(t, dew, p))
    centres = sorted(hours)
    rounded = largest_remainder([hours[c] for c in centres], 8760.0, 1)
    out = []
    for c, h in zip(centres, rounded):
        wet = wet_bulb_c(c, w_weighted[c] / hours[c], p)
        out.append({"dry_bulb_c": c, "wet_bulb_c": round(wet, 1), "hours": h})
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sites", nargs="*", help="site ids (default: all)")
    parser.add_argument("--json", action="store_true", help="print the climate_bins array")
    parser.add_argument("--json-all", action="store_true", help="print every site's bins")
    parser.add_argument("--width", type=float, default=2.0, help="bin width in degC")
    parser.add_argument("--step-min", type=float, default=1.0, help="time step in minutes")
    args = parser.parse_args(argv)
    ids = args.sites or list(SITES)
    for site_id in ids:
        if site_id not in SITES:
            parser.error("unknown site '%s'; known: %s" % (site_id, ", ".join(SITES)))
    if args.json_all:
        print(json.dumps({s: bins_for(SITES[s], args.width, args.step_min) for s in ids},
                         indent=2))
        return 0
    for site_id in ids:
        bins = bins_for(SITES[site_id], args.width, args.step_min)
        if args.json:
            print(json.dumps(bins))
            continue
        total = sum(b["hours"] for b in bins)
        mean = sum(b["dry_bulb_c"] * b["hours"] for b in bins) / total
        print("%s (%s; %s): %.1f h, mean %.2f degC" % (
            site_id, SITES[site_id]["station"], SITES[site_id]["normals"], total, mean))
        for b in bins:
            print("  %6.1f  wb %5.1f  %7.1f h" % (b["dry_bulb_c"], b["wet_bulb_c"], b["hours"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
