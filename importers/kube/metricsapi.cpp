// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/metricsapi.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/quotedtext.h"
#include "model/quantity.h"

#include <simdjson.h>

#include <chrono>

namespace fleet::importers::kube {

namespace dom = simdjson::dom;

namespace {
constexpr const char* kPath = "/apis/metrics.k8s.io/v1beta1/nodes";
}

model::ClusterUsage parseNodeMetrics(std::string_view body, const std::string& source, const model::ClusterStore& store, ImportReport& report)
{
    model::ClusterUsage usage(store.nodeCount());
    usage.source = "metrics.k8s.io (" + source + ")";
    usage.time = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    dom::parser parser;
    const simdjson::padded_string padded(body);
    dom::element doc;
    if (auto err = parser.parse(padded).get(doc))
        throw ImportError(source, 0, {}, std::string("the answer is not JSON: ") + simdjson::error_message(err));
    std::string_view kind;
    if (doc["kind"].get_string().get(kind) != simdjson::SUCCESS || kind != "NodeMetricsList")
        throw ImportError(source, 0, "kind", "the answer is not a NodeMetricsList" + (kind.empty() ? std::string() : " but a " + quotedText(std::string(kind), 40)));
    dom::array items;
    if (doc["items"].get_array().get(items) != simdjson::SUCCESS)
        throw ImportError(source, 0, "items", "a NodeMetricsList without an items array");
    std::size_t index = 0, unknown = 0;
    std::string firstUnknown;
    for (dom::element item : items) {
        const std::string at = "items[" + std::to_string(index++) + "]";
        std::string_view name, cpu, memory;
        if (item["metadata"]["name"].get_string().get(name) != simdjson::SUCCESS)
            throw ImportError(source, 0, at + ".metadata.name", "a node's metrics without its name");
        const model::NodeId node = store.findNode(name);
        if (!node.isValid()) {
            if (unknown++ == 0)
                firstUnknown = std::string(name);
            continue;
        }
        try {
            if (item["usage"]["cpu"].get_string().get(cpu) == simdjson::SUCCESS)
                usage.cpuUsedMilli[node.index()] = static_cast<double>(model::parseQuantityNanos(cpu)) / 1e6;
            if (item["usage"]["memory"].get_string().get(memory) == simdjson::SUCCESS)
                usage.memoryUsedBytes[node.index()] = static_cast<double>(model::parseQuantity(memory));
        } catch (const model::QuantityError& e) {
            throw ImportError(source, 0, at + ".usage", e.what());
        }
    }
    if (unknown > 0)
        report.warn(source + ": metrics of " + std::to_string(unknown) + (unknown == 1 ? " node" : " nodes")
                    + " that the cluster's node list does not hold (e.g. " + quotedText(firstUnknown, 60) + ") were left out");
    return usage;
}

std::optional<model::ClusterUsage> queryMetricsServer(KubeApiClient& client, const model::ClusterStore& store, ImportReport& report)
{
    const ApiResponse r = client.get(kPath, kMetricsLimit);
    const std::string source = client.server() + kPath;
    if (r.status == 404)
        return std::nullopt; // metrics-server is not installed: no usage, and the usage metrics' legends say so
    if (r.status == 503 || r.status == 403) {
        report.warn(source + ": " + std::to_string(r.status) + ": " + statusMessage(r.body) + ": no cpu or memory usage from metrics-server");
        return std::nullopt;
    }
    if (r.status != 200)
        throw KubeApiError(client.server(), kPath, r.status, std::to_string(r.status) + ": " + statusMessage(r.body));
    return parseNodeMetrics(r.body, source, store, report);
}

} // namespace fleet::importers::kube
