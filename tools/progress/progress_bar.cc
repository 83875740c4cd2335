// tools/progress/progress_bar.cc

#include "tools/progress/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace dynarock::tools {

void DrawProgress(size_t done, size_t total, std::string_view unit,
                  std::string_view label) {
  constexpr int kWidth = 30;
  const int filled =
      total == 0 ? kWidth
                 : static_cast<int>(std::min(done, total) * kWidth / total);
  std::string bar(filled, '#');
  bar.append(kWidth - filled, '-');
  std::fprintf(stderr, "\r%.*s[%s] %zu/%zu %.*s",
               static_cast<int>(label.size()), label.data(), bar.c_str(), done,
               total, static_cast<int>(unit.size()), unit.data());
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace dynarock::tools
