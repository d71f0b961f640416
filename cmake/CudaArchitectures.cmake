# Default CUDA architectures: the visible GPU's own when one exists (nvidia-smi),
# otherwise a list that covers the common datacentre and desktop parts and ends
# with sm_90 plus PTX so newer GPUs can JIT the kernels.
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
    set(_lb_arch "75-real;80-real;86-real;89-real;90-real;90-virtual")
    message(STATUS "lightbench: no GPU visible, CUDA architectures ${_lb_arch}")
  else()
    message(STATUS "lightbench: CUDA architecture of the local GPU: ${_lb_arch}")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_lb_arch}" CACHE STRING "CUDA architectures" FORCE)
endif()
