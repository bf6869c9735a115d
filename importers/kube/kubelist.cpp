// SPDX-License-Identifier: Apache-2.0
#include "importers/kube/kubelist.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubejson.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

namespace fleet::importers::kube {
namespace {

struct Resource {
    const char* path;   // collection path
    const char* what;   // for messages
    bool required;      // nodes and pods
    const char* lacks;  // what the what-if lacks without it
};

constexpr Resource kResources[] = {
    {"/api/v1/nodes", "nodes", true, ""},
    {"/api/v1/pods", "pods", true, ""},
    {"/api/v1/namespaces", "namespaces", false, "namespaceSelector terms of pod affinity match no namespace labels"},
    {"/apis/policy/v1/poddisruptionbudgets", "PodDisruptionBudgets", false, "drains are not checked against disruption budgets"},
    {"/api/v1/persistentvolumes", "PersistentVolumes", false, "pods' volumes do not bind them to a zone"},
};

// Thrown inside when a continue token expired: the caller relists.
struct Expired {
};

std::string percentEncode(const std::string& s)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
            out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

void sleepFor(double seconds, ImportProgress* progress)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (progress && progress->isCancelled())
            throw ImportCancelled();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

// GET with retries: connection failures back off exponentially with jitter, 429 waits for
// Retry-After. Returns the last response (any status but 429). Every attempt and wait fits in
// the client's request timeout, counted from the first attempt (client-go's request timeout
// covers its retries too): a retry that could not begin before it is not made, and the last
// error is thrown saying so.
ApiResponse getWithRetries(KubeApiClient& client, const std::string& target, const LiveListOptions& options, ImportProgress* progress,
                           std::mt19937& rng)
{
    const auto began = std::chrono::steady_clock::now();
    const auto timeout = client.requestTimeout();
    // A retry is made only when, after its wait, a quarter of a second is left for it: an attempt
    // begun a few milliseconds before the deadline can only fail with "gave up", hiding the
    // error that made it retry.
    constexpr double kLeastAttemptSeconds = 0.25;
    const auto fits = [&](double waitSeconds) {
        return timeout.count() <= 0
            || std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds + kLeastAttemptSeconds) < began + timeout;
    };
    double backoff = 0.5;
    for (int attempt = 1;; ++attempt) {
        if (progress && progress->isCancelled())
            throw ImportCancelled();
        try {
            ApiResponse r = client.get(target, began);
            if (r.status != 429 || attempt >= options.maxAttempts)
                return r;
            double wait = 1;
            try {
                if (!r.retryAfter.empty())
                    wait = std::clamp(std::stod(r.retryAfter), 0.0, 30.0);
            } catch (const std::exception&) {
            }
            if (!fits(wait))
                return r;
            sleepFor(wait, progress);
        } catch (const KubeApiError& e) {
            if (!e.transient() || attempt >= options.maxAttempts)
                throw;
            std::uniform_real_distribution<double> jitter(0.5, 1.5);
            const double wait = backoff * jitter(rng);
            if (!fits(wait)) {
                if (e.message().starts_with("gave up after"))
                    throw;
                char limit[32];
                std::snprintf(limit, sizeof limit, "%g s", static_cast<double>(timeout.count()) / 1000.0);
                throw KubeApiError(client.server(), target, e.status(),
                    e.message() + " (attempt " + std::to_string(attempt) + "; no time is left for another within the "
                        + "request timeout of " + limit + (client.input() == KubeconfigInput::CommandLine ? ", --request-timeout)" : ")"),
                    true);
            }
            sleepFor(wait, progress);
            backoff *= 2;
        }
    }
}

// What one collection's pages gave.
enum class Listed { Done, Forbidden, NotFound };

// The metadata.continue of a list page read from the page's start, before it is parsed: the API
// server writes kind, apiVersion and metadata before items (as Go's encoding/json writes a
// struct's fields in order), so the text up to `"items":` is the list's head. Returns nullopt
// when the head cannot be read that way (another order, or no head): the page is then parsed
// before the next one is asked for. A `"items":` cannot occur inside a JSON string (a quote
// there is escaped), so the head found is the list's own.
std::optional<std::string> continueOfHead(std::string_view page)
{
    const std::size_t items = page.substr(0, 64 << 10).find("\"items\"");
    if (items == std::string_view::npos)
        return std::nullopt;
    std::string head(page.substr(0, items));
    while (!head.empty() && std::isspace(static_cast<unsigned char>(head.back())))
        head.pop_back();
    if (head.empty() || head.back() != ',')
        return std::nullopt;
    head.back() = '}';
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(head), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject() || !doc.object().value("metadata").isObject())
        return std::nullopt;
    const QJsonValue token = doc.object().value("metadata").toObject().value("continue");
    if (!token.isString() && !token.isUndefined())
        return std::nullopt;
    return token.toString().toStdString();
}

