#!/usr/bin/env bash
# Packs this machine's Open MPI (Debian 12: mpirun, its components, help files, PMIx and the shared
# libraries they need) into DIR (default build/device-mpi), for a machine that cannot install it:
# the GPU machine (docs: ../shared/DEVICE.md), to run `mpirun -np P tensordiag ... --backend cuda`
# there. Relocated through OPAL_PREFIX; source DIR/env.sh there before mpirun.
#   usage: bash scripts/pack-mpi.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/device-mpi}
arch=x86_64-linux-gnu
rm -rf "$dir"
mkdir -p "$dir/usr/bin" "$dir/usr/lib/$arch/openmpi/lib" "$dir/usr/share" "$dir/lib"
cp -L /usr/bin/orterun "$dir/usr/bin/mpirun"
cp -L /usr/bin/orted "$dir/usr/bin/orted"
cp -rL /usr/lib/$arch/openmpi/lib/openmpi3 "$dir/usr/lib/$arch/openmpi/lib/"
cp -rL /usr/share/openmpi "$dir/usr/share/"
cp -rL /usr/lib/$arch/pmix2 "$dir/usr/lib/$arch/"
# The libraries mpirun, libmpi and the components load, but the C runtime's own.
for lib in libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40 libhwloc.so.15 libevent_core-2.1.so.7 \
           libevent_pthreads-2.1.so.7 libevent-2.1.so.7 libpmix.so.2 libudev.so.1 libnuma.so.1 \
           libmca_common_sm.so.40 libmca_common_monitoring.so.50 libmca_common_ompio.so.41; do
  cp -L "/usr/lib/$arch/$lib" "$dir/lib/" 2>/dev/null || cp -L "/lib/$arch/$lib" "$dir/lib/"
done
cat > "$dir/env.sh" <<'ENV'
# Sourced on the machine the packed Open MPI runs on: where it lives, and no fabric but shared memory.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX="$here/usr" PATH="$here/usr/bin:$PATH" LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPAL_LIBDIR="$here/usr/lib/x86_64-linux-gnu/openmpi/lib"
export PMIX_MCA_mca_base_component_path="$here/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix"
export PMIX_INSTALL_PREFIX="$here/usr/lib/x86_64-linux-gnu/pmix2"
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_plm=isolated
# Components whose fabric libraries (UCX, libfabric, verbs) are not there are skipped without a word.
export OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ENV
du -sh "$dir"
