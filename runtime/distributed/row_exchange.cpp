#include "runtime/distributed/row_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tensordiag::runtime {

template <class T>
std::size_t exchange_rows(Slab<T>& slab, const SlabLayout& next, Communicator& comm) {
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
