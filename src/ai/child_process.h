// ChildProcess: another program started with a two-way line channel to its stdin and stdout,
// for the external engines that play through UEP (external_agent.h).
//
// The program is started with posix_spawnp (no shell: the arguments are passed as they are,
// PATH is searched when the name has no '/'); its stdin and stdout are one end of a Unix
// socket pair, its stderr is ours. Writes use send(MSG_NOSIGNAL), so a program that died never
// raises SIGPIPE in us; the socket is close-on-exec, so programs started by other threads never
// inherit it (which would hide the end of this one's output). Reads wait at most until a
// deadline. The program leads its own process group, so that a kill also ends what it started.
// Invariant: the destructor always reaps the child (quit, a grace period, then SIGKILL to the
// group and waitpid), so no zombie outlives its ChildProcess.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rules/error.h"

namespace ur::ai {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts argv[0] with the arguments argv[1..]; why not, in words.
  static Result<std::unique_ptr<ChildProcess>> start(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Sends `line` and a newline; false when the program no longer reads (it exited).
  bool write_line(std::string_view line);

  enum class Read { kLine, kTimeout, kClosed };
  // The next line of output without its newline (and without a '\r' before it). kClosed: the
  // program closed its output (it exited or crashed); kTimeout: nothing before `deadline`.
  Read read_line(std::string& line, Clock::time_point deadline);

  // Kills the program and its process group now (SIGKILL) and reaps it.
  void kill();
  // How the program ended, once it has: "exited with status 3", "was killed by signal 11";
  // waits for it up to `grace`, and says "is still running" after that.
  std::string exit_description(std::chrono::milliseconds grace = std::chrono::milliseconds(500));
  pid_t pid() const { return pid_; }

 private:
  ChildProcess(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  bool try_reap(std::chrono::milliseconds wait);

  pid_t pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  std::string buffer_;  // output read but not yet returned as lines
};

}  // namespace ur::ai
