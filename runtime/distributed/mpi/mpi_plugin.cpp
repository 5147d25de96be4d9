// The entry point of libtensordiag_mpi.so, which launcher_communicator() opens under mpirun.
#include "runtime/distributed/mpi/mpi_communicator.hpp"

extern "C" tensordiag::runtime::Communicator* tensordiag_mpi_world_communicator() {
  return tensordiag::runtime::mpi_world_communicator().release();
}
