// SPDX-License-Identifier: Apache-2.0
// Fuzzes the kubectl JSON importer (importers/kube/kubejson.h) with a small window, so that
// the window boundaries are crossed too: any bytes give a store or an ImportError; a store that
// was accepted finalizes (or refuses a sum that overflows with std::overflow_error).
#include "importers/kube/kubejson.h"

#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    fleet::model::ClusterStore store;
    fleet::importers::ImportReport report;
    fleet::importers::KubectlJsonOptions options;
    options.windowBytes = 256;
    try {
        fleet::importers::importKubectlJsonText(json, "fuzz.json", store, report, nullptr, options);
    } catch (const fleet::importers::ImportError&) {
        return 0;
    }
    try {
        store.finalize();
        (void)store.counts();
    } catch (const std::overflow_error&) {
    }
    return 0;
}
