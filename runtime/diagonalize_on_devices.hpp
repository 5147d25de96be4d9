#pragma once
// A tensor in host memory spread over GPUs of this machine (Python `devices=`, issue 14 item 5):
// one GPU rank a device in this process (NCCL), each taking its rows of the tensor, then the
// ranks' rows gathered into one core. The result is a whole run's: the core, the factors, the
// history, and with Options::verify the reconstruction and orthogonality errors (on the host,
// which holds the whole tensor); beside it the distribution's figures (report.json's "distributed").
#include <vector>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/distributed/distributed_result.hpp"

namespace tensordiag::runtime {

template <class T>
struct OnDevicesResult {
  Result<T> run;                     // the core gathered, the factors, the history, the verification
  DistributionFigures distribution;  // rank 0's (its bytes sent and exchange time its own)
};

// `devices`: distinct CUDA indices, one rank each, rank r on devices[r]. Throws user_error where a
// distributed run on GPU ranks cannot take the request (diagonalize_distributed.hpp).
template <class T>
OnDevicesResult<T> diagonalize_on_devices(const HostTensor<T>& tensor, const Options& options,
                                          const std::vector<int>& devices);

extern template OnDevicesResult<float> diagonalize_on_devices(const HostTensor<float>&, const Options&,
                                                              const std::vector<int>&);
extern template OnDevicesResult<double> diagonalize_on_devices(const HostTensor<double>&, const Options&,
                                                               const std::vector<int>&);

}  // namespace tensordiag::runtime
