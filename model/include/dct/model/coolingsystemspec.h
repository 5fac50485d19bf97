#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** A cooling system: its family, rack capacity and the parameters of its component model. */
struct CoolingSystemSpec : CatalogEntry
{
    CoolingType type = CoolingType::AirCrac;
    double maxRackKw = 15.0; ///< Heat one rack may reject before it is over capacity.
    double maxRowKw = 0.0;   ///< Heat one row's units (an in-row CDU) remove; 0: no row-level unit.
    double liquidCaptureFraction = 0.0;   ///< Share of IT heat taken by liquid at the cold plates.
    double supplyAirTempC = 20.0;         ///< Air supplied to the server inlets.
    double chilledWaterSupplyC = 10.0;    ///< Chilled water leaving the chiller.
    double liquidSupplyTempC = 30.0;      ///< Coolant to the cold plates (D2C).
    double fanPowerWPerKw = 80.0;         ///< CRAH/CRAC or RDHx fan power per kW of air heat.
    double pumpPowerWPerKw = 20.0;        ///< Pump power per kW of heat carried by water.
    double chillerCopRated = 5.5;         ///< COP at the rated condenser temperature and full load.
    double chillerRatedCondenserC = 35.0; ///< Condenser entering temperature of the rating.
    double economizerApproachC = 4.0;     ///< Heat exchanger approach of free cooling.
    double heatRejectionWPerKw = 15.0;    ///< Cooling tower or dry cooler fans per kW rejected.
    bool evaporativeHeatRejection = false; ///< Cooling tower (wet bulb) instead of dry (dry bulb).
    double capexUsdPerKw = 0.0;            ///< Plant cost per kW of IT heat.

    static constexpr const char* kind = "cooling";
    static const FieldTable<CoolingSystemSpec>& fields();
};

} // namespace dct::model
