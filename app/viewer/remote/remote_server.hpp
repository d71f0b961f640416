#pragma once
// The viewer's remote port (`lightbench --listen [HOST:]PORT`): a TCP server speaking tev's
// IPC packets (remote_packets.hpp) into a RemoteImages store (remote_images.hpp). Nothing
// listens unless a RemoteServer is constructed.
//
// One background thread polls the listening socket, every client (non-blocking, up to
// max_clients at once) and a wake pipe; a client's bytes are buffered until a whole packet is
// there (a declared length or type that is refused is refused as soon as its bytes arrive,
// before any buffering), then parsed and applied. A refused packet (malformed, oversized,
// unknown, or one the store refuses: unknown image, tile outside, unreadable file) is logged
// as one line through the log callback and closes that client's connection only (the
// protocol has no replies: the closed connection is how a client learns of it); the other
// clients and the viewer go on. stop() (and the destructor) wake the thread and join it
// promptly, closing every socket.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "remote_images.hpp"
#include "remote_packets.hpp"

namespace lb::viewer::remote {

struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = kDefaultPort;  // 0: any free port (RemoteServer::port() says which)
};
// "PORT", "HOST:PORT", ":PORT" (the default host) or "[IPv6]:PORT"; PORT 0..65535. Throws
// lb::Error in one line ("--listen 'x:99999': port must be a number in 0..65535").
ListenAddress parse_listen_address(const std::string& text);

struct ServerOptions {
  PacketLimits limits;
  int max_clients = 16;             // further connections are accepted and closed at once (logged)
  std::size_t read_chunk = 1 << 20;  // bytes read from one client per turn (fairness)
};

class RemoteServer {
 public:
  // Called on the server's thread, one line per call (refusals, clients turned away).
  using Log = std::function<void(const std::string&)>;

  // Binds and listens (throws lb::Error in one line when it cannot: bad host, port in use),
  // then starts the thread. `images` must outlive the server.
  RemoteServer(const ListenAddress& address, RemoteImages& images, Log log = {}, ServerOptions options = {});
  ~RemoteServer();
  RemoteServer(const RemoteServer&) = delete;
  RemoteServer& operator=(const RemoteServer&) = delete;

  void stop();  // idempotent; returns when the thread has ended
  int port() const { return port_; }        // the bound port
  std::string address() const;              // "127.0.0.1:14158"
  std::size_t images_received() const { return images_.received(); }
  std::uint64_t packets_applied() const { return packets_.load(); }
  std::uint64_t refusals() const { return refusals_.load(); }
  std::size_t clients() const { return clients_.load(); }

 private:
  void run();

  RemoteImages& images_;
  Log log_;
  ServerOptions options_;
  std::string host_;
  int port_ = 0;
  int listen_fd_ = -1;
  int wake_read_ = -1, wake_write_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> packets_{0}, refusals_{0};
  std::atomic<std::size_t> clients_{0};
  std::thread thread_;
};

}  // namespace lb::viewer::remote
