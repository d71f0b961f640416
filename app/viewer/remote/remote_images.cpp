// The remote port's image store (remote_images.hpp).
#include "remote_images.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <new>
#include <type_traits>

#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb::viewer::remote {

namespace {

std::uint64_t image_bytes(const RemoteImage& img) { return img.image.data.size() * sizeof(float); }
std::uint64_t image_bytes(std::uint64_t w, std::uint64_t h, std::uint64_t c) { return w * h * c * sizeof(float); }

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

std::vector<std::string> default_channel_names(int channels) {
  switch (channels) {
    case 1: return {"Y"};
    case 2: return {"Y", "A"};
    case 3: return {"R", "G", "B"};
    default: return {"R", "G", "B", "A"};
  }
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Keeps the channels the selector names, in its order.
void select_channels(RemoteImage& img, const std::string& selector) {
  if (selector.empty()) return;
  std::vector<int> picks;
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const auto comma = selector.find(',', start);
    const std::string part = trim(selector.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const auto it = std::find(img.channel_names.begin(), img.channel_names.end(), part);
    if (it == img.channel_names.end()) {
      std::string have;
      for (const auto& n : img.channel_names) have += (have.empty() ? "" : ",") + n;
      throw Error("channel selector " + quote_untrusted(selector) + ": no channel " + quote_untrusted(part) + " in " +
                  quote_untrusted(img.path) + " (it has " + have + ")");
    }
    const int index = static_cast<int>(it - img.channel_names.begin());
    if (std::find(picks.begin(), picks.end(), index) != picks.end()) {
      throw Error("channel selector " + quote_untrusted(selector) + ": channel " + quote_untrusted(part) +
                  " named twice");
    }
    picks.push_back(index);
    names.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  ImageF out(img.image.width, img.image.height, static_cast<int>(picks.size()));
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      for (std::size_t c = 0; c < picks.size(); ++c) out.at(x, y, static_cast<int>(c)) = img.image.at(x, y, picks[c]);
    }
  }
  img.image = std::move(out);
  img.channel_names = std::move(names);
}

}  // namespace

RemoteImage load_remote_file(const std::string& path, const std::string& channel_selector, std::uint64_t max_pixels) {
  char magic[2] = {0, 0};
  {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(quote_untrusted(path) + ": cannot open the file");
    f.read(magic, 2);
  }
  RemoteImage img;
  img.name = path;
  img.path = path;
  img.channel_selector = channel_selector;
  int depth = 0;
  if (magic[0] == 'P' && (magic[1] == 'f' || magic[1] == 'F')) {
    img.image = load_pfm(path, max_pixels);
  } else if (static_cast<unsigned char>(magic[0]) == 0x89 && magic[1] == 'P' &&
             load_image16(path, max_pixels, &depth).channels == 1 && depth == 16) {
    img.image = dataset::load_disparity_map(path);  // KITTI: value / 256, 0 -> NaN
  } else {
    const ImageU8 u8 = load_image_8bit(path, nullptr, 0, max_pixels);
    img.image.reset(u8.width, u8.height, u8.channels);
    // Grey: the samples as they are (a map); colour: tev's convention, 0..1.
    const float divisor = u8.channels == 1 ? 1.f : 255.f;
    std::transform(u8.data.begin(), u8.data.end(), img.image.data.begin(),
                   [divisor](std::uint8_t v) { return static_cast<float>(v) / divisor; });
  }
  img.channel_names = default_channel_names(img.image.channels);
  select_channels(img, channel_selector);
  img.complete = true;
  return img;
}

std::string RemoteImages::apply(const Command& command) {
  try {
    return std::visit(
        [this](const auto& c) -> std::string {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, CreateImage>) {
            return create(c);
          } else if constexpr (std::is_same_v<T, UpdateImage>) {
            return update(c);
          } else if constexpr (std::is_same_v<T, CloseImage>) {
            return close(c);
          } else if constexpr (std::is_same_v<T, OpenImage>) {
            return open(c.path, c.path, c.channel_selector, c.grab_focus);
          } else if constexpr (std::is_same_v<T, ReloadImage>) {
            std::string path, selector;
            {
              std::lock_guard lock(mutex_);
              const auto it = images_.find(c.name);
              if (it == images_.end()) return "ReloadImage: no image " + quote_untrusted(c.name);
              if (it->second->path.empty()) {
                return "ReloadImage: " + quote_untrusted(c.name) + " was created, not opened from a file";
              }
              path = it->second->path;
              selector = it->second->channel_selector;
            }
            return open(c.name, path, selector, c.grab_focus);
          } else {
            return "";  // VectorGraphics: nothing to draw them on
          }
        },
        command);
  } catch (const std::bad_alloc&) {
    return command_name(command) + ": out of memory";
  } catch (const std::exception& e) {
    return command_name(command) + ": " + e.what();
  }
}

void RemoteImages::changed(RemoteImage& img, bool grab_focus) {
  img.version = ++version_;
  if (grab_focus) focus_ = img.name;
}

void RemoteImages::mark_received(const std::string& name) { received_.insert(name); }

std::uint64_t RemoteImages::bytes_without(const std::string& name) const {
  std::uint64_t total = 0;
  for (const auto& [n, img] : images_) {
    if (n != name) total += image_bytes(*img);
  }
  return total;
}

