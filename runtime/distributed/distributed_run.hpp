#pragma once
// The distributed engine with a built-in rule named at run time (distributed_engine.hpp holds the
// engine for any DSL rule; this is its one instantiation per built-in rule and dtype).
#include <string>

#include "runtime/algorithm/run_settings.hpp"
#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/distributed/distributed_schedule.hpp"

namespace tensordiag::runtime {

// Throws internal_error for a rule that is not built in.
template <class T>
DistributedResult<T> run_distributed_rule(Slab<T> slab, const DistributedSchedule& schedule, const std::string& rule,
                                          const RunSettings& settings, Communicator& comm);

extern template DistributedResult<float> run_distributed_rule(Slab<float>, const DistributedSchedule&,
                                                              const std::string&, const RunSettings&, Communicator&);
extern template DistributedResult<double> run_distributed_rule(Slab<double>, const DistributedSchedule&,
                                                               const std::string&, const RunSettings&, Communicator&);

}  // namespace tensordiag::runtime
