#pragma once
// Input files: THE one place that decides whether a path may be read (issue 39). Every file the
// product reads (images, maps, CSV reports and score lists, scene and asset JSON, calibration
// XML, HCI parameters.cfg, Middlebury calib.txt ...) must be a regular file, checked with
// stat() BEFORE it is opened: opening a named pipe blocks until a writer comes, and a device
// such as /dev/zero never ends. Text inputs are read with a size limit that holds even for a
// file that grows while it is read or whose size lies (the read loop stops at the limit).
// Every refusal is one lb::Error line naming the path (escaped: lb::quote_untrusted).
#include <cstdint>
#include <string>

namespace lb {

// A size limit for one class of text inputs; `applies_to` names the class in the refusal
// ("... is larger than 64 MiB (the limit for CSV and score files)").
struct TextLimit {
  std::uint64_t bytes;
  const char* applies_to;
};

// CSV reports (`batch` resume and --merge, `eval --scores`) and score lists.
inline constexpr TextLimit kCsvFileLimit{64ull << 20, "CSV and score files"};
// Small configuration files: HCI parameters.cfg, Middlebury calib.txt and dmin.txt.
inline constexpr TextLimit kConfigFileLimit{1ull << 20, "parameters.cfg, calib.txt and dmin.txt"};
// A database's subjective scores (TID2013 mos_with_names.txt, KADID-10k dmos.csv).
inline constexpr TextLimit kScoreListLimit{16ull << 20, "subjective score lists"};
// Raytrix calibration XML (a real one is about 2 KB).
inline constexpr TextLimit kCalibXmlLimit{4ull << 20, "calibration XML files"};
// Scene files and asset JSON.
inline constexpr TextLimit kJsonFileLimit{16ull << 20, "scene and asset JSON files"};

// The reason `path` cannot be read as a file, or "" when it is a regular file (symbolic links
// followed): "no such file", "is a directory, not a file", "is a named pipe (FIFO), not a
// regular file", "is a character device, not a regular file", ... Never opens the path.
std::string input_file_problem(const std::string& path);

// Throws lb::Error "<what> '<path>': <problem>" (just "'<path>': <problem>" when `what` is
// empty) unless `path` is a regular file.
void require_regular_file(const std::string& path, const std::string& what);

// The whole text of a regular file of at most limit.bytes bytes: require_regular_file, then a
// check of st_size, then a bounded read (non-blocking open, fstat again, at most limit + 1
// bytes read), so a file that is swapped, grows or lies about its size still stops at the
// limit. Refusal: "<what> '<path>' is larger than 64 MiB (the limit for CSV and score files)".
std::string read_text_file(const std::string& path, const std::string& what, const TextLimit& limit);

// "64 MiB", "1 MiB", "512 KiB", "100 bytes": the limit as the refusals write it.
std::string limit_text(std::uint64_t bytes);

}  // namespace lb