std::string RemoteImages::create(const CreateImage& c) {
  const std::uint64_t bytes = image_bytes(static_cast<std::uint64_t>(c.width), static_cast<std::uint64_t>(c.height),
                                          c.channels.size());
  {
    std::lock_guard lock(mutex_);
    const std::uint64_t others = bytes_without(c.name);
    if (others + bytes > limits_.max_total_bytes) {
      return "CreateImage: " + quote_untrusted(c.name) + ": the remote images would take " + mib(others + bytes) +
             ", over the limit of " + mib(limits_.max_total_bytes);
    }
  }
  // Allocated without the lock (may be large); the limit is checked again under it.
  auto img = std::make_shared<RemoteImage>();
  img->name = c.name;
  img->channel_names = c.channels;
  img->image.reset(c.width, c.height, static_cast<int>(c.channels.size()));
  img->written.assign(img->image.pixels(), 0);
  std::lock_guard lock(mutex_);
  if (bytes_without(c.name) + bytes > limits_.max_total_bytes) {
    return "CreateImage: " + quote_untrusted(c.name) + ": the remote images would take more than " +
           mib(limits_.max_total_bytes);
  }
  changed(*img, c.grab_focus);
  images_[c.name] = std::move(img);
  return "";
}

std::string RemoteImages::update(const UpdateImage& u) {
  std::lock_guard lock(mutex_);
  const auto it = images_.find(u.name);
  if (it == images_.end()) return "UpdateImage: no image " + quote_untrusted(u.name) + " (CreateImage first)";
  const RemoteImage& cur = *it->second;
  std::vector<int> dst;
  for (const auto& name : u.channels) {
    const auto ch = std::find(cur.channel_names.begin(), cur.channel_names.end(), name);
    if (ch == cur.channel_names.end()) {
      std::string have;
      for (const auto& n : cur.channel_names) have += (have.empty() ? "" : ",") + n;
      return "UpdateImage: " + quote_untrusted(u.name) + " has no channel " + quote_untrusted(name) + " (it has " +
             have + ")";
    }
    dst.push_back(static_cast<int>(ch - cur.channel_names.begin()));
  }
  const std::int64_t W = cur.image.width, H = cur.image.height;
  if (std::int64_t{u.x} + u.width > W || std::int64_t{u.y} + u.height > H) {
    return "UpdateImage: " + quote_untrusted(u.name) + ": tile " + std::to_string(u.width) + "x" +
           std::to_string(u.height) + " at (" + std::to_string(u.x) + "," + std::to_string(u.y) +
           ") is not inside the image's " + std::to_string(W) + "x" + std::to_string(H);
  }
  if (u.planes.size() != u.channels.size()) return "UpdateImage: one plane per channel expected";
  const std::size_t tile_pixels = static_cast<std::size_t>(u.width) * static_cast<std::size_t>(u.height);
  for (const auto& p : u.planes) {
    if (p.size() != tile_pixels) return "UpdateImage: a plane's size differs from the tile's";
  }
  // Copy on write: a snapshot handed out by find() never changes.
  if (it->second.use_count() > 1) it->second = std::make_shared<RemoteImage>(cur);
  RemoteImage& img = *it->second;
  for (int ty = 0; ty < u.height; ++ty) {
    for (int tx = 0; tx < u.width; ++tx) {
      const std::size_t i = static_cast<std::size_t>(ty) * u.width + tx;
      const int x = u.x + tx, y = u.y + ty;
      for (std::size_t c = 0; c < dst.size(); ++c) img.image.at(x, y, dst[c]) = u.planes[c][i];
      if (!img.complete) {
        std::uint8_t& w = img.written[static_cast<std::size_t>(y) * img.image.width + x];
        if (!w) {
          w = 1;
          ++img.written_count;
        }
      }
    }
  }
  if (!img.complete && img.written_count == img.image.pixels()) {
    img.complete = true;
    img.written.clear();
    img.written.shrink_to_fit();
    mark_received(img.name);
  }
  changed(img, u.grab_focus);
  return "";
}

std::string RemoteImages::close(const CloseImage& c) {
  std::lock_guard lock(mutex_);
  if (images_.erase(c.name) == 0) return "CloseImage: no image " + quote_untrusted(c.name);
  ++version_;
  if (focus_ && *focus_ == c.name) focus_.reset();
  return "";
}

std::string RemoteImages::open(const std::string& name, const std::string& path, const std::string& selector,
                               bool grab_focus) {
  RemoteImage img = load_remote_file(path, selector, limits_.max_pixels);
  img.name = name;
  return put_loaded(std::move(img), grab_focus);
}

std::string RemoteImages::put_loaded(RemoteImage img, bool grab_focus) {
  std::lock_guard lock(mutex_);
  const std::uint64_t total = bytes_without(img.name) + image_bytes(img);
  if (total > limits_.max_total_bytes) {
    return "OpenImage: " + quote_untrusted(img.name) + ": the remote images would take " + mib(total) +
           ", over the limit of " + mib(limits_.max_total_bytes);
  }
  auto p = std::make_shared<RemoteImage>(std::move(img));
  changed(*p, grab_focus);
  mark_received(p->name);
  images_[p->name] = std::move(p);
  return "";
}

std::uint64_t RemoteImages::version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

std::vector<std::string> RemoteImages::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [n, img] : images_) out.push_back(n);
  return out;
}

std::shared_ptr<const RemoteImage> RemoteImages::find(const std::string& name) const {
  std::lock_guard lock(mutex_);
  const auto it = images_.find(name);
  if (it == images_.end()) return nullptr;
  return it->second;
}

std::optional<std::string> RemoteImages::take_focus() {
  std::lock_guard lock(mutex_);
  auto f = std::move(focus_);
  focus_.reset();
  return f;
}

std::size_t RemoteImages::received() const {
  std::lock_guard lock(mutex_);
  return received_.size();
}

std::uint64_t RemoteImages::total_bytes() const {
  std::lock_guard lock(mutex_);
  std::uint64_t total = 0;
  for (const auto& [n, img] : images_) total += image_bytes(*img);
  return total;
}

}  // namespace lb::viewer::remote
