// SPDX-License-Identifier: Apache-2.0
#include "importers/live/kubewatchfeed.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubejson.h"
#include "importers/live/watchstream.h"
#include "importers/quotedtext.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <unordered_set>

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
        m_namespaces.client = std::make_unique<kube::KubeApiClient>(config);
        m_listClient->setObserver(&m_slowListNote);
        for (kube::KubeApiClient* c : { m_nodes.client.get(), m_pods.client.get(), m_namespaces.client.get() })
            c->setObserver(&m_slowRequestNote);
        m_namespaces.enabled = false; // a partial view's only
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
        m_namespaces.thread = std::thread([this] { watchLoop(m_namespaces); });
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
        m_stopFlag = true;
        m_cv.notify_all();
        m_nodes.client->interrupt();
        m_pods.client->interrupt();
        m_namespaces.client->interrupt();
        // The feed thread first: it is the one that adds namespace watches.
        if (m_feedThread.joinable())
            m_feedThread.join();
        for (const auto& w : m_namespaceWatches)
            w->client->interrupt();
        for (std::thread* t : {&m_nodes.thread, &m_pods.thread, &m_namespaces.thread})
            if (t->joinable())
                t->join();
        for (const auto& w : m_namespaceWatches)
            if (w->thread.joinable())
                w->thread.join();
    }

