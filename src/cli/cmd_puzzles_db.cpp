// `ur puzzles generate --db URL`: the generated puzzles stored in the server's database
// (migration 11; docs/puzzles.md, "Storage"), each starting at the rating of its difficulty.
// Only in a build with the server; cmd_server_off.cpp says so otherwise.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "server/accounts/identity.h"
#include "server/storage/storage.h"
#include "server/tables/puzzle_seeder.h"

namespace ur::cli {

std::string store_puzzles(const std::string& url, const std::vector<nlohmann::json>& puzzles,
                          int& added) {
  server::OpenStorageResult opened = server::open_storage(url);
  if (!opened.storage) return opened.error;
  std::vector<server::PuzzleRow> rows;
  rows.reserve(puzzles.size());
  for (const nlohmann::json& j : puzzles) rows.push_back(server::puzzle_row(j));
  try {
    added = opened.storage->add_puzzles(rows, server::unix_now());
  } catch (const server::StorageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ur::cli
