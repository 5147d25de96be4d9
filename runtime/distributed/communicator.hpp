#pragma once
// What the distributed engine asks of the transport between its ranks (issue 14): one tensor is
// spread over `size()` ranks, each running this code on its own slab. The transport is an existing
// library's (MPI for CPU ranks: mpi/mpi_communicator.hpp), never a home-made one; a run of one rank
// needs none (one_rank_communicator()).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tensordiag::runtime {

class Communicator {
public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Sums `values` over the ranks, in place, the same result on every rank. Exact where each entry
  // is nonzero on one rank at most, which is how the engine uses it (a gather of parts).
  virtual void sum_parts(std::vector<double>& values) = 0;
  // Every rank's `value`, in rank order, on every rank.
  virtual std::vector<double> gather_all(double value) = 0;
  // `text` of rank `root` on every rank.
  virtual void broadcast(std::string& text, int root) = 0;
  // All-to-all of whole rows of `row_bytes` each: `send` holds send_rows[r] rows for rank r, rank
  // after rank; `receive` gets receive_rows[r] rows from rank r, rank after rank.
  virtual void exchange_rows(const void* send, const std::vector<std::size_t>& send_rows, void* receive,
                             const std::vector<std::size_t>& receive_rows, std::size_t row_bytes) = 0;
  // Swaps rows with rank `partner` in place: the rows at `rows` (each `row_bytes`, in this rank's
  // slab) go to the partner, and the partner's, in its order, arrive in their places. Both ranks
  // call it with as many rows, each naming the other.
  virtual void swap_rows(const std::vector<void*>& rows, std::size_t row_bytes, int partner) = 0;
  // How many ranks (this one included) share this rank's host, and so its memory; and this rank's
  // place among them (0-based): GPU ranks take that device of the host.
  virtual int ranks_on_this_host() const = 0;
  virtual int rank_on_this_host() const = 0;
  // Where the ranks run, for reports: "one process", "MPI (Open MPI 4.1.4), 4 processes".
  virtual std::string description() const = 0;
};

// The transport of a run of one rank: every collective is the identity.
std::unique_ptr<Communicator> one_rank_communicator();

// A sum over the ranks in a fixed order (rank 0 first): the same figure on every rank, and the same
// figure again when the run is repeated.
inline double sum_over_ranks(Communicator& comm, double part) {
  double sum = 0.0;
  for (const double value : comm.gather_all(part)) sum += value;
  return sum;
}

// Runs `step` on every rank and lets all ranks agree on how it went: when it throws on some rank,
// every rank throws a user_error with the message of the lowest such rank ("rank 2: ..."), so each
// surviving process reports the same one line. Without this, one rank's error would leave the
// others waiting in their next collective.
template <class Step>
void on_every_rank(Communicator& comm, Step&& step);

}  // namespace tensordiag::runtime

#include "runtime/distributed/on_every_rank.hpp"
