// SPDX-License-Identifier: Apache-2.0
#include "itemmodelroles.h"

#include "model/figures.h"

namespace fleet::views {

QString formatResourceAmount(const model::ClusterStore& store, model::ResourceKey key, std::int64_t amount)
{
    (void)store;
    switch (key) {
    case static_cast<model::ResourceKey>(model::CoreResource::Cpu):
        return QString::fromStdString(model::formatCpuMillicores(amount));
    case static_cast<model::ResourceKey>(model::CoreResource::Memory):
    case static_cast<model::ResourceKey>(model::CoreResource::EphemeralStorage):
        return QString::fromStdString(model::formatBytes(amount));
    case static_cast<model::ResourceKey>(model::CoreResource::Gpu):
        return QString::fromStdString(model::formatGpuMilli(amount));
    default:
        return QString::fromStdString(model::formatCount(amount));
    }
}

QString resourceName(const model::ClusterStore& store, model::ResourceKey key)
{
    if (key < model::kCoreResourceCount)
        return QString::fromUtf8(model::coreResourceName(static_cast<model::CoreResource>(key)));
    return QString::fromStdString(store.resources().name(key));
}

QString shareText(double share)
{
    return QString::fromStdString(model::formatShare(share));
}

} // namespace fleet::views
