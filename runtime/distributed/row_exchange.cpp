#include "runtime/distributed/row_exchange.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// Rows that go from rank r (now) to rank s (next), for every r and s.
std::vector<std::vector<std::size_t>> moving_rows(const SlabLayout& now, const SlabLayout& next) {
  const auto ranks = static_cast<std::size_t>(now.ranks());
  std::vector<std::vector<std::size_t>> counts(ranks, std::vector<std::size_t>(ranks, 0));
  for (std::size_t r = 0; r < ranks; ++r)
    for (const int index : now.rows[r]) ++counts[r][static_cast<std::size_t>(next.owner(index))];
  return counts;
}

// The in-place change: pairwise swaps, then the rows put in next's order by following the
// permutation's cycles with one row of scratch.
template <class T>
std::size_t swap_rows_in_place(Slab<T>& slab, const SlabLayout& next, Communicator& comm) {
  const int me = slab.rank;
  const std::size_t length = slab.row_length();
  std::vector<int> holds = slab.rows();  // the index each position holds, updated as rows arrive
  std::size_t sent = 0;
  for (int k = 1; k < comm.size(); ++k) {
    const int partner = me ^ k;
    std::vector<void*> outgoing;
    std::vector<std::size_t> positions;
    for (std::size_t t = 0; t < holds.size(); ++t)
      if (next.owner(holds[t]) == partner) {
        outgoing.push_back(slab.row(t));
        positions.push_back(t);
      }
    std::vector<int> incoming;  // the partner's rows for me, in its (ascending) order
    for (const int index : slab.held.rows[static_cast<std::size_t>(partner)])
      if (next.owner(index) == me) incoming.push_back(index);
    if (incoming.size() != outgoing.size()) throw internal_error("swap_rows_in_place: an unbalanced change");
    if (outgoing.empty()) continue;
    comm.swap_rows(outgoing, length * sizeof(T), partner);
    for (std::size_t j = 0; j < positions.size(); ++j) holds[positions[j]] = incoming[j];
    sent += outgoing.size() * length * sizeof(T);
  }
  // Position t must hold next's t-th row: swap each row into its place until every cycle closes.
  const std::vector<int>& wanted = next.rows[static_cast<std::size_t>(me)];
  std::vector<T> scratch(length);
  for (std::size_t t = 0; t < holds.size(); ++t)
    while (holds[t] != wanted[t]) {
      const auto place = static_cast<std::size_t>(std::lower_bound(wanted.begin(), wanted.end(), holds[t]) - wanted.begin());
      std::memcpy(scratch.data(), slab.row(place), length * sizeof(T));
      std::memcpy(slab.row(place), slab.row(t), length * sizeof(T));
      std::memcpy(slab.row(t), scratch.data(), length * sizeof(T));
      std::swap(holds[t], holds[place]);
    }
  slab.held = next;
  return sent;
}

}  // namespace

bool swaps_in_place(const SlabLayout& now, const SlabLayout& next) {
  const auto ranks = static_cast<std::size_t>(now.ranks());
  if (!std::has_single_bit(ranks)) return false;
  const auto counts = moving_rows(now, next);
  for (std::size_t r = 0; r < ranks; ++r)
    for (std::size_t s = 0; s < ranks; ++s)
      if (counts[r][s] != counts[s][r]) return false;
  return true;
}

bool swaps_in_place(const DistributedSchedule& schedule) {
  for (std::size_t s = 0; s < schedule.stages.size(); ++s)
    if (!swaps_in_place(schedule.stages[s].layout, schedule.stages[(s + 1) % schedule.stages.size()].layout)) return false;
  return true;
}

template <class T>
std::size_t exchange_rows(Slab<T>& slab, const SlabLayout& next, Communicator& comm) {
  if (swaps_in_place(slab.held, next)) return swap_rows_in_place(slab, next, comm);
  const int ranks = comm.size();
  const int me = slab.rank;
  const std::size_t length = slab.row_length();
  const std::size_t row_bytes = length * sizeof(T);
  const std::vector<int>& mine = slab.rows();

  // Sent: my rows that go elsewhere, grouped by their new rank, ascending within each.
  std::vector<std::size_t> send_rows(static_cast<std::size_t>(ranks), 0);
  std::vector<std::vector<std::size_t>> sent(static_cast<std::size_t>(ranks));  // positions in my slab
  for (std::size_t t = 0; t < mine.size(); ++t) {
    const int to = next.owner(mine[t]);
    if (to != me) sent[static_cast<std::size_t>(to)].push_back(t);
  }
  std::vector<T> send;
  for (int r = 0; r < ranks; ++r) {
    send_rows[static_cast<std::size_t>(r)] = sent[static_cast<std::size_t>(r)].size();
    for (const std::size_t t : sent[static_cast<std::size_t>(r)]) send.insert(send.end(), slab.row(t), slab.row(t) + length);
  }
  // Received: the rows of my new layout that others hold now, by their rank, ascending.
  const std::vector<int>& wanted = next.rows[static_cast<std::size_t>(me)];
  std::vector<std::size_t> receive_rows(static_cast<std::size_t>(ranks), 0);
  std::vector<std::vector<int>> received(static_cast<std::size_t>(ranks));
  for (const int index : wanted) {
    const int from = slab.held.owner(index);
    if (from != me) received[static_cast<std::size_t>(from)].push_back(index);
  }
  std::size_t incoming = 0;
  for (int r = 0; r < ranks; ++r) incoming += receive_rows[static_cast<std::size_t>(r)] = received[static_cast<std::size_t>(r)].size();
  std::vector<T> receive(incoming * length);
  comm.exchange_rows(send.data(), send_rows, receive.data(), receive_rows, row_bytes);

  // The new slab: each wanted row from my old slab or from what arrived.
  std::vector<T> values(slab.values.size());
  std::size_t arrived = 0;
  std::vector<const T*> source_of(static_cast<std::size_t>(slab.size), nullptr);
  for (int r = 0; r < ranks; ++r)
    for (const int index : received[static_cast<std::size_t>(r)]) source_of[static_cast<std::size_t>(index)] = receive.data() + arrived++ * length;
  for (std::size_t t = 0; t < mine.size(); ++t) source_of[static_cast<std::size_t>(mine[t])] = slab.row(t);
  for (std::size_t t = 0; t < wanted.size(); ++t) {
    const T* from = source_of[static_cast<std::size_t>(wanted[t])];
    std::memcpy(values.data() + t * length, from, row_bytes);
  }
  slab.values.swap(values);
  slab.held = next;
  return send.size() * sizeof(T);
}

template std::size_t exchange_rows(Slab<float>&, const SlabLayout&, Communicator&);
template std::size_t exchange_rows(Slab<double>&, const SlabLayout&, Communicator&);

}  // namespace tensordiag::runtime
