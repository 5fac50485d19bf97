#pragma once

#include "dct/model/catalogref.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"
#include "dct/model/hallsection.h"

#include <algorithm>
#include <set>
#include <string>

namespace dct::model {

/** GPUs and nodes. */
struct ComputeSection
{
    CatalogRef node; ///< Node type; required.
    CatalogRef gpu;  ///< GPU type; empty means the node's own.
    int nodeCount = 1;
    int gpusPerNode = 0;       ///< 0 means the node type's count.
    double utilization = 0.85; ///< Share of the GPU's power range (idle to TDP) drawn on average.
    /**
     * Enforced board power limit of every GPU (nvidia-smi --power-limit), W; 0 leaves the GPU at
     * its TDP. The GPU lowers its clock until its full-load draw fits the limit.
     */
    double gpuPowerLimitW = 0.0;

    static const FieldTable<ComputeSection>& fields();

    bool operator==(const ComputeSection&) const = default;
};

/** The scale-out fabric. */
struct NetworkSection
{
    Protocol protocol = Protocol::RoceV2;
    TopologyKind topology = TopologyKind::FatTree;
    int tiers = 0;                 ///< 2 or 3; 0 means the fewest that hold the endpoints.
    int planes = 1;                ///< Independent planes (multi-plane fabrics).
    int rails = 0;                 ///< Scale-out NICs per node; 0 means the node type's count.
    CatalogRef fabricSwitch;       ///< Switch type; required.
    CatalogRef nic;                ///< NIC type; empty means the node type's.
    double oversubscription = 1.0; ///< Leaf downlink to uplink bandwidth ratio.
    /** Logical ports per switch port (2: an 800G port as 2 x 400G); 0 splits to the NIC rate. */
    int portBreakout = 0;
    Routing routing = Routing::Ecmp;
    CollectiveChoice allReduceAlgorithm = CollectiveChoice::Auto; ///< Gradient all-reduce.
    /**
     * The collectives use the fabric switches' in-network reduction (SHARP: NCCL's CollNet and
     * NVLS across nodes). Off by default, as NCCL runs (NCCL_COLLNET_ENABLE defaults to 0); a
     * switch that has none cannot be asked for it.
     */
    bool inNetworkReduction = false;
    /** Calibration profile of the scenario library the collectives use; empty for none. */
    std::string calibrationProfile;
    int mtuBytes = 4096; ///< RDMA path MTU (payload bytes per packet).
    int scalableUnitNodes =
        0; ///< Nodes per scalable unit (rail-optimized); 0: a leaf's down ports.
    bool reserveNodePerUnit = false;      ///< Leave one node slot per unit for the fabric manager.
    double cableLengthInRowM = 5.0;       ///< Typical run from a node to a leaf in its row.
    double cableLengthAcrossRowsM = 30.0; ///< Typical run from a leaf to a spine.
    bool pfcEnabled = true;
    bool ecnEnabled = true;
    bool pfcWatchdog = true;
    int layer2DomainNodes = 0; ///< Nodes in one flat layer-2 domain; 0 means routed.
    bool rdmaPubliclyRoutable = false;
    bool managementSeparated = true;

    static const FieldTable<NetworkSection>& fields();

    bool operator==(const NetworkSection&) const = default;
};

/** Shared storage for data and checkpoints. */
struct StorageSection
{
    double capacityTb = 1000.0;
    double readGbytePerS = 100.0;
    double writeGbytePerS = 50.0;
    double readIops = 1.0e6;
    double powerKw = 20.0;
    double priceUsdPerTb = 150.0;

    static const FieldTable<StorageSection>& fields();

