#pragma once
// What a distributed run returns on each rank: its rows of the core, and everything else a run
// returns (the factors, the same on every rank, the history, the stop reason, the timings), with
// the figures of the distribution for report.json.
#include <cstddef>
#include <optional>
#include <string>

#include "runtime/algorithm/run_result.hpp"
#include "runtime/distributed/slab.hpp"

namespace tensordiag::runtime {

struct DistributionFigures {
  int ranks = 1;
  std::string transport;            // Communicator::description()
  std::string layout;               // what is spread, in words
  int stages_per_sweep = 1;         // layouts a sweep goes through
  std::size_t bytes_per_sweep = 0;  // sent by all ranks together in a sweep (rows_moved x row bytes)
  std::size_t bytes_sent = 0;       // this rank, over the whole run
  double exchange_seconds = 0.0;    // this rank's time in the exchanges (an overlapped one's from its first row's leaving)
  int overlapped_changes = 0;       // GPU ranks: changes started during the pass before them (overlapped_change.hpp)
  int pipelined_changes = 0;        // of those, changes whose pass after them started as their pieces landed
  // Options::verify: max_n ||M_n^T M_n - I||_F. A distributed run does not compute the
  // reconstruction error, which needs the whole tensor in one process.
  std::optional<double> orthogonality_error;
};

template <class T>
struct DistributedResult {
  Slab<T> core;   // this rank's rows of C, in the last stage's layout
  Result<T> run;  // all the rest; run.core stays empty
  DistributionFigures distribution;
};

}  // namespace tensordiag::runtime
