#pragma once
// Test-program helpers for the headless viewer test: where the programs are, running one
// with its output in a log, and reading JSON / PNG results back.
//
// The viewer and the CLI are found relative to the test program (tests/viewer/ of a build
// tree, or of the same layout copied by scripts/gpu-pack), so the test runs unchanged on the
// GPU machine; LB_VIEWER, LB_CLI and LB_TEST_OUT_DIR override the paths.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::test {

inline std::filesystem::path own_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

inline std::string env_or(const char* name, const std::filesystem::path& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback.lexically_normal().string();
}

inline std::string viewer_path() { return env_or("LB_VIEWER", own_dir() / "../../app/viewer/lightbench"); }
inline std::string cli_path() { return env_or("LB_CLI", own_dir() / "../../app/cli/lightbench-cli"); }
inline std::string out_dir() { return env_or("LB_TEST_OUT_DIR", own_dir() / "out/headless"); }

// 'text' for the shell (single quotes; embedded ones escaped).
inline std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct ProcessResult {
  int rc = -1;      // exit status (-1: killed by a signal)
  std::string log;  // stdout and stderr
};

// Runs `command_line` (already quoted) through the shell with stdout and stderr in log_path.
inline ProcessResult run_logged(const std::string& command_line, const std::string& log_path) {
  ProcessResult r;
  const std::string cmd = command_line + " > " + quoted(log_path) + " 2>&1";
  const int status = std::system(cmd.c_str());
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log_path);
  r.log.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json();
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

}  // namespace lb::test