    bool operator==(const StorageSection&) const = default;
};

/** Racks, floor and power chain. */
struct FacilitySection
{
    double rackPowerLimitKw = 40.0; ///< Power the rack's feeds and PDUs can deliver.
    int rackUnits = 42;             ///< A standard 42U rack (EIA-310).
    int racksPerRow = 10;
    double floorM2PerRack = 2.8; ///< Rack plus its share of aisles (assumption).
    // Power-chain losses follow the loss model of Rasmussen, "Electrical Efficiency Modeling for
    // Data Centers" (Schneider Electric White Paper 113, rev. 2): each device loses a no-load
    // share of its rating, a share proportional to load and a share growing with load squared.
    // The values are assumptions chosen for current equipment, stated with what they give at
    // the default design load of 0.8:
    // - UPS, double conversion: 1% + 2% x + 1% x^2 of rating, 96.1% efficient at x = 0.8.
    double upsNoLoadFraction = 0.01;
    double upsProportionalFraction = 0.02;
    double upsSquareFraction = 0.01;
    // - PDU (transformer-less): 0.2% + 1% x^2, 99.0% efficient at x = 0.8.
    double pduNoLoadFraction = 0.002;
    double pduProportionalFraction = 0.0;
    double pduSquareFraction = 0.01;
    // - Medium-voltage transformer: 0.2% + 0.8% x^2, 99.1% efficient at x = 0.8.
    double transformerNoLoadFraction = 0.002;
    double transformerProportionalFraction = 0.0;
    double transformerSquareFraction = 0.008;
    /// IT load over the rated capacity of the power chain (assumption: sized with 20% headroom).
    double designLoadFraction = 0.8;
    bool hvdc = false; ///< 400/800 V DC distribution instead of AC UPS and PDUs.
    /// Lighting and building loads (assumption: 10 W/m², LED lighting plus controls).
    double lightingWPerM2 = 10.0;
    RackLayout rackLayout = RackLayout::Dense; ///< Keep density or spread to cooling capacity.
    /// UPS modules behind the IT load (docs/redundancy.md: 2N, the usual design of a
    /// concurrently maintainable hall with two distribution paths).
    Redundancy upsRedundancy = Redundancy::TwoN;
    Redundancy generatorRedundancy = Redundancy::NPlus1; ///< Standby generator sets.

    static const FieldTable<FacilitySection>& fields();

    bool operator==(const FacilitySection&) const = default;
};

/** Cooling plant. */
struct CoolingSection
{
    CatalogRef system; ///< Cooling system; required.
    bool economizer = true;
    Redundancy chillerRedundancy = Redundancy::NPlus1; ///< Chillers (docs/redundancy.md).
    Redundancy cduRedundancy = Redundancy::NPlus1;     ///< CDUs of a liquid loop.

    static const FieldTable<CoolingSection>& fields();

