// The MPI suite: run by CTest under `mpirun -np 2` and `-np 4`, every rank runs every case on its
// slab and compares it with the one-rank reference it computes itself.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "mpi_world.hpp"

namespace tensordiag::testing {

runtime::Communicator& mpi_world() {
  static const std::unique_ptr<runtime::Communicator> world = runtime::mpi_world_communicator();
  return *world;
}

}  // namespace tensordiag::testing

int main(int argc, char** argv) {
  tensordiag::testing::mpi_world();  // MPI is initialized before the first case
  doctest::Context context(argc, argv);
  return context.run();
}
