// tests/api/console/console_assets_test.cc

#include "api/console/console_assets.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace dynarock::api::console {
namespace {

TEST(ConsoleAssetsTest, EveryFileIsEmbeddedSortedByName) {
  const auto assets = EmbeddedAssets();
  ASSERT_GE(assets.size(), 4u);
  for (size_t i = 1; i < assets.size(); ++i) EXPECT_LT(assets[i - 1].name, assets[i].name);
  for (const char* name : {"index.html", "console.js", "console.css", "sigv4.js"}) {
    const ConsoleAsset* asset = FindAsset(name);
    ASSERT_NE(asset, nullptr) << name;
    EXPECT_FALSE(asset->body.empty()) << name;
  }
  EXPECT_NE(FindAsset("index.html")->body.find("<title>dynarock console</title>"),
            std::string_view::npos);
}

TEST(ConsoleAssetsTest, OnlyEmbeddedNamesAreFound) {
  EXPECT_EQ(FindAsset(""), FindAsset("index.html"));
  for (const char* name : {"../index.html", "assets/index.html", "INDEX.HTML", "index.html/",
                           "./console.js", "console.js?x", "nope.js", "/etc/passwd"}) {
    EXPECT_EQ(FindAsset(name), nullptr) << name;
  }
}

TEST(ConsoleAssetsTest, ContentTypesFromTheExtension) {
  EXPECT_EQ(ContentTypeOf("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("console.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("console.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("heat.png"), "image/png");
  EXPECT_EQ(ContentTypeOf("js"), "application/octet-stream");
  EXPECT_EQ(ContentTypeOf("README"), "application/octet-stream");
}

// The page loads only files that are embedded: nothing from another host.
TEST(ConsoleAssetsTest, ThePageReferencesOnlyEmbeddedFiles) {
  const std::string page(FindAsset("index.html")->body);
  const std::regex reference(R"re((?:src|href)="([^"]*)")re");
  int references = 0;
  for (std::sregex_iterator it(page.begin(), page.end(), reference), end; it != end; ++it) {
    const std::string target = (*it)[1];
    EXPECT_NE(FindAsset(target), nullptr) << target;
    ++references;
  }
  EXPECT_EQ(references, 3);  // console.css, sigv4.js, console.js
}

// Values from the data reach the page as text only: the scripts never hand
// a string to the HTML parser.
TEST(ConsoleAssetsTest, ScriptsNeverParseStringsAsMarkup) {
  for (const ConsoleAsset& asset : EmbeddedAssets()) {
    if (!asset.name.ends_with(".js")) continue;
    for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                             "eval(", "new Function", "createContextualFragment"}) {
      EXPECT_EQ(asset.body.find(sink), std::string_view::npos) << asset.name << ": " << sink;
    }
  }
}

}  // namespace
}  // namespace dynarock::api::console
