// `ur admin grant NAME` and `ur admin revoke NAME`: the administrator role (docs/operations.md,
// "Moderate"), given or taken on the server's database directly, as the operator of the machine:
// the first administrator has nobody to grant it from the web. Each change is logged in the
// admin audit list as "console:<OS user>", like an action of the admin page.
#include <pwd.h>
#include <unistd.h>

#include <iostream>
#include <string>

#include "cli/commands.h"
#include "server/accounts/identity.h"
#include "server/storage/storage.h"

namespace ur::cli {
namespace {

// Who runs this command, for the audit list.
std::string console_user() {
  const passwd* pw = getpwuid(geteuid());
  return std::string("console:") + (pw && pw->pw_name ? pw->pw_name : std::to_string(geteuid()));
}

void run_role(const std::string& db, const std::string& name, bool grant) {
  server::OpenStorageResult opened = server::open_storage(db);
  if (!opened.storage) {
    std::cerr << "ur admin: cannot open the database: " << opened.error << "\n";
    exit_status() = 1;
    return;
  }
  server::Storage& storage = *opened.storage;
  try {
    std::optional<server::User> user = storage.find_user_by_name(name);
    if (!user) {
      std::cerr << "ur admin: no account is named " << name << "\n";
      exit_status() = 1;
      return;
    }
    storage.accounts().set_admin(user->id, grant);
    server::AdminAction entry{
        0,        server::unix_now(), 0, console_user(), grant ? "grant" : "revoke",
        user->id, user->username,     ""};
    storage.accounts().log_action(entry);
    std::cout << user->username
              << (grant ? " is now an administrator\n" : " is no longer an administrator\n");
  } catch (const server::StorageError& e) {
    std::cerr << "ur admin: " << e.what() << "\n";
    exit_status() = 1;
  }
}

}  // namespace

void add_admin_command(CLI::App& app) {
  static std::string db, name;
  auto* admin = app.add_subcommand("admin", "Give or take the server's administrator role");
  admin->require_subcommand(1);
  admin->fallthrough();  // --db after the subcommand too
  admin->add_option("--db", db,
                    "database: an SQLite path, sqlite:PATH or postgresql://... "
                    "(default: DATA_DIR/ur.db)");
  for (bool grant : {true, false}) {
    auto* sub = admin->add_subcommand(
        grant ? "grant" : "revoke",
        grant ? "Make an account an administrator" : "Take the administrator role from an account");
    sub->add_option("name", name, "the account's username")->required();
    sub->callback([grant] { run_role(db.empty() ? data_dir() + "/ur.db" : db, name, grant); });
  }
}

}  // namespace ur::cli
