#include "engine/util/base64.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
}

TEST(Base64Test, HighBytesUseTheLastLettersOfTheAlphabet) {
  EXPECT_EQ(Base64Encode(std::string("\xff\xff\xff", 3)), "////");
  EXPECT_EQ(Base64Encode(std::string("\xfb\xef\xbe", 3)), "++++");
  EXPECT_EQ(Base64Encode(std::string("\0\0\0", 3)), "AAAA");
  EXPECT_EQ(Base64Encode(std::string("\xff", 1)), "/w==");
}

}  // namespace
}  // namespace dynarock
