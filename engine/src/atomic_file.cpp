#include "lightbench/atomic_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "lightbench/error.hpp"

namespace lb {
namespace fs = std::filesystem;

namespace {

thread_local OutputTransaction* g_open = nullptr;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error("'" + path + "': " + why);
}

std::string sys_msg(int err) { return std::strerror(err); }

std::string dir_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

std::string unique_suffix() {
  static std::atomic<unsigned long> counter{0};
  static const unsigned long salt = [] {
    std::random_device rd;
    return (static_cast<unsigned long>(rd()) << 16) ^ rd();
  }();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ld-%lx-%lu", static_cast<long>(getpid()), salt & 0xffffffUL,
                counter.fetch_add(1));
  return buf;
}

void remove_quietly(const std::string& p) { ::unlink(p.c_str()); }

}  // namespace

namespace detail {

std::string create_temp_for(const std::string& path, int& fd) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string tmp = path + ".tmp-lightbench-" + unique_suffix();
    if (attempt > 0) {
      tmp += '-';
      tmp += std::to_string(attempt);
    }
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return tmp;
    if (errno != EEXIST)
      fail(path, "cannot create a file in directory '" + dir_of(path) + "': " + sys_msg(errno));
  }
  fail(path, "cannot create a unique temporary file");
}

void write_fd_checked(int fd, std::string_view bytes, const std::string& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      fail(path, "write failed: " + sys_msg(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int err = errno;
    ::close(fd);
    fail(path, "flush (fsync) failed: " + sys_msg(err));
  }
  if (::close(fd) != 0) fail(path, "close failed: " + sys_msg(errno));
}

}  // namespace detail

void check_output_path(const std::string& path, const std::string& what) {
  const std::string name = what + " '" + path + "'";
  if (path.empty()) throw Error(what + ": empty path");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error(name + ": is a directory, not a file");
    if (!S_ISREG(st.st_mode)) throw Error(name + ": exists and is not a regular file");
  }
  const std::string dir = dir_of(path);
  if (::stat(dir.c_str(), &st) != 0)
    throw Error(name + ": directory '" + dir + "' does not exist (" + sys_msg(errno) + ")");
  if (!S_ISDIR(st.st_mode)) throw Error(name + ": '" + dir + "' is not a directory");
  // Probe: can a new file be created there (permissions, read-only or pseudo file systems)?
  int fd = -1;
  std::string tmp;
  try {
    tmp = detail::create_temp_for(path, fd);
  } catch (const Error& e) {
    throw Error(what + " " + e.what());
  }
  ::close(fd);
  remove_quietly(tmp);
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  if (g_open) {
    g_open->stage(path, bytes);
    return;
  }
  OutputTransaction t;
  t.stage(path, bytes);
  t.commit();
}

OutputTransaction::OutputTransaction() : outer_(g_open) { g_open = this; }

OutputTransaction::~OutputTransaction() {
  for (const auto& it : items_) remove_quietly(it.temp);
  if (g_open == this) g_open = outer_;
}

void OutputTransaction::stage(const std::string& path, std::string_view bytes) {
  struct stat st {};
  if (path.empty()) throw Error("output path is empty");
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    fail(path, "is a directory, not a file");
  const std::string dir = dir_of(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    fail(path, "directory '" + dir + "' does not exist");
  // A second write of the same target in one run replaces the staged one.
  for (auto it = items_.begin(); it != items_.end(); ++it) {
    if (it->target == path) {
      remove_quietly(it->temp);
      items_.erase(it);
      break;
    }
  }
  int fd = -1;
  const std::string tmp = detail::create_temp_for(path, fd);
  try {
    detail::write_fd_checked(fd, bytes, path);
  } catch (...) {
    remove_quietly(tmp);
    throw;
  }
  items_.push_back({path, tmp});
}

void OutputTransaction::commit() {
  if (g_open == this) g_open = outer_;
  // Lock every target directory (sorted, so concurrent runs cannot deadlock) for the renames.
  std::vector<std::string> dirs;
  for (const auto& it : items_) {
    std::error_code ec;
    fs::path d = fs::absolute(dir_of(it.target), ec);
    dirs.push_back((ec ? fs::path(dir_of(it.target)) : d).lexically_normal().string());
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  std::vector<int> locks;
  for (const auto& d : dirs) {
    const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;  // the rename below reports the problem
    while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    locks.push_back(fd);
  }
  std::string error;
  std::size_t i = 0;
  for (; i < items_.size(); ++i) {
    if (::rename(items_[i].temp.c_str(), items_[i].target.c_str()) != 0) {
      const int err = errno;
      error = "'" + items_[i].target + "': cannot replace file: " +
              (err == EISDIR ? std::string("it is a directory") : sys_msg(err));
      break;
    }
  }
  for (const int fd : locks) {
    ::fsync(fd);
    ::flock(fd, LOCK_UN);
    ::close(fd);
  }
  // Renamed temporaries no longer exist; the destructor removes the rest.
  items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(i));
  if (!error.empty()) throw Error(error);
}

}  // namespace lb
