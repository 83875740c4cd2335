// tools/clock.h
//
// `dynarock clock [describe | advance SECONDS | set EPOCH_SECONDS]`: shows
// or moves the clock of a running `dynarock serve --clock simulated`
// through the DynamoRock_20251121.DescribeClock / AdvanceClock / SetClock
// extensions (docs/testing.md), and prints the clock as it then is:
//   SIMULATED 1700003600.000000

#ifndef DYNAROCK_TOOLS_CLOCK_H_
#define DYNAROCK_TOOLS_CLOCK_H_

#include <string>

namespace dynarock::tools {

struct ClockOptions {
  std::string action = "describe";  // describe | advance | set
  double seconds = 0;               // advance: by; set: to (epoch seconds)
  std::string endpoint = "http://127.0.0.1:8000";
};

// Returns the exit code: 0, or 1 when the endpoint cannot be reached or
// answers an error (printed to stderr, e.g. "dynarock clock:
// ValidationException: The engine runs on the real clock; ...").
int RunClock(const ClockOptions& options);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_CLOCK_H_
