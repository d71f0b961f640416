#include "csv_table.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lightbench/error.hpp"

namespace lb::cli {

CsvAppender::CsvAppender(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw Error("--csv '" + path + "': cannot open for appending (" + std::strerror(errno) + ")");
}

CsvAppender::~CsvAppender() { close(); }

void CsvAppender::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void CsvAppender::append(const std::vector<std::vector<std::string>>& rows) {
  std::string line;
  for (const auto& r : rows) line += csv_line(r);
  // O_APPEND and one write(): the row lands whole at the end or, on a kill, as a torn tail
  // that the next run drops.
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("--csv '" + path_ + "': write failed (" + std::strerror(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace lb::cli
