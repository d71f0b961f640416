#include "lightbench/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lightbench/error.hpp"

namespace lb {
namespace {

// A path as messages show it: escaped (control bytes cannot reach the terminal) and long
// enough for any real path.
std::string shown_path(const std::string& path) { return quote_untrusted(path, 4096); }

std::string prefix(const std::string& path, const std::string& what) {
  return what.empty() ? shown_path(path) : what + " " + shown_path(path);
}

std::string mode_problem(mode_t m) {
  if (S_ISREG(m)) return "";
  if (S_ISDIR(m)) return "is a directory, not a file";
  if (S_ISFIFO(m)) return "is a named pipe (FIFO), not a regular file";
  if (S_ISCHR(m)) return "is a character device, not a regular file";
  if (S_ISBLK(m)) return "is a block device, not a regular file";
  if (S_ISSOCK(m)) return "is a socket, not a regular file";
  return "is not a regular file";
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string limit_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string input_file_problem(const std::string& path) {
  if (path.empty()) return "empty path";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT) {
      struct stat lst {};
      if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) return "no such file (a broken symbolic link)";
      return "no such file";
    }
    if (e == ENOTDIR) return "no such file (a part of the path is not a directory)";
    return std::string("cannot be read (") + std::strerror(e) + ")";
  }
  return mode_problem(st.st_mode);
}

void require_regular_file(const std::string& path, const std::string& what) {
  const std::string why = input_file_problem(path);
  if (!why.empty()) throw Error(prefix(path, what) + ": " + why);
}

std::string read_text_file(const std::string& path, const std::string& what, const TextLimit& limit) {
  require_regular_file(path, what);
  const auto too_large = [&] {
    return Error(prefix(path, what) + " is larger than " + limit_text(limit.bytes) + " (the limit for " +
                 limit.applies_to + ")");
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) > limit.bytes) throw too_large();
  // O_NONBLOCK: should the path have become a FIFO since the check, open() does not wait.
  Fd f;
  do f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  while (f.fd < 0 && errno == EINTR);
  if (f.fd < 0) throw Error(prefix(path, what) + ": cannot open for reading (" + std::strerror(errno) + ")");
  if (::fstat(f.fd, &st) != 0) throw Error(prefix(path, what) + ": cannot read (" + std::strerror(errno) + ")");
  if (const std::string why = mode_problem(st.st_mode); !why.empty()) throw Error(prefix(path, what) + ": " + why);
  if (static_cast<std::uint64_t>(st.st_size) > limit.bytes) throw too_large();
  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  // Read to the end, but never more than the limit: st_size may lie (/proc files say 0) and
  // the file may grow while it is read.
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size) + 1);
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(prefix(path, what) + ": read failed (" + std::strerror(errno) + ")");
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > limit.bytes) throw too_large();
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace lb
