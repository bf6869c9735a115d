// SPDX-License-Identifier: Apache-2.0
#include "workloadname.h"

namespace fleet::model {

namespace {
constexpr std::size_t kMinCronJobDigits = 8;
} // namespace

std::string_view cronJobOfJobName(std::string_view jobName) noexcept
{
    std::size_t digits = 0;
    while (digits < jobName.size() && jobName[jobName.size() - 1 - digits] >= '0' && jobName[jobName.size() - 1 - digits] <= '9')
        ++digits;
    if (digits < kMinCronJobDigits || digits + 2 > jobName.size() || jobName[jobName.size() - 1 - digits] != '-')
        return {};
    return jobName.substr(0, jobName.size() - digits - 1);
}

WorkloadName workloadOfPod(OwnerKind controllerKind, std::string_view controllerName,
                           std::span<const std::pair<std::string, std::string>> labels) noexcept
{
    for (const GangLabel& gang : kGangLabels)
        for (const auto& [key, value] : labels)
            if (key == gang.key && !value.empty())
                return {gang.kind, value};
    if (controllerKind == OwnerKind::None || controllerName.empty())
        return {};
    if (controllerKind == OwnerKind::ReplicaSet) {
        for (const auto& [key, value] : labels) {
            if (key != kPodTemplateHashLabel || value.empty())
                continue;
            const std::size_t n = controllerName.size();
            if (n > value.size() + 1 && controllerName.ends_with(value) && controllerName[n - value.size() - 1] == '-')
                return {OwnerKind::Deployment, controllerName.substr(0, n - value.size() - 1)};
        }
    }
    if (controllerKind == OwnerKind::Job)
        if (const std::string_view cronJob = cronJobOfJobName(controllerName); !cronJob.empty())
            return {OwnerKind::CronJob, cronJob};
    return {controllerKind, controllerName};
}

} // namespace fleet::model
