// tools/progress/progress_bar.h
//
// The command line's progress bar: "[########------]  1234/5000 items" on
// one line of stderr, rewritten in place, ended with a newline when done.
// Used by `dynarock load` and `dynarock simulate`. Not thread-safe.

#ifndef DYNAROCK_TOOLS_PROGRESS_PROGRESS_BAR_H_
#define DYNAROCK_TOOLS_PROGRESS_PROGRESS_BAR_H_

#include <cstddef>
#include <string_view>

namespace dynarock::tools {

// Draws the bar for `done` of `total` `unit` (e.g. "items"), after an
// optional `label` ("load: ").
void DrawProgress(size_t done, size_t total, std::string_view unit = "items",
                  std::string_view label = "");

// True when stderr is a terminal (the bar's default).
bool StderrIsTerminal();

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_PROGRESS_PROGRESS_BAR_H_
