#pragma once
// Two kinds of failure, kept apart as in Halide: user_error means "your input is wrong" (the CLI
// prints it as one line and exits non-zero); internal_error means "this is our bug". A third way
// to end, run_cancelled, is neither: the caller asked the work to stop (runtime/algorithm/cancellation.hpp).
#include <stdexcept>
#include <string>

namespace tensordiag {

struct user_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct internal_error : std::logic_error {
  using std::logic_error::logic_error;
};

struct run_cancelled : std::runtime_error {
  run_cancelled() : std::runtime_error("the run was cancelled by its caller") {}
};

}  // namespace tensordiag
