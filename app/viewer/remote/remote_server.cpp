// The remote port's TCP server (remote_server.hpp).
#include "remote_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "lightbench/error.hpp"

namespace lb::viewer::remote {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string peer_name(const sockaddr_storage& sa, socklen_t len) {
  char host[NI_MAXHOST] = {0}, serv[NI_MAXSERV] = {0};
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&sa), len, host, sizeof host, serv, sizeof serv,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "?";
  }
  std::string out(host);
  if (sa.ss_family == AF_INET6) out = "[" + out + "]";
  out += ':';
  out += serv;
  return out;
}

struct Client {
  int fd = -1;
  std::string peer;
  std::vector<std::uint8_t> buf;  // received bytes; [start, size) not yet parsed
  std::size_t start = 0;
};

}  // namespace

ListenAddress parse_listen_address(const std::string& text) {
  const std::string what = "listen address " + quote_untrusted(text) + ": ";
  ListenAddress a;
  std::string port;
  if (text.empty()) throw Error(what + "expected PORT or HOST:PORT");
  if (text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      throw Error(what + "expected [IPv6]:PORT");
    }
    a.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    if (a.host.empty()) throw Error(what + "empty host in []");
  } else if (const auto colon = text.find(':'); colon != std::string::npos) {
    if (text.find(':', colon + 1) != std::string::npos) {
      throw Error(what + "expected HOST:PORT (an IPv6 host goes in brackets: [::1]:PORT)");
    }
    if (colon > 0) a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
  } else {
    port = text;
    if (!all_digits(port)) throw Error(what + "expected PORT or HOST:PORT");
  }
  if (!all_digits(port) || port.size() > 5 || std::stoi(port) > 65535) {
    throw Error(what + "the port must be a number in 0..65535");
  }
  a.port = std::stoi(port);
  return a;
}

RemoteServer::RemoteServer(const ListenAddress& address, RemoteImages& images, Log log, ServerOptions options)
    : images_(images), log_(std::move(log)), options_(options), host_(address.host) {
  const std::string where = "--listen " + quote_untrusted(address.host + ":" + std::to_string(address.port)) + ": ";
  if (address.port < 0 || address.port > 65535) throw Error(where + "the port must be in 0..65535");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port_text = std::to_string(address.port);
  if (const int err = getaddrinfo(address.host.c_str(), port_text.c_str(), &hints, &found); err != 0) {
    throw Error(where + "cannot resolve the host: " + gai_strerror(err));
  }
  std::string last_error = "no address";
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      last_error = std::string("socket: ") + std::strerror(errno);
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
      last_error = std::string("bind: ") + std::strerror(errno);
      ::close(fd);
      continue;
    }
    if (::listen(fd, 16) != 0) {
      last_error = std::string("listen: ") + std::strerror(errno);
      ::close(fd);
      continue;
    }
    listen_fd_ = fd;
    break;
  }
  freeaddrinfo(found);
  if (listen_fd_ < 0) throw Error(where + "cannot listen (" + last_error + ")");

  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  if (::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len) == 0) {
    port_ = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                        : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
    throw Error(where + "pipe: " + std::strerror(errno));
  }
  wake_read_ = pipe_fds[0];
  wake_write_ = pipe_fds[1];
  thread_ = std::thread([this] { run(); });
}

RemoteServer::~RemoteServer() { stop(); }

