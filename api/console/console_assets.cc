// api/console/console_assets.cc

#include "api/console/console_assets.h"

#include <algorithm>
#include <array>
#include <utility>

namespace dynarock::api::console {

const ConsoleAsset* FindAsset(std::string_view name) {
  if (name.empty()) name = "index.html";
  const std::span<const ConsoleAsset> assets = EmbeddedAssets();
  auto it = std::lower_bound(assets.begin(), assets.end(), name,
                             [](const ConsoleAsset& a, std::string_view n) { return a.name < n; });
  return it != assets.end() && it->name == name ? &*it : nullptr;
}

std::string_view ContentTypeOf(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
  }};
  for (const auto& [extension, type] : kTypes) {
    if (name.size() > extension.size() && name.ends_with(extension)) return type;
  }
  return "application/octet-stream";
}

}  // namespace dynarock::api::console
