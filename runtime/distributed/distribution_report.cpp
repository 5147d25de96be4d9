#include "runtime/distributed/distribution_report.hpp"

namespace tensordiag::runtime {

nlohmann::ordered_json distribution_report(const DistributionFigures& figures) {
  return {{"ranks", figures.ranks},
          {"transport", figures.transport},
          {"layout", figures.layout},
          {"stages_per_sweep", figures.stages_per_sweep},
          {"bytes_per_sweep", figures.bytes_per_sweep},
          {"rank0_bytes_sent", figures.bytes_sent},
          {"rank0_exchange_seconds", figures.exchange_seconds},
          {"overlapped_changes", figures.overlapped_changes},
          {"pipelined_changes", figures.pipelined_changes}};
}

}  // namespace tensordiag::runtime
