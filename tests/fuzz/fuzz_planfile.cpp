// SPDX-License-Identifier: Apache-2.0
// Fuzzes the plan file reader (importers/plan/planfile.h, on simdjson): any bytes give a
// PlanDocument or a PlanFileError, never a crash or another exception; and a plan that reads
// writes back (planJson) to text that reads again to the same text, since a plan saved by
// Fleetscope must always load (round trip; std::abort otherwise).
#include "importers/plan/planfile.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fleet::importers::PlanDocument plan;
    try {
        plan = fleet::importers::parsePlanText(text, "fuzz.json");
    } catch (const fleet::importers::PlanFileError&) {
        return 0;
    }
    const std::string written = fleet::importers::planJson(plan);
    try {
        if (fleet::importers::planJson(fleet::importers::parsePlanText(written, "written.json")) != written)
            std::abort(); // a saved plan reads back to another plan
    } catch (const fleet::importers::PlanFileError&) {
        std::abort(); // a saved plan does not read back
    }
    return 0;
}
