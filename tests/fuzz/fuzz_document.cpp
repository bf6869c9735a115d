// SPDX-License-Identifier: Apache-2.0
// Fuzzes the .fleet document reader (importers/document/fleetdocument.h) on the path every open
// takes: the bytes opened in memory (sqlite3_deserialize, read-only) with the untrusted checks,
// then every column decoded and the store rebuilt. Any bytes give a document or a
// FleetDocumentError, never a crash, a sanitizer report or another exception; a document that
// opens holds a whole store (its topology covers every node).
#include "importers/document/fleetdocument.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const fleet::importers::FleetDocument doc = fleet::importers::readFleetDocument(bytes, "fuzz.fleet");
        if (!doc.cluster.store || !doc.cluster.topology)
            std::abort(); // an open that returns no cluster
    } catch (const fleet::importers::FleetDocumentError&) {
    }
    return 0;
}
