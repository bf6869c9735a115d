// SPDX-License-Identifier: Apache-2.0
#include "placementformat.h"

#include "importers/export/reasonsjson.h"
#include "importers/plan/jsontext.h"
#include "importers/terminaltext.h"
#include "model/domainpath.h"
#include "model/figures.h"

namespace fleet::importers {

std::map<std::string, DomainPlacement> placementsPerDomain(const model::Topology& topology, const model::AppliedAction& r)
{
    std::map<std::string, DomainPlacement> out;
    for (const auto& c : r.changes) {
        const std::string path = c.to.index() < topology.orderedNodes().size() ? model::domainPathText(topology, topology.nodeDomain(c.to)) : "(added nodes)";
        DomainPlacement& d = out[path];
        ++d.pods;
        d.nodes.insert(c.to.value);
    }
    return out;
}

std::string placementJson(int pods, const model::Topology& topology, const model::AppliedAction& r)
{
    JsonWriter w;
    w.beginObject();
    w.key("pods").value(std::int64_t { pods });
    w.key("placed").value(static_cast<std::int64_t>(r.podsAdded.size()));
    w.key("holds").value(r.holds);
    w.key("level").value(r.topologyLevel);
    w.key("domains").beginArray();
    for (const std::string& d : r.topologyDomains)
        w.value(d);
    w.endArray();
    w.key("placements").beginArray();
    for (const auto& [path, c] : placementsPerDomain(topology, r))
        w.beginObject().key("domain").value(path).key("pods").value(c.pods).key("nodes").value(static_cast<std::int64_t>(c.nodes.size())).endObject();
    w.endArray();
    w.key("reasons");
    writeReasonsJson(w, r.reasons);
    w.endObject();
    return w.text() + "\n";
}

std::string placementText(int pods, const model::PlanAction& action, const model::Topology& topology, const model::AppliedAction& r,
                          const std::string& planPath)
{
    const std::string who = action.pod.namespaceName + "/" + action.pod.name;
    std::string out;
    if (!r.podsAdded.empty()) {
        // Every line names input (the template pod, label keys and values, reasons): one
        // terminal line each.
        // Counts with thousands separators (model/figures.h), as every text output writes them.
        auto n = [](auto v) { return model::formatCount(static_cast<std::int64_t>(v)); };
        out += terminalLineOf("placed ", n(r.podsAdded.size()), " of ", n(pods), " pods like ", who, " at level ", r.topologyLevel, " in ",
                   (r.topologyDomains.size() == 1 ? r.topologyDomains.front() : n(r.topologyDomains.size()) + " domains"))
            + "\n";
        for (const auto& [path, c] : placementsPerDomain(topology, r))
            out += "  " + terminalLineOf(path, ": ", n(c.pods), " pods on ", n(c.nodes.size()), " nodes") + "\n";
        for (const model::Reason& x : r.reasons)
            out += "  " + terminalLineOf(x.code(), ": ", x.message) + "\n";
        out += terminalLineOf("plan written to ", planPath) + "\n";
    } else {
        out += terminalLineOf("the ", model::formatCount(pods), " pods like ", who, " do not fit", (action.gang ? " (a gang: all or nothing; nothing placed)" : ""), ":")
            + "\n";
        for (const model::Reason& x : r.reasons)
            out += "  " + terminalLineOf(x.code(), ": ", x.message) + "\n";
    }
    return out;
}

} // namespace fleet::importers
