#pragma once
// GPU ranks in the tests: one NCCL rank a device of this process, a thread each
// (runtime/distributed/rank_threads.hpp), and the core assembled from their slabs.
#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"

namespace tensordiag::testing {

inline int device_count() {
  int count = 0;
  while (runtime::cuda_device(count)) ++count;
  return count;
}

// Every rank's result of `run` (called as run(rank's communicator)), a thread a rank on devices
// 0..ranks-1; a rank's error is that rank's message.
template <class T, class Run>
std::vector<runtime::DistributedResult<T>> on_gpu_ranks(int ranks, Run&& run, std::string* error = nullptr) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  std::iota(devices.begin(), devices.end(), 0);
  try {
    return runtime::on_rank_threads(runtime::nccl_ranks_in_process(devices), run);
  } catch (const std::exception& e) {
    if (error != nullptr) error->assign(e.what());
    else FAIL(std::string(e.what()));  // (a char* would print as its address)
    return {};
  }
}

// The whole core from the ranks' slabs.
template <class T>
runtime::HostTensor<T> assembled(const std::vector<runtime::DistributedResult<T>>& parts, int order, int size,
                                 runtime::Layout layout) {
  runtime::HostTensor<T> core(order, size, layout);
  for (const auto& part : parts) {
    const runtime::Slab<T>& slab = part.core;
    for (std::size_t t = 0; t < slab.rows().size(); ++t)
      std::copy(slab.row(t), slab.row(t) + slab.row_length(),
                core.data() + static_cast<std::size_t>(slab.rows()[t]) * slab.row_length());
  }
  return core;
}

inline runtime::Options exact_sweeps(const std::string& rule, int sweeps) {
  runtime::Options options;
  options.rule = rule;
  options.max_sweeps = sweeps;
  options.tol = 0;
  options.stall_tol = 0;
  return options;
}

}  // namespace tensordiag::testing
