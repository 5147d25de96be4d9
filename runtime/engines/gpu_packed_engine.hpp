#pragma once
// The GPU engine for symmetric tensors in packed storage (issue 11, item 1): the CPU packed
// engine's run (cpu_packed_engine.hpp: the same schedule, angles and class rotations, the same
// arithmetic in the same order) with its steps as the packed_symmetric kernels
// (kernels_templates/packed_symmetric.cu). Per group: packed_angles (every pair's rotation and its
// symmetric powers), packed_rotate once a pair (the pairs of a group share the entries that hold
// indices of both), packed_factor; a sweep's launches replayed as one CUDA graph; the figures once
// a sweep. The tensor stays packed on the device: binom(N + D - 1, D) entries, Q, and a few
// small buffers. Order D <= 12 (codegen::packed_symmetric_max_order).
#include <optional>
#include <string>

#include "codegen/lowered_rule.hpp"
#include "runtime/algorithm/packed_result.hpp"
#include "runtime/algorithm/run_settings.hpp"

namespace tensordiag::runtime {

// The device bytes a run holds: the packed tensor, Q, and 64 MB for the rest.
template <class T>
double gpu_packed_bytes_needed(int order, int size);

// Why the GPU packed engine cannot take a tensor of this shape on this machine (an order over 12,
// a shape codegen refuses (N > 32768), no GPU, more device memory than is free; asked in that
// order), or nullopt.
template <class T>
std::optional<std::string> gpu_packed_declines(int order, int size);

template <class T>
PackedResult<T> run_gpu_packed_engine(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings,
                                      const codegen::LoweredRule& rule);

extern template double gpu_packed_bytes_needed<float>(int, int);
extern template double gpu_packed_bytes_needed<double>(int, int);
extern template std::optional<std::string> gpu_packed_declines<float>(int, int);
extern template std::optional<std::string> gpu_packed_declines<double>(int, int);
extern template PackedResult<float> run_gpu_packed_engine(const PackedSymmetricTensor<float>&, const RunSettings&,
                                                          const codegen::LoweredRule&);
extern template PackedResult<double> run_gpu_packed_engine(const PackedSymmetricTensor<double>&, const RunSettings&,
                                                           const codegen::LoweredRule&);

}  // namespace tensordiag::runtime
