#pragma once
// report.json's "distributed" object (README, Outputs): a distributed run's figures as the command
// writes them and Python's Result.distributed holds them, rank 0's own for the bytes it sent and its
// time in the exchanges.
#include <nlohmann/json.hpp>

#include "runtime/distributed/distributed_result.hpp"

namespace tensordiag::runtime {

nlohmann::ordered_json distribution_report(const DistributionFigures& figures);

}  // namespace tensordiag::runtime
