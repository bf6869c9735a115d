// SPDX-License-Identifier: Apache-2.0
// Fuzzes the Alibaba GPU trace CSV importer (importers/traces/alibabacsv.h): any bytes give
// nodes or pods, or an ImportError with the store unchanged; never a crash.
#include "importers/traces/alibabacsv.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fleet::model::ClusterStore store;
    fleet::importers::ImportReport report;
    try {
        fleet::importers::importAlibabaCsvText(text, "fuzz.csv", store, report);
    } catch (const fleet::importers::ImportError&) {
        if (store.nodeCount() != 0 || store.podCount() != 0)
            std::abort(); // a refused file must leave the store as it was
        return 0;
    }
    try {
        store.finalize();
    } catch (const std::overflow_error&) {
    }
    return 0;
}
