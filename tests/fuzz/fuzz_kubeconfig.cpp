// SPDX-License-Identifier: Apache-2.0
// Fuzzes kubeconfig as kubectl reads it (importers/kube/kubeconfig.h, on yaml-cpp): any bytes
// in the file give a resolved config or a KubeconfigError, never a crash or another exception.
// The file is written to a private temp dir once per input (the reader takes paths, as kubectl).
#include "importers/kube/kubeconfig.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {
std::string configPath()
{
    static const std::string path = [] {
        char dir[] = "/tmp/fleet-fuzz-kubeconfig-XXXXXX";
        if (!mkdtemp(dir))
            std::abort();
        return std::string(dir) + "/config";
    }();
    return path;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = configPath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    fleet::importers::kube::KubeconfigRequest request;
    request.explicitPath = path;
    try {
        (void)fleet::importers::kube::loadKubeconfig(request);
    } catch (const fleet::importers::kube::KubeconfigError&) {
    }
    try {
        (void)fleet::importers::kube::listKubeconfigContexts(request);
    } catch (const fleet::importers::kube::KubeconfigError&) {
    }
    return 0;
}
