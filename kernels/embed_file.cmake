# cmake -DIN=<binary file> -DOUT=<header> -DNAME=<array name> -P embed_file.cmake
# Writes the file's bytes as `static const unsigned char NAME[] = {...};` (the LTO-IR fatbin
# of kernels/mad/mad_callbacks.cu, handed to cuFFT at run time).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
if(len EQUAL 0)
  message(FATAL_ERROR "embed_file: ${IN} is empty")
endif()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "// Generated from ${IN} by kernels/embed_file.cmake; do not edit.\n#pragma once\nstatic const unsigned char ${NAME}[] = {\n${bytes}\n};\n")
