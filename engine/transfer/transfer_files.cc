#include "engine/transfer/transfer_files.h"

namespace dynarock {
namespace {

Status NoBucket() {
  return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
}

}  // namespace

Result<std::vector<BulkInputObject>> TransferFiles::ListBulkInput(const BulkInputSource&) {
  return NoBucket();
}

Result<std::unique_ptr<BulkObjectReader>> TransferFiles::OpenBulkObject(const BulkInputSource&,
                                                                        const std::string&) {
  return NoBucket();
}

Status TransferFiles::WriteBulkReport(const BulkOutputTarget&, const std::string&, int64_t,
                                      const std::vector<BulkReportEntry>&) {
  return NoBucket();
}

}  // namespace dynarock
