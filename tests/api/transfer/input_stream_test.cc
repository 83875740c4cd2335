// InputStream and LineReader (api/transfer/input_stream.cc): the lines of
// plain, GZIP and ZSTD files a block at a time, lines longer than a block,
// blank lines left out, and damage found where it is -- at the end of a
// file after every line before it was read.
#include "api/transfer/input_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

class InputStreamTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "/input_stream_test_" + std::to_string(getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
    return dir_ + "/" + name;
  }
  static std::string Gzip(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // 16: a gzip wrapper
    std::string out(deflateBound(&z, text.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
  }
  static std::string Zstd(const std::string& text) {
    std::string z(ZSTD_compressBound(text.size()), '\0');
    z.resize(ZSTD_compress(z.data(), z.size(), text.data(), text.size(), 3));
    return z;
  }
  // Every line LineReader gives, and its status at the end.
  static std::vector<std::string> Lines(const std::string& path, InputCompression c,
                                        Status* end) {
    std::vector<std::string> lines;
    Result<std::unique_ptr<InputStream>> in = InputStream::Open(path, c);
    if (!in.ok()) {
      *end = in.status();
      return lines;
    }
    LineReader reader(std::move(in).value());
    std::string_view line;
    while (reader.Next(&line)) lines.emplace_back(line);
    *end = reader.status();
    return lines;
  }

  std::string dir_;
};

// 3,000 lines (about 300 KB: several blocks), a blank one and a CRLF among
// them, one line of 200 KB, no '\n' after the last.
std::string Text(std::vector<std::string>* want) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    std::string line = "{\"Item\":{\"n\":{\"N\":\"" + std::to_string(i) + "\"}}}" +
                       std::string(static_cast<size_t>(i % 100), ' ') + "x";
    if (i == 1500) line = std::string(200'000, 'y');
    want->push_back(line);
    text += line;
    if (i == 10) text += "\r";
    if (i == 20) text += "\n \t\r";  // a blank line
    if (i < 2999) text += "\n";
  }
  (*want)[10] += "\r";  // a CRLF line keeps its '\r': JSON reads it as space
  return text;
}

TEST_F(InputStreamTest, EveryLineOfEveryCompression) {
  std::vector<std::string> want;
  const std::string text = Text(&want);
  const std::pair<std::string, InputCompression> files[] = {
      {Write("a.json", text), InputCompression::kNone},
      {Write("a.gz", Gzip(text)), InputCompression::kGzip},
      {Write("a.zst", Zstd(text)), InputCompression::kZstd},
  };
  for (const auto& [path, compression] : files) {
    Status end;
    EXPECT_EQ(Lines(path, compression, &end), want) << path;
    EXPECT_OK(end);
  }
}

TEST_F(InputStreamTest, DamageAtTheEndComesAfterEveryLine) {
  std::vector<std::string> want;
  const std::string text = Text(&want);
  std::string gz = Gzip(text);
  gz[gz.size() - 6] ^= 0x55;  // the trailer's CRC-32
  std::string zst = Zstd(text);
  zst.resize(zst.size() - 3);  // a frame cut short
  std::string cut = Gzip(text);
  cut.resize(cut.size() - 4);  // no ISIZE: the stream ends early
  const std::pair<std::string, InputCompression> files[] = {
      {Write("crc.gz", gz), InputCompression::kGzip},
      {Write("cut.gz", cut), InputCompression::kGzip},
      {Write("cut.zst", zst), InputCompression::kZstd},
  };
  for (const auto& [path, compression] : files) {
    Status end;
    const std::vector<std::string> got = Lines(path, compression, &end);
    EXPECT_THAT(end, StatusIs(ErrorCode::kValidation, testing::HasSubstr("is not valid"))) << path;
    // The lines before the damage come out first (ZSTD's last block is lost
    // with the frame's end).
    ASSERT_GT(got.size(), 2000u) << path;
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
  }
}

TEST_F(InputStreamTest, NotOfTheCompressionOrNoFile) {
  const std::string plain = Write("a.json", "{}\n");
  Status end;
  Lines(plain, InputCompression::kGzip, &end);
  EXPECT_THAT(end, StatusIs(ErrorCode::kValidation, "The file a.json is not GZIP compressed"));
  Lines(plain, InputCompression::kZstd, &end);
  EXPECT_THAT(end, StatusIs(ErrorCode::kValidation, "The file a.json is not valid ZSTD"));
  Lines(Write("empty.zst", ""), InputCompression::kZstd, &end);
  EXPECT_THAT(end, StatusIs(ErrorCode::kValidation, "The file empty.zst is not valid ZSTD"));
  Lines(dir_ + "/nothing", InputCompression::kNone, &end);
  EXPECT_THAT(end, StatusIs(ErrorCode::kIOError, testing::_));
}

}  // namespace
}  // namespace dynarock::api
