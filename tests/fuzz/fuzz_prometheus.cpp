// SPDX-License-Identifier: Apache-2.0
// Fuzzes the Prometheus HTTP API response reader (importers/prometheus/prometheusclient.h):
// any body gives a result or an ImportError (PrometheusError), never a crash.
#include "importers/prometheus/prometheusclient.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        (void)fleet::importers::prometheus::parsePrometheusResponse(body, "fuzz", "/api/v1/query");
    } catch (const fleet::importers::ImportError&) {
    }
    return 0;
}
