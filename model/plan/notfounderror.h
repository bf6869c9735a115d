// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exception PlanEngine::apply() throws when an action names something the state lacks
// (plan.h: "Throws std::invalid_argument when the action names a pod, node or domain that does
// not exist"): an std::invalid_argument that also carries the not-found reason's detail, so
// that `plan check` reports it with its stable code (not-found:pod/<ns>/<name>, ...).

#include <stdexcept>
#include <string>

namespace fleet::model {

class NotFoundError : public std::invalid_argument {
public:
    /// `detail`: "pod/<ns>/<name>", "node/<name>", "workload/<ns>/<name>", "domain/<path>",
    /// "instance-type/<type>"; `message`: the sentence.
    NotFoundError(std::string detail, const std::string& message)
        : std::invalid_argument(message)
        , m_detail(std::move(detail))
    {
    }
    [[nodiscard]] const std::string& detail() const noexcept { return m_detail; }

private:
    std::string m_detail;
};

} // namespace fleet::model
