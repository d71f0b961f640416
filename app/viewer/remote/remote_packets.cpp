// tev IPC packets: the strict parser and the writers (remote_packets.hpp).
#include "remote_packets.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <exception>
#include <new>
#include <set>
#include <string_view>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb::viewer::remote {

namespace {

// A refusal inside the parser; parse_packet turns it into ParseResult::error.
struct Refusal {
  std::string message;
};

std::uint32_t load_u32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}
std::uint64_t load_u64(const std::uint8_t* p) {
  return std::uint64_t{load_u32(p)} | (std::uint64_t{load_u32(p + 4)} << 32);
}
float load_f32(const std::uint8_t* p) { return std::bit_cast<float>(load_u32(p)); }

std::string bytes_text(std::uint64_t n) {
  if (n == std::uint64_t{1} << 30) return "1 GiB";
  return std::to_string(n) + " bytes";
}

const char* legacy_type(std::uint8_t t) {
  switch (t) {
    case 0: return "tev's OpenImage v1; send OpenImage v2, type 7";
    case 3: return "tev's UpdateImage v1; send UpdateImage v3, type 6";
    case 5: return "tev's UpdateImage v2; send UpdateImage v3, type 6";
    default: return nullptr;
  }
}

bool known_type(std::uint8_t t) {
  return t == 1 || t == 2 || t == 4 || t == 6 || t == 7 || t == 8;
}

std::string unknown_type_message(std::uint8_t t) {
  if (const char* legacy = legacy_type(t)) {
    return "unsupported packet type " + std::to_string(t) + " (" + legacy + ")";
  }
  return "unknown packet type " + std::to_string(t);
}

// Reads the fields of one packet whose bytes are [p, p + n) (n = its declared length).
class Reader {
 public:
  Reader(const std::uint8_t* p, std::size_t n, std::string what, const PacketLimits& limits)
      : p_(p), n_(n), what_(std::move(what)), limits_(limits) {}

  [[noreturn]] void refuse(const std::string& field, const std::string& why) const {
    throw Refusal{what_ + ": " + (field.empty() ? "" : field + ": ") + why};
  }

  std::size_t remaining() const { return n_ - pos_; }
  const std::uint8_t* here() const { return p_ + pos_; }

  void need(const std::string& field, std::size_t bytes, const char* kind) const {
    if (remaining() < bytes) {
      refuse(field, std::string("cut off by the end of the packet (") + kind + " of " + std::to_string(bytes) +
                        " byte(s), " + std::to_string(remaining()) + " left)");
    }
  }

  bool boolean(const std::string& field) {
    need(field, 1, "bool");
    const std::uint8_t b = p_[pos_++];
    if (b > 1) refuse(field, "a bool must be 0 or 1, got " + std::to_string(b));
    return b == 1;
  }
  std::int32_t i32(const std::string& field) {
    need(field, 4, "int32");
    const auto v = static_cast<std::int32_t>(load_u32(p_ + pos_));
    pos_ += 4;
    return v;
  }
  std::int64_t i64(const std::string& field) {
    need(field, 8, "int64");
    const auto v = static_cast<std::int64_t>(load_u64(p_ + pos_));
    pos_ += 8;
    return v;
  }
  // A NUL-terminated string of at most max_string_bytes bytes, no control bytes.
  std::string string(const std::string& field, bool allow_empty) {
    const std::size_t limit = limits_.max_string_bytes;
    const std::size_t scan = std::min(remaining(), limit + 1);
    const void* nul = scan ? std::memchr(p_ + pos_, 0, scan) : nullptr;
    if (!nul) {
      if (scan == limit + 1) refuse(field, "longer than " + std::to_string(limit) + " bytes");
      refuse(field, "no NUL before the end of the packet");
    }
    const std::size_t len = static_cast<const std::uint8_t*>(nul) - (p_ + pos_);
    std::string s(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len + 1;
    for (unsigned char c : s) {
      if (c < 0x20 || c == 0x7f) {
        refuse(field, "holds a control byte " + escape_untrusted(std::string(1, static_cast<char>(c))) + " in " +
                          quote_untrusted(s));
      }
    }
    if (!allow_empty && s.empty()) refuse(field, "must not be empty");
    return s;
  }
  void done() const {
    if (remaining() != 0) {
      refuse("", std::to_string(remaining()) + " byte(s) left after the last field");
    }
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = kHeaderBytes;
  std::string what_;
  const PacketLimits& limits_;
};

int positive_size(Reader& r, const std::string& field) {
  const std::int32_t v = r.i32(field);
  if (v <= 0) r.refuse(field, "must be > 0, got " + std::to_string(v));
  return v;
}

int channel_count(Reader& r, const PacketLimits& limits) {
  const std::int32_t n = r.i32("channel count");
  if (n < 1 || n > limits.max_channels) {
    r.refuse("channel count", "must be in 1.." + std::to_string(limits.max_channels) + ", got " + std::to_string(n));
  }
  return n;
}

std::vector<std::string> channel_names(Reader& r, int n) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (int c = 0; c < n; ++c) {
    names.push_back(r.string("channel name " + std::to_string(c), false));
    if (!seen.insert(names.back()).second) {
      r.refuse("channel name " + std::to_string(c), "duplicate channel " + quote_untrusted(names.back()));
    }
  }
  return names;
}

// width x height (x channels) within the budgets.
void check_budget(Reader& r, const char* what, std::int64_t w, std::int64_t h, int channels,
                  const PacketLimits& limits) {
  const std::uint64_t pixels = static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h);  // < 2^62
  const std::uint64_t budget = pixel_budget(limits);
  if (pixels > budget) {
    r.refuse(what, std::to_string(w) + "x" + std::to_string(h) + " = " + std::to_string(pixels) +
                       " pixels, over the pixel budget of " + std::to_string(budget));
  }
  const std::uint64_t values = pixels * static_cast<std::uint64_t>(channels);  // < 2^27 * 2^31
  if (values > limits.max_values) {
    r.refuse(what, std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(channels) + " = " +
                       std::to_string(values) + " values, over the budget of " + std::to_string(limits.max_values));
  }
}

