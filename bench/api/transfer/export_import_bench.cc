// Export to S3 and import from S3 of a table of N items (the backup bench's
// table: pk + sk, ~200-byte items, two GSIs), on disk, with the bucket a
// directory (api/transfer/s3_directory.h):
//   - ExportTableToPointInTime at now (PITR on) until COMPLETED: the items
//     read from the PITR base image and log, written as gzipped DynamoDB
//     JSON with the manifests;
//   - ImportTable of the export's data files until COMPLETED: decompress,
//     parse, check each item, build the table and both GSIs;
//   - StartBulkPutItems of the same files into an existing empty table with
//     the same GSIs until COMPLETED (each record a PutItem through the write
//     path, throttling off, MaxWriteRequestUnits high enough not to pace it),
//     against the BatchWriteItem fill of the source table (25 items a call,
//     in process) in the same run.
// One timed run per size; the figures are in bench/README.md.
//
//   build/bench/export_import_bench            # 100,000 items
//   build/bench/export_import_bench 1000000
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "api/transfer/s3_directory.h"
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


void ExportAndImport(const std::string& dir, int64_t items) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/s3/bucket");
  api::S3Directory s3(dir + "/s3");
  EngineOptions options;
  options.path = dir + "/db";
  options.throttling = false;
  options.table_create_delay_micros = 0;
  options.transfer_files = &s3;
  auto opened = Engine::Open(options);
  Check(opened.status(), "open");
  std::unique_ptr<Engine> db = std::move(opened).value();
  Check(db->CreateTable(bench::TwoGsiTable("Src")).status(), "create table");
  UpdateContinuousBackupsRequest pitr;
  pitr.table_name = "Src";
  pitr.point_in_time_recovery_enabled = true;
  Check(db->UpdateContinuousBackups(pitr).status(), "pitr");
  auto t = Clock::now();
  bench::FillTwoGsiTable(db.get(), "Src", items);
  const double fill_s = Seconds(t);

  DescribeTableRequest describe;
  describe.table_name = "Src";
  ExportTableToPointInTimeRequest ex;
  ex.table_arn = db->DescribeTable(describe).value().table_arn;
  ex.s3_bucket = "bucket";
  t = Clock::now();
  auto started = db->ExportTableToPointInTime(ex);
  Check(started.status(), "export");
  db->WaitUntilTransfersDone();
  const double export_s = Seconds(t);
  auto exported = db->DescribeExport(DescribeExportRequest{Scope(), started->export_arn});
  Check(exported.status(), "describe export");
  if (exported->export_status != ExportStatus::kCompleted || exported->item_count != items) {
    std::fprintf(stderr, "export: %s, %lld items\n",
                 exported->failure_message.value_or("").c_str(),
                 static_cast<long long>(exported->item_count));
    std::exit(1);
  }

  ImportTableRequest im;
  im.source.s3_bucket = "bucket";
  im.source.s3_key_prefix = "AWSDynamoDB/" + exported->ExportId() + "/data/";
  im.compression = InputCompression::kGzip;
  im.table = bench::TwoGsiTable("Dst");
  t = Clock::now();
  auto import_started = db->ImportTable(im);
  Check(import_started.status(), "import");
  db->WaitUntilTransfersDone();
  const double import_s = Seconds(t);
  auto imported = db->DescribeImport(DescribeImportRequest{Scope(), import_started->import_arn});
  Check(imported.status(), "describe import");
  if (imported->import_status != ImportStatus::kCompleted ||
      imported->imported_item_count != items || imported->error_count != 0) {
    std::fprintf(stderr, "import: %s, %lld items\n",
                 imported->failure_message.value_or("").c_str(),
                 static_cast<long long>(imported->imported_item_count));
    std::exit(1);
  }
  Check(db->VerifyIndexes(Scope(), "Dst"), "verify");

  Check(db->CreateTable(bench::TwoGsiTable("Bulk")).status(), "create bulk table");
  StartBulkPutItemsRequest bulk;
  bulk.table_name = "Bulk";
  bulk.input.s3_bucket = "bucket";
  bulk.input.s3_key_prefix = im.source.s3_key_prefix;
  bulk.input.compression = InputCompression::kGzip;
  bulk.output.report_errors = true;
  bulk.max_write_request_units = int64_t{1} << 40;
  t = Clock::now();
  auto bulk_started = db->StartBulkPutItems(bulk);
  Check(bulk_started.status(), "bulk put items");
  BulkOperationDescription bulk_done;
  for (;;) {
    db->RunDueWork();
    auto d = db->DescribeBulkOperation(
        DescribeBulkOperationRequest{Scope(), bulk_started->bulk_operation_arn});
    Check(d.status(), "describe bulk operation");
    if (d->status != BulkOperationStatus::kInProgress) {
      bulk_done = *d;
      break;
    }
  }
  const double bulk_s = Seconds(t);
  if (bulk_done.status != BulkOperationStatus::kCompleted ||
      bulk_done.processed_item_count != items) {
    std::fprintf(stderr, "bulk put items: %s, %lld items\n",
                 bulk_done.failure_message.value_or("").c_str(),
                 static_cast<long long>(bulk_done.processed_item_count));
    std::exit(1);
  }
  Check(db->WaitUntilIndexesCaughtUp(), "indexes");
  Check(db->VerifyIndexes(Scope(), "Bulk"), "verify bulk");
  std::printf("%9lld items (2 GSIs): ExportTableToPointInTime %.3f s (%lld bytes of items, "
              "%lld bytes of gzip), ImportTable %.3f s, StartBulkPutItems %.3f s, "
              "BatchWriteItem fill %.3f s; items/s: bulk %.0f, import %.0f, batch %.0f; "
              "bulk / batch %.2f, bulk / import %.2f\n",
              static_cast<long long>(items), export_s,
              static_cast<long long>(exported->billed_size_bytes),
              static_cast<long long>(imported->processed_size_bytes), import_s, bulk_s, fill_s,
              items / bulk_s, items / import_s, items / fill_s, fill_s / bulk_s,
              import_s / bulk_s);
  std::fflush(stdout);
  db.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock

int main(int argc, char** argv) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("dynarock_export_import_bench_" + std::to_string(::getpid())))
                              .string();
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes.push_back(100000);
  for (int64_t n : sizes) dynarock::ExportAndImport(dir, n);
  return 0;
}