    bool operator==(const CoolingSection&) const = default;
};

/** The recompute modules' names as Megatron-Core spells them, in bit order. */
const std::vector<std::pair<RecomputeModule, std::string>>& recomputeModuleNames();

/** The CUDA graph scopes' names as Megatron-Core spells them, in bit order. */
const std::vector<std::pair<CudaGraphScope, std::string>>& cudaGraphScopeNames();

/** The training job: the model, its data, and how it is laid out over the GPUs. */
struct WorkloadSection
{
    /// Architecture from the model catalog (overrides allowed); empty: a dense model is
    /// synthesized from parametersBillion (model::synthesizeDenseModel).
    CatalogRef model;
    double parametersBillion = 70.0; ///< Size of the synthesized dense model; unused with model.
    double tokensBillion = 2000.0;
    Precision precision = Precision::Bf16;
    /// With fp8 precision, how tensors are scaled (Megatron-Core's default, delayed).
    Fp8Recipe fp8Recipe = Fp8Recipe::Delayed;
    /// With fp8 precision, the dot-product attention in FP8 too (Megatron-Core's
    /// --fp8-dot-product-attention, Transformer Engine's fp8_dpa): Q, K and V quantized into
    /// the fused kernel, its output and the gradients dequantized; BF16 otherwise.
    bool fp8Attention = false;
    double mfu = 0.0;     ///< 0: predicted by the step model; > 0: an explicit override.
    int dataParallel = 0; ///< 0 means GPUs / (tensor x pipeline x context).
    int tensorParallel = 8;
    int pipelineParallel = 1;
    int contextParallel = 1;
    int expertParallel = 1;
    /// Ranks that split each expert's weights; 0: the tensor-parallel size (Megatron-Core's
    /// default). Below it the expert-parallel group is folded over the tensor-parallel ranks
    /// (MoE parallel folding: expert_tensor_parallel x expert_parallel divides tensor x context x
    /// data parallel).
    int expertTensorParallel = 0;
    bool sequenceParallel = true; ///< Megatron-LM sequence parallelism with tensor parallelism.
    /// Tensor-parallel all-gathers and reduce-scatters split into chunks pipelined with the
    /// GEMMs they feed or drain (Megatron-LM --tp-comm-overlap, Transformer Engine userbuffers);
    /// needs sequence parallelism.
    bool tpCommOverlap = false;
    int microBatchSize = 1;
    PipelineSchedule pipelineSchedule = PipelineSchedule::OneFOneB;
    int virtualStages = 1; ///< Model chunks per GPU with the interleaved schedule.
    /// With the interleaved schedule, the steady state's send/recv posted asynchronously and
    /// waited on by the chunk that needs it (Megatron-Core's overlap_p2p_comm: Megatron-LM's
    /// default since October 2023, NeMo's and Megatron-Bridge's whenever virtual stages > 1);
    /// the warm-up's and the flush's still wait. Read only with virtual stages above 1.
    bool overlapP2pComm = true;
    /// The pipeline split counts the embedding and the loss as one layer each, so the first and
    /// last stages hold a layer fewer (Megatron-Core --account-for-embedding/loss-in-pipeline-
    /// split; Llama 3 405B, Dubey et al. 2024, section 3.3.2).
    bool embeddingAndLossAsLayers = false;
    /// Multi-token prediction layers after the last stage's layers (DeepSeek-V3, arXiv
    /// 2412.19437, 2.2; Megatron-Core --mtp-num-layers): each an embedding of the tokens one
    /// further ahead, two norms, a projection of the pair (2 h to h), one transformer layer and
    /// the shared output layer with its loss, all on the last pipeline stage. 0: none.
    int mtpLayers = 0;
    int zeroStage = 1; ///< 0 none, 1 optimizer states, 2 + gradients, 3 + weights (FSDP).
    Recompute recompute = Recompute::Selective;
    /// With selective recomputation, what it recomputes: RecomputeModule bits (core_attn alone,
    /// Megatron-Core's default).
    int recomputeModules = RecomputeCoreAttention;
    /// With full recomputation, the layers of each pipeline chunk recomputed whole, the others
    /// keeping every activation (Megatron-Core's block method); 0: every layer.
    int recomputeNumLayers = 0;
    /// Layers whose activations go to the host's memory in the forward pass and come back for
    /// the backward (Megatron-Core's cpu_offloading_num_layers); 0: none.
    int activationOffloadLayers = 0;
    /// Adam's moments in fp32 or bf16 (the fp32 master weights stay).
    OptimizerMoments optimizerMoments = OptimizerMoments::Fp32;
    bool flashAttention = true; ///< Fused attention that never stores the s x s scores.
    /// Which fused attention kernel runs (read with flashAttention): its measured rates.
    AttentionKernel attentionKernel = AttentionKernel::Fused;
    /// Gradients accumulated, kept and reduced in this precision; Auto: as Megatron-LM does.
    GradientPrecision gradientPrecision = GradientPrecision::Auto;
    /// How the weight gradients are accumulated over the micro-batches of a step.
    GradientAccumulation gradientAccumulation = GradientAccumulation::Fused;
    /// The layers apply dropout (probability above 0), so its masks are written and kept.
    bool dropout = true;
    /// The loss is one fused kernel on the bf16 logits: no fp32 copy of the logits is kept.
    bool fusedCrossEntropy = false;
    /// How MoE layers move tokens to their experts and back.
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    /// The flex dispatcher's library (read with moe_token_dispatcher flex).
    MoeFlexBackend moeFlexBackend = MoeFlexBackend::DeepEp;
    /// SMs a flex dispatch or combine runs on; 0: the backend's default (DeepEP 20, HybridEP 16).
    int moeFlexSms = 0;
    /// The router's element-wise work fused into few kernels (Megatron-Core --moe-router-fusion).
    bool moeRouterFusion = false;
    /// The all-to-all dispatcher's permutations as one kernel each (--moe-permute-fusion).
    bool moePermuteFusion = false;
    /// The expert all-to-all of one micro-batch hidden under another's computation, forward
    /// and backward merged layer by layer (Megatron-Core --overlap-moe-expert-parallel-comm).
    bool moeA2aOverlap = false;
    /// The shared experts' GEMMs on a side stream under the dispatch and combine all-to-all
    /// (Megatron-Core --moe-shared-expert-overlap).
    bool moeSharedExpertOverlap = false;
    /// Parts of each layer replayed from CUDA graphs: CudaGraphScope bits; 0 launches every
    /// kernel from the host.
    int cudaGraphScope = 0;
    int sequenceLength = 0; ///< 0 means the model's.
    int globalBatchSequences = 1024;
    double overlapFraction = 0.7; ///< Share of the gradient all-reduce hidden under compute.
    double jitterCv = 0.01;       ///< Coefficient of variation of a rank's step time.
    bool virtualized = false;
    double virtualizationJitterCv = 0.03; ///< Added jitter under a hypervisor.
    double checkpointIntervalHours = 2.0;
    double checkpointBytesPerParameter = 14.0; ///< bf16 weights + fp32 master + Adam moments.
    double sampleBytesPerToken = 4.0;          ///< Bytes read by the data loader per token.
    double readSizeKb = 256.0;                 ///< Size of one data loader read.
    double restartMinutes = 10.0; ///< Re-launch and re-init after an interruption (assumption).
    double nodeRepairHours = 4.0; ///< Wait for a failed node without a spare (assumption).
    int hotSpareNodes = 0;        ///< Idle nodes that replace a failed node at once.

