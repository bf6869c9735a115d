// SPDX-License-Identifier: Apache-2.0
#pragma once
// Time since the process started, for the startup measurement (--quit-after-first-frame).

#include <cstdint>

namespace fleet::app {

/// Milliseconds from the start of this process (as the kernel recorded it) to the call of
/// markMainEntered(), read from /proc/self/stat against CLOCK_BOOTTIME. The kernel keeps the
/// start time in clock ticks, so this has a resolution of 1/CLK_TCK (10 ms on Debian).
/// -1 when /proc is not readable. Thread: any.
[[nodiscard]] double processStartToMainMs();

/// Records the moment main() started; call first thing in main(). Thread: main thread.
void markMainEntered();

/// Milliseconds since markMainEntered() (steady clock, sub-millisecond resolution).
[[nodiscard]] double msSinceMain();

/// Milliseconds since the process started: processStartToMainMs() + msSinceMain().
[[nodiscard]] double msSinceProcessStart();

} // namespace fleet::app
