#pragma once
// One tensor spread over the ranks of a Communicator (issue 14): each rank holds only its rows of
// the slowest memory mode, reads only those from the file, and ends with its rows of the core and
// a copy of the factors. CPU ranks (the CPU engine's group step on each slab); one rank is a valid
// run (the same result as diagonalize() with the same group order). Every rank must call it with
// the same arguments; an error on any rank is the same user_error on every rank.
#include <filesystem>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// The tensor of the .npy file `input`, in dtype T (converted as it is read).
template <class T>
DistributedResult<T> diagonalize_distributed(const std::filesystem::path& input, const Options& options,
                                             Communicator& comm);

// A tensor every rank holds whole (tests, small runs): each rank takes its rows of it.
template <class T>
DistributedResult<T> diagonalize_distributed(const HostTensor<T>& tensor, const Options& options, Communicator& comm);

extern template DistributedResult<float> diagonalize_distributed(const std::filesystem::path&, const Options&,
                                                                 Communicator&);
extern template DistributedResult<double> diagonalize_distributed(const std::filesystem::path&, const Options&,
                                                                  Communicator&);
extern template DistributedResult<float> diagonalize_distributed(const HostTensor<float>&, const Options&,
                                                                 Communicator&);
extern template DistributedResult<double> diagonalize_distributed(const HostTensor<double>&, const Options&,
                                                                  Communicator&);

}  // namespace tensordiag::runtime
