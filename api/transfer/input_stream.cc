#include "api/transfer/input_stream.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace dynarock::api {
namespace {

constexpr size_t kBlock = size_t{64} << 10;

std::string NameOf(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Closes a FILE* (std::unique_ptr's deleter).
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

class PlainStream final : public InputStream {
 public:
  PlainStream(File f, std::string path) : f_(std::move(f)), path_(std::move(path)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    const size_t got = std::fread(buf, 1, n, f_.get());
    if (got == 0 && std::ferror(f_.get())) return Status::IOError("cannot read " + path_);
    return got;
  }

 private:
  File f_;
  const std::string path_;
};

class GzipStream final : public InputStream {
 public:
  GzipStream(gzFile f, std::string name) : f_(f), name_(std::move(name)) {}
  ~GzipStream() override { gzclose(f_); }
  Result<size_t> Read(char* buf, size_t n) override {
    if (!status_.ok()) return status_;
    const int got = gzread(f_, buf, static_cast<unsigned>(std::min(n, size_t{1} << 30)));
    int err = Z_OK;
    gzerror(f_, &err);
    // gzread answers 0, not -1, for a stream cut short (Z_BUF_ERROR): the
    // object is damaged all the same.
    if (got < 0 || (got == 0 && err != Z_OK)) {
      status_ = Status::Validation("The file " + name_ + " is not valid GZIP");
      return status_;
    }
    return static_cast<size_t>(got);
  }

 private:
  gzFile f_;
  const std::string name_;
  Status status_;
};

class ZstdStream final : public InputStream {
 public:
  ZstdStream(File f, std::string name)
      : f_(std::move(f)), name_(std::move(name)), ctx_(ZSTD_createDCtx()),
        in_buf_(ZSTD_DStreamInSize()) {}
  ~ZstdStream() override { ZSTD_freeDCtx(ctx_); }
  Result<size_t> Read(char* buf, size_t n) override {
    if (!status_.ok()) return status_;
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (in_.pos == in_.size && need_input_) {
        const size_t got = std::fread(in_buf_.data(), 1, in_buf_.size(), f_.get());
        if (got == 0) {
          if (std::ferror(f_.get())) return Fail(Status::IOError("cannot read " + name_));
          // The end of the file must be the end of a frame (an empty file
          // is no frame at all).
          if (last_ != 0) return Fail(Status::Validation("The file " + name_ + " is not valid ZSTD"));
          return size_t{0};
        }
        in_ = ZSTD_inBuffer{in_buf_.data(), got, 0};
      }
      last_ = ZSTD_decompressStream(ctx_, &out, &in_);
      if (ZSTD_isError(last_)) {
        return Fail(Status::Validation("The file " + name_ + " is not valid ZSTD"));
      }
      // A full output buffer may leave decompressed bytes inside the
      // context: the next call flushes them before reading more input.
      need_input_ = out.pos < out.size;
    }
    return out.pos;
  }

 private:
  Result<size_t> Fail(Status s) {
    status_ = std::move(s);
    return status_;
  }

  File f_;
  const std::string name_;
  ZSTD_DCtx* const ctx_;
  std::vector<char> in_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  size_t last_ = 1;  // ZSTD_decompressStream's answer: 0 once a frame is complete
  bool need_input_ = true;
  Status status_;
};

}  // namespace

Result<std::unique_ptr<InputStream>> InputStream::Open(const std::string& path,
                                                       InputCompression compression) {
  if (compression == InputCompression::kGzip) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (f == nullptr) return Status::IOError("cannot read " + path);
    if (gzdirect(f) != 0) {
      gzclose(f);
      return Status::Validation("The file " + NameOf(path) + " is not GZIP compressed");
    }
    return std::unique_ptr<InputStream>(new GzipStream(f, NameOf(path)));
  }
  File f(std::fopen(path.c_str(), "rb"));
  if (f == nullptr) return Status::IOError("cannot read " + path);
  if (compression == InputCompression::kZstd) {
    return std::unique_ptr<InputStream>(new ZstdStream(std::move(f), NameOf(path)));
  }
  return std::unique_ptr<InputStream>(new PlainStream(std::move(f), path));
}

Result<std::string> ReadRest(InputStream& in) {
  std::string out;
  while (true) {
    const size_t had = out.size();
    out.resize(had + kBlock);
    DR_ASSIGN_OR_RETURN(size_t got, in.Read(out.data() + had, kBlock));
    out.resize(had + got);
    if (got == 0) return out;
  }
}

bool LineReader::Fill() {
  const size_t had = buf_.size();
  buf_.resize(had + kBlock);
  Result<size_t> got = in_->Read(buf_.data() + had, kBlock);
  buf_.resize(had + (got.ok() ? *got : 0));
  if (!got.ok()) {
    status_ = got.status();
    return false;
  }
  if (*got == 0) eof_ = true;
  return *got > 0;
}

bool LineReader::Next(std::string_view* line) {
  size_t scan = pos_;  // no '\n' in buf_[pos_, scan)
  while (status_.ok()) {
    const size_t nl = buf_.find('\n', scan);
    if (nl == std::string::npos && !eof_) {
      // Keep only the unfinished line, then read more of it.
      buf_.erase(0, pos_);
      pos_ = 0;
      scan = buf_.size();
      Fill();
      continue;
    }
    if (nl == std::string::npos && pos_ >= buf_.size()) return false;
    const size_t end = nl == std::string::npos ? buf_.size() : nl;
    const std::string_view found(buf_.data() + pos_, end - pos_);
    pos_ = scan = nl == std::string::npos ? buf_.size() : nl + 1;
    if (found.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    *line = found;
    return true;
  }
  return false;
}

}  // namespace dynarock::api
