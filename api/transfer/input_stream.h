// api/transfer/input_stream.h
//
// The decompressed bytes of one input file of ImportTable or bulk put
// items, read a block at a time: what holds a file in memory is the caller,
// never the reader. InputStream decompresses GZIP (zlib) or ZSTD as it
// reads, or passes the file through (NONE); a file that is not of its
// compression fails as soon as the reader finds out, which for a damaged
// end (a truncated ZSTD frame, a GZIP trailer whose CRC does not match) is
// at the end. LineReader splits such a stream into JSON Lines records.
//
// Memory: one read buffer (64 KiB) and the decompressor's state (zlib's
// 32 KiB window plus buffers; a ZSTD frame's window, at most 8 MiB for the
// frames zstd writes by default, larger only if the frame says so); a
// LineReader adds the longest line read.
//
// Not thread-safe: one reader per file.

#ifndef DYNAROCK_API_TRANSFER_INPUT_STREAM_H_
#define DYNAROCK_API_TRANSFER_INPUT_STREAM_H_

#include <memory>
#include <string>
#include <string_view>

#include "engine/requests/import_requests.h"
#include "engine/status.h"

namespace dynarock::api {

class InputStream {
 public:
  // Opens `path`, to be decompressed as `compression` says.
  // Errors: kIOError (cannot read), kValidation (a GZIP stream that is not
  // GZIP at all: "The file <name> is not GZIP compressed").
  static Result<std::unique_ptr<InputStream>> Open(const std::string& path,
                                                   InputCompression compression);
  virtual ~InputStream() = default;

  // Up to `n` decompressed bytes into `buf`: how many; 0 at the end of the
  // file. Errors: kIOError, kValidation ("The file <name> is not valid
  // GZIP" / "... ZSTD"); after an error every call returns it again.
  virtual Result<size_t> Read(char* buf, size_t n) = 0;
};

// What is left of `in`, whole. Errors: InputStream::Read's.
Result<std::string> ReadRest(InputStream& in);

// The lines of an InputStream that are not blank (JSON Lines: one record a
// line), in order. Blank means only spaces, tabs and '\r'.
class LineReader {
 public:
  explicit LineReader(std::unique_ptr<InputStream> in) : in_(std::move(in)) {}

  // The next line that is not blank, without its '\n', in *line (valid
  // until the next call); false at the end of the stream or on an error
  // (status()).
  bool Next(std::string_view* line);
  // OK, or the stream's error once Next returned false for it.
  const Status& status() const { return status_; }

 private:
  // Appends the next block of the stream to buf_; false at its end.
  bool Fill();

  std::unique_ptr<InputStream> in_;
  std::string buf_;
  size_t pos_ = 0;  // buf_[0, pos_) was handed out already
  bool eof_ = false;
  Status status_;
};

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_INPUT_STREAM_H_
