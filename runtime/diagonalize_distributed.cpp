#include "runtime/diagonalize_distributed.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/distributed/distributed_run.hpp"
#include "runtime/distributed/gpu_qubit_ranks.hpp"
#include "runtime/distributed/gpu_slab_engine.hpp"
#include "runtime/distributed/host_memory.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/io/npy_rows.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

namespace {

// What the engines of one process offer that a distributed run does not (yet), and a backend that
// contradicts the ranks (GPU ranks come with a DeviceCommunicator): said before anything is read.
void check_distributed_options(const Options& options, bool gpu_ranks) {
  if (gpu_ranks && options.backend == Backend::cpu)
    throw user_error("GPU ranks (--devices, or --backend cuda under mpirun) run on the GPU, not backend cpu");
  if (!gpu_ranks && options.backend == Backend::cuda)
    throw user_error("backend cuda in a distributed run takes GPU ranks: --devices 0,1 (one process), or --backend "
                     "cuda under mpirun");
  if (options.init == Init::hosvd)
    throw user_error("the HOSVD start (init hosvd) needs the whole tensor in one process: not available in a "
                     "distributed run");
  if (options.structure != Structure::general)
    throw user_error("a distributed run takes structure general only (structure " +
                     std::string(to_string(options.structure)) + " runs on one process)");
}

// The slab, and while the layout changes (row_exchange.cpp) what the change needs beside it: two
// rows where every change of the schedule swaps rows in place (swaps_in_place: two ranks always,
// more ranks as the layouts fall), else a second slab and the rows in flight, up to four slabs;
// GPU ranks exchange in device memory (gpu_slab_engine.hpp), so their host holds the slab alone.
// It must fit the memory its host has available for its ranks: otherwise the run is refused
// before it allocates (Linux would grant the memory and kill the process later).
void check_room(std::size_t slab_bytes, std::size_t row_bytes, const DistributedSchedule& schedule, bool gpu_ranks,
                Communicator& comm) {
  const bool exchanges = schedule.stages.size() > 1 && !gpu_ranks;
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

// How the ranks share the tensor. GPU ranks of an N = 2 tensor (gpu_qubit_ranks.hpp) take 1/P of
// it each: the two rows of the slowest mode on two ranks, half a row each on four, and so on
// (Slab::row_parts), rank r the r-th part in memory order.
DistributedSchedule schedule_for(int size, bool gpu_ranks, Communicator& comm, SweepSchedule asked) {
  if (!gpu_ranks || size != 2) return distributed_schedule(size, comm.size(), asked);
  DistributedSchedule schedule;
  schedule.size = 2;
  schedule.ranks = comm.size();
  SlabLayout layout;  // one rank: both rows; P ranks: part r on rank r (Slab::row_parts)
  if (comm.size() == 1) {
    layout.rows.push_back({0, 1});
  } else {
    for (int r = 0; r < comm.size(); ++r) layout.rows.push_back({r});
  }
  schedule.stages.push_back(DistributedStage{layout, {PivotGroup{PivotPair{0, 1}}}});
  return schedule;
}

// Reads this rank's rows of the first stage (`read_rows` fills them), then runs the sweeps.
template <class T>
DistributedResult<T> run_on_ranks(int order, int size, Layout layout, const Options& asked, Communicator& comm,
                                  const std::function<void(Slab<T>&)>& read_rows) {
  auto* const gpu = dynamic_cast<DeviceCommunicator*>(&comm);
  check_distributed_options(asked, gpu != nullptr);
  Options options = asked;
  options.backend = Backend::cpu;  // plan_run's checks of the options; the ranks decide the backend
  const RunPlan plan = plan_run<T>(options);
  const bool qubit_ranks = gpu != nullptr && size == 2;
  if (qubit_ranks) check_qubit_ranks(order, comm.size());
  const DistributedSchedule schedule = schedule_for(size, gpu != nullptr, comm, options.schedule);
  Slab<T> slab{order, size, layout, comm.rank(), schedule.stages.front().layout, {}};
  if (qubit_ranks) slab.row_parts = std::max(1, comm.size() / 2);
  on_every_rank(comm, [&] {
    const std::size_t entries = schedule.most_rows() * slab.row_length();
    check_room(entries * sizeof(T), slab.row_length() * sizeof(T), schedule, gpu != nullptr, comm);
    slab.values.resize(entries);
    read_rows(slab);
  });
  stop_if_cancelled(options.cancelled);
  DistributedResult<T> out =
      qubit_ranks ? run_gpu_qubit_ranks(std::move(slab), plan.run.rule, plan.run.settings, *gpu)
      : gpu       ? run_gpu_slab_engine(std::move(slab), schedule, plan.run.rule, plan.run.settings, *gpu)
                  : run_distributed_rule(std::move(slab), schedule, plan.run.rule.name, plan.run.settings, comm);
  describe_run(out.run, options, plan, gpu ? "cuda_distributed" : "cpu_distributed");
  out.run.device = gpu ? "GPU ranks (" + out.run.device + " and the others): " + comm.description()
                       : "CPU ranks: " + comm.description();
  out.distribution.layout =
      !qubit_ranks ? "rows of mode " + std::to_string(out.core.sliced_mode() + 1) +
                         " (the slowest in memory), whole index pairs per rank"
      : comm.size() == 1 ? std::string("the whole tensor on one rank")
                         : "1/" + std::to_string(comm.size()) + " of the tensor a rank: the " +
                               std::to_string(std::countr_zero(static_cast<unsigned>(comm.size()))) +
                               " slowest memory modes' indices spell the rank";
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
                         [&](Slab<T>& slab) {
                           read_npy_rows(input, shape, slab.rows(), slab.values.data(), slab.row_parts);
                         });
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
      // The first non-finite entry of the row, found by all threads (rows reach gigabytes).
      std::size_t first_bad = length;
#pragma omp parallel for reduction(min : first_bad) schedule(static)
      for (std::size_t k = 0; k < length; ++k)
        if (!std::isfinite(from[k])) first_bad = std::min(first_bad, k);
      if (first_bad < length)
        throw user_error("the tensor contains NaN or Inf at flat index " +
                         std::to_string(static_cast<std::size_t>(rows[t]) * length + first_bad));
      std::memcpy(slab.row(t), from, length * sizeof(T));
    }
  });
}

template DistributedResult<float> diagonalize_distributed(const std::filesystem::path&, const Options&, Communicator&);
template DistributedResult<double> diagonalize_distributed(const std::filesystem::path&, const Options&, Communicator&);
template DistributedResult<float> diagonalize_distributed(const HostTensor<float>&, const Options&, Communicator&);
template DistributedResult<double> diagonalize_distributed(const HostTensor<double>&, const Options&, Communicator&);

}  // namespace tensordiag::runtime
