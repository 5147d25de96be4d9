// Slabs of row parts (runtime/distributed/slab.hpp: an N = 2 tensor over P > 2 GPU ranks holds
// 1/P of the tensor a rank, each row cut into P/2 parts): the ranks' convergence figures add up to
// the whole tensor's, the file is read and written part by part to the same bytes, and the counts
// of ranks the N = 2 path cannot take are refused before anything is read.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/gpu_qubit_ranks.hpp"
#include "runtime/distributed/slab_figures.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_rows.hpp"

using namespace tensordiag;
using runtime::Layout;

namespace {

// The slab of rank `rank` of `ranks`, each holding one row part (`ranks` / 2 parts a row), or
// whole rows (`parts` 1: rank r holds the rows r, r + ranks, ..).
runtime::Slab<double> part_slab(const runtime::HostTensor<double>& tensor, int rank, int ranks, int parts) {
  runtime::SlabLayout layout;
  const int pieces = tensor.size() * parts;  // rows or parts of rows in the whole tensor
  layout.rows.resize(static_cast<std::size_t>(ranks));
  for (int i = 0; i < pieces; ++i) layout.rows[static_cast<std::size_t>(i % ranks)].push_back(i);
  runtime::Slab<double> slab{tensor.order(), tensor.size(), tensor.layout(), rank, layout, {}};
  slab.row_parts = parts;
  for (const int piece : slab.rows())
    slab.values.insert(slab.values.end(), tensor.data() + static_cast<std::size_t>(piece) * slab.row_length(),
                       tensor.data() + static_cast<std::size_t>(piece + 1) * slab.row_length());
  return slab;
}

// off(T)^2, ||diag T||^2 and trace(T), straight from every multi-index.
runtime::SlabFigures whole_figures(const runtime::HostTensor<double>& tensor) {
  const auto strides = runtime::strides_of(tensor.order(), tensor.size(), tensor.layout());
  std::size_t diagonal_step = 0;
  for (const auto stride : strides) diagonal_step += static_cast<std::size_t>(stride);
  runtime::SlabFigures out;
  for (std::size_t k = 0; k < tensor.count(); ++k) {
    const double v = tensor.data()[k];
    const bool diagonal = k % diagonal_step == 0 && k / diagonal_step < static_cast<std::size_t>(tensor.size());
    (diagonal ? out.diag_norm2 : out.off_norm2) += v * v;
    if (diagonal) out.trace += v;
  }
  return out;
}

}  // namespace

TEST_CASE("slab figures: the ranks' parts of rows add up to the whole tensor's off, diagonal and trace") {
  const auto comm = runtime::one_rank_communicator();
  struct Case {
    int order, size, ranks, parts;
    Layout layout;
  };
  for (const Case c : {Case{12, 2, 4, 2, Layout::c_order}, Case{11, 2, 8, 4, Layout::fortran_order},
                       Case{9, 2, 16, 8, Layout::c_order}, Case{4, 5, 2, 1, Layout::c_order},
                       Case{3, 7, 3, 1, Layout::fortran_order}}) {
    CAPTURE(c.order);
    CAPTURE(c.ranks);
    const auto tensor = testing::random_tensor<double>(c.order, c.size, 4100u + static_cast<unsigned>(c.order), c.layout);
    const runtime::SlabFigures expected = whole_figures(tensor);
    runtime::SlabFigures sum;
    int diagonal_holders = 0;
    for (int r = 0; r < c.ranks; ++r) {
      const runtime::SlabFigures part = runtime::slab_figures(part_slab(tensor, r, c.ranks, c.parts), *comm);
      sum.off_norm2 += part.off_norm2;
      sum.diag_norm2 += part.diag_norm2;
      sum.trace += part.trace;
      diagonal_holders += part.diag_norm2 > 0 ? 1 : 0;
    }
    CHECK(sum.off_norm2 == doctest::Approx(expected.off_norm2).epsilon(1e-13));
    CHECK(sum.diag_norm2 == doctest::Approx(expected.diag_norm2).epsilon(1e-13));
    CHECK(sum.trace == doctest::Approx(expected.trace).epsilon(1e-12));
    // Each diagonal entry was found once: N of them, none counted twice or missed.
    CHECK(diagonal_holders == std::min(c.size, c.ranks));
    CHECK(expected.diag_norm2 > 0);
  }
}

TEST_CASE("npy rows: a tensor written and read back in parts of rows is the tensor") {
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    const auto tensor = testing::random_tensor<double>(10, 2, layout == Layout::c_order ? 4200u : 4201u, layout);
    const auto path = std::filesystem::temp_directory_path() /
                      ("tensordiag_parts_" + std::to_string(::getpid()) + (layout == Layout::c_order ? "c" : "f") + ".npy");
    runtime::create_npy_tensor_file<double>(path, 10, 2, layout);
    constexpr int ranks = 8, parts = 4;
    // Each rank writes its part, last rank first: the places come from the part numbers alone.
    for (int r = ranks - 1; r >= 0; --r) {
      const auto slab = part_slab(tensor, r, ranks, parts);
      runtime::write_npy_rows(path, 10, 2, layout, slab.rows(), slab.values.data(), parts);
    }
    const auto whole = std::get<runtime::HostTensor<double>>(runtime::read_tensor(path));
    CHECK(whole.layout() == layout);
    CHECK(whole.values() == tensor.values());
    const runtime::TensorShape shape = runtime::read_tensor_shape(path);
    for (int r = 0; r < ranks; ++r) {
      const auto slab = part_slab(tensor, r, ranks, parts);
      std::vector<double> read(slab.values.size());
      runtime::read_npy_rows(path, shape, slab.rows(), read.data(), parts);
      CHECK(read == slab.values);
    }
    std::filesystem::remove(path);
  }
}

TEST_CASE("GPU ranks of an N = 2 tensor: a count that is no power of two, or too many ranks, is refused") {
  CHECK_NOTHROW(runtime::check_qubit_ranks(20, 1));
  CHECK_NOTHROW(runtime::check_qubit_ranks(20, 4));
  CHECK_NOTHROW(runtime::check_qubit_ranks(35, 8));
  CHECK_THROWS_WITH_AS(runtime::check_qubit_ranks(20, 3),
                       doctest::Contains("a power of two of GPU ranks (1, 2, 4, ..), not 3"), user_error);
  CHECK_THROWS_WITH_AS(runtime::check_qubit_ranks(20, 6), doctest::Contains("not 6"), user_error);
  CHECK_THROWS_WITH_AS(runtime::check_qubit_ranks(3, 8), doctest::Contains("too few entries for 8 GPU ranks"),
                       user_error);
}
