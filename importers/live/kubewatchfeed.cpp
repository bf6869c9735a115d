#include "importers/live/kubewatchfeed.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubejson.h"
#include "importers/live/watchstream.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

namespace fleet::importers::live {
namespace {

using Clock = std::chrono::steady_clock;

// An object's last state within the batch being gathered.
struct Latest {
    bool deleted = false;
    std::string namespaceName, name;
    std::string object; // JSON, when not deleted
};

// Cancels a relist when the feed stops.
class StopProgress final : public ImportProgress {
public:
    explicit StopProgress(const std::atomic<bool>& stop) : m_stop(stop) {}
    void progress(std::size_t, std::size_t) override {}
    bool isCancelled() const override { return m_stop; }

private:
    const std::atomic<bool>& m_stop;
};

class KubeWatchFeed final : public LiveFeed {
public:
    KubeWatchFeed(const kube::ResolvedKubeconfig& config, std::string nodesRv, std::string podsRv, KubeWatchOptions options)
        : m_config(config)
        , m_options(std::move(options))
        , m_listClient(std::make_unique<kube::KubeApiClient>(config))
    {
        m_nodes.client = std::make_unique<kube::KubeApiClient>(config);
        m_pods.client = std::make_unique<kube::KubeApiClient>(config);
        m_nodes.rv = std::move(nodesRv);
        m_pods.rv = std::move(podsRv);
        m_status.server = m_listClient->server();
        m_status.resourceVersion = m_pods.rv;
        m_relistPending = m_nodes.rv.empty() || m_pods.rv.empty();
        m_initialList = m_relistPending;
    }
    ~KubeWatchFeed() override { stop(); }

    void start(LiveFeedSink& sink) override
    {
        m_sink = &sink;
        m_nodes.thread = std::thread([this] { watchLoop(m_nodes); });
        m_pods.thread = std::thread([this] { watchLoop(m_pods); });
        m_feedThread = std::thread([this] { feedLoop(); });
    }

    void stop() override
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_stopped)
                return;
            m_stopped = true;
            m_stopping = true;
        }
        m_cv.notify_all();
        m_nodes.client->interrupt();
        m_pods.client->interrupt();
        for (std::thread* t : {&m_nodes.thread, &m_pods.thread, &m_feedThread})
            if (t->joinable())
                t->join();
    }

