// bench/engine/backup/backup_bench.cc
//
// How long on-demand backups and database snapshots take, on disk:
//   - CreateBackup and RestoreTableFromBackup of a table of N items (pk + sk,
//     ~200-byte items) with two GSIs: the restore ingests the items and
//     rebuilds both GSIs and the counters; the restored table is checked
//     (item count, VerifyIndexes) outside the timing;
//   - CreateSnapshot and RestoreSnapshot (the whole-database reset) of a
//     1,000-item database, averaged over 20 rounds.
// Not a Google Benchmark: one timed run per size is the figure wanted.
//
//   build/bench/backup_bench                 # 100,000 items
//   build/bench/backup_bench 100000 1000000  # several sizes

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench/common/check.h"
#include "bench/common/two_gsi_table.h"
#include "engine/engine.h"

namespace dynarock {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

using bench::Check;

std::unique_ptr<Engine> Open(const std::string& path) {
  EngineOptions options;
  options.path = path;
  options.throttling = false;
  options.table_create_delay_micros = 0;
  auto engine = Engine::Open(options);
  Check(engine.status(), "open");
  return std::move(engine).value();
}

void Fill(Engine* db, const std::string& table, int64_t items) {
  bench::FillTwoGsiTable(db, table, items);
  Check(db->WaitUntilIndexesCaughtUp(), "indexes");
}

void BackupAndRestore(const std::string& dir, int64_t items) {
  std::filesystem::remove_all(dir);
  auto db = Open(dir);
  const std::string name = "Src" + std::to_string(items);
  Check(db->CreateTable(bench::TwoGsiTable(name)).status(), "create table");
  auto t = Clock::now();
  Fill(db.get(), name, items);
  const double fill = Seconds(t);

  CreateBackupRequest backup;
  backup.table_name = name;
  backup.backup_name = "bench";
  t = Clock::now();
  auto created = db->CreateBackup(backup);
  const double backup_s = Seconds(t);
  Check(created.status(), "backup");

  RestoreTableFromBackupRequest restore;
  restore.backup_arn = created->backup_arn;
  restore.target_table_name = "Dst" + std::to_string(items);
  t = Clock::now();
  auto restored = db->RestoreTableFromBackup(restore);
  const double restore_s = Seconds(t);
  Check(restored.status(), "restore");
  if (restored->item_count != items) {
    std::fprintf(stderr, "restored %lld items, want %lld\n",
                 static_cast<long long>(restored->item_count), static_cast<long long>(items));
    std::exit(1);
  }
  Check(db->VerifyIndexes(Scope(), restore.target_table_name), "verify");
  std::printf("%9lld items (2 GSIs): fill %.1f s, CreateBackup %.3f s (%lld bytes), "
              "RestoreTableFromBackup %.3f s\n",
              static_cast<long long>(items), fill, backup_s,
              static_cast<long long>(created->backup_size_bytes), restore_s);
  std::fflush(stdout);
  db.reset();
  std::filesystem::remove_all(dir);
}

void SnapshotReset(const std::string& dir) {
  std::filesystem::remove_all(dir);
  auto db = Open(dir);
  Check(db->CreateTable(bench::TwoGsiTable("Small")).status(), "create table");
  Fill(db.get(), "Small", 1000);
  constexpr int kRounds = 20;
  double create = 0, reset = 0;
  for (int r = 0; r < kRounds; ++r) {
    auto t = Clock::now();
    Check(db->CreateSnapshot("s" + std::to_string(r)).status(), "snapshot");
    create += Seconds(t);
    PutItemRequest put;
    put.table_name = "Small";
    put.item["pk"] = AttributeValue::S("extra");
    put.item["sk"] = AttributeValue::N(Number::Parse("1").value());
    Check(db->PutItem(put).status(), "put");
    t = Clock::now();
    Check(db->RestoreSnapshot("s" + std::to_string(r)), "reset");
    reset += Seconds(t);
  }
  std::printf("1,000-item database: CreateSnapshot %.2f ms, RestoreSnapshot %.2f ms "
              "(mean of %d)\n",
              1e3 * create / kRounds, 1e3 * reset / kRounds, kRounds);
  db.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock

int main(int argc, char** argv) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("dynarock_backup_bench_" + std::to_string(::getpid())))
                              .string();
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes.push_back(100000);
  for (int64_t n : sizes) dynarock::BackupAndRestore(dir, n);
  dynarock::SnapshotReset(dir);
  return 0;
}
