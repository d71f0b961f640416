// The remote port through the real viewer (--headless, CPU backend; issue 41 item 4):
//   * a map pushed by a client written here (tev's packets) with grab_focus becomes pane B's
//     source remote:NAME, scored against the bundled stereo pair's truth as eval::evaluate
//     scores it; --until-remote 1 holds the screenshot until it arrived;
//   * --pane2 remote:NAME waits for an image sent later; a malformed packet is refused in one
//     line (the run fails honestly) while another client's image still arrives;
//   * --until-remote times out in one line; bad --listen / --until-remote options are usage
//     errors; a remote: pane without --listen fails the run in one line.
// Skips (77) when no EGL device gives an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <thread>

#include "headless_process.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/evaluation.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "remote_packets.hpp"
#include "skip.hpp"
#include "viewer_shot.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace lb::viewer::remote;

namespace {

std::string out_file(const std::string& name) { return lb::test::out_dir() + "/remote_" + name; }

lb::test::Shot viewer(const std::string& name, const std::string& args) {
  return lb::test::run_shot(lb::test::viewer_path(), out_file(name), args + " --frames 2");
}

// A port free a moment ago (the viewer binds it next).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// Connects (retrying while the viewer starts, up to 60 s) and sends the packets; false when
// it never could.
bool send_packets(int port, const std::vector<std::vector<std::uint8_t>>& packets) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < end) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      bool ok = true;
      for (const auto& p : packets) {
        std::size_t done = 0;
        while (ok && done < p.size()) {
          const ssize_t n = ::send(fd, p.data() + done, p.size() - done, MSG_NOSIGNAL);
          ok = n > 0;
          done += n > 0 ? static_cast<std::size_t>(n) : 0;
        }
      }
      ::close(fd);
      return ok;
    }
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::vector<std::uint8_t> create(const std::string& name, int w, int h, bool focus) {
  return encode_create_image(CreateImage{focus, name, w, h, {"R"}});
}

std::vector<std::uint8_t> update(const std::string& name, const lb::ImageF& m, bool focus) {
  UpdateImage u;
  u.grab_focus = focus;
  u.name = name;
  u.channels = {"R"};
  u.width = m.width;
  u.height = m.height;
  u.planes = {m.data};
  return encode_update_image(u);
}

// The bundled stereo pair's truth, a little off (and one invalid estimate).
lb::ImageF near_truth(const lb::stereo::StereoScene& scene) {
  lb::ImageF d = scene.gt.disparity;
  for (int y = 0; y < d.height; ++y)
    for (int x = 0; x < d.width; ++x) d.at(x, y) += 0.4f * static_cast<float>((x + 2 * y) % 5 - 2);
  d.at(3, 3) = std::nanf("");
  return d;
}

bool has_error(const lb::test::Shot& s, const std::string& part) {
  for (const auto& e : s.layout.value("errors", json::array()))
    if (e.get<std::string>().find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a map pushed with grab_focus becomes pane B (remote:NAME), scored as eval::evaluate scores it") {
  const lb::stereo::StereoScene scene = lb::bundled_stereo(1);  // what the viewer's stereo shows
  REQUIRE_FALSE(scene.gt.empty());
  const lb::ImageF d = near_truth(scene);
  lb::eval::Truth truth;
  truth.protocol = lb::eval::Protocol::Middlebury2003;
  truth.stereo = scene.gt;
  const json want = lb::eval::evaluate(d, truth);

  const int port = free_port();
  std::atomic<bool> sent{false};
  std::thread client([&] { sent = send_packets(port, {create("mine", d.width, d.height, true), update("mine", d, true)}); });
  const auto s = viewer("focus", "--algorithm stereo --pane1 output=truth --listen 127.0.0.1:" + std::to_string(port) +
                                     " --until-remote 1");
  client.join();
  INFO("viewer log:\n" << s.log);
  CHECK(sent);
  REQUIRE(s.rc == 0);
  CHECK(s.log.find("remote port listening on 127.0.0.1:" + std::to_string(port)) != std::string::npos);
  const json& b = s.layout.at("panes").at(1);
  CHECK(b.at("source") == "remote:mine");
  const json& f = b.at("file");
  CHECK(f.at("path") == "remote:mine");
  CHECK(f.at("kind") == "map");
  CHECK(f.at("scored") == true);
  CHECK(f.at("scores") == want);
  CHECK(f.at("remote").at("complete") == true);
  CHECK(f.at("remote").at("width") == d.width);
  CHECK(s.layout.at("panes").at(0).at("source") == "truth");
  CHECK(b.at("colour_bar").at("unit") == "px");
}

TEST_CASE("--pane2 remote:NAME waits for it; a malformed packet is refused in one line, the other client's image arrives") {
  const lb::stereo::StereoScene scene = lb::bundled_stereo(1);
  const lb::ImageF d = near_truth(scene);
  const int port = free_port();
  std::thread client([&] {
    std::vector<std::uint8_t> junk = {9, 0, 0, 0, 9, 'x', 'y', 'z', 0};  // type 9: unknown
    send_packets(port, {junk});
    send_packets(port, {create("late", d.width, d.height, false), update("late", d, false)});
  });
  const auto s = viewer("late", "--algorithm stereo --pane2 remote:late --listen " + std::to_string(port) +
                                    " --until-remote 1");
  client.join();
  INFO("viewer log:\n" << s.log);
  REQUIRE(!s.layout.empty());
  CHECK(s.rc == 1);  // the refusal is an error of the run
  CHECK(has_error(s, "refused: unknown packet type 9; connection closed"));
  const json& f = s.layout.at("panes").at(1).at("file");
  CHECK(s.layout.at("panes").at(1).at("source") == "remote:late");
  CHECK(f.at("scored") == true);
  CHECK(s.layout.at("panes").at(1).at("image").at("width") == d.width);
}

TEST_CASE("--until-remote times out in one line; bad options are usage errors; remote: without --listen fails") {
  const int port = free_port();
  const auto t = viewer("timeout", "--algorithm stereo --listen 127.0.0.1:" + std::to_string(port) +
                                       " --until-remote 2 --remote-timeout 1");
  INFO("viewer log:\n" << t.log);
  CHECK(t.rc == 1);
  CHECK(has_error(t, "--until-remote 2: 0 of 2 remote images arrived within 1 s"));

  for (const char* bad : {"--listen 99999", "--listen host:", "--until-remote 1", "--listen 0 --until-remote 0",
                          "--listen 0 --until-remote 1 --remote-timeout 0", "--listen 0 --remote-timeout 5"}) {
    const auto r = viewer(std::string("bad"), std::string("--algorithm stereo ") + bad);
    INFO(bad << ": " << r.log);
    CHECK(r.rc == 2);
    CHECK(r.log.find("lightbench: ") != std::string::npos);
  }

  const auto n = viewer("nolisten", "--algorithm stereo --pane2 remote:x");
  INFO("viewer log:\n" << n.log);
  CHECK(n.rc == 1);
  CHECK(has_error(n, "remote:x: the viewer listens on no port"));
}

int main(int argc, char** argv) {
  std::string why;
  if (!lb::gl::HeadlessContext::create({}, &why))
    return lb::test::skip("no EGL device gives an OpenGL 3.3 context: " + why, lb::test::gpu_required());
  fs::create_directories(lb::test::out_dir());
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
  return ctx.run();
}