private:
    struct Watch {
        const char* path;
        const char* kind;
        std::unique_ptr<kube::KubeApiClient> client;
        std::thread thread;
        std::string rv; // guarded by m_mutex
    };

    // ---- the watch threads ------------------------------------------------------------

    void watchLoop(Watch& w)
    {
        std::mt19937 rng(std::random_device {}());
        double backoff = m_options.backoffStartSeconds;
        WatchStreamReader reader(m_status.server + w.path + "?watch=1");
        for (;;) {
            std::string rv;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [&] { return m_stopping || m_failed || (!m_relistPending && !w.rv.empty()); });
                if (m_stopping || m_failed)
                    return;
            }
            w.client->clearInterrupt();
            {
                std::lock_guard lock(m_mutex);
                if (m_stopping || m_failed || m_relistPending)
                    continue; // an interrupt came before clearInterrupt(): decide again
                rv = w.rv;
            }
            const std::string target = std::string(w.path) + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + rv
                + "&timeoutSeconds=" + std::to_string(m_options.timeoutSeconds);
            reader.reset();
            bool relistAsked = false;
            std::string streamError;
            try {
                const kube::ApiResponse r = w.client->stream(
                    target,
                    [&](std::string_view bytes) {
                        reader.append(bytes, [&](WatchEvent&& e) { onEvent(w, std::move(e), relistAsked, streamError); });
                        if (!relistAsked && streamError.empty())
                            setState(LiveFeedStatus::State::Watching);
                        return !relistAsked && streamError.empty();
                    },
                    m_options.idle);
                if (w.client->interrupted())
                    continue; // stop or relist: the loop's top decides
                if (!streamError.empty())
                    waitAfterFailure(streamError, backoff, rng);
                else if (relistAsked || r.status == 410)
                    requestRelist();
                else if (r.status == 200)
                    backoff = m_options.backoffStartSeconds; // the server ended the watch (its timeout): resume at once
                else if (r.status == 401 || r.status == 403) {
                    fail(m_status.server + ": " + w.path + ": " + std::to_string(r.status) + ": " + kube::statusMessage(r.body)
                         + (r.status == 401 ? " (the credentials of the kubeconfig user were refused)" : ""));
                    return;
                } else if (r.status == 429) {
                    double wait = 1;
                    try {
                        if (!r.retryAfter.empty())
                            wait = std::clamp(std::stod(r.retryAfter), 0.0, 30.0);
                    } catch (const std::exception&) {
                    }
                    noteRetry("429 Too Many Requests on " + std::string(w.path) + ": retrying after " + std::to_string(int(wait)) + " s");
                    sleepUnlessStopped(wait);
                } else
                    waitAfterFailure(m_status.server + ": " + w.path + ": " + std::to_string(r.status) + ": " + kube::statusMessage(r.body),
                                     backoff, rng);
            } catch (const kube::KubeApiError& e) {
                if (w.client->interrupted())
                    continue;
                if (!e.transient()) { // a bad certificate or setting: trying again cannot cure it
                    fail(e.what());
                    return;
                }
                waitAfterFailure(e.what(), backoff, rng);
            } catch (const ImportError& e) { // a malformed event: reconnect from the last good resourceVersion
                waitAfterFailure(e.what(), backoff, rng);
            }
        }
    }

    void onEvent(Watch& w, WatchEvent&& e, bool& relistAsked, std::string& streamError)
    {
        if (relistAsked || !streamError.empty())
            return;
        if (e.type == WatchEvent::Type::Error) {
            if (e.errorCode == 410)
                relistAsked = true;
            else
                streamError = m_status.server + ": " + w.path + ": ERROR event" + (e.errorCode ? " " + std::to_string(e.errorCode) : std::string())
                    + ": " + e.errorMessage;
            return;
        }
        if (e.type != WatchEvent::Type::Bookmark && !e.kind.empty() && e.kind != w.kind) {
            streamError = m_status.server + ": " + w.path + ": a " + e.kind + " in the " + w.kind + " watch";
            return;
        }
        std::lock_guard lock(m_mutex);
        if (!e.resourceVersion.empty())
            w.rv = e.resourceVersion;
        if (&w == &m_pods)
            m_status.resourceVersion = w.rv;
        if (e.type == WatchEvent::Type::Bookmark)
            return;
        const bool nodes = &w == &m_nodes;
        auto& latest = nodes ? m_latestNodes : m_latestPods;
        Latest& l = latest[nodes ? e.name : e.namespaceName + '/' + e.name];
        l.deleted = e.type == WatchEvent::Type::Deleted;
        l.namespaceName = std::move(e.namespaceName);
        l.name = std::move(e.name);
        l.object = l.deleted ? std::string() : std::move(e.object);
        ++m_eventsGathered;
        ++m_status.events;
        m_lastEvent = Clock::now();
    }

    void setState(LiveFeedStatus::State s)
    {
        std::lock_guard lock(m_mutex);
        if (m_status.state != s && m_status.state != LiveFeedStatus::State::Failed) {
            m_status.state = s;
            m_statusDirty = true;
        }
    }

    void noteRetry(const std::string& why)
    {
        {
            std::lock_guard lock(m_mutex);
            ++m_status.retries;
            m_status.lastError = why;
            m_status.state = LiveFeedStatus::State::Retrying;
            m_statusDirty = true;
        }
        m_cv.notify_all();
    }

    void sleepUnlessStopped(double seconds)
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return m_stopping || m_relistPending; });
    }

    void waitAfterFailure(const std::string& why, double& backoff, std::mt19937& rng)
    {
        noteRetry(why);
        std::uniform_real_distribution<double> jitter(0.5, 1.5);
        sleepUnlessStopped(backoff * jitter(rng));
        backoff = std::min(backoff * 2, m_options.backoffMaxSeconds);
    }

    void requestRelist()
    {
        {
            std::lock_guard lock(m_mutex);
            m_relistPending = true;
        }
        m_cv.notify_all();
    }

    void fail(const std::string& why)
    {
        {
            std::lock_guard lock(m_mutex);
            m_failed = true;
            m_status.state = LiveFeedStatus::State::Failed;
            m_status.lastError = why;
            m_statusDirty = true;
        }
        m_cv.notify_all();
    }

    // ---- the feed thread --------------------------------------------------------------

    void feedLoop()
    {
        auto nextStatus = Clock::now();
        for (;;) {
            bool relist = false;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait_for(lock, m_options.batchInterval, [&] { return m_stopping || m_relistPending || m_statusDirty; });
                if (m_stopping)
                    break;
                relist = m_relistPending && !m_failed;
            }
            if (relist)
                doRelist();
            else
                flush();
            const auto now = Clock::now();
            bool publish = now >= nextStatus;
            {
                std::lock_guard lock(m_mutex);
                publish = publish || m_statusDirty;
            }
            if (publish) {
                publishStatus(now);
                nextStatus = now + std::chrono::seconds(1);
            }
        }
        LiveFeedStatus last;
        {
            std::lock_guard lock(m_mutex);
            m_status.state = LiveFeedStatus::State::Stopped;
            last = m_status;
        }
        m_sink->statusChanged(last);
    }

    void publishStatus(Clock::time_point now)
    {
        LiveFeedStatus s;
        {
            std::lock_guard lock(m_mutex);
            m_statusDirty = false;
            m_rate.emplace_back(now, m_status.events);
            while (m_rate.size() > 2 && now - m_rate.front().first > std::chrono::seconds(5))
                m_rate.pop_front();
            const double span = std::chrono::duration<double>(now - m_rate.front().first).count();
            m_status.eventsPerSecond = span > 0 ? double(m_status.events - m_rate.front().second) / span : 0;
            m_status.lastEventAgeSeconds = m_status.events ? std::chrono::duration<double>(now - m_lastEvent).count() : -1;
            s = m_status;
        }
        m_sink->statusChanged(s);
    }

    void doRelist()
    {
        {
            std::lock_guard lock(m_mutex);
            m_status.state = LiveFeedStatus::State::Listing;
        }
        publishStatus(Clock::now());
        m_nodes.client->interrupt();
        m_pods.client->interrupt();
        std::mt19937 rng(std::random_device {}());
        double backoff = m_options.backoffStartSeconds;
        StopProgress progress(m_stopFlag);
        for (;;) {
            model::ClusterChangeBatch batch;
            ImportReport report;
            try {
                m_stopFlag = stopping();
                const kube::LiveListResult r = kube::listCluster(*m_listClient, batch.upserted, report, &progress, m_options.list);
                batch.replacesAll = true;
                batch.resourceVersion = r.resourceVersion;
                {
                    std::lock_guard lock(m_mutex);
                    m_nodes.rv = r.nodesResourceVersion;
                    m_pods.rv = r.resourceVersion;
                    m_status.resourceVersion = r.resourceVersion;
                    m_latestNodes.clear(); // the list supersedes what was gathered
                    m_latestPods.clear();
                    m_eventsGathered = 0;
                    m_relistPending = false;
                    if (!m_initialList)
                        ++m_status.relists;
                    m_initialList = false;
                    m_status.state = LiveFeedStatus::State::Watching;
                    m_statusDirty = true;
                }
                m_cv.notify_all();
                m_sink->batchReady(std::move(batch));
                return;
            } catch (const ImportCancelled&) {
                return;
            } catch (const kube::KubeApiError& e) {
                if (stopping())
                    return;
                if (!e.transient() && e.status() != 410 && e.status() != 429) {
                    fail(e.what());
                    return;
                }
                waitAfterFailure(e.what(), backoff, rng);
            } catch (const ImportError& e) {
                if (stopping())
                    return;
                waitAfterFailure(e.what(), backoff, rng);
            }
            if (stopping())
                return;
        }
    }

    bool stopping()
    {
        std::lock_guard lock(m_mutex);
        m_stopFlag = m_stopping;
        return m_stopping;
    }

    // Decodes the upserted nodes and pods into `store`, each kind as one list document (the
    // kubectl JSON importer's rules). When the importer refuses one, every object is decoded
    // alone into a fresh store and the refused ones are left out, the last named in `error`.
    void decode(const std::vector<const Latest*>& nodes, const std::vector<const Latest*>& pods, model::ClusterStore& store,
                std::string& error)
    {
        const std::string source = m_status.server + " watch";
        auto import = [&](const char* listKind, const std::vector<const Latest*>& objects, std::size_t from, std::size_t to,
                          model::ClusterStore& into) {
            if (from == to)
                return;
            std::string doc = std::string("{\"kind\":\"") + listKind + "\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[";
            for (std::size_t i = from; i < to; ++i) {
                if (i > from)
                    doc += ',';
                doc += objects[i]->object;
            }
            doc += "]}";
            ImportReport report;
            importKubectlJsonText(doc, source, into, report);
        };
        try {
            import("NodeList", nodes, 0, nodes.size(), store);
            import("PodList", pods, 0, pods.size(), store);
            return;
        } catch (const ImportError&) {
        }
        model::ClusterStore fresh;
        for (const auto* kind : {&nodes, &pods}) {
            for (std::size_t i = 0; i < kind->size(); ++i) {
                try {
                    import(kind == &nodes ? "NodeList" : "PodList", *kind, i, i + 1, fresh);
                } catch (const ImportError& e) {
                    const Latest& l = *(*kind)[i];
                    error = "left out " + (l.namespaceName.empty() ? l.name : l.namespaceName + "/" + l.name) + ": " + e.what();
                }
            }
        }
        store = std::move(fresh);
    }

    void flush()
    {
        std::unordered_map<std::string, Latest> nodes, pods;
        std::size_t events = 0;
        std::string rv;
        {
            std::lock_guard lock(m_mutex);
            nodes.swap(m_latestNodes);
            pods.swap(m_latestPods);
            events = m_eventsGathered;
            m_eventsGathered = 0;
            rv = m_pods.rv;
        }
        if (nodes.empty() && pods.empty())
            return;
        model::ClusterChangeBatch batch;
        batch.events = events;
        batch.resourceVersion = rv;
        std::vector<const Latest*> nodeObjects, podObjects;
        for (const auto& [key, l] : nodes) {
            if (l.deleted)
                batch.deletedNodes.push_back(l.name);
            else
                nodeObjects.push_back(&l);
        }
        for (const auto& [key, l] : pods) {
            if (l.deleted)
                batch.deletedPods.emplace_back(l.namespaceName, l.name);
            else
                podObjects.push_back(&l);
        }
        std::string error;
        decode(nodeObjects, podObjects, batch.upserted, error);
        if (!error.empty()) {
            std::lock_guard lock(m_mutex);
            m_status.lastError = error;
            m_statusDirty = true;
        }
        if (!batch.empty())
            m_sink->batchReady(std::move(batch));
    }

    kube::ResolvedKubeconfig m_config;
    KubeWatchOptions m_options;
    std::unique_ptr<kube::KubeApiClient> m_listClient;
    LiveFeedSink* m_sink = nullptr;
    Watch m_nodes { "/api/v1/nodes", "Node", {}, {}, {} };
    Watch m_pods { "/api/v1/pods", "Pod", {}, {}, {} };
    std::thread m_feedThread;

    std::mutex m_mutex; // guards everything below, and Watch::rv
    std::condition_variable m_cv;
    bool m_stopping = false, m_stopped = false, m_failed = false, m_relistPending = false, m_initialList = false, m_statusDirty = true;
    std::atomic<bool> m_stopFlag { false };
    std::unordered_map<std::string, Latest> m_latestNodes, m_latestPods;
    std::size_t m_eventsGathered = 0;
    LiveFeedStatus m_status;
    Clock::time_point m_lastEvent;
    std::deque<std::pair<Clock::time_point, std::uint64_t>> m_rate;
};

} // namespace

std::unique_ptr<LiveFeed> makeKubeWatchFeed(const kube::ResolvedKubeconfig& config, std::string nodesResourceVersion,
                                            std::string podsResourceVersion, KubeWatchOptions options)
{
    return std::make_unique<KubeWatchFeed>(config, std::move(nodesResourceVersion), std::move(podsResourceVersion), std::move(options));
}

} // namespace fleet::importers::live
