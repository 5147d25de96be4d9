#pragma once
// CPU ranks over MPI (Debian's Open MPI), started by mpirun: one process a rank, the world
// communicator. MPI is initialized by the first call and finalized at exit. Built only where CMake
// finds MPI, into the plugin libtensordiag_mpi.so (mpi_plugin.cpp), which the front ends open only
// under mpirun (launcher_communicator.hpp): `tensordiag --help` and one-process runs map no MPI.
#include <memory>

#include "runtime/distributed/communicator.hpp"

namespace tensordiag::runtime {

// The world's ranks. Initializes MPI when it is not yet.
std::unique_ptr<Communicator> mpi_world_communicator();

}  // namespace tensordiag::runtime
