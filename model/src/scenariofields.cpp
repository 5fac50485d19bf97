// Field tables of the scenario sections: each key's meaning, unit, range and default. Defaults
// that stand for outside-world figures name their source in the description.
#include "dct/model/scenario.h"

namespace dct::model {

namespace f = fields;
using nlohmann::json;

const std::vector<std::pair<RecomputeModule, std::string>>& recomputeModuleNames()
{
    static const std::vector<std::pair<RecomputeModule, std::string>> names = {
        {RecomputeCoreAttention, "core_attn"},
        {RecomputeMlaUpProjection, "mla_up_proj"},
        {RecomputeMoeActivation, "moe_act"},
        {RecomputeLayerNorm, "layernorm"},
        {RecomputeMlp, "mlp"},
        {RecomputeMoe, "moe"},
        {RecomputeSharedExperts, "shared_experts"}};
    return names;
}

const std::vector<std::pair<CudaGraphScope, std::string>>& cudaGraphScopeNames()
{
    static const std::vector<std::pair<CudaGraphScope, std::string>> names = {
        {CudaGraphAttention, "attn"},
        {CudaGraphMlp, "mlp"},
        {CudaGraphMoeRouter, "moe_router"},
        {CudaGraphMoePreprocess, "moe_preprocess"},
        {CudaGraphFullIteration, "full_iteration"}};
    return names;
}

namespace {

/**
 * A field holding an array of names, each one of \a names, as a mask of their bits in \a member;
 * \a defaults are the names of the member's default bits.
 */
template <class Bit>
Field<WorkloadSection> namedBitsField(std::string key, std::string description,
                                      const std::vector<std::pair<Bit, std::string>>& known,
                                      int WorkloadSection::*member, json defaults)
{
    using S = WorkloadSection;
    std::vector<std::string> names;
    for (const auto& n : known)
        names.push_back(n.second);
    const std::string accepted = "an array of names, each one of " + choiceText(names);
    // The names live as long as the program (static tables): the readers keep a pointer.
    const auto* list = &known;
    Field<S> field = f::custom<S>(
        std::move(key), std::move(description),
        json{{"type", "array"},
             {"items", {{"type", "string"}, {"enum", names}}},
             {"uniqueItems", true},
             {"default", std::move(defaults)}},
        [list, member](const S& s) {
            json out = json::array();
            for (const auto& n : *list)
                if (s.*member & n.first)
                    out.push_back(n.second);
            return out;
        },
        [list, member, accepted](S& s, const json& j) -> std::string {
            if (!j.is_array())
                return accepted + ", found " + jsonTypeName(j);
            int mask = 0;
            for (std::size_t i = 0; i < j.size(); ++i) {
                const json& item = j[i];
                bool found = false;
                if (item.is_string())
                    for (const auto& n : *list)
                        if (n.second == item.get<std::string>()) {
                            if (mask & n.first)
                                return accepted + "; \"" + n.second + "\" is named twice";
                            mask |= n.first;
                            found = true;
                        }
                if (!found)
                    return accepted + "; item " + std::to_string(i) + " is " +
                           (item.is_string() ? "\"" + item.get<std::string>() + "\""
                                             : jsonTypeName(item));
            }
            s.*member = mask;
            return {};
        });
    field.choices = names;
    return field;
}

/** The recompute_modules field: module names held as RecomputeModule bits. */
Field<WorkloadSection> recomputeModulesField()
{
    return namedBitsField(
        "recompute_modules",
        "What selective recomputation runs again in the backward pass instead of keeping "
        "(Megatron-Core's --recompute-modules): core_attn (the attention's scores), mla_up_proj "
        "(MLA's Q and K/V up-projections), moe_act (the routed experts' activation), layernorm "
        "(the two norms' outputs), mlp (a dense MLP), moe (the MoE layer, its all-to-all again), "
        "shared_experts; used with recompute selective",
        recomputeModuleNames(), &WorkloadSection::recomputeModules, json::array({"core_attn"}));
}

/** The cuda_graph_scope field: scope names held as CudaGraphScope bits. */
Field<WorkloadSection> cudaGraphScopeField()
{
    return namedBitsField(
        "cuda_graph_scope",
        "Parts of each layer captured in CUDA graphs and replayed with one launch, so the host "
        "no longer issues their kernels one by one (Megatron-Core's --cuda-graph-scope with "
        "Transformer Engine's partial graphs): attn (the norm, projections and attention), mlp "
        "(a dense layer's MLP), moe_router (the router), moe_preprocess (the dispatcher's "
        "metadata); or full_iteration alone (Megatron-Core's --cuda-graph-impl full_iteration: "
        "the whole forward-backward path of a step, every micro-batch, replayed as one graph, "
        "the host issuing nothing per kernel); empty: every kernel launched from the host",
        cudaGraphScopeNames(), &WorkloadSection::cudaGraphScope, json::array());
}

/** A field naming a catalog entry of \a catalogKind, by id or as {"id": ..., overrides}. */
template <class S>
Field<S> reference(std::string key, CatalogRef S::*member, std::string catalogKind,
                   std::string description, bool required)
{
    Field<S> field;
    field.key = std::move(key);
    field.kind = FieldKind::CatalogRef;
    field.catalogKind = catalogKind;
    field.description = std::move(description);
    field.required = required;
    field.get = [member](const S& s) { return (s.*member).toJson(); };
    field.set = [member, catalogKind](S& s, const json& j) -> std::string {
        const std::string accepted = "a " + catalogKind +
                                     " catalog id as a string, or an object with \"id\" and "
                                     "fields to override";
        CatalogRef ref;
        if (j.is_string()) {
            ref.id = j.get<std::string>();
        } else if (j.is_object() && j.contains("id") && j["id"].is_string()) {
            ref.id = j["id"].get<std::string>();
            ref.overrides = j;
            ref.overrides.erase("id");
        } else {
            return accepted + ", found " + jsonTypeName(j);
        }
        if (ref.id.empty())
            return accepted + "; the id is empty";
        s.*member = std::move(ref);
        return {};
    };
    return field;
}

/** A redundancy choice (docs/redundancy.md). */
template <class S> Field<S> redundancy(std::string key, Redundancy S::*member, std::string what)
{
    return f::choice<S, Redundancy>(
        std::move(key), member,
        {{Redundancy::N, "N"},
         {Redundancy::NPlus1, "N+1"},
         {Redundancy::NPlus2, "N+2"},
         {Redundancy::TwoN, "2N"},
         {Redundancy::ThreeToMakeTwo, "3N/2"},
         {Redundancy::FourToMakeThree, "4N/3"}},
        what + ": N (no spare), N+1 or N+2 (spare units in one pool), 2N (two complete systems) or "
               "distributed redundancy 3N/2 (three systems, any two carry the load) or 4N/3");
}

} // namespace

const FieldTable<ComputeSection>& ComputeSection::fields()
{
    using S = ComputeSection;
    static const FieldTable<S> table = {
        reference<S>("node", &S::node, "node", "Node type", true),
        reference<S>("gpu", &S::gpu, "gpu", "GPU type; the node type's own when absent", false),
        f::integer<S>("node_count", &S::nodeCount, "", "Number of GPU nodes", 1, 1e7),
        f::integer<S>("gpus_per_node", &S::gpusPerNode, "",
                      "GPUs per node; 0 takes the node type's count", 0, 1024),
        f::number<S>("utilization", &S::utilization, "",
                     "Average share of the GPU power range (idle to TDP) drawn while training "
                     "(assumption: 0.85 for steady large-model training)",
                     0.0, 1.0),
        f::numberOrZero<S>("gpu_power_limit_w", &S::gpuPowerLimitW, "W",
                           "Enforced power limit of every GPU (nvidia-smi --power-limit), above "
                           "its idle draw and at most its TDP; the GPU lowers its clock until its "
                           "full-load draw fits it. 0: none (the TDP)",
                           1.0, 1e5),
    };
    return table;
}

const FieldTable<NetworkSection>& NetworkSection::fields()
{
    using S = NetworkSection;
    static const FieldTable<S> table = {
        f::choice<S, Protocol>(
            "protocol", &S::protocol,
            {{Protocol::RoceV2, "roce_v2"}, {Protocol::Infiniband, "infiniband"}},
            "Fabric transport"),
        f::choice<S, TopologyKind>("topology", &S::topology,
                                   {{TopologyKind::FatTree, "fat_tree"},
                                    {TopologyKind::RailOptimized, "rail_optimized"},
                                    {TopologyKind::RailOnly, "rail_only"},
                                    {TopologyKind::MultiPlane, "multi_plane"}},
                                   "Fabric shape"),
        f::integer<S>("tiers", &S::tiers, "", "Switch tiers (2 or 3); 0 picks the fewest", 0, 3),
        f::integer<S>("planes", &S::planes, "", "Independent fabric planes", 1, 64),
        f::integer<S>("rails", &S::rails, "",
                      "Scale-out NICs per node; 0 takes the node type's count", 0, 1024),
        reference<S>("switch", &S::fabricSwitch, "switch", "Fabric switch type", true),
        reference<S>("nic", &S::nic, "nic", "NIC type; the node type's own when absent", false),
        f::number<S>("oversubscription", &S::oversubscription, "",
                     "Leaf downlink to uplink bandwidth ratio (1 is non-blocking)", 1.0, 64.0),
        f::integer<S>("port_breakout", &S::portBreakout, "",
                      "Logical ports per switch port (2: 800G as 2 x 400G); 0 splits each port "
                      "to the NIC rate where the switch allows, 1 never splits",
                      0, 8),
        f::choice<S, Routing>("routing", &S::routing,
                              {{Routing::Ecmp, "ecmp"},
                               {Routing::StaticPinned, "static_pinned"},
                               {Routing::Adaptive, "adaptive"}},
                              "Load balancing over equal-cost paths"),
        f::choice<S, CollectiveChoice>("allreduce_algorithm", &S::allReduceAlgorithm,
                                       {{CollectiveChoice::Auto, "auto"},
                                        {CollectiveChoice::Ring, "ring"},
                                        {CollectiveChoice::Tree, "tree"},
                                        {CollectiveChoice::Hierarchical, "hierarchical"},
                                        {CollectiveChoice::InNetwork, "in_network"}},
                                       "Algorithm of the gradient all-reduce: auto picks the "
                                       "fastest that applies, as NCCL's tuner does"),
        f::boolean<S>("in_network_reduction", &S::inNetworkReduction,
                      "Reduce in the fabric switches (SHARP: NCCL CollNet, NVLink SHARP across "
                      "nodes): needs a switch that has it, its aggregation manager and the "
                      "SHARP plugin with NCCL_COLLNET_ENABLE=1; off, as NCCL runs by default"),
        f::text<S>("calibration_profile", &S::calibrationProfile,
                   "Calibration profile of the scenario library (dctwin-cli calibrate "
                   "nccl-tests) whose fitted latencies and efficiencies the collectives use; "
                   "empty for none"),
        f::integer<S>("mtu_bytes", &S::mtuBytes, "bytes",
                      "RDMA path MTU: 256, 512, 1024, 2048 or 4096", 256, 4096),
        f::integer<S>("scalable_unit_nodes", &S::scalableUnitNodes, "",
                      "Nodes per scalable unit of a rail-optimized fabric, each rail of a unit "
                      "on its own leaf; 0 sizes a unit to a leaf's down ports (32 on 64-port "
                      "switches, as DGX SuperPOD; 64 on 128 ports), or to the nodes if fewer",
                      0, 100000),
        f::boolean<S>("reserve_node_per_unit", &S::reserveNodePerUnit,
                      "Leave one node slot per scalable unit for the fabric manager (UFM)"),
        f::number<S>("cable_length_in_row_m", &S::cableLengthInRowM, "m",
                     "Typical node-to-leaf run", 0.0, 1000.0),
        f::number<S>("cable_length_across_rows_m", &S::cableLengthAcrossRowsM, "m",
                     "Typical leaf-to-spine run", 0.0, 10000.0),
        f::boolean<S>("pfc_enabled", &S::pfcEnabled, "Priority flow control on (RoCE v2)"),
        f::boolean<S>("ecn_enabled", &S::ecnEnabled, "ECN marking and DCQCN on (RoCE v2)"),
        f::boolean<S>("pfc_watchdog", &S::pfcWatchdog, "PFC storm watchdog on"),
        f::integer<S>("layer2_domain_nodes", &S::layer2DomainNodes, "",
                      "Nodes in one flat layer-2 domain; 0 for a routed fabric", 0, 1e7),
        f::boolean<S>("rdma_publicly_routable", &S::rdmaPubliclyRoutable,
                      "RDMA interfaces reachable from public routing"),
        f::boolean<S>("management_separated", &S::managementSeparated,
                      "Management plane on its own network"),
    };
    return table;
}

const FieldTable<StorageSection>& StorageSection::fields()
{
    using S = StorageSection;
    static const FieldTable<S> table = {
        f::number<S>("capacity_tb", &S::capacityTb, "TB", "Usable capacity", 0.0, 1e9),
        // Bandwidth floor 0.1 GB/s: one hard disk streams about 0.2 GB/s, and no shared store
        // serving a GPU cluster is slower than one disk.
        f::number<S>("read_gbyte_per_s", &S::readGbytePerS, "GB/s", "Aggregate read bandwidth", 0.1,
                     1e7),
        f::number<S>("write_gbyte_per_s", &S::writeGbytePerS, "GB/s", "Aggregate write bandwidth",
                     0.1, 1e7),
        // Floor 100 IOPS: about what one 7,200 rpm hard disk does on random reads.
        f::number<S>("read_iops", &S::readIops, "IOPS", "Aggregate read operations per second",
                     100.0, 1e12),
        f::number<S>("power_kw", &S::powerKw, "kW", "Storage system power", 0.0, 1e6),
        f::number<S>("price_usd_per_tb", &S::priceUsdPerTb, "USD/TB", "Price per usable TB", 0.0,
                     1e6),
    };
    return table;
}

const FieldTable<FacilitySection>& FacilitySection::fields()
{
    using S = FacilitySection;
    static const FieldTable<S> table = {
        // Floor 1 kW: a single 120 V 15 A branch circuit (NEC 80% rule) gives 1.44 kW; no rack
        // is fed with less.
        f::number<S>("rack_power_limit_kw", &S::rackPowerLimitKw, "kW",
                     "Power one rack's feeds can deliver", 1.0, 1000.0),
        f::integer<S>("rack_units", &S::rackUnits, "U", "Usable rack units", 1, 60),
        f::integer<S>("racks_per_row", &S::racksPerRow, "", "Racks in one row", 1, 1000),
        // Floor 0.6 m²: the footprint of a 600 x 1000 mm rack alone, aisles left out.
        f::number<S>("floor_m2_per_rack", &S::floorM2PerRack, "m²",
                     "Floor per rack with its share of aisles (assumption: 2.8 m²)", 0.6, 100.0),
        f::number<S>("ups_no_load_fraction", &S::upsNoLoadFraction, "",
                     "UPS loss at no load, share of rated power (assumption; loss model of "
                     "Schneider Electric WP113); used only for a UPS unit without a measured "
                     "efficiency_curve",
                     0.0, 0.5),
        f::number<S>(
            "ups_proportional_fraction", &S::upsProportionalFraction, "",
            "UPS loss proportional to load (assumption; loss model of Schneider Electric WP113); "
            "used only for a UPS unit without a measured efficiency_curve",
            0.0, 0.5),
        f::number<S>("ups_square_fraction", &S::upsSquareFraction, "",
                     "UPS loss with the square of load (assumption; loss model of Schneider "
                     "Electric WP113); "
                     "used only for a UPS unit without a measured efficiency_curve",
                     0.0, 0.5),
        f::number<S>("pdu_no_load_fraction", &S::pduNoLoadFraction, "",
                     "PDU loss at no load (assumption; loss model of Schneider Electric WP113)",
                     0.0, 0.5),
        f::number<S>(
            "pdu_proportional_fraction", &S::pduProportionalFraction, "",
            "PDU loss proportional to load (assumption; loss model of Schneider Electric WP113)",
            0.0, 0.5),
        f::number<S>(
            "pdu_square_fraction", &S::pduSquareFraction, "",
            "PDU loss with the square of load (assumption; loss model of Schneider Electric WP113)",
            0.0, 0.5),
        f::number<S>(
            "transformer_no_load_fraction", &S::transformerNoLoadFraction, "",
            "Transformer loss at no load (assumption; loss model of Schneider Electric WP113)", 0.0,
            0.5),
        f::number<S>("transformer_proportional_fraction", &S::transformerProportionalFraction, "",
                     "Transformer loss proportional to load (assumption; loss model of Schneider "
                     "Electric WP113)",
                     0.0, 0.5),
        f::number<S>("transformer_square_fraction", &S::transformerSquareFraction, "",
                     "Transformer loss with the square of load (assumption; loss model of "
                     "Schneider Electric WP113)",
                     0.0, 0.5),
        // Floor 0.1: no power chain is built ten times larger than its IT load; the rated
        // capacity is the IT load divided by this share.
        f::number<S>(
            "design_load_fraction", &S::designLoadFraction, "",
            "IT load over the power chain's rated capacity (assumption: 0.8, 20% headroom)", 0.1,
            1.0),
        f::boolean<S>("hvdc", &S::hvdc, "High-voltage DC distribution"),
        f::number<S>("lighting_w_per_m2", &S::lightingWPerM2, "W/m²",
                     "Lighting and building loads per floor area (assumption: 10 W/m²)", 0.0,
                     1000.0),
        f::choice<S, RackLayout>("rack_layout", &S::rackLayout,
                                 {{RackLayout::Dense, "dense"}, {RackLayout::Spread, "spread"}},
                                 "When the rack power limit exceeds the cooling capacity: 'dense' "
                                 "keeps nodes per rack and flags over-capacity racks, 'spread' "
                                 "puts fewer nodes in each rack"),
        redundancy<S>("ups_redundancy", &S::upsRedundancy,
                      "UPS modules behind the IT load (default 2N: two distribution paths, each "
                      "carrying the whole load)"),
        redundancy<S>("generator_redundancy", &S::generatorRedundancy,
                      "Standby generator sets behind the facility load (default N+1)"),
    };
    return table;
}

const FieldTable<CoolingSection>& CoolingSection::fields()
{
    using S = CoolingSection;
    static const FieldTable<S> table = {
        reference<S>("system", &S::system, "cooling", "Cooling system", true),
        f::boolean<S>("economizer", &S::economizer, "Use free cooling when the weather allows"),
        redundancy<S>("chiller_redundancy", &S::chillerRedundancy,
                      "Chillers behind the peak hour's mechanical cooling load (default N+1)"),
        redundancy<S>("cdu_redundancy", &S::cduRedundancy,
                      "CDUs behind the liquid loop's heat (default N+1)"),
    };
    return table;
}

const FieldTable<WorkloadSection>& WorkloadSection::fields()
{
    using S = WorkloadSection;
    static const FieldTable<S> table = {
        reference<S>("model", &S::model, "model",
                     "Model architecture; when absent a dense model of parameters_billion is "
                     "synthesized",
                     false),
        // Floors 0.01 B (10 million): below GPT-2 small (0.124 B parameters), the smallest
        // model people train on a cluster; 10 million tokens is a small fine-tuning set.
        f::number<S>("parameters_billion", &S::parametersBillion, "B",
                     "Size of the dense model synthesized when no model is given (hidden size 128 "
                     "x layers); not used with model",
                     0.01, 1e6),
        f::number<S>("tokens_billion", &S::tokensBillion, "B", "Training tokens", 0.01, 1e9),
        f::choice<S, Precision>("precision", &S::precision,
                                {{Precision::Fp8, "fp8"},
                                 {Precision::Bf16, "bf16"},
                                 {Precision::Fp16, "fp16"},
                                 {Precision::Tf32, "tf32"},
                                 {Precision::Fp64, "fp64"}},
                                "Arithmetic precision of the matrix math"),
        f::choice<S, Fp8Recipe>(
            "fp8_recipe", &S::fp8Recipe,
            {{Fp8Recipe::Delayed, "delayed"},
             {Fp8Recipe::Tensorwise, "tensorwise"},
             {Fp8Recipe::Mxfp8, "mxfp8"},
             {Fp8Recipe::Blockwise, "blockwise"}},
            "With precision fp8, how tensors are scaled (Megatron-Core's --fp8-recipe): delayed "
            "(a scale a tensor from past steps' amax; the norms write FP8 "
            "directly), tensorwise (current scaling: each tensor's amax read first, one more pass "
            "over it), mxfp8 (a scale every 32 elements in the tensor cores; Blackwell GPUs), or "
            "blockwise (1 x 128 and 128 x 128 scales, DeepSeek-V3's recipe)"),
        f::boolean<S>("fp8_attention", &S::fp8Attention,
                      "With precision fp8, the fused dot-product attention in FP8 too "
                      "(Megatron-Core's --fp8-dot-product-attention); read where the GPU has "
                      "measured FP8 attention rates, BF16 otherwise"),
        // Floor 0.01: published large runs reach 0.3 to 0.55 (PaLM 0.46, MegaScale 0.55); a
        // run at 1% is broken, not slow, and the step time grows as 1 / mfu.
        f::numberOrZero<S>(
            "mfu", &S::mfu, "",
            "0 predicts the model FLOPs utilization from the GPU, the fabric and the "
            "layout; a value overrides the prediction",
            0.01, 1.0, ZeroMeaning::Predicted),
        f::integer<S>("data_parallel", &S::dataParallel, "",
                      "Data-parallel size; 0 derives it from the GPUs", 0, 1e7),
        f::integer<S>("tensor_parallel", &S::tensorParallel, "", "Tensor-parallel size", 1, 1024),
        f::integer<S>("pipeline_parallel", &S::pipelineParallel, "", "Pipeline-parallel size", 1,
                      1024),
        f::integer<S>("context_parallel", &S::contextParallel, "",
                      "Context-parallel size: ranks sharing one sequence", 1, 1024),
        f::integer<S>("expert_parallel", &S::expertParallel, "",
                      "Expert-parallel size: ranks among which an MoE layer's experts are spread "
                      "(expert_parallel x expert_tensor_parallel divides the tensor x context x "
                      "data-parallel ranks of a pipeline stage)",
                      1, 100000),
        f::integer<S>("expert_tensor_parallel", &S::expertTensorParallel, "",
                      "Ranks that split each expert's weights; 0 takes the tensor-parallel size "
                      "(Megatron-Core's default), 1 keeps experts whole and folds the "
                      "expert-parallel group over the tensor-parallel ranks (MoE parallel "
                      "folding)",
                      0, 1024),
        f::boolean<S>("sequence_parallel", &S::sequenceParallel,
                      "Sequence parallelism beside tensor parallelism (Korthikanti et al. 2022)"),
        f::boolean<S>("tp_comm_overlap", &S::tpCommOverlap,
                      "Tensor-parallel all-gathers and reduce-scatters pipelined in chunks with "
                      "the GEMMs (Megatron-LM --tp-comm-overlap, Transformer Engine userbuffers; "
                      "needs sequence_parallel)"),
        f::integer<S>("micro_batch_size", &S::microBatchSize, "", "Sequences per micro-batch", 1,
                      1e6),
        f::choice<S, PipelineSchedule>(
            "pipeline_schedule", &S::pipelineSchedule,
            {{PipelineSchedule::OneFOneB, "1f1b"},
             {PipelineSchedule::Interleaved, "interleaved"},
             {PipelineSchedule::DualPipe, "dualpipe"}},
            "Pipeline schedule: 1f1b, interleaved with virtual_stages model chunks per GPU, or "
            "dualpipe (DeepSeek-V3's: micro-batches enter from both ends, each GPU holds two "
            "stages, and a forward and a backward chunk hide each other's expert all-to-all and "
            "pipeline traffic)"),
        f::integer<S>("virtual_stages", &S::virtualStages, "",
                      "Model chunks per GPU of the interleaved schedule (1 with 1f1b)", 1, 1024),
        f::boolean<S>(
            "overlap_p2p_comm", &S::overlapP2pComm,
            "With the interleaved schedule, the pipeline's sends and receives of the 1F1B "
            "steady state run under the next chunk's computation, each waited on only by the "
            "chunk that needs it (Megatron-Core's overlap_p2p_comm: Megatron-LM's default with "
            "virtual stages since October 2023, --no-overlap-p2p-communication turns it off; "
            "NeMo and Megatron-Bridge set it whenever virtual stages > 1); the warm-up's and the "
            "flush's wait as without it. false: every send/recv waited on (Megatron-LM before "
            "October 2023). Read only with virtual_stages above 1"),
        f::boolean<S>("embedding_and_loss_as_layers", &S::embeddingAndLossAsLayers,
                      "The pipeline split counts the embedding and the loss as a layer each: the "
                      "first and last stages hold one layer fewer"),
        f::integer<S>("mtp_layers", &S::mtpLayers, "",
                      "Multi-token prediction layers on the last pipeline stage (DeepSeek-V3's "
                      "MTP module, Megatron-Core --mtp-num-layers): each a projection of the "
                      "next token's embedding beside the hidden state, one more transformer "
                      "layer and the output layer with its loss again; 0 for none",
                      0, 16),
        f::integer<S>("zero_stage", &S::zeroStage, "",
                      "ZeRO stage: 0 none, 1 optimizer states, 2 and gradients, 3 and weights "
                      "(FSDP) sharded over the data-parallel ranks",
                      0, 3),
        f::choice<S, Recompute>("recompute", &S::recompute,
                                {{Recompute::None, "none"},
                                 {Recompute::Selective, "selective"},
                                 {Recompute::Full, "full"}},
                                "Activation recomputation: none, selective (the modules of "
                                "recompute_modules) or full (each layer whole from its input)"),
        recomputeModulesField(),
        f::integer<S>("recompute_num_layers", &S::recomputeNumLayers, "",
                      "With recompute full, the layers of each pipeline chunk recomputed whole "
                      "(Megatron-Core's block method, --recompute-num-layers), the others keeping "
                      "every activation; 0 for all of them",
                      0, 100000),
        f::integer<S>("activation_offload_layers", &S::activationOffloadLayers, "",
                      "Layers whose activations are copied to the host's memory during the "
                      "forward pass and back for the backward, beside the computation "
                      "(Megatron-Core's cpu_offloading_num_layers through Transformer Engine's "
                      "CPU offload, with pipeline_parallel 1 and recompute \"none\" only): "
                      "fewer activations in GPU memory, at the node's host bandwidth (catalog "
                      "host_bandwidth_gb_s); 0 for none",
                      0, 100000),
        f::choice<S, OptimizerMoments>(
            "optimizer_moments", &S::optimizerMoments,
            {{OptimizerMoments::Fp32, "fp32"}, {OptimizerMoments::Bf16, "bf16"}},
            "Precision of Adam's two moments: fp32 (4 bytes each) or bf16 (2 bytes each: "
            "Megatron-Core's precision-aware optimizer, --exp-avg-dtype and --exp-avg-sq-dtype "
            "bf16; DeepSeek-V3 report, 3.3.3); the fp32 master weights stay"),
        f::boolean<S>("flash_attention", &S::flashAttention,
                      "Fused attention that keeps no s x s score matrix (FlashAttention)"),
        f::choice<S, AttentionKernel>(
            "attention_kernel", &S::attentionKernel,
            {{AttentionKernel::Fused, "fused"},
             {AttentionKernel::Flash2, "flash2"},
             {AttentionKernel::Flash3, "flash3"},
             {AttentionKernel::Triton, "triton"}},
            "The fused attention kernel the stack runs, at its measured rates (catalog "
            "attention_*_efficiency*): fused (Transformer Engine's choice, cuDNN's fused attention "
            "on Hopper and Blackwell: Megatron-Core, NeMo, Megatron-Bridge), flash2 "
            "(FlashAttention-2: PyTorch's scaled_dot_product_attention flash backend, which "
            "torchtitan runs on Hopper), flash3 (FlashAttention-3, Hopper) or triton "
            "(FlashAttention's Triton implementation, which llm-foundry's MPT runs with attn_impl "
            "triton). Read only with flash_attention true"),
        f::choice<S, GradientPrecision>(
            "gradient_precision", &S::gradientPrecision,
            {{GradientPrecision::Auto, "auto"},
             {GradientPrecision::Fp32, "fp32"},
             {GradientPrecision::Bf16, "bf16"}},
            "Bytes of a gradient in memory and in the data-parallel reduce-scatter or "
            "all-reduce: auto (4-byte fp32 when training in bf16 or fp8, as Megatron-LM "
            "accumulates and reduces them; 2 bytes in fp16 mixed precision), fp32, or bf16 (half "
            "the memory and traffic: NeMo's distributed Adam with grad_sync_dtype bf16, "
            "Megatron-Core without grad_reduce_in_fp32)"),
        f::choice<S, GradientAccumulation>(
            "gradient_accumulation", &S::gradientAccumulation,
            {{GradientAccumulation::Fused, "fused"},
             {GradientAccumulation::DeepSpeedBf16, "deepspeed_bf16"}},
            "How the weight gradients add up over a step's micro-batches: fused (the weight-"
            "gradient GEMM accumulates into the gradient buffer, Megatron-LM's "
            "gradient_accumulation_fusion) or deepspeed_bf16 (DeepSpeed's BF16 optimizer, as "
            "Megatron-DeepSpeed ran BLOOM: every micro-batch writes a bf16 gradient that is cast "
            "to fp32 and added to a second, fp32 gradient, both kept; with zero_stage 1 the step "
            "all-reduces the fp32 gradients, then gathers the updated bf16 weights)"),
        f::boolean<S>("dropout", &S::dropout,
                      "The layers apply dropout (a probability above 0): its 1-byte masks are "
                      "written forward and kept for the backward pass; false (no dropout, as "
                      "NeMo's Llama and llm-foundry's MPT configurations) keeps and writes none"),
        f::boolean<S>("fused_cross_entropy", &S::fusedCrossEntropy,
                      "The loss is one fused kernel on the bf16 logits (flash-attention's cross "
                      "entropy, llm-foundry's fused loss for MPT): the logits and their gradient "
                      "are kept at 2 bytes instead of fp32, and read once each way"),
        f::choice<S, MoeDispatcher>(
            "moe_token_dispatcher",
            &S::moeDispatcher,
            {{MoeDispatcher::AllToAll, "alltoall"}, {MoeDispatcher::Flex, "flex"}},
            "How MoE layers move their tokens to the experts and back (Megatron-Core's "
            "--moe-token-dispatcher-type): alltoall (permute, NCCL all-to-all, permute again) or "
            "flex (DeepEP or HybridEP: the permutation fused into the dispatch and combine "
            "kernels, fewer kernels to launch); both timed as the all-to-all on the fabric, "
            "flex no faster than its SMs copy (moe_flex_dispatcher_backend)"),
        f::choice<S, MoeFlexBackend>(
            "moe_flex_dispatcher_backend", &S::moeFlexBackend,
            {{MoeFlexBackend::DeepEp, "deepep"}, {MoeFlexBackend::HybridEp, "hybridep"}},
            "The flex dispatcher's library (Megatron-Core's --moe-flex-dispatcher-backend): "
            "deepep (DeepEP's normal kernels, warps copying the tokens) or hybridep (HybridEP, "
            "TMA copies); within an NVLink domain a call moves no faster than its SMs copy"),
        f::integer<S>("moe_flex_dispatcher_sms", &S::moeFlexSms, "SMs",
                      "SMs each flex dispatch and combine runs on (Megatron-Core's "
                      "--moe-flex-dispatcher-num-sms); 0 takes the backend's default: 20 for "
                      "deepep, 16 for hybridep",
                      0, 1024),
        f::boolean<S>("moe_router_fusion", &S::moeRouterFusion,
                      "The router's element-wise work fused into fewer kernels (Megatron-Core "
                      "--moe-router-fusion: 31 kernels a layer instead of 72)"),
        f::boolean<S>("moe_permute_fusion", &S::moePermuteFusion,
                      "The all-to-all dispatcher's permutations and their inverses as one fused "
                      "kernel each (Megatron-Core --moe-permute-fusion, Transformer Engine's "
                      "permutation kernels)"),
        f::boolean<S>(
            "moe_a2a_overlap", &S::moeA2aOverlap,
            "The expert all-to-all of one micro-batch runs under another's computation: "
            "the forward of one and the backward of another merged layer by layer "
            "(Megatron-Core --overlap-moe-expert-parallel-comm with "
            "--delay-wgrad-compute; Megatron-Bridge moe_a2a_overlap); needs "
            "expert_parallel above 1, virtual stages when pipelined, no full or moe "
            "recomputation; one chunk more in flight when pipelined, one layer more without"),
        f::boolean<S>(
            "moe_shared_expert_overlap", &S::moeSharedExpertOverlap,
            "The shared experts run on a side stream under the expert all-to-all: the first "
            "GEMM and its activation under the dispatch, the second under the combine "
            "(Megatron-Core --moe-shared-expert-overlap; Megatron-Bridge's DeepSeek providers "
            "set it); needs shared experts and expert_parallel above 1, not with "
            "moe_a2a_overlap or DualPipe"),
        cudaGraphScopeField(),
        f::integer<S>("sequence_length", &S::sequenceLength, "tokens",
                      "Sequence length; 0 takes the model's", 0, 1e7),
        f::integer<S>("global_batch_sequences", &S::globalBatchSequences, "",
                      "Sequences per optimizer step", 1, 1e8),
        f::number<S>(
            "overlap_fraction", &S::overlapFraction, "",
            "Share of the data-parallel gradient traffic that can hide under the backward pass",
            0.0, 1.0),
        f::number<S>("jitter_cv", &S::jitterCv, "",
                     "Coefficient of variation of one rank's step time on bare metal", 0.0, 1.0),
        f::boolean<S>("virtualized", &S::virtualized, "Ranks run in virtual machines"),
        f::number<S>("virtualization_jitter_cv", &S::virtualizationJitterCv, "",
                     "Jitter added by a hypervisor (assumption: 0.03)", 0.0, 1.0),
        // Floor 0.01 h (36 s): checkpoints of large models take tens of seconds to write, so
        // none are taken more often; the checkpoint overhead grows as 1 / interval.
        f::number<S>("checkpoint_interval_hours", &S::checkpointIntervalHours, "h",
                     "Time between checkpoints", 0.01, 1e4),
        // Floor 0.5 B: 4-bit weights alone, the smallest checkpoint of a parameter.
        f::number<S>("checkpoint_bytes_per_parameter", &S::checkpointBytesPerParameter, "B",
                     "Checkpoint bytes per parameter (14: bf16 weights, fp32 master, two Adam "
                     "moments)",
                     0.5, 1000.0),
        f::number<S>("sample_bytes_per_token", &S::sampleBytesPerToken, "B",
                     "Bytes the data loader reads per token", 0.0, 1e6),
        // Floor 4 KB: one page, the smallest read a file system serves.
        f::number<S>("read_size_kb", &S::readSizeKb, "KB", "Size of one data loader read", 4.0,
                     1e7),
        // Restart: rescheduling, container start, framework and NCCL communicator init; the
        // checkpoint load is added from the checkpoint size and /storage/read_gbyte_per_s.
        // Llama 3 (Dubey et al. 2024, section 3.3.4) names job start-up time as a lever but
        // gives no figure; 10 min is an assumption for 10^3-10^4 GPUs. Ceiling one week.
        f::number<S>("restart_minutes", &S::restartMinutes, "min",
                     "Job re-launch and re-initialization after an interruption, checkpoint load "
                     "excluded (assumption: 10 min)",
                     0.0, 10080.0),
        f::number<S>("node_repair_hours", &S::nodeRepairHours, "h",
                     "Wait for a failed node to be repaired or swapped when no hot spare is free "
                     "(assumption: 4 h to drain, diagnose and reboot or swap a node)",
                     0.0, 8760.0),
        f::integer<S>("hot_spare_nodes", &S::hotSpareNodes, "",
                      "Idle spare nodes that replace a failed node without waiting for repair", 0,
                      1e6),
    };
    return table;
}

const FieldTable<EconomicsSection>& EconomicsSection::fields()
{
    using S = EconomicsSection;
    static const FieldTable<S> table = {
        f::number<S>("egress_tb_per_month", &S::egressTbPerMonth, "TB/month",
                     "Data moved out to the internet each month", 0.0, 1e9),
        reference<S>("egress_pricing", &S::egressPricing, "egress",
                     "Metered cloud egress price table", false),
        reference<S>("unmetered_port", &S::unmeteredPort, "port", "Fixed-price unmetered port",
                     false),
        // Floor half a year: no hardware is written off faster (cloud GPUs are rented by the
        // hour, but then there is no capex to amortize); the yearly capex is capex / years.
        f::number<S>("amortization_years", &S::amortizationYears, "years",
                     "Hardware depreciation period", 0.5, 50.0),
        f::number<S>("maintenance_fraction_per_year", &S::maintenanceFractionPerYear, "1/year",
                     "Maintenance and support per year, share of hardware capex (assumption)", 0.0,
                     1.0),
        f::number<S>("rack_price_usd", &S::rackPriceUsd, "USD",
                     "One rack with PDUs and containment (assumption)", 0.0, 1e7),
        f::number<S>("power_capex_usd_per_kw", &S::powerCapexUsdPerKw, "USD/kW",
                     "Electrical plant per kW of IT capacity (assumption)", 0.0, 1e6),
        // Floor 0.1 ms: light in fibre takes 5 us per km each way, so 0.1 ms is a 10 km metro
        // link, the shortest WAN path; one TCP stream carries window / RTT.
        f::number<S>("wan_rtt_ms", &S::wanRttMs, "ms", "Round-trip time of the WAN path", 0.1,
                     10000.0),
        f::number<S>("wan_dataset_tb", &S::wanDatasetTb, "TB", "Data set moved over the WAN", 0.0,
                     1e9),
        // Floor 0.1 MB: below Linux's default receive buffer of 128 KiB (net.ipv4.tcp_rmem).
        f::number<S>("tcp_window_mb", &S::tcpWindowMb, "MB", "TCP window of one stream", 0.1, 1e6),
    };
    return table;
}

} // namespace dct::model