// Imports the pages of one collection on a second thread while the fetching thread asks for the
// next page (the machine has 2 cores: one decrypts while the other parses). At most one page
// waits while one is parsed, so memory stays at three pages. The store, report and session
// belong to the parsing thread until drain() returns; an import error is rethrown by the next
// submit() or drain(). Thread: the list's; the worker is its own.
class PageImporter {
public:
    PageImporter(model::ClusterStore& store, ImportReport& report, KubectlJsonSession& session)
        : m_store(store)
        , m_report(report)
        , m_session(session)
    {
    }
    ~PageImporter()
    {
        try {
            drain();
        } catch (...) {
            // unwinding already: the first error is the one reported
        }
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        if (m_worker.joinable())
            m_worker.join();
    }
    PageImporter(const PageImporter&) = delete;
    PageImporter& operator=(const PageImporter&) = delete;

    // Queues `page` (its head said its continue is `expectedContinue`), waiting while another
    // page waits.
    void submit(std::string page, std::string name, std::string expectedContinue)
    {
        if (!m_worker.joinable())
            m_worker = std::thread([this] { run(); });
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return !m_queued || m_error; });
        rethrow(lock);
        m_job = Job{std::move(page), std::move(name), std::move(expectedContinue)};
        m_queued = true;
        m_cv.notify_all();
    }
    // Waits until every queued page is imported; rethrows an import error.
    void drain()
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return (!m_queued && !m_busy) || m_error; });
        rethrow(lock);
    }

private:
    struct Job {
        std::string page, name, expectedContinue;
    };
    void rethrow(std::unique_lock<std::mutex>& lock)
    {
        if (!m_error)
            return;
        std::exception_ptr e = std::exchange(m_error, nullptr);
        m_queued = false;
        lock.unlock();
        std::rethrow_exception(e);
    }
    void run()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_cv.wait(lock, [&] { return m_queued || m_stop; });
            if (!m_queued)
                return;
            Job job = std::move(m_job);
            m_queued = false;
            m_busy = true;
            m_cv.notify_all();
            lock.unlock();
            std::exception_ptr error;
            try {
                importKubectlJsonText(job.page, job.name, m_store, m_report, nullptr, KubectlJsonOptions{}, m_session);
                if (m_session.listContinue != job.expectedContinue)
                    throw ImportError(job.name, 0, "metadata.continue",
                                      "the continue token read from the list's head differs from the one parsed");
            } catch (...) {
                error = std::current_exception();
            }
            lock.lock();
            m_busy = false;
            if (error && !m_error)
                m_error = error;
            m_cv.notify_all();
        }
    }

    model::ClusterStore& m_store;
    ImportReport& m_report;
    KubectlJsonSession& m_session;
    std::thread m_worker;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    Job m_job;
    bool m_queued = false, m_busy = false, m_stop = false;
    std::exception_ptr m_error;
};

