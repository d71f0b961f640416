#pragma once
// Errors: everything the engine rejects becomes an lb::Error whose what() is one line that
// names the problem (a file, a parameter, a CUDA call). Front ends print it and carry on
// (viewer) or exit non-zero (CLI); nothing is silently ignored.
#include <stdexcept>
#include <string>

namespace lb {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Internal failures carry file:line so they can be traced; user-facing validation does not
// need it (the message names the parameter or file instead).
[[noreturn]] void throw_at(const char* file, int line, const std::string& msg);

}  // namespace lb

#define LB_THROW(msg) ::lb::throw_at(__FILE__, __LINE__, (msg))

// Validation of user input: throws lb::Error(msg) when cond is false.
#define LB_REQUIRE(cond, msg)                        \
  do {                                               \
    if (!(cond)) throw ::lb::Error(std::string(msg)); \
  } while (0)
