// SPDX-License-Identifier: Apache-2.0
// The Prometheus HTTP API client (prometheusclient.h).
#include "importers/prometheus/prometheusclient.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/secrets.h"
#include "importers/quotedtext.h"

#include <QByteArray>
#include <QUrl>

#include <simdjson.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>

namespace fleet::importers::prometheus {

namespace dom = simdjson::dom;

std::string_view PromSeries::label(std::string_view name) const noexcept
{
    for (const auto& [k, v] : labels)
        if (k == name)
            return v;
    return {};
}

namespace {

class ResponseReader {
public:
    ResponseReader(const std::string& source, const std::string& path)
        : m_source(source)
        , m_path(path)
    {
    }

    [[noreturn]] void fail(const std::string& where, const std::string& message) const
    {
        throw PrometheusError(m_source, m_path, where.empty() ? message : where + ": " + message);
    }

    std::string_view string(dom::element e, const std::string& where) const
    {
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS)
            fail(where, "expected a string");
        return s;
    }

    // A sample: [ <unix time>, "<value>" ], the value a string (Go's strconv.FormatFloat, so
    // "NaN", "+Inf", "-Inf" too).
    PromPoint point(dom::element e, const std::string& where) const
    {
        dom::array a;
        if (e.get_array().get(a) != simdjson::SUCCESS || a.size() != 2)
            fail(where, "expected [time, \"value\"]");
        PromPoint p;
        if (a.at(0).get_double().get(p.time) != simdjson::SUCCESS)
            fail(where + "[0]", "expected a number (seconds since the epoch)");
        const std::string text(string(a.at(1).value_unsafe(), where + "[1]"));
        if (text == "NaN")
            p.value = std::numeric_limits<double>::quiet_NaN();
        else if (text == "+Inf" || text == "Inf")
            p.value = std::numeric_limits<double>::infinity();
        else if (text == "-Inf")
            p.value = -std::numeric_limits<double>::infinity();
        else {
            char* end = nullptr;
            p.value = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || std::isnan(p.value))
                fail(where + "[1]", "not a number: " + quotedText(text, 40));
        }
        return p;
    }

    PromSeries series(dom::element e, const std::string& where, bool matrix) const
    {
        dom::object o;
        if (e.get_object().get(o) != simdjson::SUCCESS)
            fail(where, "expected an object");
        PromSeries s;
        dom::element metric;
        if (o.at_key("metric").get(metric) == simdjson::SUCCESS) {
            dom::object labels;
            if (metric.get_object().get(labels) != simdjson::SUCCESS)
                fail(where + ".metric", "expected an object of labels");
            for (const auto field : labels)
                s.labels.emplace_back(std::string(field.key), std::string(string(field.value, where + ".metric." + std::string(field.key))));
        }
        if (matrix) {
            dom::element values;
            dom::array a;
            if (o.at_key("values").get(values) != simdjson::SUCCESS || values.get_array().get(a) != simdjson::SUCCESS)
                fail(where + ".values", "missing, or not a list of samples");
            std::size_t i = 0;
            for (const dom::element v : a)
                s.points.push_back(point(v, where + ".values[" + std::to_string(i++) + "]"));
        } else {
            dom::element value;
            if (o.at_key("value").get(value) != simdjson::SUCCESS)
                fail(where + ".value", "missing");
            s.points.push_back(point(value, where + ".value"));
        }
        return s;
    }

    PromResult read(std::string_view body) const
    {
        dom::parser parser;
        dom::element root;
        const simdjson::padded_string text(body);
        if (const auto err = parser.parse(text).get(root); err != simdjson::SUCCESS)
            fail({}, std::string("the answer is not JSON (") + simdjson::error_message(err) + "): " + quotedText(body, 80));
        dom::object top;
        if (root.get_object().get(top) != simdjson::SUCCESS)
            fail("$", "expected an object");
        dom::element status;
        if (top.at_key("status").get(status) != simdjson::SUCCESS)
            fail("status", "missing (not a Prometheus API answer)");
        PromResult r;
        dom::element warnings;
        if (top.at_key("warnings").get(warnings) == simdjson::SUCCESS) {
            dom::array a;
            if (warnings.get_array().get(a) == simdjson::SUCCESS)
                for (const dom::element w : a)
                    r.warnings.emplace_back(string(w, "warnings"));
        }
        if (string(status, "status") != "success") {
            std::string errorType = "error", error = "(no message)";
            dom::element e;
            if (top.at_key("errorType").get(e) == simdjson::SUCCESS)
                errorType = std::string(string(e, "errorType"));
            if (top.at_key("error").get(e) == simdjson::SUCCESS)
                error = std::string(string(e, "error"));
            // The server's words, escaped: a newline in them would forge a line of output.
            fail({}, escapedText(errorType, 80) + ": " + escapedText(error, 1000));
        }
        dom::element data, type, result;
        if (top.at_key("data").get(data) != simdjson::SUCCESS)
            fail("data", "missing");
        if (data.at_key("resultType").get(type) != simdjson::SUCCESS)
            fail("data.resultType", "missing");
        r.resultType = std::string(string(type, "data.resultType"));
        if (data.at_key("result").get(result) != simdjson::SUCCESS)
            fail("data.result", "missing");
        if (r.resultType == "scalar") {
            PromSeries s;
            s.points.push_back(point(result, "data.result"));
            r.series.push_back(std::move(s));
            return r;
        }
        if (r.resultType != "vector" && r.resultType != "matrix")
            fail("data.resultType", "\"" + r.resultType + "\" is not a vector, matrix or scalar");
        dom::array a;
        if (result.get_array().get(a) != simdjson::SUCCESS)
            fail("data.result", "expected a list");
        std::size_t i = 0;
        for (const dom::element e : a)
            r.series.push_back(series(e, "data.result[" + std::to_string(i++) + "]", r.resultType == "matrix"));
        return r;
    }

private:
    const std::string& m_source;
    const std::string& m_path;
};

