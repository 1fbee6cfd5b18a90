#include "ai/child_process.h"
#include "ai/agent_errc.h"

#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

extern char** environ;

namespace ur::ai {
namespace {

// A line longer than this is not a protocol line: it is cut so that a program writing without
// newlines cannot make us hold its whole output.
constexpr std::size_t kMaxLine = 1 << 16;

}  // namespace

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return Error{AgentErrc::kBadAgent, "no program to start"};
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return Error{Errc::kInternal,
                 fmt::format("cannot create a socket pair: {}", std::strerror(errno))};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies: the program keeps exactly stdin and stdout.
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Its own process group, so that a kill reaches what it started too (a script's children).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    return Error{AgentErrc::kBadAgent,
                 fmt::format("cannot start '{}': {}", argv[0], std::strerror(rc))};
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, sv[0]));
}

ChildProcess::~ChildProcess() {
  if (!reaped_) {
    write_line("quit");
    ::shutdown(fd_, SHUT_WR);  // the program reads the end of its input
    if (!try_reap(std::chrono::milliseconds(1000))) kill();
  }
  ::close(fd_);
}

bool ChildProcess::write_line(std::string_view line) {
  std::string data(line);
  data += '\n';
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos || buffer_.size() >= kMaxLine) {
      const std::size_t end = nl != std::string::npos ? nl : kMaxLine;
      line = buffer_.substr(0, end);
      buffer_.erase(0, nl != std::string::npos ? end + 1 : end);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Read::kLine;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Read::kTimeout;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return Read::kTimeout;
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Read::kClosed;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

bool ChildProcess::try_reap(std::chrono::milliseconds wait) {
  const auto until = Clock::now() + wait;
  while (!reaped_) {
    const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      reaped_ = true;
      break;
    }
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void ChildProcess::kill() {
  if (reaped_) return;
  ::kill(-pid_, SIGKILL);  // the group: the program and whatever it started
  while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
}

std::string ChildProcess::exit_description(std::chrono::milliseconds grace) {
  if (!try_reap(grace)) return "is still running";
  if (WIFEXITED(status_)) return fmt::format("exited with status {}", WEXITSTATUS(status_));
  if (WIFSIGNALED(status_))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status_),
                       strsignal(WTERMSIG(status_)));
  return "ended";
}

}  // namespace ur::ai
