// SPDX-License-Identifier: Apache-2.0
// Fuzzes the node-group settings reader (importers/plan/nodegroupsettings.h, yaml-cpp behind
// the YAML bounds of importers/yamlinput.h): any bytes give the minimums or a
// NodeGroupSettingsError, never a crash, a hang or another exception; a key or a group given
// twice is refused, so every minimum that reads is the only one for its group.
#include "importers/plan/nodegroupsettings.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<fleet::model::NodeGroupMinimum> groups;
    try {
        groups = fleet::importers::parseNodeGroupSettings(text, "fuzz.yaml");
    } catch (const fleet::importers::NodeGroupSettingsError&) {
        return 0;
    }
    for (std::size_t i = 0; i < groups.size(); ++i)
        for (std::size_t j = i + 1; j < groups.size(); ++j)
            if (groups[i].labelKey == groups[j].labelKey && groups[i].value == groups[j].value)
                std::abort(); // one group with two minimums
    return 0;
}
