#pragma once
// `tensordiag diagonalize IN.npy --out DIR --distributed`: one tensor spread over ranks (issue 14).
// Under mpirun (`mpirun -np P tensordiag diagonalize ... --distributed`) each process is a rank of
// MPI's world; run alone it is one rank. Every rank reads only its rows of IN.npy and writes only
// its rows of DIR/core.npy; rank 0 writes the factors and report.json and commits the files, all
// or nothing as for one process. DIR must be one directory that every rank sees (a shared file
// system across hosts).
#include "cli/diagonalize_command.hpp"

namespace tensordiag::cli {

int run_diagonalize_distributed(const DiagonalizeArguments& arguments);

}  // namespace tensordiag::cli
