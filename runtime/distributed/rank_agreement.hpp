#pragma once
// Decisions the ranks of a distributed run take together (CPU and GPU ranks alike): a stop that one
// rank alone decided would leave the others waiting in their next collective.
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/distributed/communicator.hpp"

namespace tensordiag::runtime {

// Whether any rank says yes.
inline bool on_any_rank(Communicator& comm, bool yes) {
  for (const double vote : comm.gather_all(yes ? 1.0 : 0.0))
    if (vote != 0.0) return true;
  return false;
}

// The cancel check and the per-sweep callback of `settings`, made to answer for every rank at once.
inline void decide_stops_together(RunSettings& settings, Communicator& comm) {
  const CancelCheck cancelled = settings.cancelled;
  settings.cancelled = [&comm, cancelled] { return on_any_rank(comm, cancelled && cancelled()); };
  const auto on_sweep = settings.on_sweep;
  settings.on_sweep = [&comm, on_sweep](const SweepRecord& record) {
    return on_any_rank(comm, on_sweep && on_sweep(record));
  };
}

}  // namespace tensordiag::runtime