OpenImage parse_open(Reader& r) {
  OpenImage o;
  o.grab_focus = r.boolean("grab_focus");
  o.path = r.string("path", false);
  o.channel_selector = r.string("channel selector", true);
  r.done();
  return o;
}

ReloadImage parse_reload(Reader& r) {
  ReloadImage o;
  o.grab_focus = r.boolean("grab_focus");
  o.name = r.string("name", false);
  r.done();
  return o;
}

CloseImage parse_close(Reader& r) {
  CloseImage o;
  o.name = r.string("name", false);
  r.done();
  return o;
}

CreateImage parse_create(Reader& r, const PacketLimits& limits) {
  CreateImage o;
  o.grab_focus = r.boolean("grab_focus");
  o.name = r.string("name", false);
  o.width = positive_size(r, "width");
  o.height = positive_size(r, "height");
  const int n = channel_count(r, limits);
  check_budget(r, "size", o.width, o.height, n, limits);
  o.channels = channel_names(r, n);
  r.done();
  return o;
}

UpdateImage parse_update(Reader& r, const PacketLimits& limits) {
  UpdateImage o;
  o.grab_focus = r.boolean("grab_focus");
  o.name = r.string("name", false);
  const int n = channel_count(r, limits);
  o.channels = channel_names(r, n);
  o.x = r.i32("x");
  if (o.x < 0) r.refuse("x", "must be >= 0, got " + std::to_string(o.x));
  o.y = r.i32("y");
  if (o.y < 0) r.refuse("y", "must be >= 0, got " + std::to_string(o.y));
  o.width = positive_size(r, "width");
  o.height = positive_size(r, "height");
  check_budget(r, "tile", o.width, o.height, n, limits);
  std::vector<std::int64_t> offsets(n), strides(n);
  for (int c = 0; c < n; ++c) offsets[c] = r.i64("offset " + std::to_string(c));
  for (int c = 0; c < n; ++c) strides[c] = r.i64("stride " + std::to_string(c));
  if (r.remaining() % 4 != 0) {
    r.refuse("data", std::to_string(r.remaining()) + " bytes, not a whole number of float32 values");
  }
  const auto count = static_cast<std::int64_t>(r.remaining() / 4);
  const std::int64_t pixels = std::int64_t{o.width} * o.height;  // <= the pixel budget
  for (int c = 0; c < n; ++c) {
    // The reads of channel c run from offset to offset + (pixels - 1) * stride.
    std::int64_t span = 0, last = 0;
    const std::string field = "channel " + std::to_string(c) + " (" + quote_untrusted(o.channels[c]) + ")";
    if (__builtin_mul_overflow(pixels - 1, strides[c], &span) || __builtin_add_overflow(offsets[c], span, &last)) {
      r.refuse(field, "offset " + std::to_string(offsets[c]) + " + " + std::to_string(pixels - 1) + " x stride " +
                          std::to_string(strides[c]) + " overflows 64 bits");
    }
    const std::int64_t lo = std::min(offsets[c], last), hi = std::max(offsets[c], last);
    if (lo < 0 || hi >= count) {
      r.refuse(field, "offset " + std::to_string(offsets[c]) + " and stride " + std::to_string(strides[c]) +
                          " read floats " + std::to_string(lo) + ".." + std::to_string(hi) + ", outside the " +
                          std::to_string(count) + " of the data");
    }
  }
  const std::uint8_t* data = r.here();
  o.planes.resize(n);
  for (int c = 0; c < n; ++c) {
    auto& plane = o.planes[c];
    plane.resize(static_cast<std::size_t>(pixels));
    const std::int64_t off = offsets[c], stride = strides[c];
    for (std::int64_t i = 0; i < pixels; ++i) {
      plane[static_cast<std::size_t>(i)] = load_f32(data + 4 * (off + i * stride));
    }
  }
  return o;
}

