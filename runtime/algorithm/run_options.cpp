#include "runtime/algorithm/run_options.hpp"

#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

Backend parse_backend(std::string_view name) {
  if (name == "auto") return Backend::automatic;
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  throw user_error("unknown backend '" + std::string(name) + "': use auto, cpu or cuda");
}

std::string_view to_string(PivotNorm norm) {
  switch (norm) {
    case PivotNorm::automatic: return "auto";
    case PivotNorm::device: return "device";
    case PivotNorm::cusolver: return "cusolver";
  }
  return "?";
}

PivotNorm parse_pivot_norm(std::string_view name) {
  if (name == "auto") return PivotNorm::automatic;
  if (name == "device") return PivotNorm::device;
  if (name == "cusolver") return PivotNorm::cusolver;
  throw user_error("unknown pivot norm '" + std::string(name) + "': use auto, device or cusolver");
}

std::string_view to_string(SweepSchedule schedule) {
  switch (schedule) {
    case SweepSchedule::automatic: return "auto";
    case SweepSchedule::xor_subspaces: return "xor";
    case SweepSchedule::round_robin: return "round-robin";
  }
  return "?";
}

std::string_view to_string(Init init) { return init == Init::hosvd ? "hosvd" : "identity"; }

Init parse_init(std::string_view name) {
  if (name == "identity") return Init::identity;
  if (name == "hosvd" || name == "svd") return Init::hosvd;
  throw user_error("unknown init '" + std::string(name) + "': use identity or hosvd");
}

SweepSchedule parse_schedule(std::string_view name) {
  if (name == "auto") return SweepSchedule::automatic;
  if (name == "xor") return SweepSchedule::xor_subspaces;
  if (name == "round-robin") return SweepSchedule::round_robin;
  throw user_error("unknown schedule '" + std::string(name) + "': use auto, xor or round-robin");
}

}  // namespace tensordiag::runtime
