// SPDX-License-Identifier: Apache-2.0
#include "searchindex.h"

#include <algorithm>
#include <string>
#include <thread>
#include <unordered_map>

namespace fleet::model {

namespace {

// -1, 0 or 1: how the first prefix.size() characters of `a + "/" + b` compare with `prefix`
// (0: the key starts with prefix).
int compareConcatPrefix(std::string_view a, std::string_view b, std::string_view prefix) noexcept
{
    const std::size_t na = std::min(a.size(), prefix.size());
    if (int c = a.substr(0, na).compare(prefix.substr(0, na)); c != 0)
        return c < 0 ? -1 : 1;
    if (prefix.size() <= a.size())
        return a.size() >= prefix.size() ? 0 : -1;
    if (prefix[a.size()] != '/')
        return '/' < prefix[a.size()] ? -1 : 1;
    const std::string_view rest = prefix.substr(a.size() + 1);
    const std::size_t nb = std::min(b.size(), rest.size());
    if (int c = b.substr(0, nb).compare(rest.substr(0, nb)); c != 0)
        return c < 0 ? -1 : 1;
    return b.size() >= rest.size() ? 0 : -1;
}

// The name after the 16 bytes the sort keys hold (empty for a shorter name).
std::string_view tail16(std::string_view name) noexcept
{
    return name.substr(std::min<std::size_t>(16, name.size()));
}

int comparePrefix(std::string_view key, std::string_view prefix) noexcept
{
    const std::size_t n = std::min(key.size(), prefix.size());
    if (int c = key.substr(0, n).compare(prefix.substr(0, n)); c != 0)
        return c < 0 ? -1 : 1;
    return key.size() >= prefix.size() ? 0 : -1;
}

} // namespace

std::shared_ptr<const SearchIndex> SearchIndex::build(std::shared_ptr<const ClusterStore> store)
{
    if (!store)
        return std::make_shared<SearchIndex>();
    const ClusterStore& st = *store;
    return build(st, std::move(store));
}

std::shared_ptr<const SearchIndex> SearchIndex::build(const ClusterStore& st, std::shared_ptr<const ClusterStore> shown)
{
    auto index = std::make_shared<SearchIndex>();
    index->m_store = std::move(shown);
    if (!index->m_store)
        return index;
    index->m_nodes.resize(st.nodeCount());
    for (std::size_t i = 0; i < st.nodeCount(); ++i)
        index->m_nodes[i] = NodeId(static_cast<std::uint32_t>(i));
    std::sort(index->m_nodes.begin(), index->m_nodes.end(),
        [&](NodeId a, NodeId b) { return st.nodeName(a) < st.nodeName(b); });

    // Namespaces in "namespace/" order, a rank each. Interned strings share their bytes, so
    // the view's data pointer identifies a namespace without hashing its text.
    std::unordered_map<const char*, std::uint32_t> rankOf;
    std::vector<std::string_view> namespaces;
    for (std::size_t i = 0; i < st.podCount(); ++i) {
        const std::string_view ns = st.podNamespace(PodId(static_cast<std::uint32_t>(i)));
        if (rankOf.emplace(ns.data(), 0).second)
            namespaces.push_back(ns);
    }
    std::sort(namespaces.begin(), namespaces.end(),
        [](std::string_view a, std::string_view b) { return std::string(a) + '/' < std::string(b) + '/'; });
    for (std::size_t r = 0; r < namespaces.size(); ++r)
        rankOf[namespaces[r].data()] = static_cast<std::uint32_t>(r);

    // Sort keys: (namespace rank, the name's first 16 bytes big-endian); the rest of the name
    // only breaks ties. Zero padding sorts a shorter name first, as string comparison does.
    struct SortKey {
        std::uint32_t rank;
        std::uint32_t pod;
        std::uint64_t prefix; // bytes 0..7 of the name
        std::uint64_t prefix2; // bytes 8..15
    };
    auto bytes8 = [](std::string_view name, std::size_t from) {
        std::uint64_t v = 0;
        for (std::size_t i = from; i < from + 8; ++i)
            v = (v << 8) | (i < name.size() ? static_cast<unsigned char>(name[i]) : 0u);
        return v;
    };
    std::vector<SortKey> keys(st.podCount());
    for (std::size_t i = 0; i < st.podCount(); ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        const std::string_view name = st.podName(p);
        keys[i] = { rankOf[st.podNamespace(p).data()], static_cast<std::uint32_t>(i), bytes8(name, 0), bytes8(name, 8) };
    }
    std::vector<SortKey> byName = keys;
    auto byKey = [&st](const SortKey& a, const SortKey& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.prefix != b.prefix)
            return a.prefix < b.prefix;
        if (a.prefix2 != b.prefix2)
            return a.prefix2 < b.prefix2;
        return tail16(st.podName(PodId(a.pod))) < tail16(st.podName(PodId(b.pod)));
    };
    auto byNameKey = [&st](const SortKey& a, const SortKey& b) {
        if (a.prefix != b.prefix)
            return a.prefix < b.prefix;
        if (a.prefix2 != b.prefix2)
            return a.prefix2 < b.prefix2;
        const int c = tail16(st.podName(PodId(a.pod))).compare(tail16(st.podName(PodId(b.pod))));
        return c != 0 ? c < 0 : a.rank < b.rank; // same name: namespace order
    };
    // The two sorts are independent: one on a second thread (2 cores is the design machine).
    std::thread second([&byName, &byNameKey] { std::sort(byName.begin(), byName.end(), byNameKey); });
    std::sort(keys.begin(), keys.end(), byKey);
    second.join();
    index->m_pods.resize(keys.size());
    index->m_podsByName.resize(byName.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        index->m_pods[i] = PodId(keys[i].pod);
        index->m_podsByName[i] = PodId(byName[i].pod);
    }
    return index;
}

