# Default CUDA architectures: the visible GPU's own when one exists (nvidia-smi), otherwise
# compute_80 PTX only, which the driver JIT-compiles (once, then cached) for any
# Ampere-or-newer GPU: a machine without a GPU, such as CI, only needs the code to compile,
# and one PTX pass halves the CUDA build (no ptxas run per kernel). scripts/gpu-pack's build
# names 90 explicitly. Set CMAKE_CUDA_ARCHITECTURES to build machine code for other GPUs.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  set(_lb_arch "")
  find_program(_lb_smi nvidia-smi)
  if(_lb_smi)
    execute_process(COMMAND ${_lb_smi} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _lb_cc RESULT_VARIABLE _lb_rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_lb_rc EQUAL 0 AND _lb_cc MATCHES "^([0-9]+)\\.([0-9]+)")
      set(_lb_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    endif()
  endif()
  if(_lb_arch STREQUAL "")
    set(_lb_arch "80-virtual")
    message(STATUS "lightbench: no GPU visible, CUDA architectures ${_lb_arch}")
  else()
    message(STATUS "lightbench: CUDA architecture of the local GPU: ${_lb_arch}")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_lb_arch}" CACHE STRING "CUDA architectures" FORCE)
endif()