void RemoteServer::stop() {
  if (thread_.joinable()) {
    stopping_ = true;
    const char byte = 1;
    [[maybe_unused]] const auto n = ::write(wake_write_, &byte, 1);
    thread_.join();
  }
  for (int* fd : {&listen_fd_, &wake_read_, &wake_write_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

std::string RemoteServer::address() const {
  const bool v6 = host_.find(':') != std::string::npos;
  return (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
}

void RemoteServer::run() {
  std::vector<Client> clients;
  std::vector<std::uint8_t> scratch(64 << 10);
  auto say = [this](const std::string& line) {
    if (!log_) return;
    try {
      log_(safe_line(line));
    } catch (...) {  // a logger's failure must not end the server
    }
  };
  // Reads what one client has (up to read_chunk), applies its whole packets. False: close it.
  auto service = [&](Client& c) -> bool {
    auto refuse = [&](const std::string& why) {
      ++refusals_;
      say("remote port: client " + c.peer + ": refused: " + why + "; connection closed");
      return false;
    };
    bool eof = false;
    std::size_t got_total = 0;
    while (got_total < options_.read_chunk) {
      const std::size_t want = std::min(scratch.size(), options_.read_chunk - got_total);
      const ssize_t got = ::recv(c.fd, scratch.data(), want, 0);
      if (got > 0) {
        c.buf.insert(c.buf.end(), scratch.begin(), scratch.begin() + got);
        got_total += static_cast<std::size_t>(got);
        continue;
      }
      if (got == 0) {
        eof = true;
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      say("remote port: client " + c.peer + ": " + std::strerror(errno) + "; connection closed");
      return false;
    }
    while (true) {
      const std::uint8_t* p = c.buf.data() + c.start;
      const std::size_t avail = c.buf.size() - c.start;
      std::uint32_t length = 0;
      std::string error;
      const Frame f = frame_status(p, avail, options_.limits, &length, &error);
      if (f == Frame::Refused) return refuse(error);
      if (f != Frame::Complete) break;
      ParseResult r = parse_packet(p, length, options_.limits);
      c.start += length;
      if (!r.ok) return refuse(r.error);
      if (std::string e = images_.apply(r.command); !e.empty()) return refuse(e);
      ++packets_;
    }
    if (c.start == c.buf.size()) {
      c.buf.clear();
      c.start = 0;
    } else if (c.start > 0) {
      c.buf.erase(c.buf.begin(), c.buf.begin() + static_cast<std::ptrdiff_t>(c.start));
      c.start = 0;
    }
    if (eof) {
      if (!c.buf.empty()) {
        std::uint32_t length = 0;
        std::string error;
        frame_status(c.buf.data(), c.buf.size(), options_.limits, &length, &error);
        return refuse("the connection ended inside a packet (" + std::to_string(c.buf.size()) + " of " +
                      (c.buf.size() >= 4 ? std::to_string(length) : std::string("?")) + " bytes)");
      }
      return false;
    }
    return true;
  };

  std::vector<pollfd> fds;
  std::chrono::steady_clock::time_point accept_again{};
  bool accept_failing = false;
  while (!stopping_) {
    fds.clear();
    fds.push_back({wake_read_, POLLIN, 0});
    // Out of descriptors, accept() fails while the listening socket stays readable: it sits out
    // 100 ms instead of spinning.
    const bool pause_accept = std::chrono::steady_clock::now() < accept_again;
    fds.push_back({pause_accept ? -1 : listen_fd_, POLLIN, 0});
    for (const auto& c : clients) fds.push_back({c.fd, POLLIN, 0});
    const int n = ::poll(fds.data(), fds.size(), pause_accept ? 100 : -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      say(std::string("remote port: poll: ") + std::strerror(errno) + "; the port stops");
      break;
    }
    if (fds[0].revents) {
      char drain[64];
      while (::read(wake_read_, drain, sizeof drain) > 0) {
      }
      if (stopping_) break;
    }
    // Clients first (fds[2..] match `clients` as they were when polled); new ones after.
    std::vector<Client> kept;
    kept.reserve(clients.size());
    for (std::size_t i = 0; i < clients.size(); ++i) {
      Client& c = clients[i];
      bool keep = true;
      if (fds[i + 2].revents) {
        try {
          keep = service(c);
        } catch (const std::bad_alloc&) {
          ++refusals_;
          say("remote port: client " + c.peer + ": out of memory for its packet; connection closed");
          keep = false;
        } catch (const std::exception& e) {
          ++refusals_;
          say("remote port: client " + c.peer + ": " + e.what() + "; connection closed");
          keep = false;
        }
      }
      if (keep) {
        kept.push_back(std::move(c));
      } else {
        ::close(c.fd);
      }
    }
    clients = std::move(kept);
    if (fds[1].revents) {
      while (true) {
        sockaddr_storage sa{};
        socklen_t len = sizeof sa;
        const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
          if (errno == EINTR || errno == ECONNABORTED) continue;
          if (errno != EAGAIN && errno != EWOULDBLOCK) {
            if (!accept_failing) say(std::string("remote port: cannot accept a client: ") + std::strerror(errno));
            accept_failing = true;
            accept_again = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
          }
          break;
        }
        accept_failing = false;
        const std::string peer = peer_name(sa, len);
        if (clients.size() >= static_cast<std::size_t>(options_.max_clients)) {
          say("remote port: client " + peer + ": turned away, " + std::to_string(options_.max_clients) +
              " clients are connected already");
          ::close(fd);
          continue;
        }
        clients.push_back(Client{fd, peer, {}, 0});
      }
    }
    clients_ = clients.size();
  }
  for (auto& c : clients) ::close(c.fd);
  clients_ = 0;
}

}  // namespace lb::viewer::remote
