#include "runtime/diagonalize_distributed.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/distributed/distributed_run.hpp"
#include "runtime/distributed/host_memory.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/io/npy_rows.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

namespace {

// What the engines of one process offer that a distributed run does not (yet): said before
// anything is read.
void check_distributed_options(const Options& options) {
  if (options.backend == Backend::cuda)
    throw user_error("a distributed run uses CPU ranks: GPU ranks (NCCL) are not built yet; use --backend cpu or auto");
  if (options.structure != Structure::general)
    throw user_error("a distributed run takes structure general only (structure " +
                     std::string(to_string(options.structure)) + " runs on one process)");
}

// The slab, and while the layout changes (row_exchange.cpp) what the change needs beside it: two
// rows where every change of the schedule swaps rows in place (swaps_in_place: two ranks always,
// more ranks as the layouts fall), else a second slab and the rows in flight, up to four slabs. It must fit the memory its host has available for its ranks: otherwise the
// run is refused before it allocates (Linux would grant the memory and kill the process later).
void check_room(std::size_t slab_bytes, std::size_t row_bytes, const DistributedSchedule& schedule,
                Communicator& comm) {
  const bool exchanges = schedule.stages.size() > 1;
  const bool in_place = swaps_in_place(schedule);
  const std::size_t need = !exchanges ? slab_bytes : in_place ? slab_bytes + 2 * row_bytes : 4 * slab_bytes;
  const auto available = available_host_memory();
  if (!available) return;
  const std::size_t share = *available / static_cast<std::size_t>(comm.ranks_on_this_host());
  if (need > share)
    throw user_error("the tensor does not fit the ranks' memory: a rank needs " + std::to_string(need) +
                     " bytes (its slab of " + std::to_string(slab_bytes) +
                     (!exchanges ? "" : in_place ? " and two rows for the exchanges" : " and the exchanges' buffers") +
                     "), and its host has " + std::to_string(share) + " available for each of its " +
                     std::to_string(comm.ranks_on_this_host()) + " ranks: use more ranks or hosts");
}

// Reads this rank's rows of the first stage (`read_rows` fills them), then runs the sweeps.
template <class T>
DistributedResult<T> run_on_ranks(int order, int size, Layout layout, const Options& asked, Communicator& comm,
                                  const std::function<void(Slab<T>&)>& read_rows) {
  check_distributed_options(asked);
  Options options = asked;
  options.backend = Backend::cpu;
  const RunPlan plan = plan_run<T>(options);
  const DistributedSchedule schedule = distributed_schedule(size, comm.size(), options.schedule);
  Slab<T> slab{order, size, layout, comm.rank(), schedule.stages.front().layout, {}};
  on_every_rank(comm, [&] {
    const std::size_t entries = schedule.most_rows() * slab.row_length();
    check_room(entries * sizeof(T), slab.row_length() * sizeof(T), schedule, comm);
    slab.values.resize(entries);
    read_rows(slab);
  });
  stop_if_cancelled(options.cancelled);
  DistributedResult<T> out = run_distributed_rule(std::move(slab), schedule, plan.run.rule.name, plan.run.settings, comm);
  describe_run(out.run, options, plan, "cpu_distributed");
  out.run.device = "CPU ranks: " + comm.description();
  out.distribution.layout = "rows of mode " + std::to_string(out.core.sliced_mode() + 1) +
                            " (the slowest in memory), whole index pairs per rank";
  if (options.verify) out.distribution.orthogonality_error = orthogonality_error(out.run.factors);
  return out;
}

}  // namespace

template <class T>
DistributedResult<T> diagonalize_distributed(const std::filesystem::path& input, const Options& options,
                                             Communicator& comm) {
  TensorShape shape;
  on_every_rank(comm, [&] { shape = read_tensor_shape(input); });
  return run_on_ranks<T>(shape.order, shape.size, shape.layout, options, comm,
                         [&](Slab<T>& slab) { read_npy_rows(input, shape, slab.rows(), slab.values.data()); });
}

template <class T>
DistributedResult<T> diagonalize_distributed(const HostTensor<T>& tensor, const Options& options, Communicator& comm) {
  check_tensor_shape(std::vector<std::size_t>(static_cast<std::size_t>(tensor.order()),
                                              static_cast<std::size_t>(tensor.size())));
  return run_on_ranks<T>(tensor.order(), tensor.size(), tensor.layout(), options, comm, [&](Slab<T>& slab) {
    const std::size_t length = slab.row_length();
    const std::vector<int>& rows = slab.rows();
    for (std::size_t t = 0; t < rows.size(); ++t) {
      const T* from = tensor.data() + static_cast<std::size_t>(rows[t]) * length;
      for (std::size_t k = 0; k < length; ++k)
        if (!std::isfinite(from[k]))
          throw user_error("the tensor contains NaN or Inf at flat index " +
                           std::to_string(static_cast<std::size_t>(rows[t]) * length + k));
      std::memcpy(slab.row(t), from, length * sizeof(T));
    }
  });
}

template DistributedResult<float> diagonalize_distributed(const std::filesystem::path&, const Options&, Communicator&);
template DistributedResult<double> diagonalize_distributed(const std::filesystem::path&, const Options&, Communicator&);
template DistributedResult<float> diagonalize_distributed(const HostTensor<float>&, const Options&, Communicator&);
template DistributedResult<double> diagonalize_distributed(const HostTensor<double>&, const Options&, Communicator&);

}  // namespace tensordiag::runtime
