#include "dct/solvers/stepmetrics.h"

namespace dct::solvers {

void addStepMetrics(Evaluation& e)
{
    const StepResult& s = e.compute.step;
    if (!s.valid)
        return;
    const MetricInputs model = metricInputs<"/workload/model", "/workload/parameters_billion">();
    const MetricInputs layout = metricInputs<
        "/workload/model", "/workload/parameters_billion", "/workload/tensor_parallel",
        "/workload/pipeline_parallel", "/workload/context_parallel", "/workload/expert_parallel",
        "/workload/micro_batch_size", "/workload/global_batch_sequences", "/workload/recompute",
        "/compute/gpu/matmul_efficiency", "/compute/gpu/matmul_efficiency_fp8",
        "/compute/gpu/attention_forward_efficiency", "/compute/gpu/attention_backward_efficiency",
        "/workload/flash_attention", "/workload/attention_kernel", "/workload/precision",
        "/workload/fp8_recipe", "/workload/fp8_attention", "/workload/moe_a2a_overlap",
        "/workload/gradient_accumulation", "/network">();
    const MetricInputs memory =
        metricInputs<"/workload/model", "/workload/parameters_billion", "/workload/tensor_parallel",
                     "/workload/pipeline_parallel", "/workload/zero_stage", "/workload/recompute",
                     "/workload/micro_batch_size", "/workload/gradient_precision",
                     "/workload/gradient_accumulation", "/workload/dropout",
                     "/workload/fused_cross_entropy", "/workload/activation_offload_layers",
                     "/workload/expert_parallel", "/workload/virtual_stages",
                     "/workload/moe_a2a_overlap", "/compute/gpu/memory_gb">();
    e.add("step.parameters_billion", "Model parameters", s.parameters / 1e9, "B", Better::Neither,
          model);
    e.add("step.active_parameters_billion", "Active parameters per token", s.activeParameters / 1e9,
          "B", Better::Neither, model);
    e.add("step.micro_batches", "Micro-batches per pipeline per step", s.microBatches, "",
          Better::Neither,
          metricInputs<"/workload/global_batch_sequences", "/workload/micro_batch_size",
                       "/workload/data_parallel">());
    e.add("step.seconds", "Step time of the layout (before stragglers)", s.stepSeconds, "s",
          Better::Lower, layout);
    e.add("step.mfu", "Predicted MFU", s.mfu, "share", Better::Higher, layout);
    e.add("step.hfu", "Predicted HFU (recomputation counted)", s.hfu, "share", Better::Higher,
          layout);
    e.add("step.achieved_tflops_per_gpu", "Achieved TFLOP/s per GPU (hardware FLOPs)",
          s.achievedTflopsPerGpu, "TFLOP/s", Better::Higher, layout);
    e.add("step.compute_seconds", "Matrix math per step", s.computeSeconds, "s", Better::Lower,
          metricInputs<"/workload/model", "/compute/gpu/matmul_efficiency",
                       "/compute/gpu/matmul_efficiency_fp8", "/compute/gpu/matmul_efficiency_mxfp8",
                       "/workload/fp8_recipe", "/compute/gpu/attention_forward_efficiency",
                       "/compute/gpu/attention_backward_efficiency", "/workload/flash_attention",
                       "/workload/attention_kernel", "/workload/fp8_attention",
                       "/compute/gpu/attention_forward_efficiency_fp8",
                       "/compute/gpu/attention_backward_efficiency_fp8", "/workload/recompute">());
    e.add("step.recompute_seconds", "Recomputation per step", s.recomputeSeconds, "s",
          Better::Lower, metricInputs<"/workload/recompute">());
    e.add("step.matmul_shape_efficiency", "Matrix math: share of the GPU its shapes fill",
          s.matmulShapeEfficiency, "share", Better::Higher,
          metricInputs<"/workload/model", "/workload/tensor_parallel", "/workload/micro_batch_size",
                       "/workload/sequence_length", "/compute/gpu/sm_count",
                       "/compute/gpu/gemm_tile_m", "/compute/gpu/gemm_tile_n">());
    e.add("step.memory_bound_seconds", "Element-wise (HBM-bound) work per step",
          s.memoryBoundSeconds, "s", Better::Lower,
          metricInputs<"/compute/gpu/memory_bandwidth_tbps",
                       "/compute/gpu/memory_bandwidth_efficiency", "/workload/sequence_parallel",
                       "/workload/fp8_recipe", "/workload/gradient_accumulation">());
    e.add("step.kernel_overhead_seconds", "Fixed cost of the kernels launched per step",
          s.kernelOverheadSeconds, "s", Better::Lower,
          metricInputs<"/workload/model", "/workload/recompute", "/workload/flash_attention",
                       "/workload/tp_comm_overlap", "/workload/fp8_recipe",
                       "/workload/gradient_accumulation">());
    e.add("step.tensor_parallel_seconds", "Exposed tensor-parallel communication",
          s.tensorParallelSeconds, "s", Better::Lower,
          metricInputs<"/workload/tensor_parallel", "/workload/sequence_parallel",
                       "/workload/tp_comm_overlap", "/compute/gpu/scale_up_gbyte_per_s">());
    e.add("step.pipeline_sendrecv_seconds", "Exposed pipeline send/recv", s.pipelineSendRecvSeconds,
          "s", Better::Lower,
          metricInputs<"/workload/pipeline_parallel", "/workload/virtual_stages",
                       "/workload/overlap_p2p_comm", "/network">());
    e.add("step.bubble_seconds", "Pipeline bubble", s.bubbleSeconds, "s", Better::Lower,
          metricInputs<"/workload/pipeline_parallel", "/workload/virtual_stages",
                       "/workload/global_batch_sequences">());
    e.add("step.data_parallel_seconds", "Exposed data-parallel communication",
          s.dataParallelSeconds, "s", Better::Lower,
          metricInputs<"/workload/zero_stage", "/workload/overlap_fraction",
                       "/workload/gradient_precision", "/workload/gradient_accumulation",
                       "/workload/pipeline_parallel", "/workload/model", "/network">());
    e.add("step.data_parallel_total_seconds", "Data-parallel communication (hidden or not)",
          s.dataParallelTotalSeconds, "s", Better::Lower,
          metricInputs<"/workload/zero_stage", "/workload/gradient_precision",
                       "/workload/gradient_accumulation", "/workload/pipeline_parallel",
                       "/workload/model", "/network">());
    e.add("step.overlap_contention_seconds", "Computation slowed by the collectives it hides",
          s.overlapContentionSeconds, "s", Better::Lower,
          metricInputs<"/workload/overlap_fraction", "/workload/zero_stage",
                       "/workload/context_parallel", "/workload/overlap_p2p_comm",
                       "/workload/moe_a2a_overlap", "/workload/moe_shared_expert_overlap",
                       "/compute/gpu", "/network">());
    e.add("step.host_wait_seconds", "GPU waiting for the host to launch kernels", s.hostWaitSeconds,
          "s", Better::Lower,
          metricInputs<"/workload/cuda_graph_scope", "/workload/moe_token_dispatcher",
                       "/workload/moe_router_fusion", "/workload/moe_permute_fusion",
                       "/workload/micro_batch_size", "/workload/expert_parallel">());
    e.add("step.expert_parallel_seconds", "Expert-parallel all-to-all", s.expertParallelSeconds,
          "s", Better::Lower,
          metricInputs<"/workload/expert_parallel", "/workload/moe_token_dispatcher",
                       "/workload/moe_a2a_overlap", "/workload/moe_shared_expert_overlap",
                       "/network">());
    e.add("step.expert_dispatch_copies", "Copies of a token in an expert dispatch",
          s.expertDispatchCopies, "", Better::Lower,
          metricInputs<"/workload/moe_token_dispatcher", "/workload/expert_parallel",
                       "/workload/model">());
    e.add("step.context_parallel_seconds", "Exposed context-parallel communication",
          s.contextParallelSeconds, "s", Better::Lower,
          metricInputs<"/workload/context_parallel", "/network">());
    e.add("step.optimizer_seconds", "Optimizer update", s.optimizerSeconds, "s", Better::Lower,
          metricInputs<"/workload/zero_stage", "/compute/gpu/memory_bandwidth_tbps">());
    e.add("step.offload_seconds", "Exposed activation offloading", s.offloadSeconds, "s",
          Better::Lower, metricInputs<"/workload/activation_offload_layers", "/compute/node">());
    e.add("step.memory_weights_gb", "Weights per GPU", s.memory.weightsGb, "GB", Better::Lower,
          memory);
    e.add("step.memory_gradients_gb", "Gradients per GPU", s.memory.gradientsGb, "GB",
          Better::Lower, memory);
    e.add("step.memory_optimizer_gb", "Optimizer states per GPU", s.memory.optimizerGb, "GB",
          Better::Lower, memory);
    e.add("step.memory_activations_gb", "Activations per GPU", s.memory.activationsGb, "GB",
          Better::Lower, memory);
    e.add("step.memory_buffers_gb", "Buffers per GPU", s.memory.buffersGb, "GB", Better::Lower,
          memory);
    e.add("step.memory_offloaded_gb", "Activations offloaded to host memory per GPU",
          s.memory.offloadedGb, "GB", Better::Neither,
          metricInputs<"/workload/activation_offload_layers", "/workload/micro_batch_size",
                       "/compute/node">());
    e.add("step.memory_total_gb", "Memory per GPU", s.memory.totalGb, "GB", Better::Lower, memory);
    e.add("step.memory_headroom_gb", "Memory headroom per GPU",
          s.memory.capacityGb - s.memory.totalGb, "GB", Better::Higher, memory);
}

} // namespace dct::solvers
