#pragma once
// Output files written atomically: the bytes go to a unique temporary file in the target's
// directory (created with O_EXCL, mkstemp-style), every write, the fsync and the close are
// checked, then the temporary is renamed over the target. On any failure the temporary is
// removed and the target keeps its bytes. Errors are one-line lb::Error messages naming the
// path and the reason (strerror).
//
// An OutputTransaction groups the outputs of one run: while one is open on this thread,
// write_file_atomic only stages the file (temporary written, synced and closed); commit()
// renames every staged file into place together, holding an exclusive flock on each target
// directory so that concurrent runs writing the same paths never interleave (each run's
// outputs end up consistent with one another). A transaction destroyed without commit()
// removes its temporaries: no output is touched.
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// Checks, before any computing, that `path` can be written as an output: not empty, not a
// directory, its directory exists, is a directory and accepts a new file (probed by creating
// and removing a unique temporary). `what` names the option in messages (e.g. "--out").
// Throws lb::Error.
void check_output_path(const std::string& path, const std::string& what);

// Writes `bytes` to `path` atomically (see above); staged when a transaction is open.
void write_file_atomic(const std::string& path, std::string_view bytes);

class OutputTransaction {
 public:
  OutputTransaction();  // becomes the open transaction of this thread (they nest: inner wins)
  ~OutputTransaction();  // removes every temporary not yet committed
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;

  // Renames every staged file over its target. Throws lb::Error when one rename fails (those
  // already renamed stay; the rest are removed).
  void commit();
  // Stages one file (used by write_file_atomic).
  void stage(const std::string& path, std::string_view bytes);
  std::size_t staged() const { return items_.size(); }

 private:
  struct Item {
    std::string target, temp;
  };
  std::vector<Item> items_;
  OutputTransaction* outer_ = nullptr;
};

namespace detail {
// Writes all of `bytes` to the open descriptor `fd`, fsyncs and closes it (always closes);
// throws lb::Error "'<path>': <step> failed: <strerror>" on the first failure.
void write_fd_checked(int fd, std::string_view bytes, const std::string& path);
// Creates a unique temporary next to `path` ("<path>.tmp-lightbench-<unique>"), returns its
// name and the open descriptor.
std::string create_temp_for(const std::string& path, int& fd);
}  // namespace detail

}  // namespace lb
