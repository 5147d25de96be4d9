#pragma once
// The N = 2 GPU path for large D (issue 12; kernels_templates/qubit_sweep.cu, DESIGN.md section 3):
// a sweep of an N = 2 tensor is one rotation per mode, so the core is the input rotated by one
// accumulated rotation per mode (a complex tensor's in SU(2), issue 11; its result's phases are
// fixed on the host as every complex engine's). The tensor stays as it came while the sweeps run; each sweep
// reads it twice (two weighted reductions) and writes nothing of it; the core is written once at
// the end. History seconds are GPU time (CUDA events) per sweep.
#include <complex>
#include <optional>
#include <string>

#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// Why the qubit path does not take tensors shaped like `first` (engine.hpp): N is not 2, a pivot
// check that could reject a rotation (eta >= 1.5; below it accepts every one:
// algorithm/qubit_pivot_check.hpp), the dtype is float64 or complex128 (its convergence figure,
// ||T||^2 - ||diag C||^2, resolves off(C) to about 1e-7 of ||T||: float32's rounding, far above
// float64's), codegen refuses the order, or the tensor does not fit the device's free memory.
template <class T>
std::optional<std::string> qubit_engine_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run);

// Runs for float64 and complex128 too (the tests compare it with the CPU engines there); throws user_error when
// there is no usable device or the tensor does not fit in its memory.
template <class T>
Result<T> run_gpu_qubit_engine(const HostTensor<T>& tensor, const EngineRun& run);

extern template std::optional<std::string> qubit_engine_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
extern template std::optional<std::string> qubit_engine_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
extern template Result<float> run_gpu_qubit_engine(const HostTensor<float>&, const EngineRun&);
extern template Result<double> run_gpu_qubit_engine(const HostTensor<double>&, const EngineRun&);
extern template std::optional<std::string> qubit_engine_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                                 const EngineRun&);
extern template std::optional<std::string> qubit_engine_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                                 const EngineRun&);
extern template Result<std::complex<float>> run_gpu_qubit_engine(const HostTensor<std::complex<float>>&,
                                                                 const EngineRun&);
extern template Result<std::complex<double>> run_gpu_qubit_engine(const HostTensor<std::complex<double>>&,
                                                                  const EngineRun&);

}  // namespace tensordiag::runtime