    static const FieldTable<WorkloadSection>& fields();

    /// The expert-tensor-parallel size in force: expertTensorParallel, or the tensor-parallel
    /// size when it is 0.
    int effectiveExpertTensorParallel() const
    {
        return expertTensorParallel > 0 ? expertTensorParallel : std::max(1, tensorParallel);
    }

    bool operator==(const WorkloadSection&) const = default;
};

/** Prices and money. */
struct EconomicsSection
{
    double egressTbPerMonth = 0.0;
    CatalogRef egressPricing; ///< Metered cloud price table; empty for none.
    CatalogRef unmeteredPort; ///< Fixed-price port; empty for none.
    double amortizationYears = 4.0;
    double maintenanceFractionPerYear = 0.05; ///< Of hardware capex.
    double rackPriceUsd = 25000.0;
    double powerCapexUsdPerKw = 3000.0;
    double wanRttMs = 90.0;
    double wanDatasetTb = 100.0;
    double tcpWindowMb = 64.0;

    static const FieldTable<EconomicsSection>& fields();

    bool operator==(const EconomicsSection&) const = default;
};

/**
 * A scenario as the planner wrote it: the cluster, its site and the workload. Catalog entries
 * are named by id; every default is filled in. \a present lists the JSON pointers the file set.
 */
struct Scenario
{
    int schemaVersion = 0;
    std::string name;
    std::string description;
    CatalogRef site;
    ComputeSection compute;
    NetworkSection network;
    StorageSection storage;
    FacilitySection facility;
    CoolingSection cooling;
    WorkloadSection workload;
    EconomicsSection economics;
    HallSection hall;

    std::set<std::string> present; ///< JSON pointers set explicitly by the file.

    /** The schema version this program writes. */
    static constexpr int currentSchemaVersion = 2;

    bool operator==(const Scenario&) const = default;
};

/** A section of a scenario document: its key, whether a file must hold it, what it is. */
struct SectionInfo
{
    const char* key;         ///< "compute".
    bool required;           ///< A scenario file without it is an error.
    const char* description; ///< "GPUs and nodes" (the JSON Schema's description).
};

/**
 * Calls \a visit(info, member) for every section of a scenario in document order, where
 * \a member points at the section in Scenario (`scenario.*member`): the one registry of the
 * sections, read by the reader, the writer, the JSON Schema and the sweep patcher.
 */
template <class F> void forEachSection(F&& visit)
{
    visit(SectionInfo{"compute", true, "GPUs and nodes"}, &Scenario::compute);
    visit(SectionInfo{"network", true, "Scale-out fabric"}, &Scenario::network);
    visit(SectionInfo{"storage", false, "Shared storage"}, &Scenario::storage);
    visit(SectionInfo{"facility", false, "Racks, floor and power chain"}, &Scenario::facility);
    visit(SectionInfo{"cooling", true, "Cooling plant"}, &Scenario::cooling);
    visit(SectionInfo{"workload", false, "The training job"}, &Scenario::workload);
    visit(SectionInfo{"economics", false, "Prices, egress, WAN and amortization"},
          &Scenario::economics);
    visit(SectionInfo{"hall", false, "Floor plan: rows, aisles, row limits and cable routing"},
          &Scenario::hall);
}

/** Returns true when \a key names a section of the registry above. */
bool isSectionKey(const std::string& key);

} // namespace dct::model
