// SPDX-License-Identifier: Apache-2.0
// Fuzzes the WATCH stream reader (importers/live/watchstream.h): any bytes, split at a point the
// input chooses, give events or an ImportError, never a crash; a split never changes the events.
#include "importers/live/watchstream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using fleet::importers::ImportError;
using fleet::importers::live::WatchEvent;
using fleet::importers::live::WatchStreamReader;

namespace {
std::vector<std::string> read(std::string_view text, std::size_t split, bool& failed)
{
    WatchStreamReader r("fuzz", 1 << 20);
    std::vector<std::string> names;
    auto on = [&](WatchEvent&& e) { names.push_back(std::string(fleet::importers::live::watchEventTypeName(e.type)) + e.name + e.object); };
    failed = false;
    try {
        r.append(text.substr(0, split), on);
        r.append(text.substr(split), on);
    } catch (const ImportError&) {
        failed = true;
    }
    return names;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::size_t split = text.empty() ? 0 : data[0] % (text.size() + 1);
    bool failedWhole = false, failedSplit = false;
    const auto whole = read(text, text.size(), failedWhole);
    const auto split2 = read(text, split, failedSplit);
    if (failedWhole != failedSplit || whole != split2)
        std::abort(); // a split changed what was read
    return 0;
}
