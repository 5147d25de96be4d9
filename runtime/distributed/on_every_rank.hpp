#pragma once
// on_every_rank (communicator.hpp): a step whose failure on one rank becomes everyone's error.
#include <exception>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

template <class Step>
void on_every_rank(Communicator& comm, Step&& step) {
  std::string failure;
  try {
    step();
  } catch (const std::exception& error) {
    failure = error.what();
    if (failure.empty()) failure = "failed";
  }
  // Each rank says whether it failed; the lowest that did tells the others why.
  const std::vector<double> failed = comm.gather_all(failure.empty() ? 0.0 : 1.0);
  for (int root = 0; root < comm.size(); ++root) {
    if (failed[static_cast<std::size_t>(root)] == 0.0) continue;
    std::string message = failure;
    comm.broadcast(message, root);
    if (comm.size() == 1) throw user_error(message);
    throw user_error("rank " + std::to_string(root) + ": " + message);
  }
}

}  // namespace tensordiag::runtime
