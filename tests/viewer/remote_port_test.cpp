// The viewer's remote port without a display (app/viewer/remote; issue 41 item 4): tev's IPC
// packets from bytes laid out here by hand (not by the project's writers), the refusals of
// malformed, oversized, truncated and unknown packets, random bytes and mutated packets (never
// a crash; run it under the sanitizers with the sanitizer build's flags), the image store, the
// TCP server on an ephemeral port with client sockets written here, and the exact bytes
// lightbench.viewer.Client (app/python/lightbench/viewer.py) sends.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <random>
#include <thread>

#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "remote_images.hpp"
#include "remote_packets.hpp"
#include "remote_server.hpp"
#include "remote_source.hpp"
#include "lightbench/evaluation.hpp"

using namespace lb;
using namespace lb::viewer;
using namespace lb::viewer::remote;
namespace fs = std::filesystem;

namespace {

// Little-endian packet bytes, by hand: the length is patched in by done().
struct Bytes {
  std::vector<std::uint8_t> b;
  explicit Bytes(int type) {
    b = {0, 0, 0, 0};
    b.push_back(static_cast<std::uint8_t>(type));
  }
  Bytes& u8(int v) {
    b.push_back(static_cast<std::uint8_t>(v));
    return *this;
  }
  Bytes& le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& i32(std::int32_t v) { return le(static_cast<std::uint32_t>(v), 4); }
  Bytes& i64(std::int64_t v) { return le(static_cast<std::uint64_t>(v), 8); }
  Bytes& f32(float v) { return le(std::bit_cast<std::uint32_t>(v), 4); }
  Bytes& str(const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
    return *this;
  }
  Bytes& raw(const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  std::vector<std::uint8_t> done() const {
    auto out = b;
    const auto n = static_cast<std::uint32_t>(out.size());
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(n >> (8 * i));
    return out;
  }
};

ParseResult parse(const std::vector<std::uint8_t>& v, const PacketLimits& l = {}) {
  return parse_packet(v.data(), v.size(), l);
}

std::string refusal(const std::vector<std::uint8_t>& v, const PacketLimits& l = {}) {
  const ParseResult r = parse(v, l);
  CHECK_MESSAGE(!r.ok, "accepted a packet that should be refused");
  CHECK(r.error.find('\n') == std::string::npos);
  CHECK(!r.error.empty());
  return r.error;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// CreateImage "img" 3x2, channels R,G.
std::vector<std::uint8_t> create_bytes(const std::string& name = "img", int w = 3, int h = 2,
                                       std::vector<std::string> ch = {"R", "G"}, bool focus = true) {
  Bytes b(4);
  b.u8(focus).str(name).i32(w).i32(h).i32(static_cast<std::int32_t>(ch.size()));
  for (const auto& c : ch) b.str(c);
  return b.done();
}

// UpdateImage, planar: offsets c * w * h, strides 1.
std::vector<std::uint8_t> update_bytes(const std::string& name, std::vector<std::string> ch, int x, int y, int w,
                                       int h, const std::vector<float>& planar, bool focus = false) {
  Bytes b(6);
  b.u8(focus).str(name).i32(static_cast<std::int32_t>(ch.size()));
  for (const auto& c : ch) b.str(c);
  b.i32(x).i32(y).i32(w).i32(h);
  for (std::size_t c = 0; c < ch.size(); ++c) b.i64(static_cast<std::int64_t>(c) * w * h);
  for (std::size_t c = 0; c < ch.size(); ++c) b.i64(1);
  for (float v : planar) b.f32(v);
  return b.done();
}

// A copy (the result is often a temporary).
template <class T>
T as(const ParseResult& r) {
  REQUIRE_MESSAGE(r.ok, r.error);
  REQUIRE(std::holds_alternative<T>(r.command));
  return std::get<T>(r.command);
}

fs::path temp_dir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("lb_remote_port_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// ---- sockets ----
int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  return fd;
}

void send_all(int fd, const std::vector<std::uint8_t>& v, std::size_t piece = 0) {
  std::size_t done = 0;
  while (done < v.size()) {
    const std::size_t n = piece ? std::min(piece, v.size() - done) : v.size() - done;
    const ssize_t s = ::send(fd, v.data() + done, n, MSG_NOSIGNAL);
    REQUIRE(s > 0);
    done += static_cast<std::size_t>(s);
    if (piece) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// True when the server closed the connection (recv gives 0 or a reset) within 5 s.
bool closed_by_peer(int fd) {
  char c;
  const ssize_t n = ::recv(fd, &c, 1, 0);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

template <class F>
bool wait_for(F done, double seconds = 5.0) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return done();
}

struct LogLines {
  std::mutex m;
  std::vector<std::string> lines;
  RemoteServer::Log fn() {
    return [this](const std::string& s) {
      std::lock_guard lock(m);
      lines.push_back(s);
    };
  }
  std::vector<std::string> get() {
    std::lock_guard lock(m);
    return lines;
  }
};

}  // namespace

// =============================== parser: every type ===============================

TEST_CASE("OpenImage v2 (7): grab_focus, path, channel selector") {
  const auto v = Bytes(7).u8(1).str("/data/disp.pfm").str("R,G").done();
  const auto& o = as<OpenImage>(parse(v));
  CHECK(o.grab_focus);
  CHECK(o.path == "/data/disp.pfm");
  CHECK(o.channel_selector == "R,G");
  CHECK(parse(v).consumed == v.size());
  CHECK(encode_open_image(o) == v);
  // An empty selector is every channel.
  CHECK(as<OpenImage>(parse(Bytes(7).u8(0).str("a.png").str("").done())).channel_selector.empty());
}

TEST_CASE("ReloadImage (1) and CloseImage (2)") {
  const auto r = Bytes(1).u8(0).str("a.png").done();
  const auto& ro = as<ReloadImage>(parse(r));
  CHECK(!ro.grab_focus);
  CHECK(ro.name == "a.png");
  CHECK(encode_reload_image(ro) == r);
  const auto c = Bytes(2).str("some image").done();
  const auto& co = as<CloseImage>(parse(c));
  CHECK(co.name == "some image");
  CHECK(encode_close_image(co) == c);
}

TEST_CASE("CreateImage (4): name, width, height, channel names") {
  const auto v = create_bytes("disp", 640, 480, {"R", "G", "B", "A"});
  const auto& o = as<CreateImage>(parse(v));
  CHECK(o.grab_focus);
  CHECK(o.name == "disp");
  CHECK(o.width == 640);
  CHECK(o.height == 480);
  CHECK(o.channels == std::vector<std::string>{"R", "G", "B", "A"});
  CHECK(encode_create_image(o) == v);
}

TEST_CASE("UpdateImage v3 (6): planar data, and any offsets and strides (interleaved, reversed)") {
  // Planar, as lightbench.viewer.Client sends it: R then G.
  const std::vector<float> planar = {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, std::numeric_limits<float>::quiet_NaN()};
  const auto v = update_bytes("img", {"R", "G"}, 1, 2, 3, 2, planar, true);
  const auto& o = as<UpdateImage>(parse(v));
  CHECK(o.grab_focus);
  CHECK(o.name == "img");
  CHECK(o.channels == std::vector<std::string>{"R", "G"});
  CHECK(o.x == 1);
  CHECK(o.y == 2);
  CHECK(o.width == 3);
  CHECK(o.height == 2);
  REQUIRE(o.planes.size() == 2);
  CHECK(o.planes[0] == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(o.planes[1][0] == -1);
  CHECK(o.planes[1][4] == -5);
  CHECK(std::isnan(o.planes[1][5]));
  CHECK(encode_update_image(o) == v);

  // Interleaved RGB (offsets 0,1,2, strides 3), as tev's client sends an HxWx3 array.
  Bytes b(6);
  b.u8(0).str("rgb").i32(3).str("R").str("G").str("B").i32(0).i32(0).i32(2).i32(1);
  b.i64(0).i64(1).i64(2).i64(3).i64(3).i64(3);
  for (float f : {10.f, 20.f, 30.f, 11.f, 21.f, 31.f}) b.f32(f);
  const auto& rgb = as<UpdateImage>(parse(b.done()));
  CHECK(rgb.planes[0] == std::vector<float>{10, 11});
  CHECK(rgb.planes[1] == std::vector<float>{20, 21});
  CHECK(rgb.planes[2] == std::vector<float>{30, 31});

  // A negative stride (the data read backwards) and a zero stride (one value everywhere).
  Bytes n(6);
  n.u8(0).str("rev").i32(2).str("R").str("G").i32(0).i32(0).i32(4).i32(1);
  n.i64(3).i64(4).i64(-1).i64(0);
  for (float f : {1.f, 2.f, 3.f, 4.f, 9.f}) n.f32(f);
  const auto& rev = as<UpdateImage>(parse(n.done()));
  CHECK(rev.planes[0] == std::vector<float>{4, 3, 2, 1});
  CHECK(rev.planes[1] == std::vector<float>{9, 9, 9, 9});
}

TEST_CASE("VectorGraphics (8): the header is parsed, the commands ignored") {
  Bytes b(8);
  b.u8(1).str("img").u8(0).i32(2);
  b.u8(2).f32(1).f32(2);  // MoveTo
  b.u8(7);                // Stroke
  const auto& o = as<VectorGraphics>(parse(b.done()));
  CHECK(o.grab_focus);
  CHECK(o.name == "img");
  CHECK(!o.append);
  CHECK(o.commands == 2);
  CHECK(encode_vector_graphics(VectorGraphics{false, "x", true, 0}) == Bytes(8).u8(0).str("x").u8(1).i32(0).done());
  CHECK(contains(refusal(Bytes(8).u8(0).str("x").u8(0).i32(-1).done()), "command count: must be >= 0"));
}

TEST_CASE("parse_packet reads one packet at the start of a stream, frame_status tells how much is there") {
  auto v = create_bytes();
  const std::size_t n = v.size();
  const auto second = Bytes(2).str("img").done();
  v.insert(v.end(), second.begin(), second.end());
  const ParseResult r = parse(v);
  REQUIRE(r.ok);
  CHECK(r.consumed == n);
  CHECK(as<CloseImage>(parse_packet(v.data() + n, v.size() - n)).name == "img");
  std::uint32_t len = 0;
  std::string err;
  const PacketLimits l;
  CHECK(frame_status(v.data(), 3, l, &len, &err) == Frame::NeedMore);
  CHECK(frame_status(v.data(), 4, l, &len, &err) == Frame::Partial);
  CHECK(len == n);
  CHECK(frame_status(v.data(), n - 1, l, &len, &err) == Frame::Partial);
  CHECK(frame_status(v.data(), n, l, &len, &err) == Frame::Complete);
}

// =============================== parser: refusals ===============================

TEST_CASE("lengths: under the header, over the buffer, over 1 GiB; fewer than 4 bytes") {
  CHECK(contains(refusal({4, 0, 0, 0, 2}), "packet length 4: less than its 5-byte header"));
  CHECK(contains(refusal({0, 0, 0, 0}), "less than its 5-byte header"));
  CHECK(contains(refusal({1, 0}), "truncated: 2 byte(s), less than the 4-byte length"));
  CHECK(contains(refusal({}), "truncated"));
  CHECK(contains(refusal({0xff, 0xff, 0xff, 0xff, 4}), "packet length 4294967295: over the limit of 1 GiB"));
  CHECK(contains(refusal({0x01, 0x00, 0x00, 0x40, 4}), "over the limit of 1 GiB"));  // 1 GiB + 1
  auto v = create_bytes();
  v.pop_back();
  CHECK(contains(refusal(v), "truncated: the packet declares " + std::to_string(v.size() + 1) + " bytes, " +
                                 std::to_string(v.size()) + " present"));
  PacketLimits small;
  small.max_packet_bytes = 16;
  CHECK(contains(refusal(create_bytes(), small), "over the limit of 16 bytes"));
}

TEST_CASE("unknown and unsupported types") {
  CHECK(refusal(Bytes(9).str("x").done()) == "unknown packet type 9");
  CHECK(refusal(Bytes(255).done()) == "unknown packet type 255");
  CHECK(contains(refusal(Bytes(3).u8(0).str("x").done()), "unsupported packet type 3 (tev's UpdateImage v1"));
  CHECK(contains(refusal(Bytes(5).u8(0).str("x").done()), "unsupported packet type 5"));
  CHECK(contains(refusal(Bytes(0).u8(0).str("x").done()), "unsupported packet type 0 (tev's OpenImage v1"));
  // Refused from the first 5 bytes, before the rest arrives.
  const auto v = Bytes(9).raw(std::string(100, 'x')).done();
  std::string err;
  CHECK(frame_status(v.data(), 5, PacketLimits{}, nullptr, &err) == Frame::Refused);
  CHECK(err == "unknown packet type 9");
}

TEST_CASE("fields: cut off, bools, strings, trailing bytes") {
  CHECK(refusal(Bytes(1).done()) == "ReloadImage: grab_focus: cut off by the end of the packet (bool of 1 byte(s), 0 left)");
  CHECK(contains(refusal(Bytes(4).u8(0).str("a").i32(3).raw("\x01\x00").done()), "CreateImage: height: cut off"));
  CHECK(refusal(Bytes(1).u8(2).str("a").done()) == "ReloadImage: grab_focus: a bool must be 0 or 1, got 2");
  CHECK(refusal(Bytes(2).raw("abc").done()) == "CloseImage: name: no NUL before the end of the packet");
  CHECK(refusal(Bytes(2).str("").done()) == "CloseImage: name: must not be empty");
  CHECK(contains(refusal(Bytes(2).str("a\nb").done()), "CloseImage: name: holds a control byte \\x0a"));
  CHECK(contains(refusal(Bytes(2).str("a\x1b[2J").done()), "control byte \\x1b"));
  CHECK(refusal(Bytes(2).str(std::string(kMaxStringBytes + 1, 'n')).done()) ==
        "CloseImage: name: longer than 4096 bytes");
  CHECK(parse(Bytes(2).str(std::string(kMaxStringBytes, 'n')).done()).ok);
  // A long run of bytes without any NUL, bigger than the limit.
  CHECK(contains(refusal(Bytes(2).raw(std::string(10000, 'n')).done()), "longer than 4096 bytes"));
  CHECK(refusal(Bytes(2).str("a").u8(0).done()) == "CloseImage: 1 byte(s) left after the last field");
  CHECK(contains(refusal(Bytes(7).u8(1).str("p").str("").raw("zz").done()), "2 byte(s) left"));
  CHECK(refusal(Bytes(7).u8(1).str("").str("").done()) == "OpenImage: path: must not be empty");
  auto extra = create_bytes();
  extra.push_back(0);
  extra[0] += 1;
  CHECK(contains(refusal(extra), "CreateImage: 1 byte(s) left after the last field"));
}

TEST_CASE("CreateImage: sizes, budgets, channels") {
  CHECK(refusal(create_bytes("a", 0, 2)) == "CreateImage: width: must be > 0, got 0");
  CHECK(refusal(create_bytes("a", 3, -7)) == "CreateImage: height: must be > 0, got -7");
  CHECK(contains(refusal(create_bytes("a", 65536, 65536)), "65536x65536 = 4294967296 pixels, over the pixel budget"));
  CHECK(contains(refusal(create_bytes("a", std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max())),
                 "over the pixel budget"));
  PacketLimits l;
  l.max_pixels = 100;
  CHECK(parse(create_bytes("a", 10, 10), l).ok);
  CHECK(refusal(create_bytes("a", 11, 10), l) == "CreateImage: size: 11x10 = 110 pixels, over the pixel budget of 100");
  l.max_values = 150;
  CHECK(contains(refusal(create_bytes("a", 10, 10, {"R", "G"}), l), "10x10x2 = 200 values, over the budget of 150"));
  CHECK(refusal(Bytes(4).u8(0).str("a").i32(1).i32(1).i32(0).done()) ==
        "CreateImage: channel count: must be in 1..4, got 0");
  CHECK(contains(refusal(create_bytes("a", 1, 1, {"R", "G", "B", "A", "Z"})), "must be in 1..4, got 5"));
  CHECK(contains(refusal(Bytes(4).u8(0).str("a").i32(1).i32(1).i32(-2).done()), "got -2"));
  CHECK(contains(refusal(Bytes(4).u8(0).str("a").i32(1).i32(1).i32(1 << 30).done()), "got 1073741824"));
  CHECK(refusal(create_bytes("a", 1, 1, {"R", "R"})) == "CreateImage: channel name 1: duplicate channel 'R'");
  CHECK(refusal(create_bytes("a", 1, 1, {""})) == "CreateImage: channel name 0: must not be empty");
  // Channel names cut off: the count says 3, two are there.
  CHECK(contains(refusal(Bytes(4).u8(0).str("a").i32(1).i32(1).i32(3).str("R").str("G").done()),
                 "channel name 2: no NUL"));
}

TEST_CASE("UpdateImage: tiles, offsets and strides that leave the data, truncated data") {
  const std::vector<float> four = {1, 2, 3, 4};
  auto upd = [&](std::int64_t off, std::int64_t stride, int w, int h, std::size_t n_data, int x = 0, int y = 0) {
    Bytes b(6);
    b.u8(0).str("img").i32(1).str("R").i32(x).i32(y).i32(w).i32(h).i64(off).i64(stride);
    for (std::size_t i = 0; i < n_data; ++i) b.f32(static_cast<float>(i));
    return b.done();
  };
  CHECK(parse(upd(0, 1, 2, 2, 4)).ok);
  CHECK(parse(upd(0, 1, 2, 2, 6)).ok);  // more data than read: accepted, as tev does
  CHECK(refusal(upd(0, 1, 2, 2, 3)) ==
        "UpdateImage: channel 0 ('R'): offset 0 and stride 1 read floats 0..3, outside the 3 of the data");
  CHECK(contains(refusal(upd(1, 1, 2, 2, 4)), "read floats 1..4, outside the 4 of the data"));
  CHECK(contains(refusal(upd(-1, 1, 2, 2, 4)), "read floats -1..2"));
  CHECK(contains(refusal(upd(0, -1, 2, 2, 4)), "read floats -3..0"));
  CHECK(contains(refusal(upd(std::numeric_limits<std::int64_t>::max(), 1, 2, 2, 4)), "overflows 64 bits"));
  CHECK(contains(refusal(upd(0, std::numeric_limits<std::int64_t>::max(), 2, 2, 4)), "overflows 64 bits"));
  CHECK(contains(refusal(upd(0, std::numeric_limits<std::int64_t>::min(), 2, 2, 4)), "overflows 64 bits"));
  CHECK(contains(refusal(upd(std::numeric_limits<std::int64_t>::min(), 0, 2, 2, 4)), "read floats -9223372036854775808"));
  CHECK(contains(refusal(upd(0, 1, 0, 2, 4)), "UpdateImage: width: must be > 0, got 0"));
  CHECK(contains(refusal(upd(0, 1, 2, -2, 4)), "UpdateImage: height: must be > 0, got -2"));
  CHECK(contains(refusal(upd(0, 1, 2, 2, 4, -1)), "UpdateImage: x: must be >= 0, got -1"));
  CHECK(contains(refusal(upd(0, 1, 2, 2, 4, 0, -5)), "UpdateImage: y: must be >= 0, got -5"));
  CHECK(contains(refusal(upd(0, 0, 1 << 16, 1 << 16, 1)), "over the pixel budget"));
  // A tile of one float per pixel that would expand past the value budget with stride 0.
  PacketLimits l;
  l.max_values = 8;
  CHECK(contains(refusal(upd(0, 0, 3, 3, 1), l), "3x3x1 = 9 values, over the budget of 8"));
  auto odd = upd(0, 1, 2, 2, 4);
  odd.push_back(0);
  odd[0] += 1;
  CHECK(contains(refusal(odd), "data: 17 bytes, not a whole number of float32 values"));
  // The offsets cut off.
  CHECK(contains(refusal(Bytes(6).u8(0).str("img").i32(2).str("R").str("G").i32(0).i32(0).i32(1).i32(1).i64(0).done()),
                 "offset 1: cut off"));
  CHECK(contains(refusal(update_bytes("img", {"R", "R"}, 0, 0, 1, 1, {1, 2})), "duplicate channel 'R'"));
  CHECK(contains(refusal(update_bytes("img", {"R", "G", "B", "A", "X"}, 0, 0, 1, 1, {1, 2, 3, 4, 5})),
                 "channel count: must be in 1..4, got 5"));
  (void)four;
}

// =============================== parser: fuzz-ish ===============================

namespace {

std::vector<std::vector<std::uint8_t>> valid_packets() {
  Bytes vg(8);
  vg.u8(0).str("v").u8(1).i32(1).u8(4).f32(1).f32(0).f32(0).f32(1);
  Bytes strided(6);
  strided.u8(1).str("img").i32(2).str("G").str("R").i32(1).i32(0).i32(2).i32(1).i64(3).i64(0).i64(-2).i64(1);
  for (float f : {1.f, 2.f, 3.f, 4.f}) strided.f32(f);
  return {create_bytes(),
          update_bytes("img", {"R", "G"}, 0, 0, 3, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
          strided.done(),
          Bytes(7).u8(1).str("/tmp/x.pfm").str("R").done(),
          Bytes(1).u8(0).str("x").done(),
          Bytes(2).str("img").done(),
          vg.done()};
}

// Parses and, when accepted, applies to a store: neither may crash, hang or read outside.
void exercise(const std::vector<std::uint8_t>& v, RemoteImages& store, const PacketLimits& l) {
  const ParseResult r = parse_packet(v.data(), v.size(), l);
  if (r.ok) {
    CHECK(r.consumed >= kHeaderBytes);
    CHECK(r.consumed <= v.size());
    if (!std::holds_alternative<OpenImage>(r.command) && !std::holds_alternative<ReloadImage>(r.command)) {
      store.apply(r.command);
    }
  } else {
    CHECK(!r.error.empty());
    CHECK(r.error.find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("every prefix of a valid packet is refused as truncated; random bytes and mutations never crash") {
  PacketLimits l;
  l.max_pixels = 1 << 16;  // mutated sizes stay small enough to run quickly
  l.max_values = 1 << 18;
  RemoteImages store;
  for (const auto& p : valid_packets()) {
    REQUIRE_MESSAGE(parse(p, l).ok, parse(p, l).error);
    for (std::size_t n = 0; n < p.size(); ++n) {
      const ParseResult r = parse_packet(p.data(), n, l);
      CHECK(!r.ok);
      CHECK((contains(r.error, "truncated") || (n >= 5 && contains(r.error, "unknown"))));
    }
    // A smaller declared length cuts the fields instead: refused (or, for the commands that
    // end in a string, possibly valid), never outside the declared bytes.
    for (std::uint32_t len = 0; len < p.size(); ++len) {
      auto q = std::vector<std::uint8_t>(p.begin(), p.begin() + std::max<std::uint32_t>(len, 4));
      for (int i = 0; i < 4; ++i) q[i] = static_cast<std::uint8_t>(len >> (8 * i));
      exercise(q, store, l);
    }
  }
  std::mt19937 rng(12345);
  const auto packets = valid_packets();
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<std::uint8_t> v;
    const int mode = iter % 4;
    if (mode == 0) {  // random bytes, random length
      v.resize(rng() % 64);
      for (auto& b : v) b = static_cast<std::uint8_t>(rng());
    } else if (mode == 1) {  // random bytes behind a correct length and a known type
      v.resize(5 + rng() % 80);
      for (auto& b : v) b = static_cast<std::uint8_t>(rng());
      const std::uint8_t types[] = {1, 2, 4, 6, 7, 8};
      v[4] = types[rng() % 6];
      const auto n = static_cast<std::uint32_t>(v.size());
      for (int i = 0; i < 4; ++i) v[i] = static_cast<std::uint8_t>(n >> (8 * i));
    } else {  // a valid packet with 1..4 bytes changed (or its int fields set to extremes)
      v = packets[rng() % packets.size()];
      const int changes = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < changes; ++k) {
        const std::size_t at = rng() % v.size();
        if (mode == 2) {
          v[at] = static_cast<std::uint8_t>(rng());
        } else {
          const std::uint8_t extremes[] = {0, 1, 0x7f, 0x80, 0xff};
          v[at] = extremes[rng() % 5];
        }
      }
      if (rng() % 3 == 0) v.resize(rng() % (v.size() + 1));
    }
    exercise(v, store, l);
  }
}

// =============================== the store ===============================

TEST_CASE("store: create + update read back exactly; tiles, unknown channels and images refused") {
  RemoteImages store;
  const std::uint64_t v0 = store.version();
  CHECK(store.apply(as<CreateImage>(parse(create_bytes("img", 3, 2, {"R", "G"}, true)))) == "");
  CHECK(store.version() > v0);
  CHECK(store.take_focus() == std::optional<std::string>("img"));
  CHECK(!store.take_focus());
  CHECK(store.received() == 0);
  auto before = store.find("img");
  REQUIRE(before);
  CHECK(before->image.width == 3);
  CHECK(before->image.height == 2);
  CHECK(before->image.channels == 2);
  CHECK(before->image.data == std::vector<float>(12, 0.f));
  CHECK(!before->complete);

  // The left 2x2, then the right column: G only first, then R and G.
  CHECK(store.apply(as<UpdateImage>(parse(update_bytes("img", {"G", "R"}, 0, 0, 2, 2, {10, 11, 13, 14, 0, 1, 3, 4})))) == "");
  CHECK(store.received() == 0);
  CHECK(store.apply(as<UpdateImage>(parse(update_bytes("img", {"R", "G"}, 2, 0, 1, 2, {2, 5, 12, 15}, true)))) == "");
  CHECK(store.received() == 1);
  CHECK(store.take_focus() == std::optional<std::string>("img"));
  const auto img = store.find("img");
  REQUIRE(img);
  CHECK(img->complete);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      CHECK(img->image.at(x, y, 0) == static_cast<float>(y * 3 + x));
      CHECK(img->image.at(x, y, 1) == static_cast<float>(10 + y * 3 + x));
    }
  }
  // The snapshot taken before the updates did not change (copy on write).
  CHECK(before->image.data == std::vector<float>(12, 0.f));
  CHECK(img->version == store.version());

  CHECK(contains(store.apply(as<UpdateImage>(parse(update_bytes("img", {"R"}, 2, 1, 2, 1, {1, 2})))),
                 "UpdateImage: 'img': tile 2x1 at (2,1) is not inside the image's 3x2"));
  CHECK(contains(store.apply(as<UpdateImage>(parse(update_bytes("img", {"R"}, 0, 2, 1, 1, {1})))), "not inside"));
  CHECK(store.apply(as<UpdateImage>(parse(update_bytes("img", {"B"}, 0, 0, 1, 1, {1})))) ==
        "UpdateImage: 'img' has no channel 'B' (it has R,G)");
  CHECK(store.apply(as<UpdateImage>(parse(update_bytes("nope", {"R"}, 0, 0, 1, 1, {1})))) ==
        "UpdateImage: no image 'nope' (CreateImage first)");
  CHECK(store.find("img")->image.data == img->image.data);  // refusals change nothing

  // Replacing by CreateImage, then CloseImage.
  CHECK(store.apply(as<CreateImage>(parse(create_bytes("img", 1, 1, {"Y"}, false)))) == "");
  CHECK(store.find("img")->image.channels == 1);
  CHECK(!store.take_focus());
  CHECK(store.names() == std::vector<std::string>{"img"});
  const auto v1 = store.version();
  CHECK(store.apply(CloseImage{"img"}) == "");
  CHECK(store.version() > v1);
  CHECK(!store.find("img"));
  CHECK(store.apply(CloseImage{"img"}) == "CloseImage: no image 'img'");
  CHECK(store.received() == 1);  // never decreases
  CHECK(store.apply(VectorGraphics{true, "img", false, 0}) == "");
}

TEST_CASE("store: the memory limit over all images") {
  StoreLimits l;
  l.max_total_bytes = 1000;
  RemoteImages store(l);
  CHECK(store.apply(CreateImage{false, "a", 10, 10, {"R", "G"}}) == "");  // 800 bytes
  CHECK(contains(store.apply(CreateImage{false, "b", 10, 10, {"R"}}), "over the limit of"));
  CHECK(store.apply(CreateImage{false, "a", 10, 10, {"R", "G"}}) == "");  // a replacement fits
  CHECK(store.total_bytes() == 800);
}

TEST_CASE("store: OpenImage reads a PFM or an 8-bit image, the selector picks channels, ReloadImage re-reads") {
  const fs::path pfm = temp_dir() / "map.pfm";
  ImageF m(4, 3, 3);
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = 0.25f * static_cast<float>(i);
  save_pfm(pfm.string(), m);
  RemoteImages store;
  CHECK(store.apply(OpenImage{true, pfm.string(), ""}) == "");
  auto img = store.find(pfm.string());
  REQUIRE(img);
  CHECK(img->complete);
  CHECK(img->path == pfm.string());
  CHECK(img->channel_names == std::vector<std::string>{"R", "G", "B"});
  CHECK(img->image.data == m.data);
  CHECK(store.received() == 1);
  CHECK(store.take_focus() == std::optional<std::string>(pfm.string()));

  CHECK(store.apply(OpenImage{false, pfm.string(), "B, R"}) == "");
  img = store.find(pfm.string());
  CHECK(img->channel_names == std::vector<std::string>{"B", "R"});
  CHECK(img->image.at(1, 2, 0) == m.at(1, 2, 2));
  CHECK(img->image.at(1, 2, 1) == m.at(1, 2, 0));
  CHECK(contains(store.apply(OpenImage{false, pfm.string(), "Z"}), "no channel 'Z'"));
  CHECK(contains(store.apply(OpenImage{false, pfm.string(), "R,R"}), "named twice"));

  // Reload after the file changed keeps the selector.
  m.at(1, 2, 2) = 99.f;
  save_pfm(pfm.string(), m);
  CHECK(store.apply(ReloadImage{false, pfm.string()}) == "");
  CHECK(store.find(pfm.string())->image.at(1, 2, 0) == 99.f);
  CHECK(store.apply(ReloadImage{false, "nope"}) == "ReloadImage: no image 'nope'");
  store.apply(CreateImage{false, "made", 1, 1, {"R"}});
  CHECK(contains(store.apply(ReloadImage{false, "made"}), "was created, not opened from a file"));

  const fs::path png = temp_dir() / "grey.pgm";
  ImageU8 g(2, 2, 1);
  g.data = {0, 10, 200, 255};
  save_image(png.string(), g);
  CHECK(store.apply(OpenImage{false, png.string(), ""}) == "");
  CHECK(store.find(png.string())->image.data == std::vector<float>{0, 10, 200, 255});
  CHECK(store.find(png.string())->channel_names == std::vector<std::string>{"Y"});
  // Colour: 0..1 as tev shows it.
  const fs::path rgb = temp_dir() / "colour.png";
  ImageU8 c(1, 1, 3);
  c.data = {0, 51, 255};
  save_image(rgb.string(), c);
  CHECK(store.apply(OpenImage{false, rgb.string(), "G"}) == "");
  CHECK(store.find(rgb.string())->image.data == std::vector<float>{51.f / 255.f});
  // A 16-bit grey PNG is a KITTI disparity map: value / 256, 0 = NaN.
  const fs::path kitti = temp_dir() / "kitti.png";
  ImageF d(2, 1, 1);
  d.data = {12.5f, std::numeric_limits<float>::quiet_NaN()};
  dataset::save_kitti_disparity(kitti.string(), d);
  CHECK(store.apply(OpenImage{false, kitti.string(), ""}) == "");
  const auto k = store.find(kitti.string());
  CHECK(k->image.at(0, 0) == 12.5f);
  CHECK(std::isnan(k->image.at(1, 0)));

  const std::string missing = store.apply(OpenImage{false, (temp_dir() / "missing.pfm").string(), ""});
  CHECK(contains(missing, "OpenImage: "));
  CHECK(contains(missing, "missing.pfm"));
  const fs::path junk = temp_dir() / "junk.pfm";
  std::ofstream(junk) << "PF\n-3 2\n-1\nxx";
  CHECK(contains(store.apply(OpenImage{false, junk.string(), ""}), "OpenImage: "));
}

// =============================== the server ===============================

TEST_CASE("listen addresses: PORT, HOST:PORT, [IPv6]:PORT; bad values in one line") {
  CHECK(parse_listen_address("14158").host == "127.0.0.1");
  CHECK(parse_listen_address("9000").port == 9000);
  CHECK(parse_listen_address("0.0.0.0:1234").host == "0.0.0.0");
  CHECK(parse_listen_address("0.0.0.0:1234").port == 1234);
  CHECK(parse_listen_address(":77").host == "127.0.0.1");
  CHECK(parse_listen_address("[::1]:5").host == "::1");
  CHECK(parse_listen_address("localhost:0").port == 0);
  for (const char* bad : {"", "abc", "host:", "host:-1", "1:2:3", "65536", "h:99999", "[::1]", "[]:4", "12a", "h:1 "}) {
    try {
      parse_listen_address(bad);
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      const std::string msg = e.what();
      CHECK(contains(msg, "listen address"));
      CHECK(msg.find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("server: create + update from a client socket (byte by byte too), read back exactly") {
  RemoteImages store;
  LogLines log;
  RemoteServer server(parse_listen_address("127.0.0.1:0"), store, log.fn());
  REQUIRE(server.port() > 0);
  CHECK(server.address() == "127.0.0.1:" + std::to_string(server.port()));

  const int w = 64, h = 48;
  std::vector<float> r(w * h), g(w * h);
  for (int i = 0; i < w * h; ++i) {
    r[i] = std::sin(0.1f * i);
    g[i] = static_cast<float>(i) / 7.f;
  }
  std::vector<float> planar = r;
  planar.insert(planar.end(), g.begin(), g.end());

  const int fd = connect_to(server.port());
  // Both packets in one send, then a third tile (a rewrite) a few bytes at a time.
  auto both = create_bytes("remote-img", w, h, {"R", "G"}, true);
  const auto upd = update_bytes("remote-img", {"R", "G"}, 0, 0, w, h, planar);
  both.insert(both.end(), upd.begin(), upd.end());
  send_all(fd, both);
  REQUIRE(wait_for([&] { return server.images_received() == 1; }));
  auto img = store.find("remote-img");
  REQUIRE(img);
  for (int i = 0; i < w * h; ++i) {
    REQUIRE(img->image.data[2 * i] == r[i]);
    REQUIRE(img->image.data[2 * i + 1] == g[i]);
  }
  const auto tile = update_bytes("remote-img", {"G"}, 5, 7, 2, 2, {-1, -2, -3, -4});
  send_all(fd, tile, 3);
  REQUIRE(wait_for([&] { return server.packets_applied() == 3; }));
  img = store.find("remote-img");
  CHECK(img->image.at(5, 7, 1) == -1);
  CHECK(img->image.at(6, 8, 1) == -4);
  CHECK(img->image.at(6, 8, 0) == r[8 * w + 6]);
  CHECK(server.images_received() == 1);
  CHECK(store.take_focus() == std::optional<std::string>("remote-img"));
  CHECK(log.get().empty());
  ::close(fd);
}

TEST_CASE("server: a malformed packet closes only that connection; other clients go on; stop() is prompt") {
  RemoteImages store;
  LogLines log;
  RemoteServer server(parse_listen_address("0"), store, log.fn());
  const int good = connect_to(server.port());
  send_all(good, create_bytes("a", 2, 1, {"R"}));
  REQUIRE(wait_for([&] { return store.find("a") != nullptr; }));

  struct Bad {
    std::vector<std::uint8_t> bytes;
    std::string expect;
  };
  auto no_image = update_bytes("ghost", {"R"}, 0, 0, 1, 1, {1});
  std::vector<std::uint8_t> huge = {0x00, 0x00, 0x00, 0x50, 4};  // declares 1.25 GiB, sends 5 bytes
  const std::vector<Bad> bad = {
      {Bytes(9).str("x").done(), "unknown packet type 9"},
      {huge, "over the limit of 1 GiB"},
      {{3, 0, 0, 0, 1}, "less than its 5-byte header"},
      {create_bytes("b", -1, 1), "CreateImage: width: must be > 0, got -1"},
      {no_image, "UpdateImage: no image 'ghost'"},
      {update_bytes("a", {"R"}, 1, 0, 2, 1, {1, 2}), "not inside the image's 2x1"},
  };
  std::size_t expected_lines = 0;
  for (const auto& b : bad) {
    const int fd = connect_to(server.port());
    send_all(fd, b.bytes);
    CHECK_MESSAGE(closed_by_peer(fd), b.expect);
    ::close(fd);
    ++expected_lines;
    REQUIRE(wait_for([&] { return log.get().size() == expected_lines; }));
    const std::string line = log.get().back();
    CHECK_MESSAGE(contains(line, b.expect), line);
    CHECK(contains(line, "remote port: client 127.0.0.1:"));
    CHECK(contains(line, "; connection closed"));
  }
  // A connection that ends inside a packet is logged too.
  {
    const int fd = connect_to(server.port());
    auto part = create_bytes("c", 1, 1, {"R"});
    part.resize(part.size() - 2);
    send_all(fd, part);
    ::shutdown(fd, SHUT_WR);
    CHECK(closed_by_peer(fd));
    ::close(fd);
    REQUIRE(wait_for([&] { return log.get().size() == expected_lines + 1; }));
    CHECK(contains(log.get().back(), "the connection ended inside a packet"));
  }
  CHECK(server.refusals() == bad.size() + 1);
  CHECK(!store.find("b"));
  CHECK(!store.find("c"));

  // The first client was not disturbed: it completes its image now.
  send_all(good, update_bytes("a", {"R"}, 0, 0, 2, 1, {7, 8}));
  REQUIRE(wait_for([&] { return server.images_received() == 1; }));
  CHECK(store.find("a")->image.data == std::vector<float>{7, 8});
  // A second good client works as well, alongside.
  const int second = connect_to(server.port());
  send_all(second, create_bytes("d", 1, 1, {"R"}));
  send_all(second, update_bytes("d", {"R"}, 0, 0, 1, 1, {3}));
  REQUIRE(wait_for([&] { return server.images_received() == 2; }));
  CHECK(server.clients() == 2);

  // A second server cannot take the same port: one line.
  try {
    RemoteServer again(ListenAddress{"127.0.0.1", server.port()}, store);
    FAIL("bound a port already in use");
  } catch (const Error& e) {
    CHECK(contains(e.what(), "cannot listen"));
  }

  // stop() with two clients connected, one of them in the middle of a packet.
  auto half = create_bytes("e", 1, 1, {"R"});
  half.resize(7);
  send_all(second, half);
  const auto t0 = std::chrono::steady_clock::now();
  server.stop();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 500);
  CHECK(closed_by_peer(good));
  CHECK(closed_by_peer(second));
  server.stop();  // idempotent
  ::close(good);
  ::close(second);
  // Nothing listens any more.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(server.port()));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  CHECK(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0);
  ::close(fd);
}

TEST_CASE("server: more clients than max_clients are turned away with a line") {
  RemoteImages store;
  LogLines log;
  ServerOptions opt;
  opt.max_clients = 2;
  RemoteServer server(ListenAddress{"127.0.0.1", 0}, store, log.fn(), opt);
  const int a = connect_to(server.port()), b = connect_to(server.port());
  REQUIRE(wait_for([&] { return server.clients() == 2; }));
  const int c = connect_to(server.port());
  CHECK(closed_by_peer(c));
  REQUIRE(wait_for([&] { return !log.get().empty(); }));
  CHECK(contains(log.get().back(), "turned away, 2 clients are connected already"));
  for (int fd : {a, b, c}) ::close(fd);
}

// =============================== lightbench.viewer.Client's bytes ===============================

namespace {

// Runs /usr/bin/python3 on a script; "" when it ran, else why it could not.
std::string run_python(const std::string& script, const fs::path& out_log) {
  if (!fs::exists("/usr/bin/python3")) return "no /usr/bin/python3";
  const fs::path viewer_py = fs::path(LB_SOURCE_DIR) / "app/python/lightbench/viewer.py";
  if (!fs::exists(viewer_py)) return "no " + viewer_py.string();
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) return "python3 has no NumPy";
  const fs::path py = temp_dir() / "client.py";
  std::ofstream(py) << "import importlib.util, sys\n"
                    << "spec = importlib.util.spec_from_file_location('lb_viewer_client', '" << viewer_py.string()
                    << "')\nviewer = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(viewer)\n"
                    << "import numpy as np\n"
                    << script;
  const std::string cmd = "/usr/bin/python3 " + py.string() + " >" + out_log.string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream f(out_log);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    FAIL("python failed: " << text);
  }
  return "";
}

std::vector<std::uint8_t> read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("the exact bytes of lightbench.viewer.Client.show(): parsed, applied, equal to the C++ packing") {
  const fs::path out = temp_dir() / "client.bin";
  // A fake socket records what Client sends. The arrays: a 3x4 map and a 2x3 RGB image.
  const std::string script =
      "class Rec:\n"
      "    def __init__(self): self.data = b''\n"
      "    def sendall(self, b): self.data += bytes(b)\n"
      "    def close(self): pass\n"
      "c = viewer.Client.__new__(viewer.Client)\n"
      "c._sock = Rec()\n"
      "c.show('x', (np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 1))\n"
      "c.show('rgb', np.arange(18, dtype=np.float64).reshape(2, 3, 3) / 4, grab_focus=False)\n"
      "c.update_image('x', np.full((1, 2), 9.0), x=2, y=1)\n"
      "c.close_image('rgb')\n"
      "open('" + out.string() + "', 'wb').write(c._sock.data)\n";
  const std::string why = run_python(script, temp_dir() / "client.log");
  if (!why.empty()) {
    MESSAGE("SKIPPED: lightbench.viewer.Client's bytes not checked: " << why);
    return;
  }
  const auto bytes = read_file(out);
  REQUIRE(!bytes.empty());
  std::vector<Command> cmds;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ParseResult r = parse_packet(bytes.data() + at, bytes.size() - at);
    REQUIRE_MESSAGE(r.ok, r.error);
    cmds.push_back(r.command);
    at += r.consumed;
  }
  REQUIRE(cmds.size() == 6);

  // The same packing in C++ (viewer.py's show: CreateImage, then planar UpdateImage).
  std::vector<float> xs(12), rgb_planar(18);
  for (int i = 0; i < 12; ++i) xs[i] = static_cast<float>(i) * 0.5f - 1;
  for (int c = 0; c < 3; ++c) {
    for (int p = 0; p < 6; ++p) rgb_planar[c * 6 + p] = static_cast<float>(p * 3 + c) / 4;
  }
  std::vector<std::uint8_t> expect;
  for (const auto& part : {create_bytes("x", 4, 3, {"R"}, true), update_bytes("x", {"R"}, 0, 0, 4, 3, xs, true),
                           create_bytes("rgb", 3, 2, {"R", "G", "B"}, false),
                           update_bytes("rgb", {"R", "G", "B"}, 0, 0, 3, 2, rgb_planar, false),
                           update_bytes("x", {"R"}, 2, 1, 2, 1, {9, 9}, false), Bytes(2).str("rgb").done()}) {
    expect.insert(expect.end(), part.begin(), part.end());
  }
  CHECK(bytes == expect);

  RemoteImages store;
  for (const auto& c : cmds) CHECK(store.apply(c) == "");
  const auto x = store.find("x");
  REQUIRE(x);
  CHECK(x->image.width == 4);
  CHECK(x->image.height == 3);
  CHECK(x->image.at(3, 2) == 5.5f - 1);
  CHECK(x->image.at(2, 1) == 9.f);
  CHECK(x->image.at(3, 1) == 9.f);
  CHECK(x->image.at(1, 1) == 2.5f - 1);
  CHECK(!store.find("rgb"));
  CHECK(store.received() == 2);
  CHECK(store.take_focus() == std::optional<std::string>("x"));
}

TEST_CASE("lightbench.viewer.Client over TCP into a RemoteServer") {
  RemoteImages store;
  LogLines log;
  RemoteServer server(ListenAddress{"127.0.0.1", 0}, store, log.fn());
  const std::string script =
      "with viewer.Client(port=" + std::to_string(server.port()) + ") as c:\n"
      "    a = np.linspace(0, 1, 200 * 150, dtype=np.float32).reshape(150, 200)\n"
      "    c.show('disparity', a)\n"
      "    c.show('colour', np.ones((10, 20, 4), dtype=np.float32) * np.array([1, 2, 3, 4], dtype=np.float32))\n";
  const std::string why = run_python(script, temp_dir() / "client_tcp.log");
  if (!why.empty()) {
    MESSAGE("SKIPPED: lightbench.viewer.Client over TCP not checked: " << why);
    return;
  }
  REQUIRE(wait_for([&] { return server.images_received() == 2; }));
  const auto d = store.find("disparity");
  REQUIRE(d);
  CHECK(d->image.width == 200);
  CHECK(d->image.height == 150);
  CHECK(d->image.at(0, 0) == 0.f);
  CHECK(d->image.at(199, 149) == 1.f);
  const auto c = store.find("colour");
  REQUIRE(c);
  CHECK(c->channel_names == std::vector<std::string>{"R", "G", "B", "A"});
  CHECK(c->image.at(19, 9, 3) == 4.f);
  CHECK(log.get().empty());
}

// =============================== remote images in panes ===============================

TEST_CASE("remote:NAME pane sources, remote images as maps (scored like a foreign map) or RGBA8 images") {
  std::string name;
  CHECK(parse_remote_spec("remote:disp", &name));
  CHECK(name == "disp");
  CHECK(parse_remote_spec("  REMOTE:a:b c ", &name));
  CHECK(name == "a:b c");
  CHECK_FALSE(parse_remote_spec("file=remote:x", &name));
  CHECK_FALSE(parse_remote_spec("output=view", &name));
  CHECK_FALSE(parse_remote_spec("remo", &name));
  CHECK_THROWS_AS(parse_remote_spec("remote:  ", &name), Error);
  CHECK(remote_spec("x") == "remote:x");
  CHECK(is_remote_spec(" Remote:x"));
  CHECK(is_remote_spec("remote:"));
  CHECK_FALSE(is_remote_spec("/tmp/remote:x"));
  CHECK(remote_name_of(" remote:a b ") == "a b");
  CHECK(remote_name_of("remote:") == "");
  CHECK(remote_name_of("x.pfm") == "");

  RemoteImages store;
  REQUIRE(store.apply(CreateImage{false, "m", 3, 2, {"R"}}) == "");
  REQUIRE(store.apply(as<UpdateImage>(parse(update_bytes("m", {"R"}, 0, 0, 3, 2, {1, 2, 3, 4, std::nanf(""), 6})))) == "");
  const auto m = store.find("m");
  const ForeignFile fm = to_foreign_file(*m);
  CHECK(fm.path == "remote:m");
  CHECK(fm.is_map);
  CHECK(fm.lo == 1.0);
  CHECK(fm.hi == 6.0);
  CHECK(std::isnan(fm.map.at(1, 1)));
  // Scored as a foreign map is: eval::evaluate's numbers against the data's truth.
  eval::Truth truth;
  truth.stereo.disparity = ImageF(3, 2, 1, 2.f);
  const ForeignScore score = score_foreign(fm.map, &truth);
  CHECK(score.scored);
  CHECK(score.scores == eval::evaluate(fm.map, truth));
  const nlohmann::json j = remote_json(*m);
  CHECK(j["name"] == "m");
  CHECK(j["kind"] == "map");
  CHECK(j["complete"] == true);
  CHECK(j["width"] == 3);

  // Colour: by name (a layer prefix too), values 0..1 clamped, NaN 0, no alpha: opaque.
  RemoteImage c;
  c.name = "c";
  c.channel_names = {"layer.B", "R"};
  c.image = ImageF(2, 1, 2);
  c.image.data = {0.5f, 1.5f, std::nanf(""), -1.f};
  const ForeignFile fc = to_foreign_file(c);
  CHECK_FALSE(fc.is_map);
  CHECK(fc.image.channels == 4);
  CHECK(std::vector<int>(fc.image.data.begin(), fc.image.data.end()) == std::vector<int>{255, 0, 128, 255, 0, 0, 0, 255});
  c.channel_names = {"Y", "A"};
  c.image.data = {0.2f, 0.4f, 1.f, 0.f};
  const ForeignFile fy = to_foreign_file(c);
  CHECK(std::vector<int>(fy.image.data.begin(), fy.image.data.end()) == std::vector<int>{51, 51, 51, 102, 255, 255, 255, 0});
  c.channel_names = {"u", "v"};  // no known names: R, G in order
  const ForeignFile fu = to_foreign_file(c);
  CHECK(std::vector<int>(fu.image.data.begin(), fu.image.data.end()) == std::vector<int>{51, 102, 0, 255, 255, 0, 0, 255});
}

TEST_CASE("--until-remote N: waiting, done, timed out in one line") {
  CHECK(until_remote(2, 0, 1.0, 30) == UntilRemote::Waiting);
  CHECK(until_remote(2, 2, 1.0, 30) == UntilRemote::Done);
  CHECK(until_remote(2, 3, 100.0, 30) == UntilRemote::Done);
  CHECK(until_remote(2, 1, 30.0, 30) == UntilRemote::TimedOut);
  CHECK(until_remote_message(3, 1, 30) == "--until-remote 3: 1 of 3 remote images arrived within 30 s");
  CHECK(until_remote_message(1, 0, 0.5) == "--until-remote 1: 0 of 1 remote image arrived within 0.5 s");
}
