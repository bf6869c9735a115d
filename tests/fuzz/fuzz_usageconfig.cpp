// SPDX-License-Identifier: Apache-2.0
// Fuzzes the usage config (importers/prometheus/usageconfig.h, on yaml-cpp): any bytes give a
// UsageSource or an ImportError, never a crash or another exception. Relative token and CA
// files resolve against a folder that does not exist, so nothing outside is read.
#include "importers/prometheus/usageconfig.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)fleet::importers::prometheus::parseUsageConfig(text, "/nonexistent-fleet-fuzz/usage.yaml");
    } catch (const fleet::importers::ImportError&) {
    }
    return 0;
}
