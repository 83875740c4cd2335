// api/console/console_assets.h
//
// The web console's files (HTML, CSS, JavaScript), compiled into the binary
// from api/console/assets/ by cmake/embed_assets.cmake, so that
// `dynarock serve` serves GET /console/ with nothing read from disk and
// nothing fetched from elsewhere at run time. Immutable; thread-safe.

#ifndef DYNAROCK_API_CONSOLE_CONSOLE_ASSETS_H_
#define DYNAROCK_API_CONSOLE_CONSOLE_ASSETS_H_

#include <span>
#include <string_view>

namespace dynarock::api::console {

struct ConsoleAsset {
  std::string_view name;  // the file's name under assets/: "index.html"
  std::string_view body;  // its bytes
};

// Every embedded file, sorted by name (generated).
std::span<const ConsoleAsset> EmbeddedAssets();

// The file a request path under /console/ names: "" and "index.html" are
// the page; another name must match a file exactly (no directories, no
// "..": only what was embedded is ever served). Null when none.
const ConsoleAsset* FindAsset(std::string_view name);

// The Content-Type to serve a file as, from its extension
// ("text/html; charset=utf-8", "text/javascript; charset=utf-8", ...;
// application/octet-stream for an unknown one).
std::string_view ContentTypeOf(std::string_view name);

}  // namespace dynarock::api::console

#endif  // DYNAROCK_API_CONSOLE_CONSOLE_ASSETS_H_
