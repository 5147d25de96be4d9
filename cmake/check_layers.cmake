# The include direction of the layers (DESIGN.md section 4, README "Layout"), checked on every
# build: cmake -DROOT=<source dir> -P check_layers.cmake. A quoted include outside the folders a
# file's layer may see, or Boost.Hana reached outside dsl/ except through the bridges named below,
# fails the build with one line per offence.

# Layer (a folder prefix, most specific first) -> the folder prefixes its files may include.
set(layers runtime/core runtime/io runtime/cuda runtime/algorithm runtime/engines runtime/distributed runtime codegen dsl)
set(allowed_runtime/core      runtime/core/ dsl/)
set(allowed_runtime/io        runtime/io/ runtime/core/)
set(allowed_runtime/cuda      runtime/cuda/ runtime/io/ runtime/core/)
set(allowed_runtime/algorithm runtime/algorithm/ runtime/core/ dsl/)
set(allowed_runtime/engines   runtime/engines/ runtime/algorithm/ runtime/cuda/ runtime/io/ runtime/core/ codegen/ dsl/)
# GPU ranks (gpu_slab_engine, nccl_communicator) drive the engines' kernels and CUDA directly.
set(allowed_runtime/distributed runtime/distributed/ runtime/engines/ runtime/algorithm/ runtime/cuda/ runtime/io/ runtime/core/ codegen/ dsl/)
set(allowed_runtime           runtime/ codegen/ dsl/)
set(allowed_codegen           codegen/ dsl/)
set(allowed_dsl               dsl/)

# dsl/ headers without Boost.Hana, which every layer may include.
set(plain_dsl_headers dsl/layout.hpp dsl/givens.hpp dsl/symmetric_angle.hpp dsl/rotation_form.hpp dsl/format_number.hpp
    dsl/rule_info.hpp dsl/unitary_rotation.hpp dsl/multisets.hpp dsl/symmetric_unitary_angle.hpp)
# The bridges from the DSL's types to plain values, which alone may include the rest of dsl/ (and
# so Hana) outside it: lowering to the IR, the registry's lowering of the built-in rules, and the
# CPU engines (the general one, its group step, the skew one, the complex one, and the distributed engine's choice of rule), which evaluate a DSL rule on the host as it is written.
set(hana_bridges
    codegen/lower.hpp codegen/lower_rule.hpp codegen/builtin_rules.cpp
    runtime/engines/cpu_engine.hpp runtime/engines/cpu_engine.cpp runtime/engines/pivot_subtensor.hpp
    runtime/engines/pivot_corners.hpp
    runtime/engines/group_step.hpp runtime/engines/cpu_skew_engine.cpp runtime/engines/cpu_complex_engine.cpp
    runtime/distributed/distributed_run.cpp)

set(offences "")
foreach(folder dsl codegen runtime)
  file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/${folder}/*.hpp ${ROOT}/${folder}/*.cpp)
  foreach(file ${files})
    set(layer "")
    foreach(candidate ${layers})
      if(layer STREQUAL "" AND file MATCHES "^${candidate}/")
        set(layer ${candidate})
      endif()
    endforeach()
    file(STRINGS ${ROOT}/${file} includes REGEX "^#include [\"<]")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include [\"<]([^\">]+)[\">].*" "\\1" included "${line}")
      if(included MATCHES "^boost/hana" AND NOT layer STREQUAL "dsl")
        list(APPEND offences "${file}: includes ${included}; Boost.Hana stays inside dsl/")
      endif()
      if(NOT line MATCHES "^#include \"" OR NOT included MATCHES "^(dsl|codegen|runtime)/")
        continue()
      endif()
      set(ok FALSE)
      foreach(prefix ${allowed_${layer}})
        string(LENGTH ${prefix} length)
        string(SUBSTRING ${included} 0 ${length} head)
        if(head STREQUAL prefix)
          set(ok TRUE)
        endif()
      endforeach()
      if(NOT ok)
        list(APPEND offences "${file}: includes ${included}, which layer ${layer}/ may not see")
      elseif(included MATCHES "^dsl/" AND NOT layer STREQUAL "dsl")
        list(FIND plain_dsl_headers ${included} plain)
        list(FIND hana_bridges ${file} bridge)
        if(plain EQUAL -1 AND bridge EQUAL -1)
          list(APPEND offences "${file}: includes ${included} (Boost.Hana) outside the DSL bridges")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

if(offences)
  list(JOIN offences "\n  " text)
  message(FATAL_ERROR "include direction broken:\n  ${text}")
endif()
