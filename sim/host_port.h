// The host's side of a simulated UART: stdin/stdout, or a pseudo-terminal
// a host program (tools/uartctl.py) talks to as to a board's serial port.
#ifndef SIM_HOST_PORT_H
#define SIM_HOST_PORT_H

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

struct HostPort {
  int in_fd = 0, out_fd = 1;
  int peer_fd = -1;  // our own handle on the pty's client side: how much it has not read yet
  bool in_open = true;

  // Connects to a new pseudo-terminal and says where on stderr, as NAME.
  bool open_pty(const char *name) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0 || grantpt(fd) || unlockpt(fd)) return false;
    termios t;
    tcgetattr(fd, &t);
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
    in_fd = out_fd = fd;
    peer_fd = open(ptsname(fd), O_RDWR | O_NOCTTY);
    // Output nobody reads is dropped, as on a board's line, not a stalled simulation.
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    std::fprintf(stderr, "%s: UART on %s\n", name, ptsname(fd));
    std::fflush(stderr);
    return true;
  }

  // Bytes from the host, if any are waiting (up to LEN).
  size_t poll_bytes(uint8_t *buf, size_t len) {
    if (!in_open) return 0;
    pollfd p{in_fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return 0;
    if (p.revents & POLLIN) {
      ssize_t n = read(in_fd, buf, len);
      if (n > 0) return size_t(n);
    }
    // EOF on stdin ends the input; a pty stays open for the next client.
    if (in_fd == 0) in_open = false;
    return 0;
  }

  // Sleeps until input may be waiting, at most MS milliseconds.
  void wait_input(int ms) {
    pollfd p{in_fd, POLLIN, 0};
    if (in_open) poll(&p, 1, ms);
  }

  // The program waits for the host's input: sleeps up to 100 ms for it, or
  // says the input has ended (the run ends with status 0) and returns false.
  bool await_input(const char *tool) {
    if (!in_open) {
      std::fprintf(stderr, "%s: end of input while the program waits for more\n", tool);
      return false;
    }
    wait_input(100);
    return true;
  }

  // A pty's unread output is lost when the master closes: wait until the
  // client has read what the SoC said last. The kernel moves written bytes
  // to the client's queue a moment later (a work item), so the queue must
  // stay empty for 100 ms; a client that reads nothing for 2 s is given up.
  void drain() {
    if (peer_fd < 0) return;
    int empty_ms = 0, stuck_ms = 0, last_unread = -1;
    while (empty_ms < 100 && stuck_ms < 2000) {
      int unread = 0;
      if (ioctl(peer_fd, FIONREAD, &unread) < 0) return;
      empty_ms = unread == 0 ? empty_ms + 10 : 0;
      stuck_ms = unread != 0 && unread >= last_unread ? stuck_ms + 10 : 0;
      last_unread = unread;
      usleep(10000);
    }
  }

  void put(uint8_t b) {
    if (write(out_fd, &b, 1) < 0) { /* host went away: keep simulating */ }
  }
};

#endif
