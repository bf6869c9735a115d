// SPDX-License-Identifier: Apache-2.0
#include "domainpath.h"

#include <algorithm>

namespace fleet::model {

namespace {

} // namespace

std::string levelUserKey(const Topology& topology, int level)
{
    const std::string& key = topology.levelKeys()[static_cast<std::size_t>(level - 1)];
    if (key == TopologySpec::kGpuModelKey)
        return "gpu-model";
    if (key == TopologySpec::kInstanceTypeKey)
        return "instance-type";
    return key;
}

namespace {

std::string userKey(const Topology& topology, int level)
{
    return levelUserKey(topology, level);
}

bool isAncestorOrSelf(const Topology& topology, DomainId ancestor, DomainId d)
{
    for (; d.isValid(); d = topology.domainParent(d))
        if (d == ancestor)
            return true;
    return false;
}

std::string joinKeys(const Topology& topology)
{
    std::string out;
    for (int level = 1; level <= static_cast<int>(topology.levelKeys().size()); ++level) {
        if (!out.empty())
            out += ", ";
        out += userKey(topology, level);
    }
    return out;
}

} // namespace

std::vector<DomainPathStep> parseDomainPath(std::string_view text)
{
    std::vector<DomainPathStep> steps;
    std::size_t pos = 0;
    if (text.empty())
        throw std::invalid_argument("empty domain path: expected KEY=VALUE[/KEY=VALUE...]");
    while (pos < text.size()) {
        const std::size_t eq = text.find('=', pos);
        if (eq == std::string_view::npos || eq == pos)
            throw std::invalid_argument("expected KEY=VALUE at offset " + std::to_string(pos) + " of \"" + std::string(text) + "\"");
        const std::size_t slash = text.find('/', eq + 1);
        const std::size_t end = slash == std::string_view::npos ? text.size() : slash;
        if (end == eq + 1)
            throw std::invalid_argument(
                "expected a value after '=' at offset " + std::to_string(eq) + " of \"" + std::string(text) + "\"");
        steps.emplace_back(std::string(text.substr(pos, eq - pos)), std::string(text.substr(eq + 1, end - eq - 1)));
        if (slash == std::string_view::npos)
            break;
        pos = slash + 1;
        if (pos == text.size())
            throw std::invalid_argument("expected KEY=VALUE after the '/' at offset " + std::to_string(slash) + " of \""
                + std::string(text) + "\"");
    }
    return steps;
}

DomainId findDomainByPath(const Topology& topology, const std::vector<DomainPathStep>& steps)
{
    DomainId current = topology.root();
    int currentLevel = 0;
    const int depth = static_cast<int>(topology.levelKeys().size());
    for (const auto& [key, value] : steps) {
        int level = 0;
        for (int l = 1; l <= depth; ++l)
            if (userKey(topology, l) == key)
                level = l;
        if (level == 0)
            throw std::invalid_argument("no topology level \"" + key + "\"; the levels are: " + joinKeys(topology));
        if (level <= currentLevel)
            throw std::invalid_argument("\"" + key + "\" is not below the step before it in the path");
        std::vector<DomainId> matches;
        std::vector<std::string> seen;
        for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
            const DomainId d(i);
            if (topology.domainLevel(d) != level || !isAncestorOrSelf(topology, current, d))
                continue;
            if (topology.domainName(d) == value)
                matches.push_back(d);
            else if (seen.size() < 10 && std::find(seen.begin(), seen.end(), topology.domainName(d)) == seen.end())
                seen.push_back(topology.domainName(d));
        }
        if (matches.empty()) {
            std::string known;
            for (const std::string& s : seen)
                known += (known.empty() ? "" : ", ") + s;
            throw std::invalid_argument(
                "no domain " + key + "=" + value + (known.empty() ? std::string() : "; there are: " + known + (seen.size() == 10 ? ", ..." : "")));
        }
        if (matches.size() > 1) {
            std::string which;
            for (std::size_t i = 0; i < matches.size() && i < 5; ++i)
                which += (which.empty() ? "" : ", ") + domainPathText(topology, matches[i]);
            throw std::invalid_argument(key + "=" + value + " names " + std::to_string(matches.size())
                + " domains (" + which + "); give the levels above it too");
        }
        current = matches.front();
        currentLevel = level;
    }
    return current;
}

std::string domainPathText(const Topology& topology, DomainId d)
{
    std::vector<DomainId> chain;
    for (; d.isValid() && d != topology.root(); d = topology.domainParent(d))
        chain.push_back(d);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (!out.empty())
            out += '/';
        out += userKey(topology, topology.domainLevel(*it)) + "=" + topology.domainName(*it);
    }
    return out;
}

} // namespace fleet::model