VectorGraphics parse_vector_graphics(Reader& r) {
  VectorGraphics o;
  o.grab_focus = r.boolean("grab_focus");
  o.name = r.string("name", false);
  o.append = r.boolean("append");
  o.commands = r.i32("command count");
  if (o.commands < 0) r.refuse("command count", "must be >= 0, got " + std::to_string(o.commands));
  return o;  // the commands are not looked at
}

// ---- writing ----
class Writer {
 public:
  explicit Writer(PacketType t) : bytes_(kHeaderBytes, 0) { bytes_[4] = static_cast<std::uint8_t>(t); }
  Writer& boolean(bool b) {
    bytes_.push_back(b ? 1 : 0);
    return *this;
  }
  Writer& u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return *this;
  }
  Writer& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
  Writer& i64(std::int64_t v) {
    const auto u = static_cast<std::uint64_t>(v);
    u32(static_cast<std::uint32_t>(u));
    return u32(static_cast<std::uint32_t>(u >> 32));
  }
  Writer& f32(float v) { return u32(std::bit_cast<std::uint32_t>(v)); }
  Writer& string(const std::string& s) {
    const std::size_t at = bytes_.size();
    bytes_.resize(at + s.size() + 1, 0);  // the NUL included
    if (!s.empty()) std::memcpy(bytes_.data() + at, s.data(), s.size());
    return *this;
  }
  std::vector<std::uint8_t> finish() {
    const auto n = static_cast<std::uint32_t>(bytes_.size());
    for (int i = 0; i < 4; ++i) bytes_[i] = static_cast<std::uint8_t>(n >> (8 * i));
    return std::move(bytes_);
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace

std::string type_name(std::uint8_t type) {
  switch (type) {
    case 1: return "ReloadImage";
    case 2: return "CloseImage";
    case 4: return "CreateImage";
    case 6: return "UpdateImage";
    case 7: return "OpenImage";
    case 8: return "VectorGraphics";
    default: return "type " + std::to_string(type);
  }
}

std::string command_name(const Command& c) {
  static const char* const names[] = {"OpenImage", "ReloadImage", "CloseImage", "CreateImage", "UpdateImage",
                                      "VectorGraphics"};
  return names[c.index()];
}

std::uint64_t pixel_budget(const PacketLimits& limits) {
  return limits.max_pixels ? limits.max_pixels : max_decode_pixels();
}

Frame frame_status(const std::uint8_t* data, std::size_t size, const PacketLimits& limits, std::uint32_t* length,
                   std::string* error) {
  if (size < 4) return Frame::NeedMore;
  const std::uint32_t n = load_u32(data);
  if (length) *length = n;
  if (n < kHeaderBytes) {
    if (error) *error = "packet length " + std::to_string(n) + ": less than its 5-byte header";
    return Frame::Refused;
  }
  if (n > limits.max_packet_bytes) {
    if (error) {
      *error = "packet length " + std::to_string(n) + ": over the limit of " + bytes_text(limits.max_packet_bytes);
    }
    return Frame::Refused;
  }
  // Refuse an unknown type as soon as its byte is there (not after buffering its length).
  if (size >= kHeaderBytes && !known_type(data[4])) {
    if (error) *error = unknown_type_message(data[4]);
    return Frame::Refused;
  }
  return size >= n ? Frame::Complete : Frame::Partial;
}

ParseResult parse_packet(const std::uint8_t* data, std::size_t size, const PacketLimits& limits) {
  ParseResult res;
  try {
    std::uint32_t length = 0;
    std::string error;
    switch (frame_status(data, size, limits, &length, &error)) {
      case Frame::NeedMore:
        res.error = "truncated: " + std::to_string(size) + " byte(s), less than the 4-byte length";
        return res;
      case Frame::Refused:
        res.error = error;
        return res;
      case Frame::Partial:
        res.error = "truncated: the packet declares " + std::to_string(length) + " bytes, " + std::to_string(size) +
                    " present";
        return res;
      case Frame::Complete:
        break;
    }
    const std::uint8_t type = data[4];
    Reader r(data, length, type_name(type), limits);
    switch (static_cast<PacketType>(type)) {
      case PacketType::OpenImage: res.command = parse_open(r); break;
      case PacketType::ReloadImage: res.command = parse_reload(r); break;
      case PacketType::CloseImage: res.command = parse_close(r); break;
      case PacketType::CreateImage: res.command = parse_create(r, limits); break;
      case PacketType::UpdateImage: res.command = parse_update(r, limits); break;
      case PacketType::VectorGraphics: res.command = parse_vector_graphics(r); break;
    }
    res.ok = true;
    res.consumed = length;
  } catch (const Refusal& e) {
    res.error = e.message;
  } catch (const std::bad_alloc&) {
    res.error = "out of memory for the packet's image data";
  } catch (const std::exception& e) {  // max_decode_pixels() on a malformed LB_MAX_PIXELS
    res.error = e.what();
  }
  if (!res.ok) res.command = VectorGraphics{};  // release anything half-built
  return res;
}

std::vector<std::uint8_t> encode_open_image(const OpenImage& p) {
  return Writer(PacketType::OpenImage).boolean(p.grab_focus).string(p.path).string(p.channel_selector).finish();
}

std::vector<std::uint8_t> encode_reload_image(const ReloadImage& p) {
  return Writer(PacketType::ReloadImage).boolean(p.grab_focus).string(p.name).finish();
}

std::vector<std::uint8_t> encode_close_image(const CloseImage& p) {
  return Writer(PacketType::CloseImage).string(p.name).finish();
}

std::vector<std::uint8_t> encode_create_image(const CreateImage& p) {
  Writer w(PacketType::CreateImage);
  w.boolean(p.grab_focus).string(p.name).i32(p.width).i32(p.height).i32(static_cast<std::int32_t>(p.channels.size()));
  for (const auto& c : p.channels) w.string(c);
  return w.finish();
}

std::vector<std::uint8_t> encode_update_image_strided(const UpdateImage& p, const std::vector<std::int64_t>& offsets,
                                                      const std::vector<std::int64_t>& strides,
                                                      const std::vector<float>& data) {
  Writer w(PacketType::UpdateImage);
  w.boolean(p.grab_focus).string(p.name).i32(static_cast<std::int32_t>(p.channels.size()));
  for (const auto& c : p.channels) w.string(c);
  w.i32(p.x).i32(p.y).i32(p.width).i32(p.height);
  for (auto o : offsets) w.i64(o);
  for (auto s : strides) w.i64(s);
  for (float v : data) w.f32(v);
  return w.finish();
}

std::vector<std::uint8_t> encode_update_image(const UpdateImage& p) {
  const std::int64_t pixels = std::int64_t{p.width} * p.height;
  std::vector<std::int64_t> offsets, strides;
  std::vector<float> data;
  for (std::size_t c = 0; c < p.channels.size(); ++c) {
    offsets.push_back(static_cast<std::int64_t>(c) * pixels);
    strides.push_back(1);
    if (c < p.planes.size()) data.insert(data.end(), p.planes[c].begin(), p.planes[c].end());
  }
  return encode_update_image_strided(p, offsets, strides, data);
}

std::vector<std::uint8_t> encode_vector_graphics(const VectorGraphics& p) {
  return Writer(PacketType::VectorGraphics).boolean(p.grab_focus).string(p.name).boolean(p.append).i32(p.commands).finish();
}

}  // namespace lb::viewer::remote