// Lists one collection page by page into `store`. A 403 or 404 on the first page is returned
// (the caller decides); any other failure throws. Each page whose head gives its continue token
// is imported on a second thread while the next is fetched (PageImporter); the others in turn.
Listed listCollection(KubeApiClient& client, const std::string& path, model::ClusterStore& store, ImportReport& report,
                      ImportProgress* progress, const LiveListOptions& options, std::mt19937& rng, KubectlJsonSession& session,
                      LiveListResult& result, std::string* firstError = nullptr)
{
    std::string token;
    PageImporter importer(store, report, session);
    for (int page = 1;; ++page) {
        std::string target = path + "?limit=" + std::to_string(options.pageLimit);
        if (!token.empty())
            target += "&continue=" + percentEncode(token);
        ApiResponse r = getWithRetries(client, target, options, progress, rng);
        if (r.status == 410 && !token.empty())
            throw Expired{};
        if ((r.status == 403 || r.status == 404) && page == 1) {
            if (firstError)
                *firstError = std::to_string(r.status) + ": " + statusMessage(r.body);
            return r.status == 403 ? Listed::Forbidden : Listed::NotFound;
        }
        if (r.status != 200) {
            std::string msg = std::to_string(r.status) + ": " + statusMessage(r.body);
            if (r.status == 401)
                msg += " (the credentials of the kubeconfig user were refused)";
            throw KubeApiError(client.server(), path, r.status, msg);
        }
        ++result.pages;
        const std::string name = client.server() + path + " page " + std::to_string(page);
        const std::optional<std::string> next = continueOfHead(r.body);
        if (next && !next->empty()) {
            importer.submit(std::move(r.body), name, *next);
            token = *next;
            continue;
        }
        importer.drain();
        importKubectlJsonText(r.body, name, store, report, progress, KubectlJsonOptions{}, session);
        result.resourceVersion = session.listResourceVersion;
        token = session.listContinue;
        if (token.empty())
            return Listed::Done;
    }
}

// The names of the cluster's namespaces (for the namespace-by-namespace pod list), or nothing
// when they cannot be listed; `resourceVersion` is set to the namespace list's (where a watch of
// namespaces starts).
std::vector<std::string> namespaceNames(KubeApiClient& client, const LiveListOptions& options, ImportProgress* progress, std::mt19937& rng,
                                        std::string& resourceVersion)
{
    std::vector<std::string> names;
    std::string token;
    for (;;) {
        std::string target = "/api/v1/namespaces?limit=" + std::to_string(options.pageLimit);
        if (!token.empty())
            target += "&continue=" + percentEncode(token);
        const ApiResponse r = getWithRetries(client, target, options, progress, rng);
        if (r.status != 200)
            return {};
        const QJsonObject list = QJsonDocument::fromJson(QByteArray::fromStdString(r.body)).object();
        for (const QJsonValue& item : list.value("items").toArray())
            names.push_back(item.toObject().value("metadata").toObject().value("name").toString().toStdString());
        token = list.value("metadata").toObject().value("continue").toString().toStdString();
        resourceVersion = list.value("metadata").toObject().value("resourceVersion").toString().toStdString();
        if (token.empty())
            return names;
    }
}

// A user who may not list pods cluster-wide: the pods of every namespace they may list, and a
// "partial view" warning naming what is left out.
void listPodsByNamespace(KubeApiClient& client, const std::string& clusterWideError, model::ClusterStore& store, ImportReport& report,
                         ImportProgress* progress, const LiveListOptions& options, std::mt19937& rng, KubectlJsonSession& session,
                         LiveListResult& result)
{
    const std::vector<std::string> namespaces = namespaceNames(client, options, progress, rng, result.namespacesResourceVersion);
    if (namespaces.empty())
        throw KubeApiError(client.server(), "/api/v1/pods", 403,
                           clusterWideError + " (and the namespaces cannot be listed either, so no namespace's pods can be read)");
    std::vector<std::string> left;
    for (const std::string& ns : namespaces)
        if (listCollection(client, "/api/v1/namespaces/" + percentEncode(ns) + "/pods", store, report, progress, options, rng, session,
                           result)
            != Listed::Done)
            left.push_back(ns);
        else
            result.podNamespaces.emplace_back(ns, result.resourceVersion);
    result.podNamespacesRefused = left;
    if (left.size() == namespaces.size())
        throw KubeApiError(client.server(), "/api/v1/pods", 403, clusterWideError + " (nor in any of its " + std::to_string(namespaces.size()) + " namespaces)");
    if (left.empty())
        return; // every namespace's pods: the view is whole
    std::string named;
    for (std::size_t i = 0; i < left.size() && i < 5; ++i)
        named += (i ? ", " : "") + left[i];
    if (left.size() > 5)
        named += ", and " + std::to_string(left.size() - 5) + " more";
    result.partialView = true;
    report.warn(client.server() + ": partial view: pods listed in " + std::to_string(namespaces.size() - left.size()) + " of "
                + std::to_string(namespaces.size()) + " namespaces (the cluster-wide list was refused: " + clusterWideError + ")"
                + "; not listed: " + named + ". Nodes in those namespaces' use look emptier than they are.");
}

