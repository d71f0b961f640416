#pragma once
// The images the remote port received (remote_packets.hpp's commands applied): named float32
// images of 1..4 channels, shown by the viewer as the pane sources remote:NAME. Thread-safe:
// the server's thread applies, the UI thread takes snapshots (shared, immutable: an update
// after a snapshot copies the image first, so a snapshot never changes under its reader).
//
//   CreateImage   makes the image (zeros), replacing one of the same name
//   UpdateImage   writes a tile into an existing image; refused for an unknown image, an
//                 unknown channel name or a tile not inside the image
//   CloseImage    removes it (refused when there is none)
//   OpenImage     reads the file (named by its path, the format told by its first bytes): a
//                 PFM (lb::load_pfm, values as they are; channels Y or R,G,B), a 16-bit grey
//                 PNG as a disparity map (dataset::load_disparity_map, KITTI: value / 256,
//                 0 = NaN; channel Y), or an 8-bit image (lb::load_image_8bit: PNG, JPEG, BMP,
//                 PGM/PPM; grey: the samples 0..255 as they are, channel Y; colour: 0..1 as
//                 tev shows them, channels Y,A, R,G,B or R,G,B,A); the channel selector, when
//                 not empty, keeps the channels it names (comma-separated, in its order),
//                 e.g. "R" or "B,G,R"
//   ReloadImage   reads an opened image's file again (refused for a created image)
//   VectorGraphics  ignored
// Every change bumps version() (and the image's own version), so the UI knows to refresh;
// a command's grab_focus is recorded (take_focus()). An image counts as received (received(),
// the viewer's --until-remote N) once each of its pixels was written at least once (by any
// tiles) or its file was read; each name counts once.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "remote_packets.hpp"

namespace lb::viewer::remote {

struct RemoteImage {
  std::string name;
  std::vector<std::string> channel_names;  // image.channels of them
  ImageF image;                            // interleaved, rows top to bottom
  std::string path;                        // OpenImage: the file; "" when created
  std::string channel_selector;            // OpenImage's
  std::uint64_t version = 0;               // the store's version at its last change
  bool complete = false;                   // every pixel written (or read from its file)
  // Which pixels a tile wrote (1 byte each) until the image is complete, then empty.
  std::vector<std::uint8_t> written;
  std::uint64_t written_count = 0;
};

struct StoreLimits {
  // All images together (values x 4 bytes): a CreateImage / OpenImage that would pass it is
  // refused. 4 GiB.
  std::uint64_t max_total_bytes = std::uint64_t{4} << 30;
  std::uint64_t max_pixels = 0;  // OpenImage's files: 0 = lb::max_decode_pixels()
};

class RemoteImages {
 public:
  explicit RemoteImages(StoreLimits limits = {}) : limits_(limits) {}

  // Applies one command. "" when it was applied, else the one-line refusal (nothing changed).
  // OpenImage / ReloadImage read their file without holding the lock. Never throws.
  std::string apply(const Command& command);

  std::uint64_t version() const;
  std::vector<std::string> names() const;  // sorted
  // The image as it is now (immutable; later changes do not touch it), or null.
  std::shared_ptr<const RemoteImage> find(const std::string& name) const;
  // The name of the last command with grab_focus set since the last call, if any.
  std::optional<std::string> take_focus();
  // Distinct names received completely (see above); never decreases.
  std::size_t received() const;
  std::uint64_t total_bytes() const;

 private:
  std::string create(const CreateImage& c);
  std::string update(const UpdateImage& u);
  std::string close(const CloseImage& c);
  std::string open(const std::string& name, const std::string& path, const std::string& selector, bool grab_focus);
  std::string put_loaded(RemoteImage img, bool grab_focus);
  void changed(RemoteImage& img, bool grab_focus);
  void mark_received(const std::string& name);
  std::uint64_t bytes_without(const std::string& name) const;

  StoreLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<RemoteImage>> images_;
  std::uint64_t version_ = 0;
  std::optional<std::string> focus_;
  std::set<std::string> received_;
};

// An image file read as OpenImage reads it (throws lb::Error in one line naming the file).
RemoteImage load_remote_file(const std::string& path, const std::string& channel_selector,
                             std::uint64_t max_pixels = 0);

}  // namespace lb::viewer::remote
