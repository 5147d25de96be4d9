#pragma once
// What a run on a tensor in CUDA device memory returns (diagonalize_on_device, issue 13): the run's
// figures as for any run, with the core and the factors left on the device rather than copied to
// the host, for the caller to hand on (the Python module exports them through DLPack). The
// pointers own device memory: the last copy of one frees it, so no CUDA type appears here.
#include <memory>
#include <vector>

#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
struct DeviceResult {
  Result<T> run;  // history, stop reason, timings, verification; run.core and run.factors stay empty
  int order = 0;
  int size = 0;
  Layout layout = Layout::c_order;  // the input's, as for a host run
  int device = 0;                   // the CUDA device that holds core and factors
  std::shared_ptr<T> core;          // N^D entries in `layout`
  std::vector<std::shared_ptr<T>> factors;  // M_1 .. M_D, each N x N row-major (C order)
};

}  // namespace tensordiag::runtime
