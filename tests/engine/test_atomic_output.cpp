// The atomic writer: a failure never touches the target and never leaves a temporary file;
// temporaries are unique; messages name the path and the system's reason.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;

namespace {

using lbt::slurp;
using lbt::spit;
using lbt::temps_in;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const lb::Error& e) {
    return e.what();
  }
  return "";
}

// Runs f in a child process whose file-size limit is `limit` bytes (SIGXFSZ ignored, so a
// write past it fails with EFBIG like on a full disk). Returns the child's exit status:
// 0 = f threw lb::Error mentioning `expect`, 1 = no error, 2 = other error.
int in_child_with_fsize(rlim_t limit, const std::function<void()>& f, const std::string& expect) {
  const pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    rlimit rl{limit, limit};
    setrlimit(RLIMIT_FSIZE, &rl);
    try {
      f();
    } catch (const lb::Error& e) {
      _exit(std::string(e.what()).find(expect) != std::string::npos ? 0 : 3);
    } catch (...) {
      _exit(2);
    }
    _exit(1);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST_CASE("atomic writer: writes, replaces, leaves no temporary") {
  lbt::TempDir dir("atomic");
  const std::string t = dir.file("a.txt");
  lb::write_file_atomic(t, "hello");
  CHECK(slurp(t) == "hello");
  lb::write_file_atomic(t, std::string(100000, 'x'));
  CHECK(slurp(t) == std::string(100000, 'x'));
  CHECK(temps_in(dir.path) == 0);
  // New files get the usual permissions (umask), not mkstemp's 0600.
  const mode_t old = umask(022);
  lb::write_file_atomic(dir.file("p.txt"), "p");
  umask(old);
  CHECK((fs::status(dir.file("p.txt")).permissions() & fs::perms::others_read) != fs::perms::none);
}

TEST_CASE("atomic writer: failures name the path and reason, target untouched, no temporary") {
  lbt::TempDir dir("atomic-fail");
  // Target is a directory.
  fs::create_directories(dir.path / "d");
  std::string msg = error_of([&] { lb::write_file_atomic(dir.file("d"), "x"); });
  CHECK(msg.find(dir.file("d")) != std::string::npos);
  CHECK(msg.find("is a directory") != std::string::npos);
  CHECK(msg.find("Success") == std::string::npos);
  CHECK(fs::is_directory(dir.path / "d"));
  // Directory missing.
  msg = error_of([&] { lb::write_file_atomic(dir.file("nope/x.json"), "x"); });
  CHECK(msg.find("does not exist") != std::string::npos);
  // A pseudo file system that refuses new files: the system's reason is in the message.
  msg = error_of([&] { lb::write_file_atomic("/proc/lightbench-test.json", "x"); });
  CHECK(msg.find("/proc/lightbench-test.json") != std::string::npos);
  CHECK(msg.find("cannot create") != std::string::npos);
  CHECK(temps_in(dir.path) == 0);
  CHECK_THROWS_AS(lb::check_output_path(dir.file("d"), "--out"), lb::Error);
  CHECK_THROWS_AS(lb::check_output_path("/proc/x.json", "--json"), lb::Error);
  CHECK_NOTHROW(lb::check_output_path(dir.file("new.pfm"), "--out"));
  CHECK(temps_in(dir.path) == 0);
  CHECK(!fs::exists(dir.file("new.pfm")));
}

TEST_CASE("atomic writer: temporaries are unique and in the target's directory") {
  lbt::TempDir dir("atomic-uniq");
  std::set<std::string> names;
  std::vector<int> fds;
  for (int i = 0; i < 50; ++i) {
    int fd = -1;
    const std::string n = lb::detail::create_temp_for(dir.file("same.pfm"), fd);
    CHECK(fd >= 0);
    CHECK(fs::path(n).parent_path() == dir.path);
    names.insert(n);
    fds.push_back(fd);
  }
  CHECK(names.size() == 50);
  for (int fd : fds) close(fd);
  for (const auto& n : names) fs::remove(n);
}

TEST_CASE("atomic writer: a full device fails the write with the system's reason") {
  const int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    MESSAGE("skipped: /dev/full is not available");
    return;
  }
  const std::string msg =
      error_of([&] { lb::detail::write_fd_checked(fd, std::string(70000, 'x'), "out.png"); });
  CHECK(msg.find("'out.png'") != std::string::npos);
  CHECK(msg.find("No space left on device") != std::string::npos);
}

TEST_CASE("atomic writer: out of space mid-file keeps the old target (PNG, PFM, raw bytes)") {
  lbt::TempDir dir("atomic-full");
  const std::string png = dir.file("o.png"), pfm = dir.file("o.pfm"), txt = dir.file("o.json");
  spit(png, "old png");
  spit(pfm, "old pfm");
  spit(txt, "old json");
  const lb::ImageU8 big = lbt::random_image(300, 300, 3, 7);  // ~270 KB of noise, > limit
  lb::ImageF bigf(300, 300, 1);
  CHECK(in_child_with_fsize(4096, [&] { lb::save_image(png, big); }, "File too large") == 0);
  CHECK(in_child_with_fsize(4096, [&] { lb::save_pfm(pfm, bigf); }, "File too large") == 0);
  CHECK(in_child_with_fsize(4096, [&] { lb::write_file_atomic(txt, std::string(10000, 'j')); },
                            "write failed") == 0);
  CHECK(slurp(png) == "old png");
  CHECK(slurp(pfm) == "old pfm");
  CHECK(slurp(txt) == "old json");
  CHECK(temps_in(dir.path) == 0);
}

TEST_CASE("output transaction: all outputs renamed together, none when not committed") {
  lbt::TempDir dir("atomic-tx");
  const std::string a = dir.file("a.pfm"), b = dir.file("b.json");
  spit(a, "old a");
  spit(b, "old b");
  {
    lb::OutputTransaction t;
    lb::write_file_atomic(a, "new a");
    lb::write_file_atomic(b, "new b");
    CHECK(t.staged() == 2);
    CHECK(slurp(a) == "old a");  // staged only
    // destroyed without commit: an error after the first output
  }
  CHECK(slurp(a) == "old a");
  CHECK(slurp(b) == "old b");
  CHECK(temps_in(dir.path) == 0);
  {
    lb::OutputTransaction t;
    lb::write_file_atomic(a, "new a");
    lb::write_file_atomic(b, "new b");
    t.commit();
  }
  CHECK(slurp(a) == "new a");
  CHECK(slurp(b) == "new b");
  CHECK(temps_in(dir.path) == 0);
  // A failing stage inside a transaction leaves the earlier staged file staged, not written.
  {
    lb::OutputTransaction t;
    lb::write_file_atomic(a, "newer a");
    CHECK_THROWS_AS(lb::write_file_atomic(dir.file("missing/b.json"), "x"), lb::Error);
  }
  CHECK(slurp(a) == "new a");
  CHECK(temps_in(dir.path) == 0);
}