int SearchIndex::comparePodKey(PodId p, std::string_view prefix) const noexcept
{
    return compareConcatPrefix(m_store->podNamespace(p), m_store->podName(p), prefix);
}

SearchIndex::Match SearchIndex::nodeMatch(NodeId n) const
{
    return { std::string(m_store->nodeName(n)), n, {} };
}

SearchIndex::Match SearchIndex::podMatch(PodId p) const
{
    std::string text(m_store->podNamespace(p));
    text += '/';
    text += m_store->podName(p);
    return { std::move(text), m_store->podNode(p), p };
}

std::vector<SearchIndex::Match> SearchIndex::complete(std::string_view prefix, std::size_t limit) const
{
    std::vector<Match> out;
    if (!m_store || prefix.empty())
        return out;
    const ClusterStore& st = *m_store;
    auto n = std::lower_bound(m_nodes.begin(), m_nodes.end(), prefix,
        [&](NodeId id, std::string_view pre) { return comparePrefix(st.nodeName(id), pre) < 0; });
    for (; n != m_nodes.end() && out.size() < limit && comparePrefix(st.nodeName(*n), prefix) == 0; ++n)
        out.push_back(nodeMatch(*n));
    auto p = std::lower_bound(
        m_pods.begin(), m_pods.end(), prefix, [&](PodId id, std::string_view pre) { return comparePodKey(id, pre) < 0; });
    const std::size_t podsStart = out.size();
    for (; p != m_pods.end() && out.size() < limit && comparePodKey(*p, prefix) == 0; ++p)
        out.push_back(podMatch(*p));
    auto q = std::lower_bound(m_podsByName.begin(), m_podsByName.end(), prefix,
        [&](PodId id, std::string_view pre) { return comparePrefix(st.podName(id), pre) < 0; });
    for (; q != m_podsByName.end() && out.size() < limit && comparePrefix(st.podName(*q), prefix) == 0; ++q) {
        const bool duplicate = std::any_of(
            out.begin() + static_cast<std::ptrdiff_t>(podsStart), out.end(), [&](const Match& m) { return m.pod == *q; });
        if (!duplicate)
            out.push_back(podMatch(*q));
    }
    return out;
}

SearchIndex::Match SearchIndex::find(std::string_view text) const
{
    if (!m_store || text.empty())
        return {};
    const ClusterStore& st = *m_store;
    if (const NodeId n = st.findNode(text); n.isValid())
        return nodeMatch(n);
    auto p = std::lower_bound(
        m_pods.begin(), m_pods.end(), text, [&](PodId id, std::string_view pre) { return comparePodKey(id, pre) < 0; });
    if (p != m_pods.end() && comparePodKey(*p, text) == 0
        && st.podNamespace(*p).size() + 1 + st.podName(*p).size() == text.size())
        return podMatch(*p);
    auto q = std::lower_bound(m_podsByName.begin(), m_podsByName.end(), text,
        [&](PodId id, std::string_view pre) { return comparePrefix(st.podName(id), pre) < 0; });
    if (q != m_podsByName.end() && st.podName(*q) == text)
        return podMatch(*q);
    const auto first = complete(text, 1);
    return first.empty() ? Match {} : first.front();
}

std::vector<SearchIndex::Match> SearchIndex::containing(std::string_view text, std::size_t limit, const std::atomic<bool>* cancelled) const
{
    std::vector<Match> out;
    if (!m_store || text.empty() || limit == 0)
        return out;
    const ClusterStore& st = *m_store;
    auto stop = [&](std::size_t i) { return cancelled && (i & 4095) == 0 && cancelled->load(std::memory_order_relaxed); };
    for (std::size_t i = 0; i < m_nodes.size() && out.size() < limit; ++i) {
        if (stop(i))
            return out;
        const std::string_view name = st.nodeName(m_nodes[i]);
        const std::size_t at = name.find(text);
        if (at != std::string_view::npos && at != 0)
            out.push_back(nodeMatch(m_nodes[i]));
    }
    // A pod's key is "namespace/name": the text lies in the name, in the namespace, or across
    // the '/' (only then is the key built).
    const bool slash = text.find('/') != std::string_view::npos;
    std::string key;
    for (std::size_t i = 0; i < m_pods.size() && out.size() < limit; ++i) {
        if (stop(i))
            return out;
        const PodId p = m_pods[i];
        const std::string_view ns = st.podNamespace(p);
        const std::string_view name = st.podName(p);
        std::size_t at = std::string_view::npos;
        if (!slash) {
            at = ns.find(text);
            if (at == std::string_view::npos && (at = name.find(text)) != std::string_view::npos)
                at += ns.size() + 1;
        } else {
            key.assign(ns);
            key += '/';
            key += name;
            at = key.find(text);
        }
        // Starting the key or the name alone: complete() offers it already.
        if (at != std::string_view::npos && at != 0 && !(at == ns.size() + 1 && name.substr(0, text.size()) == text))
            out.push_back(podMatch(p));
    }
    return out;
}

} // namespace fleet::model
