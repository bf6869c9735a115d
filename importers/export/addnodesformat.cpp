// SPDX-License-Identifier: Apache-2.0
#include "addnodesformat.h"


#include "importers/export/reasonsjson.h"
#include "importers/export/statediffformat.h"
#include "importers/plan/jsontext.h"
#include "importers/terminaltext.h"
#include "model/figures.h"
#include "model/plan/evictionrules.h"

#include <cstdint>
#include <map>

namespace fleet::importers {

std::string addNodesJson(const AddNodesOutcome& o)
{
    const model::ClusterStore& store = o.store;
    JsonWriter w;
    w.beginObject();
    w.key("instanceType").value(o.action.instanceType);
    w.key("templateNode").value(o.templateNode);
    if (o.fitPending) {
        w.key("templates").beginArray();
        for (const model::TemplateCopies& c : o.copies)
            w.beginObject()
                .key("node")
                .value(store.nodeName(c.templateNode))
                .key("nodeGroup")
                .value(model::nodeGroupOf(store, c.templateNode))
                .key("nodes")
                .value(std::int64_t { c.nodes })
                .endObject();
        w.endArray();
    }
    w.key("nodes").value(std::int64_t { o.action.count });
    w.key("costPerHour").value(o.costPerHourAdded);
    if (o.fitPending) {
        w.key("pods").value(std::int64_t { o.answer.pods });
        w.key("placed").value(std::int64_t { o.answer.podsPlaced });
        w.key("limitReached").value(o.answer.limitReached);
        w.key("unplaced").beginArray();
        for (const auto& [pod, reasons] : o.answer.unplaced) {
            w.beginObject().key("pod").value(model::podKey(store, pod)).key("reasons");
            writeReasonsJson(w, reasons);
            w.endObject();
        }
        w.endArray();
    }
    w.endObject();
    return w.text() + "\n";
}

std::string addNodesText(const AddNodesOutcome& o, const std::string& planPath)
{
    const model::ClusterStore& store = o.store;
    const model::PlanAction& action = o.action;
    const model::NodesNeededAnswer& answer = o.answer;
    // Every line names input (instance types, nodes, pods, reasons): one terminal line each.
    std::string out = terminalLineOf("a ", action.instanceType, " node added copies ", o.templateNode) + "\n";
    if (o.copies.size() > 1) // the pending pods of several node groups: a copy of a node of each
        for (const model::TemplateCopies& c : o.copies)
            out += "  " + terminalLineOf(model::formatCount(c.nodes), " ", action.instanceType, " node(s) copy ", store.nodeName(c.templateNode)) + "\n";
    if (o.fitPending)
        out += terminalLineOf("the ", model::formatCount(answer.pods), " pending pods take ", model::formatCount(answer.nodes), " ",
                   action.instanceType, " node(s): ", model::formatCount(answer.podsPlaced), " placed", (answer.limitReached ? " (the search stopped at --max-nodes)" : ""))
            + "\n";
    // Pods of one workload refused for the same reason codes are one entry: the first pod with
    // its reasons, then how many more (a 201-pod job is one entry, not 201; --format json lists
    // every pod).
    struct Group {
        std::size_t first = 0; // index in answer.unplaced
        std::int64_t more = 0;
    };
    std::vector<Group> groups;
    std::map<std::string, std::size_t> groupOf;
    for (std::size_t i = 0; i < answer.unplaced.size(); ++i) {
        const auto& [pod, reasons] = answer.unplaced[i];
        const model::WorkloadId w = store.podWorkload(pod);
        std::string key = w.isValid() ? "w" + std::to_string(w.value) : "p" + std::to_string(pod.value);
        for (const model::Reason& r : reasons)
            key += "|" + r.code();
        const auto [it, added] = groupOf.try_emplace(std::move(key), groups.size());
        if (added)
            groups.push_back({ i, 0 });
        else
            ++groups[it->second].more;
    }
    for (const Group& g : groups) {
        const auto& [pod, reasons] = answer.unplaced[g.first];
        out += "  " + terminalLineOf("still does not fit: ", model::podKey(store, pod)) + "\n";
        for (const model::Reason& r : reasons)
            out += "    " + terminalLineOf(r.code(), ": ", r.message) + "\n";
        if (g.more > 0)
            out += "    " + terminalLineOf("and ", model::formatCount(g.more), (g.more == 1 ? " more pod" : " more pods"),
                       " of its workload, for the same reasons") + "\n";
    }
    if (action.count > 0)
        out += terminalLineOf("added ", action.count, " ", action.instanceType, " node(s), +", dollarsPerHourExact(o.costPerHourAdded),
                   (o.fitPending ? ", and placed the pending pods that fit (on them or on room that was free)" : ""), "; plan written to ",
                   planPath)
            + "\n";
    else
        out += "no node would help; no plan written\n";
    return out;
}

} // namespace fleet::importers
