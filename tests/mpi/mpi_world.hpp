#pragma once
// MPI's world for the MPI suite, initialized once.
#include <memory>

#include "runtime/distributed/mpi/mpi_communicator.hpp"

namespace tensordiag::testing {

runtime::Communicator& mpi_world();

}  // namespace tensordiag::testing
