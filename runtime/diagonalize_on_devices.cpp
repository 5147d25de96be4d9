#include "runtime/diagonalize_on_devices.hpp"

#include <algorithm>
#include <utility>

#include "runtime/algorithm/verification.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"

namespace tensordiag::runtime {

template <class T>
OnDevicesResult<T> diagonalize_on_devices(const HostTensor<T>& tensor, const Options& options,
                                          const std::vector<int>& devices) {
  const auto ranks = nccl_ranks_in_process(devices);
  Options per_rank = options;
  per_rank.verify = false;  // the orthogonality alone there; the whole verification below
  std::vector<DistributedResult<T>> parts = on_rank_threads(ranks, [&](DeviceCommunicator& comm) {
    Options mine = per_rank;
    if (comm.rank() != 0) mine.on_sweep = nullptr;  // the caller's callback once a sweep, from rank 0's thread
    return diagonalize_distributed(tensor, mine, comm);
  });
  Result<T> result = std::move(parts.front().run);
  result.core = HostTensor<T>(tensor.order(), tensor.size(), tensor.layout());
  for (const DistributedResult<T>& part : parts) {
    const Slab<T>& slab = part.core;
    for (std::size_t t = 0; t < slab.rows().size(); ++t)
      std::copy(slab.row(t), slab.row(t) + slab.row_length(),
                result.core.data() + static_cast<std::size_t>(slab.rows()[t]) * slab.row_length());
  }
  if (options.verify) result.verification = verify(tensor, result);
  return {std::move(result), parts.front().distribution};
}

template OnDevicesResult<float> diagonalize_on_devices(const HostTensor<float>&, const Options&,
                                                       const std::vector<int>&);
template OnDevicesResult<double> diagonalize_on_devices(const HostTensor<double>&, const Options&,
                                                        const std::vector<int>&);

}  // namespace tensordiag::runtime
