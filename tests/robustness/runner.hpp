#pragma once
// Runs one lightbench-cli command line as a hostile user would and records everything the
// suite asserts on: exit status or signal, stderr, peak memory (wait4's ru_maxrss), wall time.
// The child gets an address-space limit (not under ASan, whose shadow memory needs more, nor
// in CUDA builds, whose runtime reserves more) so that a runaway allocation fails fast, and is
// killed after `timeout_s` (then reported as a hang).
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define LBR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LBR_ASAN 1
#endif
#endif

namespace lbr {

struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool hang = false;
  std::string err;  // stderr
  long maxrss_mib = 0;
  double seconds = 0;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Splits on spaces; the token '' is an empty argument.
inline std::vector<std::string> split_args(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string t;
  while (in >> t) out.push_back(t == "''" ? std::string() : t);
  return out;
}

inline RunResult run_child(const std::vector<std::string>& argv, const std::string& err_path, int timeout_s) {
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  // Everything the child needs is made before fork: it may run beside other threads.
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = open("/dev/null", O_RDWR);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (devnull < 0 || err < 0) _exit(125);
    dup2(devnull, 0);
    dup2(devnull, 1);  // the summary of a run that fails late is not part of the contract
    dup2(err, 2);
#if !defined(LBR_ASAN) && !defined(LBR_NO_AS_LIMIT)
    const rlim_t as = rlim_t{3} << 30;
    rlimit lim{as, as};
    setrlimit(RLIMIT_AS, &lim);
#endif
    execv(a[0], a.data());
    _exit(126);
  }
  int st = 0;
  rusage ru{};
  for (;;) {
    const pid_t w = wait4(pid, &st, WNOHANG, &ru);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(timeout_s)) {
      kill(pid, SIGKILL);
      wait4(pid, &st, 0, &ru);
      r.hang = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.maxrss_mib = ru.ru_maxrss / 1024;
  if (WIFEXITED(st)) r.exit_code = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) r.signal = WTERMSIG(st);
  r.err = slurp(err_path);
  return r;
}

// Every file and folder under `dir` with its bytes ("<dir>" for folders).
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> m;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const auto rel = std::filesystem::relative(it->path(), dir).string();
    m[rel] = it->is_directory() ? std::string("<dir>") : slurp(it->path().string());
  }
  return m;
}

// Non-empty lines of `s`.
inline std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l))
    if (l.find_first_not_of(" \t\r") != std::string::npos) out.push_back(l);
  return out;
}

}  // namespace lbr
