#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::runtime {

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::max_sweeps: return "max_sweeps";
    case StopReason::tolerance: return "tolerance";
    case StopReason::stalled: return "stalled";
    case StopReason::callback: return "callback";
  }
  return "?";
}

}  // namespace tensordiag::runtime
