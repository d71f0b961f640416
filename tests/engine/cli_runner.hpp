#pragma once
// Runs lightbench-cli (path from LB_CLI_PATH) as a user would and captures what it prints.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

namespace lbt {

struct CliRun {
  int status = -1;
  std::string output;  // stdout + stderr
};

// A shell command line, its stdout (and whatever it redirects there) captured.
inline CliRun run_shell(const std::string& cmd) {
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) r.output += buf.data();
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline CliRun run_cli(const std::string& args) { return run_shell(std::string(LB_CLI_PATH) + " " + args + " 2>&1"); }

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace lbt
