#pragma once
// The GPU ranks of one process (nccl_ranks_in_process), each driven by a thread of its own, as NCCL
// asks of ranks that share a process.
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "runtime/distributed/device_communicator.hpp"

namespace tensordiag::runtime {

// step(rank's communicator) on every rank at once, a thread each; each rank's value, in rank
// order. When a rank throws, the lowest such rank's exception is rethrown after every thread has
// ended (ranks agree on errors through on_every_rank, so they end rather than wait).
template <class Step>
auto on_rank_threads(const std::vector<std::unique_ptr<DeviceCommunicator>>& ranks, Step&& step) {
  using Value = std::invoke_result_t<Step&, DeviceCommunicator&>;
  std::vector<std::optional<Value>> values(ranks.size());
  std::vector<std::exception_ptr> errors(ranks.size());
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    threads.emplace_back([&, r] {
      try {
        values[r].emplace(step(*ranks[r]));
      } catch (...) {
        errors[r] = std::current_exception();
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  std::vector<Value> out;
  for (auto& value : values) out.push_back(std::move(*value));
  return out;
}

}  // namespace tensordiag::runtime
