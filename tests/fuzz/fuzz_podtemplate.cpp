// SPDX-License-Identifier: Apache-2.0
// Fuzzes the pod template reader (importers/plan/podtemplate.h, yaml-cpp behind the YAML
// bounds of importers/yamlinput.h): any bytes in a --pod-template file give a Pod's JSON or a
// std::runtime_error naming the file, never a crash, a hang or unbounded memory (aliases,
// self-references, deep nesting). A template that reads is read by the kubectl JSON importer
// too, as `plan place` does. The file is written to a private temp dir once per input.
#include "importers/plan/podtemplate.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {
std::string templatePath()
{
    static const std::string path = [] {
        char dir[] = "/tmp/fleet-fuzz-podtemplate-XXXXXX";
        if (!mkdtemp(dir))
            std::abort();
        return std::string(dir) + "/pod.yaml";
    }();
    return path;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = templatePath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    std::string json;
    try {
        json = fleet::importers::podTemplateFromFile(path, "placed");
    } catch (const std::runtime_error&) {
        return 0;
    }
    fleet::model::ClusterStore store;
    try {
        (void)fleet::importers::addTemplatePod(store, json, path);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
