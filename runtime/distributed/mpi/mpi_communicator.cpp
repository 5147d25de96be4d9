#include "runtime/distributed/mpi/mpi_communicator.hpp"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw user_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// MPI_Finalize once, at exit, after every communicator is gone.
void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void initialize_once() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  // The ranks' threads (OpenMP) never call MPI: the main thread makes every call.
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (check() turns them into user_errors) instead of aborting the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::atexit(finalize_at_exit);
}

// A datatype of `bytes` contiguous bytes, nested where the count would overflow an int.
MPI_Datatype contiguous_bytes(std::size_t bytes) {
  MPI_Datatype type;
  if (bytes <= static_cast<std::size_t>(INT_MAX)) {
    check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type), "MPI_Type_contiguous");
    return type;
  }
  std::size_t factor = 2;
  while (bytes % factor != 0 || bytes / factor > static_cast<std::size_t>(INT_MAX)) ++factor;
  MPI_Datatype part = contiguous_bytes(bytes / factor);
  check(MPI_Type_contiguous(static_cast<int>(factor), part, &type), "MPI_Type_contiguous");
  MPI_Type_free(&part);
  return type;
}

std::vector<int> as_counts(const std::vector<std::size_t>& rows) {
  std::vector<int> counts;
  for (const std::size_t r : rows) {
    if (r > static_cast<std::size_t>(INT_MAX)) throw internal_error("exchange_rows: too many rows");
    counts.push_back(static_cast<int>(r));
  }
  return counts;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) at[r] = at[r - 1] + counts[r - 1];
  return at;
}

class MpiWorld final : public Communicator {
public:
  MpiWorld() {
    initialize_once();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm host;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
    MPI_Comm_size(host, &on_host_);
    MPI_Comm_rank(host, &host_rank_);
    MPI_Comm_free(&host);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int ranks_on_this_host() const override { return on_host_; }
  int rank_on_this_host() const override { return host_rank_; }

  void sum_parts(std::vector<double>& values) override {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM,
                        MPI_COMM_WORLD),
          "MPI_Allreduce");
  }

  std::vector<double> gather_all(double value) override {
    std::vector<double> all(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD), "MPI_Allgather");
    return all;
  }

  void broadcast(std::string& text, int root) override {
    unsigned long long length = text.size();
    check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
    text.resize(static_cast<std::size_t>(length));
    check(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
  }

  void exchange_rows(const void* send, const std::vector<std::size_t>& send_rows, void* receive,
                     const std::vector<std::size_t>& receive_rows, std::size_t row_bytes) override {
    MPI_Datatype row = contiguous_bytes(row_bytes);
    MPI_Type_commit(&row);
    const std::vector<int> send_counts = as_counts(send_rows), receive_counts = as_counts(receive_rows);
    const std::vector<int> send_at = displacements(send_counts), receive_at = displacements(receive_counts);
    const int code = MPI_Alltoallv(send, send_counts.data(), send_at.data(), row, receive, receive_counts.data(),
                                   receive_at.data(), row, MPI_COMM_WORLD);
    MPI_Type_free(&row);
    check(code, "MPI_Alltoallv");
  }

  void swap_rows(const std::vector<void*>& rows, std::size_t row_bytes, int partner) override {
    MPI_Datatype row = contiguous_bytes(row_bytes);
    MPI_Type_commit(&row);
    int code = MPI_SUCCESS;
    for (void* data : rows) {
      code = MPI_Sendrecv_replace(data, 1, row, partner, 0, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (code != MPI_SUCCESS) break;
    }
    MPI_Type_free(&row);
    check(code, "MPI_Sendrecv_replace");
  }

  std::string description() const override {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string library(version, static_cast<std::size_t>(length));
    library = library.substr(0, library.find_first_of(",\n"));
    return "MPI (" + library + "), " + std::to_string(size_) + (size_ == 1 ? " process" : " processes");
  }

private:
  int rank_ = 0;
  int size_ = 1;
  int on_host_ = 1;
  int host_rank_ = 0;
};

}  // namespace

std::unique_ptr<Communicator> mpi_world_communicator() { return std::make_unique<MpiWorld>(); }

}  // namespace tensordiag::runtime
