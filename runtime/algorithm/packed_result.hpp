#pragma once
// What a packed symmetric run returns (diagonalize_packed.hpp): the core in packed storage, and
// everything else as a full run's Result (factors: the one Q D times; history; timings; checks),
// whose own core stays empty.
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

template <class T>
struct PackedResult {
  PackedSymmetricTensor<T> core;
  Result<T> run;
};

}  // namespace tensordiag::runtime
