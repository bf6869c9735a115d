// SPDX-License-Identifier: Apache-2.0
#pragma once
// A read-only client for the Prometheus HTTP API ("Usage and idle GPUs"): instant and
// range queries at an explicit time, over the same Beast/OpenSSL transport as the Kubernetes
// client (importers/kube/kubeapiclient.h: TLS verified against a CA, a bearer token).
//
// Source of the rules: https://prometheus.io/docs/prometheus/latest/querying/api/ (GET
// /api/v1/query?query=&time=, /api/v1/query_range?query=&start=&end=&step=; the envelope
// {"status": "success"|"error", "data": {"resultType", "result"}, "errorType", "error",
// "warnings"}; sample values are strings, "NaN", "+Inf" and "-Inf" included). An instant query
// looks back 5 minutes by default (--query.lookback-delta): its `time` must be near the
// samples, never "now" against an old snapshot.
//
// Thread: one client per thread; it blocks (never on the GUI thread). The parsers are pure.

#include "importers/importreport.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::importers::kube {
class RequestObserver;
} // namespace fleet::importers::kube

namespace fleet::importers::prometheus {

/// Where the server is and how to reach it.
struct PrometheusSettings {
    /// http(s)://host[:port][/prefix] (a prefix, e.g. "/prometheus", is kept before /api/v1).
    std::string baseUrl;
    std::string bearerToken;           ///< sent as "Authorization: Bearer"; never in an error
    std::string certificateAuthority;  ///< PEM file for https, or empty: the system's roots
    bool insecureSkipTlsVerify = false;
    /// The longest one query may take, as the Kubernetes client's requests (the command line's
    /// --request-timeout; 0: no bound but 60 s per step). Default 60 s.
    std::chrono::milliseconds requestTimeout { 60'000 };
    /// Told what a query that takes long waits for (kube::RequestObserver: after 3 s, then
    /// every 5 s), or nullptr. Not owned; it must outlive the client.
    kube::RequestObserver* observer = nullptr;
};

/// One series' labels, sorted by name as the server sends them (__name__ included).
using PromLabels = std::vector<std::pair<std::string, std::string>>;

/// One sample: seconds since the epoch (fractional) and the value (NaN and +-Inf kept).
struct PromPoint {
    double time = 0;
    double value = 0;
};

/// One series of a result: an instant vector has one point, a range matrix several, in time order.
struct PromSeries {
    PromLabels labels;
    std::vector<PromPoint> points;
    /// The value of label `name`, or "" when the series has none.
    [[nodiscard]] std::string_view label(std::string_view name) const noexcept;
};

/// A query's result: "vector", "matrix", "scalar" (one series without labels) or "string"
/// (refused: no usage query returns one). `warnings` as the server sent them.
struct PromResult {
    std::string resultType;
    std::vector<PromSeries> series;
    std::vector<std::string> warnings;
};

/// The server said no, or its answer is not the API's: what() is "SOURCE: PATH: message" in
/// ImportError's form, e.g. "http://127.0.0.1:9090: /api/v1/query: bad_data: invalid parameter
/// \"query\": 1:6: parse error: unclosed left parenthesis", or for a malformed body
/// "...: data.result[3].value[1]: not a number: \"abc\"".
class PrometheusError : public ImportError {
public:
    PrometheusError(std::string source, std::string path, const std::string& message, unsigned status = 0)
        : ImportError(std::move(source), 0, std::move(path), message)
        , m_status(status)
    {
    }
    /// The HTTP status (0: no answer, or a body that is not the API's).
    unsigned status() const noexcept { return m_status; }

private:
    unsigned m_status;
};

/// Parses the body of /api/v1/query or /api/v1/query_range. `source` and `path` name the
/// request in errors. Throws PrometheusError for {"status": "error"} (its errorType and error),
/// JSON that is not valid (simdjson's message), or a field of the wrong shape (its JSON path).
[[nodiscard]] PromResult parsePrometheusResponse(std::string_view body, const std::string& source, const std::string& path);

class PrometheusClient {
public:
    /// Throws PrometheusError for a base URL that is not http(s)://host[:port][/prefix], or a
    /// CA file that cannot be read.
    explicit PrometheusClient(PrometheusSettings settings);
    ~PrometheusClient();
    PrometheusClient(const PrometheusClient&) = delete;
    PrometheusClient& operator=(const PrometheusClient&) = delete;

    /// An instant query evaluated at `time` (seconds since the epoch). Throws PrometheusError:
    /// no connection (status 0), a non-2xx answer (its status and the API's error when the body
    /// has one), or a body parsePrometheusResponse() refuses.
    [[nodiscard]] PromResult instantQuery(const std::string& promql, double time);
    /// A range query over [start, end] every `stepSeconds` (> 0). Throws as instantQuery().
    [[nodiscard]] PromResult rangeQuery(const std::string& promql, double start, double end, double stepSeconds);
    /// The base URL as configured.
    [[nodiscard]] const std::string& baseUrl() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fleet::importers::prometheus
