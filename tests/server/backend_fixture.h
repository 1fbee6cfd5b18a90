// A test parameterised by storage backend: "sqlite" (a fresh file in a temporary directory)
// always, "postgresql" (a fresh database, harness.h's TestPgDatabase) when scripts/pg-test gives
// one. The suites that hold both backends to one contract derive from it.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.h"
#include "server/storage/storage.h"

namespace ur::server::test {

// The backends this run can test: pass to INSTANTIATE_TEST_SUITE_P through ValuesIn.
inline std::vector<std::string> storage_backends() {
  std::vector<std::string> b{"sqlite"};
  if (TestPgDatabase::admin_url()) b.push_back("postgresql");
  return b;
}

class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      ASSERT_NO_THROW(pg_ = std::make_unique<TestPgDatabase>());
      url_ = pg_->url();
    } else {
      std::string tmpl = (std::filesystem::temp_directory_path() / "ur_backend_XXXXXX").string();
      ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
      dir_ = tmpl;
      url_ = "sqlite:" + (dir_ / "ur.db").string();
    }
  }
  void TearDown() override {
    pg_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // A storage over this test's database (each call opens another, as another node would).
  std::unique_ptr<Storage> open() {
    OpenStorageResult r = open_storage(url_);
    if (!r.storage) throw std::runtime_error("open_storage: " + r.error);
    return std::move(r.storage);
  }

  std::string url_;
  std::filesystem::path dir_;
  std::unique_ptr<TestPgDatabase> pg_;
};

}  // namespace ur::server::test
