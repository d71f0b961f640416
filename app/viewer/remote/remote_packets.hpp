#pragma once
// The viewer's remote port (issue 41 item 4; ../shared/specs/python-api.md, "The viewer's
// remote port"): a strict parser of the tev image viewer's IPC packets, so tev's own client
// (tevclient) and lightbench.viewer.Client (app/python/lightbench/viewer.py) can push images.
// No GL, no ImGui, no sockets here (remote_server.hpp reads them off TCP).
//
// A packet, little-endian: uint32 total length (these 4 bytes included), one type byte, then
// the type's fields: bool = 1 byte (0 or 1), int32, int64, float32, string = bytes ending in
// one NUL.
//   7 OpenImage v2    grab_focus, path, channel selector
//   1 ReloadImage     grab_focus, name
//   2 CloseImage      name
//   4 CreateImage     grab_focus, name, width, height (int32), n (int32), n channel names
//   6 UpdateImage v3  grab_focus, name, n (int32), n channel names, x, y, width, height
//                     (int32), n offsets (int64), n strides (int64), float32 data: channel c
//                     of tile pixel i (row-major over width x height) is
//                     data[offset_c + i * stride_c]
//   8 VectorGraphics  grab_focus, name, append (bool), command count (int32 >= 0), then the
//                     commands: not looked at (the viewer draws none; tev adds command
//                     kinds over time), so this is the one packet that may hold more bytes
// tev's older types (0 OpenImage v1, 3 UpdateImage v1, 5 UpdateImage v2) and anything else
// are refused as unsupported; tev's current client sends the types above.
//
// Refused, with one line naming the problem (never undefined behaviour): a declared length
// under 5 bytes, over the buffer or over the packet limit (1 GiB); a field cut off by the end
// of the packet; bytes left after the last field (the data of UpdateImage must be exactly
// what its offsets and strides read, rounded to whole floats: tev's client sends exactly
// that); a bool byte other than 0/1; a string without its NUL, longer than the string limit
// or holding control bytes; an empty image or channel name; zero or negative sizes; a tile or
// image of more pixels than the pixel budget or of more values (pixels x channels) than the
// value budget; channel counts of 0 or over kMaxChannels; duplicate channel names; negative
// tile positions; offsets / strides whose reads leave the data (checked with overflow-safe
// 64-bit arithmetic before anything is read); unknown types.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace lb::viewer::remote {

inline constexpr int kDefaultPort = 14158;  // tev's
inline constexpr std::uint64_t kMaxPacketBytes = std::uint64_t{1} << 30;  // 1 GiB
inline constexpr int kMaxChannels = 4;
inline constexpr std::size_t kMaxStringBytes = 4096;  // without the NUL
inline constexpr std::size_t kHeaderBytes = 5;        // length + type

enum class PacketType : std::uint8_t {
  ReloadImage = 1,
  CloseImage = 2,
  CreateImage = 4,
  UpdateImage = 6,  // tev's UpdateImageV3
  OpenImage = 7,    // tev's OpenImageV2
  VectorGraphics = 8,
};
// "OpenImage", ..., or "type N" for a byte that names none of the above.
std::string type_name(std::uint8_t type);

struct PacketLimits {
  std::uint64_t max_packet_bytes = kMaxPacketBytes;
  // Pixels (width x height) of an image or a tile; 0: lb::max_decode_pixels() (2^27 unless
  // LB_MAX_PIXELS says otherwise), the limit of the engine's image loaders.
  std::uint64_t max_pixels = 0;
  // Values (pixels x channels) of an image or a tile: 2^28 floats = 1 GiB.
  std::uint64_t max_values = std::uint64_t{1} << 28;
  int max_channels = kMaxChannels;
  std::size_t max_string_bytes = kMaxStringBytes;
};
// max_pixels with 0 resolved (max_decode_pixels() may throw lb::Error on a malformed
// LB_MAX_PIXELS; the parser then refuses with that message).
std::uint64_t pixel_budget(const PacketLimits& limits);

struct OpenImage {
  bool grab_focus = false;
  std::string path;
  std::string channel_selector;  // "" = every channel; else names separated by commas
};
struct ReloadImage {
  bool grab_focus = false;
  std::string name;
};
struct CloseImage {
  std::string name;
};
struct CreateImage {
  bool grab_focus = false;
  std::string name;
  int width = 0, height = 0;
  std::vector<std::string> channels;  // 1..max_channels distinct names, in the image's order
};
struct UpdateImage {
  bool grab_focus = false;
  std::string name;
  std::vector<std::string> channels;  // 1..max_channels distinct names
  int x = 0, y = 0, width = 0, height = 0;
  // One plane per channel (in `channels`' order), width x height values, row-major: what the
  // packet's offsets and strides read, gathered.
  std::vector<std::vector<float>> planes;
};
struct VectorGraphics {
  bool grab_focus = false;
  std::string name;
  bool append = false;
  int commands = 0;
};

using Command = std::variant<OpenImage, ReloadImage, CloseImage, CreateImage, UpdateImage, VectorGraphics>;
// The packet type of a command ("CreateImage", ...).
std::string command_name(const Command& c);

// What the first bytes of a stream say about the packet there (for reading off a socket
// without buffering a lying length): NeedMore (fewer than 4 bytes), Refused (length < 5 or
// over the limit; *error says so), Complete when `size` >= the declared length, else Partial.
enum class Frame { NeedMore, Partial, Complete, Refused };
Frame frame_status(const std::uint8_t* data, std::size_t size, const PacketLimits& limits,
                   std::uint32_t* length, std::string* error);

struct ParseResult {
  bool ok = false;
  Command command;
  std::string error;          // !ok: one line, e.g. "CreateImage: width: must be > 0, got -3"
  std::size_t consumed = 0;   // ok: the packet's declared length
};
// Parses the one packet at the start of `data` (its declared length must fit in `size`; bytes
// past it are not looked at). Never throws, never reads outside [data, data + size).
ParseResult parse_packet(const std::uint8_t* data, std::size_t size, const PacketLimits& limits = {});

// ---- Writers (tests, and clients written in C++): tev's byte layout. ----
std::vector<std::uint8_t> encode_open_image(const OpenImage& p);
std::vector<std::uint8_t> encode_reload_image(const ReloadImage& p);
std::vector<std::uint8_t> encode_close_image(const CloseImage& p);
std::vector<std::uint8_t> encode_create_image(const CreateImage& p);
// Planar data as lightbench.viewer.Client sends it: offsets c * w * h, strides 1.
std::vector<std::uint8_t> encode_update_image(const UpdateImage& p);
// Any offsets, strides and data (the caller's; not checked).
std::vector<std::uint8_t> encode_update_image_strided(const UpdateImage& p, const std::vector<std::int64_t>& offsets,
                                                      const std::vector<std::int64_t>& strides,
                                                      const std::vector<float>& data);
std::vector<std::uint8_t> encode_vector_graphics(const VectorGraphics& p);

}  // namespace lb::viewer::remote
