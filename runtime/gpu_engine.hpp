#pragma once
// The GPU engine (DESIGN.md section 3): the tensor is copied to the device once and the sweeps run
// there; per group the angle kernel, the fused group pass and the factor update; per sweep the
// off-diagonal norm and the diagonal, the only figures the host reads. With the pivot check, each
// mode of each group gathers Lambda and takes its 2-norm (on the device by Lanczos, or cuSOLVER's
// singular values) before its angles. A sweep is one CUDA graph, replayed, except on the cuSOLVER
// path, whose calls are enqueued directly.
#include <functional>

#include "codegen/lowered_rule.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/stop_criteria.hpp"

namespace tensordiag::runtime {

struct GpuRunSettings {
  StopCriteria stop;
  double eta = 0.0;
  std::function<bool(const SweepRecord&)> on_sweep;
  PivotNorm pivot_norm = PivotNorm::automatic;
};

// History seconds are GPU time (CUDA events) per sweep. Throws user_error when there is no usable
// device or the tensor does not fit in its memory, cuda_error when a CUDA call fails.
template <class T>
Result<T> run_gpu_engine(const HostTensor<T>& tensor, const codegen::LoweredRule& rule, const GpuRunSettings& settings);

extern template Result<float> run_gpu_engine(const HostTensor<float>&, const codegen::LoweredRule&, const GpuRunSettings&);
extern template Result<double> run_gpu_engine(const HostTensor<double>&, const codegen::LoweredRule&, const GpuRunSettings&);

}  // namespace tensordiag::runtime
