// SPDX-License-Identifier: Apache-2.0
// The per-device GPU usage rule (usage.h).
#include "model/usage.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace fleet::model {

double migComputeSlices(std::string_view profile) noexcept
{
    int slices = 0;
    std::size_t i = 0;
    while (i < profile.size() && profile[i] >= '0' && profile[i] <= '9' && slices < 1000)
        slices = slices * 10 + (profile[i++] - '0');
    return i < profile.size() && profile[i] == 'g' && slices > 0 ? slices : 1.0;
}

void GpuDeviceSamples::addInstance(double now, double w, double instancePeak, PodId pod)
{
    if (std::isfinite(now)) {
        weightedNow += now * w;
        weight += w;
    }
    peak = std::max(peak, instancePeak);
    if (pod.isValid() && !std::binary_search(pods.begin(), pods.end(), pod))
        pods.insert(std::upper_bound(pods.begin(), pods.end(), pod), pod);
}

GpuUsageBuilder::GpuUsageBuilder(ClusterUsage& usage)
    : m_usage(usage)
    , m_sum(usage.nodeCount(), 0.0)
{
}

void GpuUsageBuilder::addDevice(NodeId n, const GpuDeviceSamples& d)
{
    const std::size_t i = n.index();
    if (m_usage.idleAllocatedGpus[i] < 0)
        m_usage.idleAllocatedGpus[i] = 0; // the node's GPUs have figures: a count, maybe 0
    if (d.weight > 0) {
        m_sum[i] += d.weightedNow / d.weight;
        ++m_usage.gpusMeasured[i];
    }
    if (d.pods.empty())
        return; // no pod held it for the whole window: not allocated
    ++m_usage.allocatedGpusMeasured;
    if (d.peak >= m_usage.idleThreshold)
        return;
    ++m_usage.idleAllocatedGpus[i];
    for (const PodId p : d.pods)
        m_usage.idleGpus.push_back({ n, p, d.device, d.peak, static_cast<std::int32_t>(d.pods.size()) });
}

void GpuUsageBuilder::setMeasured(NodeId n, double sum, std::int32_t count)
{
    m_sum[n.index()] = sum;
    m_usage.gpusMeasured[n.index()] = count;
}

void GpuUsageBuilder::finish()
{
    for (std::size_t i = 0; i < m_usage.nodeCount(); ++i)
        if (m_usage.gpusMeasured[i] > 0)
            m_usage.gpuUtilization[i] = std::min(1.0, m_sum[i] / m_usage.gpusMeasured[i]);
    std::sort(m_usage.idleGpus.begin(), m_usage.idleGpus.end(),
        [](const IdleGpu& a, const IdleGpu& b) { return std::tie(a.node, a.device, a.pod) < std::tie(b.node, b.device, b.pod); });
}

} // namespace fleet::model
