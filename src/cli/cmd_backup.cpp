// `ur backup` and `ur restore`: the server's database to a file and back (docs/operations.md).
// SQLite through its online backup API (server/storage/sqlite_backup.h), safe while `ur serve`
// runs; PostgreSQL through its own tools, pg_dump and pg_restore in their custom format, run
// here with the same URL so that one command covers both backends.
#include <spawn.h>
#include <sys/wait.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "server/storage/sqlite_backup.h"

extern char** environ;

namespace ur::cli {
namespace {

bool is_postgresql(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

std::string sqlite_path(const std::string& url) {
  return url.rfind("sqlite:", 0) == 0 ? url.substr(7) : url;
}

// Runs `args` (looked up in PATH) and waits: its exit status, or 127 when it cannot start.
int run_tool(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    std::cerr << args[0] << " could not be started: install the PostgreSQL client tools\n";
    return 127;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void report(const char* cmd, const Result<server::SqliteCopy>& r, const std::string& what) {
  if (const auto* e = std::get_if<Error>(&r)) {
    std::cerr << "ur " << cmd << ": " << e->message << "\n";
    exit_status() = 1;
    return;
  }
  const auto& c = std::get<server::SqliteCopy>(r);
  std::cout << what << " (" << c.pages << " pages, " << c.bytes << " bytes)\n";
}

void run_backup(const std::string& db, const std::string& out) {
  if (is_postgresql(db)) {
    int rc = run_tool({"pg_dump", "--format=custom", "--no-owner", "--file", out, "--dbname", db});
    if (rc != 0) {
      std::cerr << "ur backup: pg_dump failed (exit status " << rc << ")\n";
      exit_status() = 1;
      return;
    }
    std::cout << "backup written to " << out << " (pg_dump custom format)\n";
    return;
  }
  report("backup", server::sqlite_backup(sqlite_path(db), out), "backup written to " + out);
}

void run_restore(const std::string& db, const std::string& from, bool force) {
  if (is_postgresql(db)) {
    std::vector<std::string> args{"pg_restore", "--no-owner", "--exit-on-error", "--dbname", db};
    if (force) args.insert(args.begin() + 1, {"--clean", "--if-exists"});
    args.push_back(from);
    int rc = run_tool(args);
    if (rc != 0) {
      std::cerr << "ur restore: pg_restore failed (exit status " << rc << ")\n";
      exit_status() = 1;
      return;
    }
    std::cout << "restored " << from << " into the PostgreSQL database\n";
    return;
  }
  report("restore", server::sqlite_restore(from, sqlite_path(db), force),
         "restored " + from + " to " + sqlite_path(db));
}

}  // namespace

void add_backup_command(CLI::App& app) {
  static std::string db, out, from;
  static bool force = false;
  auto* backup = app.add_subcommand(
      "backup", "Copy the server's database to a file (SQLite: safe while ur serve runs)");
  backup->add_option("--db", db,
                     "database: an SQLite path, sqlite:PATH or postgresql://... "
                     "(default: DATA_DIR/ur.db)");
  backup->add_option("--out,-o", out, "the backup file to write")->required();
  backup->callback([] { run_backup(db.empty() ? data_dir() + "/ur.db" : db, out); });

  auto* restore = app.add_subcommand(
      "restore", "Replace the server's database with a backup (stop ur serve first)");
  restore->add_option("--db", db, "database to restore into (default: DATA_DIR/ur.db)");
  restore->add_option("--from,-i", from, "the backup file to read")->required();
  restore->add_flag("--force", force,
                    "replace an existing database (PostgreSQL: drop the objects the backup "
                    "holds first)");
  restore->callback([] { run_restore(db.empty() ? data_dir() + "/ur.db" : db, from, force); });
}

}  // namespace ur::cli
