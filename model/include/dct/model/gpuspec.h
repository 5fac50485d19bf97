#pragma once

#include "dct/model/catalogentry.h"
#include "dct/model/enums.h"
#include "dct/model/field.h"

namespace dct::model {

/** An accelerator: its power, memory, peak throughput, scale-up bandwidth and thermal limits. */
struct GpuSpec : CatalogEntry
{
    std::string vendor;
    double tdpW = 700.0;
    double idleW = 70.0;
    double memoryGb = 80.0;
    double memoryBandwidthTbps = 3.35; ///< TB/s.
    double peakTflopsFp8 = 0.0;        ///< Dense, without sparsity.
    double peakTflopsBf16 = 0.0;
    double peakTflopsFp16 = 0.0;
    double peakTflopsTf32 = 0.0;
    double peakTflopsFp64 = 0.0;
    double scaleUpGbytePerS = 450.0; ///< NVLink/Infinity Fabric per GPU per direction, GB/s.
    /// Payload share of the scale-up links' rate a collective library reaches, measured for the
    /// link; 0: NVLink's flits and NCCL's LL128 lines (protocolefficiency.h).
    double scaleUpLinkEfficiency = 0.0;
    double maxOperatingTempC = 87.0; ///< Highest GPU temperature without slowdown.
    double slowdownTempC = 90.0;     ///< Hardware slowdown threshold.
    double shutdownTempC = 92.0;
    double baseClockMhz = 1590.0;  ///< Guaranteed clock; SW thermal slowdown holds it at least.
    double boostClockMhz = 1980.0; ///< Maximum clock (clock factor 1).
    double thermalResistanceAirCPerW = 0.08;    ///< Server inlet air to GPU, K per W of GPU power.
    double thermalResistanceLiquidCPerW = 0.04; ///< Cold-plate coolant to GPU, K per W.
    double priceUsd = 0.0;
    /// Achievable share of the dense peak on large matrix multiplications (measured GEMM
    /// throughput over the datasheet peak): the one efficiency input of the step model.
    double matmulEfficiency = 0.8;
    /// Achievable share of the FP8 peak on large FP8 matrix multiplications (measured the same
    /// way); 0: not measured, and the BF16 share (matmulEfficiency) is taken.
    double matmulEfficiencyFp8 = 0.0;
    /// Achievable share of the FP8 peak on MXFP8 matrix multiplications (32-element block scales
    /// applied by the tensor cores); 0: the GPU has no MXFP8 tensor cores.
    double matmulEfficiencyMxfp8 = 0.0;
    /// Streaming multiprocessors (compute units): the width of one wave of GEMM output tiles.
    /// 0 leaves the shape of matrix multiplications out of the step model.
    int smCount = 0;
    int gemmTileM = 256; ///< Rows of the output tile one SM computes at a time (cuBLAS, CUTLASS).
    int gemmTileN = 128; ///< Its columns.
    /// Achievable share of the memory bandwidth on large streaming transfers.
    double memoryBandwidthEfficiency = 1.0;
    /// Achievable share of the dense peak of a fused (flash) attention kernel, forward and
    /// backward, counting the FLOPs it computes; 0 runs it at the matrix rate (matmulEfficiency).
    double attentionForwardEfficiency = 0.0;
    double attentionBackwardEfficiency = 0.0;
    /// The same kernels with Q, K and V in FP8, as shares of the dense FP8 peak; 0: not measured
    /// (the attention stays at the BF16 rates).
    double attentionForwardEfficiencyFp8 = 0.0;
    double attentionBackwardEfficiencyFp8 = 0.0;
    /// FlashAttention-2's, FlashAttention-3's and FlashAttention's Triton kernels, as shares of
    /// the dense BF16 peak, for stacks that run them instead of the fused attention above; 0: not
    /// measured (the fused rates).
    double attentionForwardEfficiencyFlash2 = 0.0;
    double attentionBackwardEfficiencyFlash2 = 0.0;
    double attentionForwardEfficiencyFlash3 = 0.0;
    double attentionBackwardEfficiencyFlash3 = 0.0;
    double attentionForwardEfficiencyTriton = 0.0;
    double attentionBackwardEfficiencyTriton = 0.0;

    /** Returns the dense peak at \a precision in TFLOP/s (0 when unsupported). */
    double peakTflops(Precision precision) const;

    /** A fused attention kernel's measured rates, shares of the dense BF16 peak. */
    struct AttentionRates
    {
        double forward = 0.0;  ///< 0: not measured.
        double backward = 0.0; ///< 0: not measured.
    };
    /** Returns the catalog's rates of \a kernel on this GPU, as they stand (0 where unmeasured). */
    AttentionRates attentionRates(AttentionKernel kernel) const;

    static constexpr const char* kind = "gpu";
    static const FieldTable<GpuSpec>& fields();

    bool operator==(const GpuSpec&) const = default;
};

} // namespace dct::model
