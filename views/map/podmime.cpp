// SPDX-License-Identifier: Apache-2.0
#include "podmime.h"

namespace fleet::views {

QMimeData* makePodMimeData(const model::ClusterStore& store, model::PodId p)
{
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kPodMimeType), QByteArray::number(p.index()));
    data->setText(QString::fromUtf8(store.podNamespace(p)) + QLatin1Char('/') + QString::fromUtf8(store.podName(p)));
    return data;
}

model::PodId podFromMimeData(const QMimeData* data)
{
    if (!data || !data->hasFormat(QString::fromLatin1(kPodMimeType)))
        return {};
    bool ok = false;
    const uint index = data->data(QString::fromLatin1(kPodMimeType)).toUInt(&ok);
    return ok ? model::PodId(static_cast<std::uint32_t>(index)) : model::PodId {};
}

} // namespace fleet::views