private:
    enum class Collection { Nodes, Pods, Namespaces };
    struct Watch {
        std::string path;
        const char* kind;
        Collection collection = Collection::Pods;
        std::unique_ptr<kube::KubeApiClient> client;
        std::thread thread;
        std::string rv;       // guarded by m_mutex
        bool enabled = true;  // guarded by m_mutex: false while a partial view (or a whole one) makes it idle
        // A partial view's watch of one namespace's pods: the namespace, and the names of its pods
        // the window holds (guarded by m_mutex), deleted when the namespace leaves the view.
        std::string namespaceName;
        std::unordered_set<std::string> podNames;
    };
    // What a partial view's namespace did, in the order seen (the feed thread acts on it).
    enum class NamespaceChange { Added, Deleted, Refused };

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
                m_cv.wait(lock, [&] { return m_stopping || m_failed || (!m_relistPending && w.enabled && !w.rv.empty()); });
                if (m_stopping || m_failed)
                    return;
            }
            w.client->clearInterrupt();
            {
                std::lock_guard lock(m_mutex);
                if (m_stopping || m_failed || m_relistPending || !w.enabled)
                    continue; // an interrupt came before clearInterrupt(): decide again
                rv = w.rv;
            }
            const std::string target = w.path + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + rv
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
                else if (r.status == 403 && &w == &m_pods && refusePodsWatch(kube::statusMessage(r.body)))
                    requestRelist(); // some namespaces only, perhaps: the relist lists them one by one
                else if (r.status == 403 && (&w == &m_namespaces || !w.namespaceName.empty()))
                    refuseViewWatch(w, kube::statusMessage(r.body)); // the view narrows; the feed goes on
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
            streamError = m_status.server + ": " + w.path + ": a " + e.kind + " in the " + std::string(w.kind) + " watch";
            return;
        }
        std::lock_guard lock(m_mutex);
        if (!w.enabled)
            return; // its namespace left the view meanwhile
        if (!e.resourceVersion.empty())
            w.rv = e.resourceVersion;
        if (w.collection == Collection::Pods)
            m_status.resourceVersion = w.rv;
        if (e.type == WatchEvent::Type::Bookmark)
            return;
        if (w.collection == Collection::Namespaces) {
            m_namespaceChanges.emplace_back(std::move(e.name), e.type == WatchEvent::Type::Deleted ? NamespaceChange::Deleted : NamespaceChange::Added);
            ++m_status.events;
            m_lastEvent = Clock::now();
            return;
        }
        if (!w.namespaceName.empty()) {
            if (e.type == WatchEvent::Type::Deleted)
                w.podNames.erase(e.name);
            else
                w.podNames.insert(e.name);
        }
        const bool nodes = w.collection == Collection::Nodes;
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
        if (!m_status.slowRequest.empty()) { // something moved: the slow request is over
            m_status.slowRequest.clear();
            m_statusDirty = true;
        }
        if (m_status.state != s && m_status.state != LiveFeedStatus::State::Failed) {
            m_status.state = s;
            m_statusDirty = true;
        }
    }

    // Says in the status what a slow request of one of the feed's clients waits for (on that
    // client's thread); a later state change or retry clears it. The list client's runs on the
    // feed thread, which cannot publish while it waits: its note publishes at once.
    class SlowRequestNote final : public kube::RequestObserver {
    public:
        SlowRequestNote(KubeWatchFeed& feed, bool onFeedThread)
            : m_feed(feed)
            , m_onFeedThread(onFeedThread)
        {
        }
        void requestWaiting(const kube::RequestWait& wait) override
        {
            {
                std::lock_guard lock(m_feed.m_mutex);
                m_feed.m_status.slowRequest = wait.describe();
                m_feed.m_statusDirty = true;
            }
            if (m_onFeedThread)
                m_feed.publishStatus(Clock::now());
        }

    private:
        KubeWatchFeed& m_feed;
        bool m_onFeedThread;
    };

    void noteRetry(const std::string& why)
    {
        {
            std::lock_guard lock(m_mutex);
            ++m_status.retries;
            m_status.lastError = why;
            m_status.slowRequest.clear();
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

    // The cluster-wide pods watch was refused (403) with `message`: true the first time, so
    // that a relist may find a partial view; false when a relist already came back whole.
    bool refusePodsWatch(const std::string& message)
    {
        std::lock_guard lock(m_mutex);
        if (m_podsWatchRefused)
            return false;
        m_podsWatchRefused = true;
        m_podsWatchRefusal = message;
        return true;
    }

    // A partial view's watch refused (403): of namespaces, so namespaces created later are not
    // seen (said in the partial view); of one namespace's pods, so that namespace leaves the view.
    void refuseViewWatch(Watch& w, const std::string& message)
    {
        {
            std::lock_guard lock(m_mutex);
            w.enabled = false;
            if (&w == &m_namespaces)
                m_namespacesUnwatched = message;
            else
                m_namespaceChanges.emplace_back(w.namespaceName, NamespaceChange::Refused);
            m_status.lastError = m_status.server + ": " + w.path + ": 403: " + message;
            m_status.partialView = partialViewText();
            m_statusDirty = true;
        }
        m_cv.notify_all();
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
        m_namespaces.client->interrupt();
        for (const auto& w : m_namespaceWatches)
            w->client->interrupt();
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
                // A partial view: one watch per namespace listed, made here (the feed thread is
                // the only one that adds them) before the lock, since a client may throw.
                for (const auto& listed : r.podNamespaces)
                    addNamespaceWatch(listed.first);
                std::unordered_map<std::string, std::unordered_set<std::string>> podNames; // a partial view's, by namespace
                if (!r.podNamespaces.empty())
                    for (std::uint32_t i = 0; i < batch.upserted.podCount(); ++i)
                        podNames[std::string(batch.upserted.podNamespace(model::PodId(i)))].emplace(batch.upserted.podName(model::PodId(i)));
                bool whole = false;
                std::string refusedWatch; // a whole list whose watch was refused: why
                {
                    std::lock_guard lock(m_mutex);
                    whole = r.podNamespaces.empty();
                    if (whole && m_podsWatchRefused)
                        refusedWatch = m_podsWatchRefusal;
                    m_nodes.rv = r.nodesResourceVersion;
                    m_pods.rv = r.resourceVersion;
                    m_pods.enabled = whole;
                    for (const auto& w : m_namespaceWatches)
                        w->enabled = false;
                    for (const auto& [ns, nsRv] : r.podNamespaces) {
                        Watch* w = namespaceWatch(ns);
                        w->rv = nsRv;
                        w->enabled = true;
                        w->podNames = std::move(podNames[ns]);
                    }
                    m_namespaces.rv = r.namespacesResourceVersion;
                    m_namespaces.enabled = !whole;
                    m_namespaceChanges.clear();
                    m_namespacesUnwatched.clear();
                    m_viewListed.clear();
                    for (const auto& listed : r.podNamespaces)
                        m_viewListed.push_back(listed.first);
                    m_viewRefused = r.podNamespacesRefused;
                    m_status.partialView = whole ? std::string() : partialViewText();
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
                startNamespaceWatches();
                m_cv.notify_all();
                m_sink->batchReady(std::move(batch));
                if (!refusedWatch.empty())
                    fail(m_status.server + ": /api/v1/pods: 403: " + refusedWatch
                         + " (the pods can be listed cluster-wide but not watched: the kubeconfig user needs the watch verb on pods)");
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

    Watch* namespaceWatch(const std::string& ns) const
    {
        for (const auto& w : m_namespaceWatches)
            if (w->namespaceName == ns)
                return w.get();
        return nullptr;
    }

    // The watch of namespace `ns`'s pods, made idle when new (feed thread only; outside the lock,
    // since a client may throw).
    Watch& addNamespaceWatch(const std::string& ns)
    {
        if (Watch* w = namespaceWatch(ns))
            return *w;
        auto w = std::make_unique<Watch>();
        w->path = "/api/v1/namespaces/" + ns + "/pods";
        w->kind = "Pod";
        w->namespaceName = ns;
        w->client = std::make_unique<kube::KubeApiClient>(m_config);
        w->client->setObserver(&m_slowRequestNote);
        w->enabled = false;
        m_namespaceWatches.push_back(std::move(w));
        return *m_namespaceWatches.back();
    }

    void startNamespaceWatches()
    {
        for (const auto& w : m_namespaceWatches)
            if (!w->thread.joinable())
                w->thread = std::thread([this, watch = w.get()] { watchLoop(*watch); });
    }

    // "pods of 3 of 5 namespaces (not listed: cache, tmp), each watched on its own". Under m_mutex.
    std::string partialViewText() const
    {
        std::string text = partialViewWords(m_viewListed.size(), m_viewRefused);
        text += ", each watched on its own";
        if (!m_namespacesUnwatched.empty())
            text += "; namespaces created later are not seen (their watch was refused: " + m_namespacesUnwatched + ")";
        return text;
    }

    // ---- a partial view's namespaces created or deleted after the list ----------------

    // Acts on the namespace changes seen since the last flush, in order: a namespace created
    // (not in the view yet) gets its pods listed, handed over as one batch, and watched from
    // that list's resourceVersion; one deleted, or whose pods' watch was refused, leaves the
    // view: its watch stops and a batch deletes the pods the window holds of it. Feed thread.
    void followNamespaces()
    {
        std::vector<std::pair<std::string, NamespaceChange>> changes;
        {
            std::lock_guard lock(m_mutex);
            changes.swap(m_namespaceChanges);
        }
        for (const auto& [ns, change] : changes) {
            if (stopping())
                return;
            if (change == NamespaceChange::Added)
                enterView(ns);
            else
                leaveView(ns, change == NamespaceChange::Refused);
        }
    }

    bool inView(const std::string& ns) const // under m_mutex
    {
        return std::find(m_viewListed.begin(), m_viewListed.end(), ns) != m_viewListed.end()
            || std::find(m_viewRefused.begin(), m_viewRefused.end(), ns) != m_viewRefused.end();
    }

    void enterView(const std::string& ns)
    {
        {
            std::lock_guard lock(m_mutex);
            if (inView(ns))
                return; // listed with the view, or a MODIFIED namespace
        }
        model::ClusterChangeBatch batch;
        ImportReport report;
        StopProgress progress(m_stopFlag);
        std::optional<std::string> rv;
        std::string error;
        try {
            rv = kube::listNamespacePods(*m_listClient, ns, batch.upserted, report, &progress, m_options.list);
        } catch (const ImportCancelled&) {
            return;
        } catch (const std::exception& e) { // KubeApiError or ImportError: left out of the view, said
            error = e.what();
        }
        Watch* w = rv ? &addNamespaceWatch(ns) : nullptr;
        std::unordered_set<std::string> names;
        for (std::uint32_t i = 0; i < batch.upserted.podCount(); ++i)
            names.emplace(batch.upserted.podName(model::PodId(i)));
        {
            std::lock_guard lock(m_mutex);
            if (w) {
                m_viewListed.push_back(ns);
                w->rv = *rv;
                w->enabled = true;
                w->podNames = std::move(names);
            } else
                m_viewRefused.push_back(ns);
            if (!error.empty())
                m_status.lastError = m_status.server + ": the pods of namespace " + ns + ", created after the list: " + error;
            m_status.partialView = partialViewText();
            m_statusDirty = true;
            batch.resourceVersion = m_status.resourceVersion;
        }
        if (!w)
            return;
        startNamespaceWatches();
        m_cv.notify_all();
        batch.events = 1;
        m_sink->batchReady(std::move(batch));
    }

    void leaveView(const std::string& ns, bool refused)
    {
        model::ClusterChangeBatch batch;
        Watch* w = namespaceWatch(ns);
        {
            std::lock_guard lock(m_mutex);
            const bool listed = std::erase(m_viewListed, ns) > 0;
            std::erase(m_viewRefused, ns);
            if (refused)
                m_viewRefused.push_back(ns);
            m_status.partialView = partialViewText();
            m_statusDirty = true;
            if (!listed || !w)
                return;
            w->enabled = false;
            for (const std::string& name : w->podNames)
                batch.deletedPods.emplace_back(ns, name);
            w->podNames.clear();
            std::erase_if(m_latestPods, [&](const auto& kv) { return kv.second.namespaceName == ns; });
            batch.resourceVersion = m_status.resourceVersion;
        }
        w->client->interrupt();
        batch.events = 1;
        if (!batch.empty())
            m_sink->batchReady(std::move(batch));
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
                    error = "left out " + quotedText(l.namespaceName.empty() ? l.name : l.namespaceName + "/" + l.name) + ": " + e.what();
                }
            }
        }
        store = std::move(fresh);
    }

    void flush()
    {
        followNamespaces();
        std::unordered_map<std::string, Latest> nodes, pods;
        std::size_t events = 0;
        std::string rv;
        {
            std::lock_guard lock(m_mutex);
            nodes.swap(m_latestNodes);
            pods.swap(m_latestPods);
            events = m_eventsGathered;
            m_eventsGathered = 0;
            rv = m_status.resourceVersion; // the last pods' resourceVersion seen, from any pods watch
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
    Watch m_nodes { "/api/v1/nodes", "Node", Collection::Nodes, {}, {}, {}, true, {}, {} };
    Watch m_pods { "/api/v1/pods", "Pod", Collection::Pods, {}, {}, {}, true, {}, {} };
    Watch m_namespaces { "/api/v1/namespaces", "Namespace", Collection::Namespaces, {}, {}, {}, false, {}, {} }; // a partial view's
    std::vector<std::unique_ptr<Watch>> m_namespaceWatches; // a partial view's, one per namespace; added by the feed thread only
    std::thread m_feedThread;

    std::mutex m_mutex; // guards everything below, and Watch::rv
    std::condition_variable m_cv;
    bool m_stopping = false, m_stopped = false, m_failed = false, m_relistPending = false, m_initialList = false, m_statusDirty = true;
    bool m_podsWatchRefused = false; // the cluster-wide pods watch answered 403 once
    std::string m_podsWatchRefusal;
    // A partial view: the namespaces whose pods are listed and watched, those refused, what the
    // namespaces watch saw since the last flush, and why that watch was refused (when it was).
    std::vector<std::string> m_viewListed, m_viewRefused;
    std::vector<std::pair<std::string, NamespaceChange>> m_namespaceChanges;
    std::string m_namespacesUnwatched;
    std::atomic<bool> m_stopFlag { false };
    SlowRequestNote m_slowRequestNote { *this, false };
    SlowRequestNote m_slowListNote { *this, true };
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