std::string encode(const std::string& s)
{
    return QUrl::toPercentEncoding(QString::fromStdString(s)).toStdString();
}

std::string number(double v)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", v);
    return text;
}

} // namespace

PromResult parsePrometheusResponse(std::string_view body, const std::string& source, const std::string& path)
{
    return ResponseReader(source, path).read(body);
}

namespace {

// The transport is the Kubernetes client's, whose messages speak of a kubeconfig's cluster
// ("the certificate-authority ... of cluster \"prometheus\""): said here in the words of the
// Prometheus settings (--prometheus-ca, the usage config's insecureSkipTlsVerify) instead.
std::string prometheusWording(std::string message, const PrometheusSettings& settings)
{
    const std::string ca = settings.certificateAuthority;
    const std::pair<std::string, std::string> terms[] = {
        { "the certificate-authority " + ca + " of cluster \"prometheus\"", "the Prometheus CA file " + ca + " (--prometheus-ca)" },
        { "cluster \"prometheus\" sets insecure-skip-tls-verify together with a certificate-authority",
            "the Prometheus settings set insecureSkipTlsVerify together with a CA file (--prometheus-ca)" },
        { "cannot read the certificate-authority file", "cannot read the --prometheus-ca file" },
        { "the cluster's certificate-authority", "the Prometheus CA file (--prometheus-ca)" },
        { "the cluster's CA or the user's client certificate or key", "the Prometheus CA file (--prometheus-ca)" },
        { "cluster \"prometheus\"", "the Prometheus server" },
        { "user \"prometheus\"", "the Prometheus server" },
    };
    for (const auto& [from, to] : terms)
        for (std::size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
            message.replace(at, from.size(), to);
    return message;
}

} // namespace

struct PrometheusClient::Impl {
    PrometheusSettings settings;
    std::string source; // settings.baseUrl redacted (kube/secrets.h): what messages name
    std::unique_ptr<kube::KubeApiClient> http;

    PromResult get(const std::string& path, const std::string& query)
    {
        kube::ApiResponse response;
        try {
            response = http->get(path + "?" + query, kube::kPrometheusLimit);
        } catch (const kube::KubeApiError& e) {
            throw PrometheusError(source, path, prometheusWording(e.message(), settings), e.status());
        } catch (const std::bad_alloc&) {
            // The answer is bounded (kPrometheusLimit), but the machine may have less memory:
            // a Prometheus failure is the server's, said as such, never the cluster file's.
            throw PrometheusError(source, path, "not enough memory for the answer (at most " + std::to_string(kube::kPrometheusLimit.bytes >> 20) + " MiB are read)");
        }
        if (response.status < 200 || response.status >= 300) {
            // The API answers 400 (bad_data), 422 (execution), 503 (timeout) with its JSON envelope.
            std::string why = "HTTP " + std::to_string(response.status);
            try {
                (void)parsePrometheusResponse(response.body, source, path);
            } catch (const PrometheusError& e) {
                why += ": " + e.message();
            }
            throw PrometheusError(source, path, why, response.status);
        }
        return parsePrometheusResponse(response.body, source, path);
    }
};

PrometheusClient::PrometheusClient(PrometheusSettings settings)
    : d(std::make_unique<Impl>())
{
    d->settings = std::move(settings);
    d->source = kube::redactedUrl(d->settings.baseUrl);
    // The Kubernetes client's transport, configured as a kubeconfig would be: the same URL
    // rules, TLS checks and bearer token handling (and the same care for secrets).
    kube::ResolvedKubeconfig config;
    config.contextName = "prometheus";
    config.cluster.name = "prometheus";
    config.cluster.server = d->settings.baseUrl;
    config.cluster.certificateAuthority = d->settings.certificateAuthority;
    config.cluster.insecureSkipTlsVerify = d->settings.insecureSkipTlsVerify;
    config.user.name = "prometheus";
    config.user.token = d->settings.bearerToken;
    config.requestTimeout = d->settings.requestTimeout;
    try {
        d->http = std::make_unique<kube::KubeApiClient>(config);
        d->http->setObserver(d->settings.observer);
    } catch (const kube::KubeApiError& e) {
        throw PrometheusError(d->source, {}, prometheusWording(e.message(), d->settings));
    }
}

PrometheusClient::~PrometheusClient() = default;

PromResult PrometheusClient::instantQuery(const std::string& promql, double time)
{
    return d->get("/api/v1/query", "query=" + encode(promql) + "&time=" + number(time));
}

PromResult PrometheusClient::rangeQuery(const std::string& promql, double start, double end, double stepSeconds)
{
    if (!(stepSeconds > 0) || !(end >= start))
        throw PrometheusError(d->source, "/api/v1/query_range", "a range needs end >= start and a step > 0 seconds");
    return d->get("/api/v1/query_range",
        "query=" + encode(promql) + "&start=" + number(start) + "&end=" + number(end) + "&step=" + number(stepSeconds));
}

const std::string& PrometheusClient::baseUrl() const noexcept
{
    return d->source;
}

} // namespace fleet::importers::prometheus
