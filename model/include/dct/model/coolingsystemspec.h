#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** A cooling system: its family, rack capacity and the parameters of its component model. */
struct CoolingSystemSpec : CatalogEntry
{
    CoolingType type = CoolingType::AirCrac;
    double maxRackKw = 15.0;            ///< Heat one rack may reject before it is over capacity.
    double liquidCaptureFraction = 0.0; ///< Share of IT heat taken by liquid at the cold plates.
    double supplyAirTempC = 20.0;       ///< Air supplied to the server inlets.
    double chilledWaterSupplyC = 10.0;  ///< Chilled water leaving the chiller.
    double liquidSupplyTempC = 30.0;    ///< Coolant to the cold plates (D2C).
    double fanPowerWPerKw = 80.0;       ///< CRAH/CRAC or RDHx fan power per kW of air heat.
    /** Share of the supplied air that returns without passing a server (fans move 1/(1-b)). */
    double bypassAirFraction = 0.0;
    /** The plant has a free-cooling path (economizer); legacy DX or older plants do not. */
    bool economizerAvailable = true;
    double maxRowKw = 0.0; ///< Heat one row's units (an in-row CDU) remove; 0: no row-level unit.
    double pumpPowerWPerKw = 20.0;        ///< Pump power per kW of heat carried by water.
    double chillerCopRated = 5.5;         ///< COP at the rated condenser temperature and full load.
    double chillerRatedCondenserC = 35.0; ///< Condenser entering temperature of the rating.
    /**
     * Share of the chiller's rated input that does not fall with the lift (a centrifugal
     * compressor off its design head, motor and drive losses): 0 keeps the rated share of the
     * Carnot COP at every lift. Default: the water-cooled centrifugal chiller of the catalog's
     * reference curves (data/catalog/cooling.json, its source).
     */
    double chillerLiftIndependentShare = 0.38;
    double economizerApproachC = 4.0; ///< Heat exchanger approach of free cooling.
    /**
     * Towers: the approach the cooling tower is rated at (78 F wet bulb, the
     * condenser_water_range_c range); economizer_approach_c less this is the free-cooling heat
     * exchanger's. Off its rating the tower's approach follows its physics
     * (solvers/coolingtower.h).
     */
    double towerDesignApproachC = 3.9;
    double heatRejectionWPerKw = 15.0;     ///< Cooling tower or dry cooler fans per kW rejected.
    bool evaporativeHeatRejection = false; ///< Cooling tower (wet bulb) instead of dry (dry bulb).
    /** Tower: dissolved solids in the circulating water over the make-up's (sets blowdown). */
    double cyclesOfConcentration = 5.0;
    /** Tower: drift as a share of the circulating water flow. */
    double driftFraction = 0.00005;
    /** Tower: condenser-water temperature range (return - supply). */
    double condenserWaterRangeC = 5.6;
    /** Dry coolers: saturation effectiveness of the adiabatic pre-cooling (0: none). */
    double adiabaticEffectiveness = 0.0;
    /** Dry coolers: dry bulb above which the adiabatic pre-cooling runs (assumption: 25 C). */
    double adiabaticThresholdC = 25.0;
    /** Dry coolers: air temperature rise across the coil, sets the air flow per kW (assumption:
     *  10 K). */
    double dryCoolerAirRiseC = 10.0;
    /** Liquid plant: heat one coolant distribution unit moves (0: no CDUs). */
    double cduCapacityKw = 0.0;
    /** Liquid plant: coolant temperature rise across the cold plates (sets the flow). */
    double coolantRiseC = 10.0;
    /** Liquid plant: pressure the CDU pumps overcome (cold plates, manifolds, hoses). */
    double coolantLoopHeadKpa = 200.0;
    /** Liquid plant: CDU pump and motor efficiency. */
    double coolantPumpEfficiency = 0.5;
    double capexUsdPerKw = 0.0; ///< Plant cost per kW of IT heat.
    // Floor units (the hall's floor plan, solvers/hallayout.h): what each unit kind takes.
    double cduWidthM = 0.0;  ///< Footprint of one CDU along a row (0: CDUs take no floor).
    double cduDepthM = 0.0;  ///< Footprint of one CDU across a row.
    double rdhxDepthM = 0.0; ///< Depth a rear-door heat exchanger adds to a rack (0: no doors).
    /** Room air units (CRAH/CRAC): heat one unit removes (0: no room units on the floor). */
    double crahCapacityKw = 0.0;
    double crahWidthM = 0.0; ///< Footprint of one room unit along the wall.
    double crahDepthM = 0.0; ///< Footprint of one room unit out from the wall.

    static constexpr const char* kind = "cooling";
    static const FieldTable<CoolingSystemSpec>& fields();

    bool operator==(const CoolingSystemSpec&) const = default;
};

} // namespace dct::model
