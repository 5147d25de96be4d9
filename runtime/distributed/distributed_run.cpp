#include "runtime/distributed/distributed_run.hpp"

#include <optional>

#include "dsl/builtin_rules.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/distributed/distributed_engine.hpp"

namespace tensordiag::runtime {

template <class T>
DistributedResult<T> run_distributed_rule(Slab<T> slab, const DistributedSchedule& schedule, const std::string& rule,
                                          const RunSettings& settings, Communicator& comm) {
  std::optional<DistributedResult<T>> result;
  const bool known = dsl::with_builtin_rule(rule, [&](const auto& built_in) {
    result = run_distributed_engine(std::move(slab), schedule, built_in, settings, comm);
  });
  if (!known) throw internal_error("the distributed engine has no built-in rule '" + rule + "'");
  return std::move(*result);
}

template DistributedResult<float> run_distributed_rule(Slab<float>, const DistributedSchedule&, const std::string&,
                                                       const RunSettings&, Communicator&);
template DistributedResult<double> run_distributed_rule(Slab<double>, const DistributedSchedule&, const std::string&,
                                                        const RunSettings&, Communicator&);

}  // namespace tensordiag::runtime
