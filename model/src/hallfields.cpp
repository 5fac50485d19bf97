// Field table of the hall section: rows, racks, aisles, row limits, network placement and cable
// routing. Defaults that stand for outside-world figures name their source.
#include "dct/model/hallsection.h"

namespace dct::model {

namespace f = fields;

const FieldTable<HallSection>& HallSection::fields()
{
    using S = HallSection;
    static const FieldTable<S> table = {
        f::integer<S>("rows", &S::rows, "", "Compute rows; 0 takes as many as the racks need", 0,
                      10000),
        f::integer<S>("racks_per_row", &S::racksPerRow, "",
                      "Compute rack positions per row; 0 takes /facility/racks_per_row", 0, 1000),
        // 0.3 m: narrower than any 19" rack; 1.2 m: a double-wide rack.
        f::number<S>("rack_width_m", &S::rackWidthM, "m",
                     "Rack width (600 mm: DGX SuperPOD racks, RA-11333-001)", 0.3, 1.2),
        f::number<S>("rack_depth_m", &S::rackDepthM, "m",
                     "Rack depth (1200 mm: DGX SuperPOD racks, RA-11333-001)", 0.5, 2.0),
        f::numberOrZero<S>("rack_pitch_m", &S::rackPitchM, "m",
                           "Centre-to-centre spacing along a row; 0 takes the rack width", 0.3, 3.0,
                           ZeroMeaning::Automatic),
        f::number<S>("cold_aisle_m", &S::coldAisleM, "m",
                     "Cold aisle width (TIA-942: at least 1.2 m in front of racks)", 0.6, 5.0),
        f::number<S>("hot_aisle_m", &S::hotAisleM, "m",
                     "Hot aisle width (TIA-942: at least 0.6 m behind racks, 1 m preferred; "
                     "1.2 m taken)",
                     0.6, 5.0),
        f::number<S>("end_aisle_m", &S::endAisleM, "m",
                     "Cross aisle at both row ends (TIA-942 circulation: 1.2 m)", 0.6, 10.0),
        f::integer<S>("row_blocks", &S::rowBlocks, "",
                      "Blocks of rows side by side, a cross aisle between them; 0 takes the "
                      "count that brings the hall closest to square",
                      0, 1000),
        f::number<S>("cross_aisle_m", &S::crossAisleM, "m",
                     "Aisle between two row blocks (BICSI 002 circulation path: at least 1.2 m)",
                     0.6, 20.0),
        f::choice<S, Containment>("containment", &S::containment,
                                  {{Containment::None, "none"},
                                   {Containment::ColdAisle, "cold_aisle"},
                                   {Containment::HotAisle, "hot_aisle"}},
                                  "Aisle containment"),
        f::numberOrZero<S>("row_busway_kw", &S::rowBuswayKw, "kW",
                           "Power one row's busway delivers; 0 takes the largest standard track "
                           "busway (800 A at 415 V, 460 kW continuous)",
                           1.0, 1e5, ZeroMeaning::Automatic),
        f::numberOrZero<S>("row_cooling_kw", &S::rowCoolingKw, "kW",
                           "Heat one row's cooling (CDUs, rear doors, CRAHs) removes; 0 takes the "
                           "cooling system's row unit (max_row_kw), else its racks' limit",
                           1.0, 1e5, ZeroMeaning::Automatic),
        f::choice<S, NetworkPlacement>("network_placement", &S::networkPlacement,
                                       {{NetworkPlacement::EndOfRow, "end_of_row"},
                                        {NetworkPlacement::MiddleOfRow, "middle_of_row"},
                                        {NetworkPlacement::Central, "central"}},
                                       "Where the leaf and pod switches stand"),
        f::choice<S, MdaPosition>("mda_position", &S::mdaPosition,
                                  {{MdaPosition::Center, "center"},
                                   {MdaPosition::Front, "front"},
                                   {MdaPosition::Back, "back"},
                                   {MdaPosition::Side, "side"}},
                                  "Where the walled main distribution area (meet-me room, spines "
                                  "and cores) stands: in the middle block, across the front or "
                                  "back wall, or beside the row blocks"),
        f::integer<S>("switches_per_network_rack", &S::switchesPerNetworkRack, "",
                      "Switches in one network rack; 0 fits them by rack units and power", 0, 100),
        f::number<S>("tray_height_m", &S::trayHeightM, "m",
                     "Height of the overhead cable trays (assumption: 0.6 m above a 2 m rack, "
                     "room for BICSI 002's 300 mm of headroom above the tray)",
                     1.0, 6.0),
        f::number<S>("port_height_m", &S::portHeightM, "m",
                     "Mean height of the ports in a rack (assumption: mid rack)", 0.0, 3.0),
        f::number<S>("service_loop_m", &S::serviceLoopM, "m",
                     "Service loop left at each end of a cable (assumption: 0.5 m)", 0.0, 5.0),
        f::number<S>("slack_fraction", &S::slackFraction, "",
                     "Slack on top of the routed length (assumption: 10%)", 0.0, 1.0),
        f::numberOrZero<S>("floor_area_m2", &S::floorAreaM2, "m²",
                           "White space available for the hall; 0 leaves it unchecked", 1.0, 1e7,
                           ZeroMeaning::Unchecked),
        f::choice<S, CableLengthModel>(
            "cable_lengths", &S::cableLengths,
            {{CableLengthModel::Layout, "layout"}, {CableLengthModel::Typical, "typical"}},
            "Cable lengths from the floor plan, or the network section's two typical lengths"),
    };
    return table;
}

} // namespace dct::model