LiveListResult listOnce(KubeApiClient& client, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
                        const LiveListOptions& options, std::mt19937& rng)
{
    LiveListResult result;
    KubectlJsonSession session;
    session.followsPages = true;
    std::string podsResourceVersion;
    for (const Resource& res : kResources) {
        std::string error;
        const Listed listed = listCollection(client, res.path, store, report, progress, options, rng, session, result, &error);
        const bool pods = std::string_view(res.path) == "/api/v1/pods";
        if (listed != Listed::Done) {
            if (pods && listed == Listed::Forbidden)
                listPodsByNamespace(client, error, store, report, progress, options, rng, session, result);
            else if (res.required)
                throw KubeApiError(client.server(), res.path, listed == Listed::Forbidden ? 403 : 404, error);
            else
                report.warn(client.server() + ": cannot list " + res.what + " (" + error + "); without them " + res.lacks);
        }
        if (pods)
            podsResourceVersion = result.resourceVersion;
        else if (std::string_view(res.path) == "/api/v1/nodes")
            result.nodesResourceVersion = result.resourceVersion;
    }
    result.resourceVersion = podsResourceVersion;
    resolvePersistentVolumeClaims(session, store, report);
    return result;
}

} // namespace

std::optional<std::string> listNamespacePods(KubeApiClient& client, const std::string& namespaceName, model::ClusterStore& store,
                                             ImportReport& report, ImportProgress* progress, const LiveListOptions& options)
{
    std::mt19937 rng(std::random_device{}());
    const std::string path = "/api/v1/namespaces/" + percentEncode(namespaceName) + "/pods";
    for (int restart = 0;; ++restart) {
        KubectlJsonSession session;
        session.followsPages = true;
        LiveListResult result;
        try {
            if (listCollection(client, path, store, report, progress, options, rng, session, result) != Listed::Done)
                return std::nullopt;
            return result.resourceVersion;
        } catch (const Expired&) {
            if (restart >= options.maxRestarts)
                throw KubeApiError(client.server(), path, 410,
                                   "410 Gone: the list's continue token expired " + std::to_string(restart + 1) + " times in a row");
            store = model::ClusterStore();
        }
    }
}

LiveListResult listCluster(KubeApiClient& client, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
                           const LiveListOptions& options)
{
    std::mt19937 rng(std::random_device{}());
    for (int restart = 0;; ++restart) {
        try {
            LiveListResult r = listOnce(client, store, report, progress, options, rng);
            r.restarts = static_cast<std::size_t>(restart);
            if (restart > 0)
                report.warn(client.server() + ": the list was restarted " + std::to_string(restart)
                            + (restart == 1 ? " time" : " times") + " because a continue token expired (410 Gone)");
            return r;
        } catch (const Expired&) {
            if (restart >= options.maxRestarts)
                throw KubeApiError(client.server(), {}, 410,
                                   "410 Gone: the list's continue token expired " + std::to_string(restart + 1)
                                       + " times in a row; the cluster changes faster than it can be listed at this page size");
            store = model::ClusterStore();
            report = ImportReport();
        }
    }
}

} // namespace fleet::importers::kube
