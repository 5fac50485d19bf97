#include "dct/model/validator.h"

#include "dct/model/pipelinesplit.h"
#include "dct/model/scaleupdomain.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace dct::model {

namespace {

std::string num(double v)
{
    nlohmann::json j = v;
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        j = static_cast<long long>(v);
    return j.dump();
}

} // namespace

Diagnostics validateScenario(const ResolvedScenario& r)
{
    Diagnostics d;
    const Scenario& s = r.scenario;
    const int gpus = r.gpuCount();

    // A product of nodes and GPUs per node beyond what the model holds (ranges allow 10^7 nodes
    // of up to 1,024 GPUs): refused before any count overflows.
    if (static_cast<long long>(s.compute.nodeCount) * r.gpusPerNode > ResolvedScenario::kMaxGpus)
        d.error("/compute/node_count",
                num(static_cast<double>(s.compute.nodeCount)) + " nodes of " + num(r.gpusPerNode) +
                    " GPUs exceed the " + num(static_cast<double>(ResolvedScenario::kMaxGpus)) +
                    " GPUs a cluster may have",
                "at most " + num(static_cast<double>(ResolvedScenario::kMaxGpus)) + " GPUs in all",
                "too-many-gpus");

    // Parallelism must tile the GPUs exactly.
    const auto& w = s.workload;
    const long long cp = std::max(1, w.contextParallel);
    const long long product =
        static_cast<long long>(r.dataParallel) * w.tensorParallel * w.pipelineParallel * cp;
    if (product != gpus) {
        const long long modelParallel =
            static_cast<long long>(w.tensorParallel) * w.pipelineParallel * cp;
        if (w.dataParallel > 0)
            d.error("/workload/data_parallel",
                    "data x tensor x pipeline x context parallel = " +
                        num(static_cast<double>(product)) + " does not equal the " + num(gpus) +
                        " GPUs of the cluster",
                    "sizes whose product is " + num(gpus) +
                        " (or leave data_parallel at 0 to derive it)",
                    "parallelism");
        else
            d.error(w.pipelineParallel > 1 ? "/workload/pipeline_parallel"
                                           : "/workload/tensor_parallel",
                    "tensor x pipeline x context parallel = " +
                        num(static_cast<double>(modelParallel)) + " does not divide the " +
                        num(gpus) + " GPUs of the cluster, so no data-parallel size fits",
                    "a tensor x pipeline x context product that divides " + num(gpus) +
                        ", or a node count whose GPUs it divides",
                    "parallelism");
    }
    // NVLink may span nodes (a GB200 NVL72 domain of 18 trays): tensor parallelism stays on it
    // up to the domain.
    const int domainGpus = scaleUpDomainGpus(r);
    if (w.tensorParallel > domainGpus)
        d.warning("/workload/tensor_parallel",
                  "tensor parallelism of " + num(w.tensorParallel) +
                      (domainGpus > r.gpusPerNode ? " spans more than one NVLink domain"
                                                  : " spans more than one node"),
                  "keep tensor_parallel <= " + num(domainGpus) +
                      " so that it stays on the scale-up interconnect",
                  "tensor-parallel-across-nodes");
    // The batch's split is judged only over a data-parallel size that tiles the GPUs (above).
    if (product == gpus && r.dataParallel > 0 &&
        w.globalBatchSequences % (static_cast<long long>(r.dataParallel) * w.microBatchSize) != 0)
        d.warning("/workload/global_batch_sequences",
                  "the global batch of " + num(w.globalBatchSequences) +
                      " sequences does not split evenly into micro-batches of " +
                      num(w.microBatchSize) + " over " + num(r.dataParallel) +
                      " data-parallel ranks",
                  "a multiple of " + num(static_cast<double>(r.dataParallel) * w.microBatchSize),
                  "batch-split");
    if (r.gpu.peakTflops(w.precision) <= 0.0)
        d.error("/workload/precision", "the GPU '" + r.gpu.id + "' has no peak for this precision",
                "a precision whose peak the catalog gives for this GPU", "precision");

    // The architecture must split over the layout as Megatron-LM splits it.
    const ModelSpec& m = r.model;
    const std::string modelPath =
        r.modelSynthesized ? "/workload/parameters_billion" : "/workload/model";
    if (!r.modelSynthesized && s.present.count("/workload/parameters_billion"))
        d.warning("/workload/parameters_billion",
                  "not used: the size follows from the architecture of /workload/model (" +
                      num(std::round(m.parameters() / 1e8) / 10.0) + " B parameters)",
                  "remove parameters_billion, or remove model to synthesize a dense model",
                  "parameters-unused");
    if (m.hiddenSize % m.heads != 0 && m.headDim == 0)
        d.error(modelPath + "/heads",
                "hidden size " + num(m.hiddenSize) + " is not divisible by " + num(m.heads) +
                    " heads",
                "a head count that divides hidden_size, or head_dim", "architecture");
    if (m.heads % w.tensorParallel != 0)
        d.error("/workload/tensor_parallel",
                num(m.heads) + " attention heads are not divisible by tensor_parallel " +
                    num(w.tensorParallel),
                "a tensor-parallel size that divides " + num(m.heads), "layout");
    else if (m.effectiveKvHeads() % w.tensorParallel != 0 &&
             w.tensorParallel % m.effectiveKvHeads() != 0)
        d.error("/workload/tensor_parallel",
                num(m.effectiveKvHeads()) + " key/value heads neither divide nor are divisible " +
                    "by tensor_parallel " + num(w.tensorParallel),
                "a tensor-parallel size that divides " + num(m.effectiveKvHeads()) +
                    " or a multiple of it",
                "layout");
    // Megatron-LM splits the layers (and the embedding's and the loss's slots when they count as
    // layers) evenly over pipeline_parallel x virtual_stages model chunks, or unevenly with the
    // last chunk holding what is left (--decoder-last-pipeline-num-layers, DeepSeek-V3's 61
    // layers on 16 stages; with virtual stages --pipeline-model-parallel-layout, DeepSeek-V3's
    // "Et|(tt|)*30L" on 8 x 4 chunks). The step model paces the pipeline by its fullest stage.
    const int chunks = w.pipelineParallel * w.virtualStages;
    const PipelineSplit split =
        pipelineSplit(m.layers, w.pipelineParallel, w.virtualStages, w.embeddingAndLossAsLayers);
    const std::string layersText =
        num(m.layers) + " layers" +
        (w.embeddingAndLossAsLayers ? " + embedding + loss = " + num(split.slots) : std::string());
    if (split.slots < chunks || (split.empty && split.even))
        d.error(w.virtualStages > 1 ? "/workload/virtual_stages" : "/workload/pipeline_parallel",
                layersText +
                    " are not divisible by pipeline_parallel x virtual_stages = " + num(chunks),
                "stages whose product divides " + num(split.slots), "layout");
    else if (split.empty)
        d.error(
            w.virtualStages > 1 ? "/workload/virtual_stages" : "/workload/pipeline_parallel",
            layersText + " over " + num(chunks) + (w.virtualStages > 1 ? " chunks" : " stages") +
                " of " + num(split.fullStage / w.virtualStages) +
                (w.virtualStages > 1 ? " leave the last chunk no layer"
                                     : " leave the last stage no layer"),
            "a pipeline size that divides " + num(split.slots) + ", or one whose split leaves " +
                (w.virtualStages > 1 ? "the last chunk" : "the last stage") + " a layer",
            "layout");
    else if (!split.even)
        d.warning("/workload/pipeline_parallel",
                  layersText + " do not split evenly over " + num(w.pipelineParallel) +
                      " stages: " + num(w.pipelineParallel - 1) + " hold " + num(split.fullStage) +
                      " and the last " + num(split.lastStage) +
                      (w.virtualStages > 1
                           ? " (chunks of " + num(split.fullStage / w.virtualStages) +
                                 ", the last of " + num(split.lastChunk) +
                                 ": Megatron-Core's --pipeline-model-parallel-layout)"
                           : std::string(" (Megatron-LM's --decoder-last-pipeline-num-layers)")) +
                      "; the pipeline runs at the pace of the fullest stage",
                  "a pipeline size that divides " + num(split.slots) + " for an even split",
                  "uneven-pipeline-split");
    if (w.pipelineSchedule != PipelineSchedule::Interleaved && w.virtualStages > 1)
        d.error("/workload/virtual_stages",
                "virtual stages " + num(w.virtualStages) + " need the interleaved schedule",
                "1 with pipeline_schedule \"1f1b\" or \"dualpipe\", or pipeline_schedule "
                "\"interleaved\"",
                "layout");
    // Megatron-Core overlaps the pipeline's send/recv only in the interleaved schedule (1F1B
    // has no slack to hide them in: megatron/training/arguments.py sets overlap_p2p_comm false
    // without virtual stages); DualPipe hides its own.
    if (w.overlapP2pComm && s.present.count("/workload/overlap_p2p_comm") &&
        (w.pipelineParallel <= 1 || w.virtualStages <= 1 ||
         w.pipelineSchedule != PipelineSchedule::Interleaved))
        d.warning("/workload/overlap_p2p_comm",
                  "overlap_p2p_comm is read only with pipeline_parallel above 1 and the "
                  "interleaved schedule's virtual_stages above 1; it has no effect here",
                  "pipeline_schedule \"interleaved\" with virtual_stages above 1, or leave it "
                  "out",
                  "p2p-overlap-unused");
    // Transformer Engine runs the attention in FP8 only inside an FP8 autocast (fp8_dpa is a
    // field of the FP8 recipe).
    if (w.fp8Attention && w.precision != Precision::Fp8)
        d.warning("/workload/fp8_attention",
                  "fp8_attention is read only with precision fp8; the attention runs in " +
                      std::string(w.precision == Precision::Bf16 ? "BF16" : "its precision") +
                      " here",
                  "precision \"fp8\", or leave it out", "fp8-attention-unused");
    // The attention kernel is a choice among fused kernels: without one it is not read.
    if (s.present.count("/workload/attention_kernel") && !w.flashAttention &&
        w.attentionKernel != AttentionKernel::Fused)
        d.warning("/workload/attention_kernel",
                  "attention_kernel is read only with flash_attention true; the attention is "
                  "unfused here (the scores' GEMMs and softmax apart)",
                  "flash_attention true, or leave attention_kernel out", "attention-kernel-unused");
    if (w.flashAttention && w.attentionKernel != AttentionKernel::Fused) {
        const char* name = w.attentionKernel == AttentionKernel::Flash2 ? "FlashAttention-2"
                           : w.attentionKernel == AttentionKernel::Flash3
                               ? "FlashAttention-3"
                               : "FlashAttention's Triton kernel";
        const char* suffix = w.attentionKernel == AttentionKernel::Flash2   ? "flash2"
                             : w.attentionKernel == AttentionKernel::Flash3 ? "flash3"
                                                                            : "triton";
        const GpuSpec::AttentionRates rates = r.gpu.attentionRates(w.attentionKernel);
        if (rates.forward <= 0.0 || rates.backward <= 0.0)
            d.note("/workload/attention_kernel",
                   std::string("the catalog has no ") + name + " rates for the GPU '" + r.gpu.id +
                       "': the attention runs at its fused attention's rates",
                   std::string("add attention_forward_efficiency_") + suffix +
                       " and attention_backward_efficiency_" + suffix +
                       " to the GPU's catalog entry, or attention_kernel \"fused\"",
                   "attention-kernel-unmeasured");
        // FP8 attention is Transformer Engine's fused kernel with the recipe's fp8_dpa.
        if (w.fp8Attention && w.precision == Precision::Fp8)
            d.warning("/workload/fp8_attention",
                      std::string("fp8_attention is read only with attention_kernel \"fused\" "
                                  "(Transformer Engine's FP8 attention); ") +
                          name + " runs in BF16 here",
                      "attention_kernel \"fused\", or leave fp8_attention out",
                      "fp8-attention-unused");
    }
    // DualPipe pairs rank i with rank p - 1 - i and feeds half the micro-batches from each end:
    // an even pipeline, and an even number of micro-batches, at least two per rank
    // (deepseek-ai/DualPipe, dualpipe/dualpipe.py, DualPipe.step: num_ranks % 2 == 0,
    // num_chunks % 2 == 0 and num_chunks >= num_ranks * 2).
    // Micro-batches of a step per pipeline (0 until the data-parallel size is known).
    const long long microBatches =
        r.dataParallel > 0
            ? w.globalBatchSequences /
                  std::max(1LL, static_cast<long long>(r.dataParallel) * w.microBatchSize)
            : 0;
    if (w.pipelineSchedule == PipelineSchedule::DualPipe) {
        if (w.pipelineParallel < 2 || w.pipelineParallel % 2 != 0)
            d.error("/workload/pipeline_parallel",
                    "dualpipe needs an even pipeline of at least 2 stages, not " +
                        num(w.pipelineParallel),
                    "an even pipeline_parallel, or pipeline_schedule \"1f1b\"", "layout");
        else if (r.dataParallel > 0 &&
                 (microBatches % 2 != 0 || microBatches < 2LL * w.pipelineParallel))
            d.error("/workload/global_batch_sequences",
                    "dualpipe needs an even number of micro-batches a step, at least twice "
                    "pipeline_parallel " +
                        num(w.pipelineParallel) + "; the batch makes " +
                        num(static_cast<double>(microBatches)),
                    "a global batch of an even multiple of " +
                        num(static_cast<double>(r.dataParallel) * w.microBatchSize) +
                        " sequences, at least " +
                        num(2.0 * static_cast<double>(r.dataParallel) * w.microBatchSize *
                            w.pipelineParallel),
                    "layout");
    }
    // Megatron-Core reads --recompute-modules only with selective granularity and
    // --recompute-num-layers only with full (megatron/core/transformer/transformer_config.py);
    // the block method recomputes at most the layers of a chunk.
    if (w.recompute != Recompute::Selective && s.present.count("/workload/recompute_modules"))
        d.warning("/workload/recompute_modules",
                  "recompute_modules is read only with recompute \"selective\"; it has no effect "
                  "with recompute \"" +
                      std::string(w.recompute == Recompute::Full ? "full" : "none") + "\"",
                  "recompute \"selective\", or leave recompute_modules out",
                  "recompute-modules-unused");
    if (w.recompute == Recompute::Selective) {
        const bool mla = m.kvLoraRank > 0;
        const bool moe = m.moe();
        const bool denseMlp = !moe || m.denseLayers > 0;
        for (const auto& [bit, name] : recomputeModuleNames()) {
            if (!(w.recomputeModules & bit))
                continue;
            const bool applies = bit == RecomputeMlaUpProjection                        ? mla
                                 : bit == RecomputeMoeActivation || bit == RecomputeMoe ? moe
                                 : bit == RecomputeSharedExperts ? moe && m.sharedExperts > 0
                                 : bit == RecomputeMlp           ? denseMlp
                                                                 : true;
            if (!applies)
                d.warning("/workload/recompute_modules",
                          "the module " + name + " is not in the model '" + m.id +
                              "': recomputing it changes nothing",
                          bit == RecomputeMlaUpProjection
                              ? "mla_up_proj for a model with multi-head latent attention"
                              : "modules the model has",
                          "recompute-module-absent");
        }
    }
    // Megatron-Core captures the dispatcher's metadata in the router's graph: moe_preprocess
    // "must be used with moe_router" (--cuda-graph-scope); the MoE scopes and the dispatcher
    // need an MoE layer to act on.
    if ((w.cudaGraphScope & CudaGraphMoePreprocess) && !(w.cudaGraphScope & CudaGraphMoeRouter))
        d.error("/workload/cuda_graph_scope",
                "moe_preprocess is captured in the router's CUDA graph and needs moe_router",
                "moe_router beside moe_preprocess", "layout");
    // The full-iteration graph captures every layer whole: Megatron-Core asserts that
    // cuda_graph_modules is empty with cuda_graph_impl "full_iteration" (transformer_config.py).
    if ((w.cudaGraphScope & CudaGraphFullIteration) && (w.cudaGraphScope & ~CudaGraphFullIteration))
        d.error("/workload/cuda_graph_scope",
                "full_iteration captures the whole forward-backward path of a step; the "
                "per-layer scopes beside it have nothing left to capture",
                "[\"full_iteration\"] alone, or the per-layer scopes without it", "layout");
    if (!m.moe() && (w.cudaGraphScope & (CudaGraphMoeRouter | CudaGraphMoePreprocess)))
        d.warning("/workload/cuda_graph_scope",
                  "the model '" + m.id +
                      "' has no MoE layer: moe_router and moe_preprocess change nothing",
                  "attn and mlp for a dense model", "cuda-graph-scope-unused");
    // Megatron-Core accepts --fp8-recipe mxfp8 on Blackwell only (Transformer Engine's
    // check_mxfp8_support: compute capability 10.0 and up); the recipe is read only in FP8.
    if (w.precision == Precision::Fp8 && w.fp8Recipe == Fp8Recipe::Mxfp8 &&
        r.gpu.matmulEfficiencyMxfp8 <= 0.0)
        d.error("/workload/fp8_recipe",
                "mxfp8 needs tensor cores that apply 32-element block scales (Blackwell); the "
                "GPU '" +
                    r.gpu.id + "' has none (catalog matmul_efficiency_mxfp8)",
                "delayed, tensorwise or blockwise on this GPU, or a Blackwell GPU (b200, gb200)",
                "fp8-recipe-unsupported");
    if (w.precision != Precision::Fp8 && s.present.count("/workload/fp8_recipe"))
        d.warning("/workload/fp8_recipe",
                  "fp8_recipe is read only with precision \"fp8\"; it has no effect here",
                  "precision \"fp8\", or leave fp8_recipe out", "fp8-recipe-unused");
    // Megatron-Core's EP all-to-all overlap merges one micro-batch's forward with another's
    // backward (megatron/core/pipeline_parallel/combined_1f1b.py); its configuration refuses it
    // without expert parallelism, pipelined without virtual stages, and with full or MoE
    // recomputation (megatron/core/transformer/transformer_config.py, __post_init__).
    if (w.moeA2aOverlap) {
        const std::string field = "/workload/moe_a2a_overlap";
        if (!m.moe() || w.expertParallel <= 1)
            d.error(field,
                    "the expert all-to-all overlap needs expert parallelism (expert_parallel " +
                        num(w.expertParallel) + (m.moe() ? "" : ", a dense model") + ")",
                    "expert_parallel above 1 on a mixture-of-experts model, or false", "layout");
        if (w.pipelineSchedule == PipelineSchedule::DualPipe)
            d.error(field, "DualPipe overlaps the expert all-to-all by its own schedule",
                    "pipeline_schedule \"1f1b\" or \"interleaved\", or false", "layout");
        else if (w.pipelineParallel > 1 && w.virtualStages <= 1)
            d.error(field,
                    "pipelined, the expert all-to-all overlap needs virtual stages (Megatron-Core "
                    "merges the interleaved schedule's steady-state steps)",
                    "virtual_stages above 1 with pipeline_schedule \"interleaved\", or false",
                    "layout");
        if (w.recompute == Recompute::Full)
            d.error(field, "the expert all-to-all overlap runs without full recomputation",
                    "recompute \"none\" or \"selective\" without the moe module, or false",
                    "layout");
        else if (w.recompute == Recompute::Selective && (w.recomputeModules & RecomputeMoe))
            d.error(field, "the expert all-to-all overlap runs without the moe module recomputed",
                    "recompute_modules without moe (moe_act and the others are accepted), or "
                    "false",
                    "layout");
    }
    // The flex dispatcher's backend and SMs are read only with moe_token_dispatcher flex; a call
    // cannot hold more SMs than the GPU has, and DeepEP's normal kernels pair their SMs (a
    // channel's sender and receiver blocks: deep_ep/buffer.py, set_num_sms, "The SM count must
    // be even").
    if (w.moeDispatcher != MoeDispatcher::Flex) {
        for (const char* field :
             {"/workload/moe_flex_dispatcher_backend", "/workload/moe_flex_dispatcher_sms"})
            if (s.present.count(field))
                d.warning(field,
                          std::string(field + 10) +
                              " is read only with moe_token_dispatcher \"flex\"; it has no "
                              "effect here",
                          "moe_token_dispatcher \"flex\", or leave it out", "flex-backend-unused");
    } else if (w.moeFlexSms > 0) {
        const std::string field = "/workload/moe_flex_dispatcher_sms";
        if (r.gpu.smCount > 0 && w.moeFlexSms > r.gpu.smCount)
            d.error(field,
                    "a flex dispatch cannot run on " + num(w.moeFlexSms) + " SMs: the GPU '" +
                        r.gpu.id + "' has " + num(r.gpu.smCount),
                    "1 to " + num(r.gpu.smCount) + " SMs, or 0 for the backend's default",
                    "layout");
        if (w.moeFlexBackend == MoeFlexBackend::DeepEp && w.moeFlexSms % 2 != 0)
            d.error(field,
                    "DeepEP runs its normal kernels on an even number of SMs (a sender and a "
                    "receiver block a channel); " +
                        num(w.moeFlexSms) + " is odd",
                    "an even count, or 0 for DeepEP's 20", "layout");
    }
    // Megatron-Core runs the shared experts beside the all-to-all dispatcher's or the flex
    // dispatcher's communication (megatron/core/transformer/moe/token_dispatcher.py) and refuses
    // it beside the merged-step overlap (transformer_config.py, __post_init__); with no shared
    // experts or no expert parallelism there is nothing to overlap.
    if (w.moeSharedExpertOverlap) {
        const std::string field = "/workload/moe_shared_expert_overlap";
        if (w.moeA2aOverlap)
            d.error(field,
                    "the shared experts' overlap and moe_a2a_overlap exclude each other "
                    "(Megatron-Core refuses both)",
                    "one of moe_shared_expert_overlap and moe_a2a_overlap", "layout");
        if (w.pipelineSchedule == PipelineSchedule::DualPipe)
            d.error(field, "DualPipe overlaps the expert all-to-all by its own schedule",
                    "pipeline_schedule \"1f1b\" or \"interleaved\", or false", "layout");
        if (!m.moe() || m.sharedExperts <= 0 || w.expertParallel <= 1)
            d.warning(field,
                      std::string("the shared experts' overlap hides the expert all-to-all, and ") +
                          (!m.moe() || m.sharedExperts <= 0
                               ? "the model has no shared experts"
                               : "expert_parallel " + num(w.expertParallel) + " moves no token"),
                      "a model with shared experts and expert_parallel above 1, or false",
                      "shared-expert-overlap-unused");
    }
    if (w.recomputeNumLayers > 0) {
        const int chunkLayers = split.even ? split.slots / std::max(1, chunks)
                                           : split.fullStage / std::max(1, w.virtualStages);
        if (w.recompute != Recompute::Full)
            d.warning("/workload/recompute_num_layers",
                      "recompute_num_layers is read only with recompute \"full\"",
                      "recompute \"full\", or 0", "recompute-num-layers-unused");
        else if (chunkLayers > 0 && w.recomputeNumLayers > chunkLayers)
            d.error("/workload/recompute_num_layers",
                    "recompute_num_layers " + num(w.recomputeNumLayers) + " exceeds the " +
                        num(chunkLayers) + " layers of a pipeline chunk",
                    "at most " + num(chunkLayers) + ", or 0 for every layer", "layout");
    }
    // Megatron-Core's own checks of cpu_offloading (megatron/core/transformer/
    // transformer_config.py, TransformerConfig.__post_init__): fewer layers than the model has,
    // no pipeline parallelism, no recomputation.
    if (w.activationOffloadLayers > 0) {
        const std::string field = "/workload/activation_offload_layers";
        if (w.activationOffloadLayers >= m.layers)
            d.error(field,
                    "activation_offload_layers " + num(w.activationOffloadLayers) +
                        " is not below the model's " + num(m.layers) + " layers",
                    "0 to " + num(m.layers - 1) + " (Megatron-Core's bound)", "layout");
        if (w.pipelineParallel > 1)
            d.error(field, "activations are offloaded only without pipeline parallelism",
                    "pipeline_parallel 1, or activation_offload_layers 0 (Megatron-Core has no "
                    "pipeline parallelism with CPU offloading)",
                    "layout");
        if (w.recompute != Recompute::None)
            d.error(field, "activations are offloaded only without recomputation",
                    "recompute \"none\", or activation_offload_layers 0 (Megatron-Core's CPU "
                    "offloading does not work with activation recomputation)",
                    "layout");
        if (r.node.hostBandwidthGbS <= 0.0)
            d.error(
                field, "the node '" + r.node.id + "' gives no host_bandwidth_gb_s to offload over",
                "a node whose catalog entry has host_bandwidth_gb_s and host_memory_gb", "layout");
    }
    if (w.pipelineSchedule == PipelineSchedule::Interleaved && r.dataParallel > 0 &&
        microBatches % w.pipelineParallel != 0)
        d.error(
            "/workload/global_batch_sequences",
            "the interleaved schedule needs the micro-batches of a step to be a multiple of "
            "pipeline_parallel " +
                num(w.pipelineParallel),
            "a global batch of a multiple of " +
                num(static_cast<double>(r.dataParallel) * w.microBatchSize * w.pipelineParallel) +
                " sequences (Megatron-LM's requirement)",
            "layout");
    if (w.contextParallel > 1 && r.sequenceLength % (2 * w.contextParallel) != 0)
        d.error("/workload/context_parallel",
                "the sequence of " + num(r.sequenceLength) + " tokens does not split into 2 x " +
                    num(w.contextParallel) + " chunks (load-balanced causal context parallelism)",
                "a context-parallel size c with sequence_length divisible by 2c", "layout");
    if (w.expertParallel > 1 && !m.moe())
        d.error("/workload/expert_parallel",
                "expert parallelism " + num(w.expertParallel) + " on a dense model",
                "1, or a mixture-of-experts model", "layout");
    if (m.moe()) {
        if (m.experts % w.expertParallel != 0)
            d.error("/workload/expert_parallel",
                    num(m.experts) + " experts are not divisible by expert_parallel " +
                        num(w.expertParallel),
                    "an expert-parallel size that divides " + num(m.experts), "layout");
        // Megatron-Core lays the experts out on a grid of their own over the same ranks as
        // tensor x context x data parallelism (MoE parallel folding: expert tensor x expert x
        // expert data parallel, megatron/core/parallel_state.py, the expert RankGenerator of
        // order tp-ep-dp-pp); with expert_tensor_parallel at its default (the tensor-parallel
        // size) the expert-parallel group lies within the data x context ranks.
        const int etp = w.effectiveExpertTensorParallel();
        const long long stageRanks =
            static_cast<long long>(r.dataParallel) * cp * std::max(1, w.tensorParallel);
        const long long expertGrid = static_cast<long long>(w.expertParallel) * etp;
        if (stageRanks > 0 && stageRanks % expertGrid != 0)
            d.error(w.expertTensorParallel > 0 ? "/workload/expert_tensor_parallel"
                                               : "/workload/expert_parallel",
                    "expert_parallel " + num(w.expertParallel) + " x expert_tensor_parallel " +
                        num(etp) + " = " + num(static_cast<double>(expertGrid)) +
                        " does not divide tensor x context x data parallel " +
                        num(static_cast<double>(stageRanks)),
                    "expert-parallel and expert-tensor-parallel sizes whose product divides the "
                    "tensor x context x data-parallel ranks",
                    "layout");
        if (m.expertFfnHiddenSize > 0 && m.expertFfnHiddenSize % etp != 0)
            d.error("/workload/expert_tensor_parallel",
                    "the experts' FFN size " + num(m.expertFfnHiddenSize) +
                        " does not split over expert_tensor_parallel " + num(etp),
                    "an expert-tensor-parallel size that divides the experts' FFN size", "layout");
        if (m.activeExperts < 1 || m.activeExperts > m.experts)
            d.error(modelPath + "/active_experts",
                    num(m.activeExperts) + " active experts of " + num(m.experts),
                    "from 1 to experts", "architecture");
        // Megatron-Core's group-limited routing splits the experts into equal groups of
        // consecutive experts and takes the top-k within group_topk of them
        // (megatron/core/transformer/moe/moe_utils.py, group_limited_topk).
        if (m.routingGroups > 0 && m.experts % m.routingGroups != 0)
            d.error(modelPath + "/routing_groups",
                    num(m.experts) + " experts do not split into " + num(m.routingGroups) +
                        " equal groups",
                    "0, or a number of groups that divides the experts", "architecture");
        if (m.routingGroups > 0 && m.routingMaxNodes > m.routingGroups)
            d.error(modelPath + "/routing_max_nodes",
                    num(m.routingMaxNodes) + " groups a token of " + num(m.routingGroups),
                    "0, or from 1 to routing_groups", "architecture");
        if (m.expertFfnHiddenSize < 1)
            d.error(modelPath + "/expert_ffn_hidden_size", "an MoE model needs its expert size",
                    "an integer >= 1", "architecture");
        if (m.denseLayers >= m.layers)
            d.error(modelPath + "/dense_layers", "every layer is dense in an MoE model",
                    "fewer dense layers than layers", "architecture");
    }

    // A power limit is set between the board's minimum and maximum (nvidia-smi --power-limit
    // refuses others); the catalog holds no minimum, so a limit at or below the idle draw, which
    // no clock can meet, is the one refused below the TDP.
    if (const double cap = s.compute.gpuPowerLimitW;
        cap > 0.0 && (cap > r.gpu.tdpW || cap <= r.gpu.idleW))
        d.error("/compute/gpu_power_limit_w",
                cap > r.gpu.tdpW
                    ? num(cap) + " W is above the " + r.gpu.name + "'s TDP of " + num(r.gpu.tdpW) +
                          " W, its board's maximum limit"
                    : num(cap) + " W is not above the " + r.gpu.name + "'s idle draw of " +
                          num(r.gpu.idleW) + " W: no clock meets it",
                "0 (none), or a limit above " + num(r.gpu.idleW) + " W and at most " +
                    num(r.gpu.tdpW) + " W",
                "gpu-power-limit");

    if (s.compute.gpusPerNode > 0 && s.compute.gpusPerNode != r.node.gpusPerNode)
        d.warning("/compute/gpus_per_node",
                  "differs from the node type's " + num(r.node.gpusPerNode) + " GPUs",
                  "remove it to take the node type's count", "gpus-per-node");
    // An NVLink domain of several nodes: the cluster should hold whole domains, and a domain
    // that is not a whole number of nodes is taken as the node alone.
    if (r.node.scaleUpDomainGpus > r.gpusPerNode) {
        const int perDomain = r.node.scaleUpDomainGpus / std::max(1, r.gpusPerNode);
        if (r.node.scaleUpDomainGpus % std::max(1, r.gpusPerNode) != 0)
            d.warning("/compute/node",
                      "the node type's NVLink domain of " + num(r.node.scaleUpDomainGpus) +
                          " GPUs is not a whole number of its " + num(r.gpusPerNode) +
                          "-GPU nodes: each node is taken as its own domain",
                      "a scale_up_domain_gpus that is a multiple of gpus_per_node",
                      "scale-up-domain");
        else if (s.compute.nodeCount % perDomain != 0)
            d.warning("/compute/node_count",
                      num(static_cast<double>(s.compute.nodeCount)) +
                          " nodes are not a whole number of NVLink domains of " + num(perDomain) +
                          " nodes: the last domain is partly filled",
                      "a multiple of " + num(perDomain) + " nodes", "scale-up-domain");
    }

    // The network.
    const auto& n = s.network;
    const int mtu = n.mtuBytes;
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096)
        d.error("/network/mtu_bytes", "invalid RDMA MTU " + num(mtu),
                "256, 512, 1024, 2048 or 4096", "mtu");
    const bool ib = n.protocol == Protocol::Infiniband;
    if (ib && !r.nic.infiniband)
        d.error("/network/nic", "the NIC '" + r.nic.id + "' does not speak InfiniBand",
                "an InfiniBand-capable NIC, or protocol \"roce_v2\"", "protocol");
    if (!ib && !r.nic.ethernet)
        d.error("/network/nic", "the NIC '" + r.nic.id + "' does not speak Ethernet",
                "an Ethernet NIC, or protocol \"infiniband\"", "protocol");
    if ((r.fabricSwitch.protocol == Protocol::Infiniband) != ib)
        d.error("/network/switch",
                "the switch '" + r.fabricSwitch.id + "' is " +
                    (r.fabricSwitch.protocol == Protocol::Infiniband ? "InfiniBand" : "Ethernet") +
                    " but the fabric is " + (ib ? "InfiniBand" : "RoCE v2"),
                "a switch of the fabric's protocol", "protocol");
    if (n.inNetworkReduction && !r.fabricSwitch.inNetworkReduction)
        d.error("/network/in_network_reduction",
                "the switch '" + r.fabricSwitch.id + "' does not reduce in the network",
                "false, or a switch with in-network reduction (SHARP), such as \"qm9700\"",
                "in-network-reduction");
    if (r.rails % n.planes != 0 && n.topology == TopologyKind::MultiPlane)
        d.error("/network/planes",
                num(n.planes) + " planes do not divide the " + num(r.rails) + " rails per node",
                "a divisor of the rails", "planes");
    if (r.portBreakout > std::max(1, r.fabricSwitch.maxBreakout))
        d.error("/network/port_breakout",
                "the switch '" + r.fabricSwitch.id + "' splits a port into at most " +
                    num(std::max(1, r.fabricSwitch.maxBreakout)) + " logical ports, not " +
                    num(r.portBreakout),
                "0 (automatic), 1 (no breakout) or up to " +
                    num(std::max(1, r.fabricSwitch.maxBreakout)),
                "port-breakout");
    const double k = r.fabricPorts();
    const double endpointsPerPlane =
        static_cast<double>(s.compute.nodeCount) * r.rails / std::max(1, n.planes);
    const double maxThreeTier = k * k * k / 4.0;
    if (n.topology != TopologyKind::RailOnly && endpointsPerPlane > maxThreeTier)
        d.error("/compute/node_count",
                num(endpointsPerPlane) + " endpoints per plane exceed the " + num(maxThreeTier) +
                    " a 3-tier fat tree of " + num(k) + "-port switches can hold",
                "fewer nodes, more planes, or a switch of higher radix", "fabric-capacity");
    else if (n.tiers == 2 && endpointsPerPlane > k * k / 2.0)
        d.error("/network/tiers",
                num(endpointsPerPlane) + " endpoints per plane exceed the " + num(k * k / 2.0) +
                    " a 2-tier fat tree of " + num(k) + "-port switches can hold",
                "tiers 3 (or 0 to pick), more planes, or fewer nodes", "fabric-capacity");
    if (r.nic.rateGbps > r.fabricPortRateGbps() * 1.0001)
        d.warning(r.portBreakout > 1 ? "/network/port_breakout" : "/network/nic",
                  "the NIC's " + num(r.nic.rateGbps) + " Gb/s exceed the switch port's " +
                      num(r.fabricPortRateGbps()) + " Gb/s" +
                      (r.portBreakout > 1 ? " after a breakout of " + num(r.portBreakout) : ""),
                  r.portBreakout > 1 ? "a breakout that keeps the NIC's rate"
                                     : "a switch of at least the NIC's rate",
                  "rate-mismatch");

    // Racks.
    const auto& fac = s.facility;
    if (const double nameplate = r.nodeNameplateKw(); nameplate > fac.rackPowerLimitKw)
        d.error("/facility/rack_power_limit_kw",
                "one " + r.node.id + " node (" + num(nameplate) +
                    " kW) exceeds the rack power limit of " + num(fac.rackPowerLimitKw) + " kW",
                "a rack power limit of at least " + num(nameplate) +
                    " kW, or a lower /compute/gpu_power_limit_w",
                "rack-power");
    if (r.node.heightU > fac.rackUnits)
        d.error("/facility/rack_units",
                "one node (" + num(r.node.heightU) + "U) does not fit a " + num(fac.rackUnits) +
                    "U rack",
                "at least " + num(r.node.heightU) + " rack units", "rack-height");

    // The site's climate: normals (an hourly year is built from them) or bins covering the year.
    double hours = 0.0;
    for (const auto& bin : r.site.climateBins)
        hours += bin.hours;
    const bool normals = r.site.climateNormals.present;
    if (!normals && r.site.climateBins.empty())
        d.warning("/site", "the site has no climate normals and no climate bins",
                  "climate_normals (monthly normals and design values) or climate_bins covering "
                  "8760 hours",
                  "climate");
    else if (!normals && std::fabs(hours - 8760.0) > 87.6)
        d.warning("/site/climate_bins",
                  "climate bins cover " + num(std::round(hours)) + " hours, not 8760",
                  "bins whose hours add up to a year", "climate");

    // Economics.
    const auto& e = s.economics;
    if (e.egressTbPerMonth > 0.0 && e.egressPricing.empty() && e.unmeteredPort.empty())
        d.warning("/economics/egress_tb_per_month",
                  "egress volume is set but neither a price table nor a port is",
                  "set economics.egress_pricing or economics.unmetered_port", "egress");
    return d;
}

} // namespace dct::model
