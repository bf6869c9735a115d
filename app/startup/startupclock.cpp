// SPDX-License-Identifier: Apache-2.0
#include "startupclock.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fleet::app {
namespace {

std::chrono::steady_clock::time_point g_mainEntered = std::chrono::steady_clock::now();
double g_startToMainMs = -1;

// Field 22 of /proc/self/stat: start time in clock ticks after boot. The comm field (2)
// may contain spaces and parentheses, so parse after the last ')'.
double readStartToNowMs()
{
    std::ifstream in("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    // After ')' comes field 3 (state); the start time is field 22, i.e. the 20th from here.
    for (int i = 3; i <= 22; ++i) {
        if (!(fields >> field))
            return -1;
    }
    const double ticks = std::stod(field);
    const long hz = ::sysconf(_SC_CLK_TCK);
    timespec now {};
    if (hz <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return -1;
    const double nowMs = double(now.tv_sec) * 1000.0 + double(now.tv_nsec) / 1e6;
    return nowMs - ticks * 1000.0 / double(hz);
}

} // namespace

void markMainEntered()
{
    g_mainEntered = std::chrono::steady_clock::now();
    try {
        g_startToMainMs = readStartToNowMs();
    } catch (...) {
        g_startToMainMs = -1;
    }
}

double processStartToMainMs()
{
    return g_startToMainMs;
}

double msSinceMain()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_mainEntered).count();
}

double msSinceProcessStart()
{
    return (g_startToMainMs > 0 ? g_startToMainMs : 0.0) + msSinceMain();
}

} // namespace fleet::app
