#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/field.h"

namespace dct::model {

/** A server chassis holding GPUs: its default GPU and NIC, power, height and price. */
struct NodeSpec : CatalogEntry
{
    std::string vendor;
    std::string gpu; ///< Catalog id of the GPU it ships with.
    std::string nic; ///< Catalog id of its compute NICs.
    int gpusPerNode = 8;
    int computeNics = 8;       ///< Scale-out NICs (rails) per node.
    int scaleUpDomainGpus = 8; ///< GPUs joined by NVLink/NVSwitch.
    double maxPowerKw = 10.2;  ///< Nameplate maximum system power.
    double basePowerKw = 2.4;  ///< Non-GPU power at load: CPUs, memory, NICs, fans, drives.
    double idlePowerKw = 1.5;  ///< Whole node idle.
    int heightU = 8;
    double priceUsd = 0.0; ///< Whole node with its GPUs.
    /** Highest inlet air the node is specified to run on; ASHRAE TC9.9 class A2 allows 35 C. */
    double maxInletTempC = 35.0;
    /// Host memory of the node (CPU DRAM or LPDDR), where offloaded activations go.
    double hostMemoryGb = 0.0;
    /// Each GPU's bandwidth to host memory, one direction, while every GPU of the node copies at
    /// once (PCIe or NVLink-C2C, and the host memory behind it); 0: not known.
    double hostBandwidthGbS = 0.0;
    /// The host's time per kernel it launches for a training framework (Python, PyTorch and the
    /// driver around each launch), in microseconds: what the CPU takes to feed the GPUs.
    double hostLaunchUs = 53.7;
    /// What the NVSwitch chips of the node's NVLink domain add up in the switch (NVLink SHARP)
    /// per second, all chips together, in operand bytes; 0: not known, the links alone bound
    /// NVLS.
    double nvlsReduceGbytePerS = 0.0;

    static constexpr const char* kind = "node";
    static const FieldTable<NodeSpec>& fields();

    bool operator==(const NodeSpec&) const = default;
};

} // namespace dct::model
