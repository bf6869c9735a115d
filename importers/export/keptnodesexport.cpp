// SPDX-License-Identifier: Apache-2.0
#include "keptnodesexport.h"

#include "importers/export/exportquoting.h"
#include "importers/plan/keptentry.h"
#include "model/plan/evictionrules.h"
#include "model/search/keptgroups.h"

namespace fleet::importers {

void writeKeptNodeJson(JsonWriter& w, const model::ClusterStore& store, const model::KeptNode& kept)
{
    writeKeptEntryJson(w, keptEntry(store, kept));
}

void writeKeptGroupJson(JsonWriter& w, const model::KeptGroup& group)
{
    w.beginObject().key("code").value(group.code).key("nodes").value(group.nodes);
    if (!group.blockingCode.empty()) {
        w.key("blockingFilter").beginObject();
        w.key("code").value(group.blockingCode);
        w.key("entries").value(group.blockingEntries);
        w.key("nodes").value(group.blockingNodes);
        w.key("of").value(group.blockingOf);
        w.endObject();
    }
    w.endObject();
}

void writeKeptMembers(JsonWriter& w, const model::ClusterStore& store, const std::vector<model::KeptNode>& kept)
{
    w.key("keptByCode").beginArray();
    for (const model::KeptGroup& g : model::keptByCode(kept))
        writeKeptGroupJson(w, g);
    w.endArray();
    w.key("kept").beginArray();
    for (const model::KeptNode& k : kept)
        writeKeptNodeJson(w, store, k);
    w.endArray();
}

std::string keptNodesJson(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows)
{
    std::vector<model::KeptNode> chosen;
    chosen.reserve(rows.size());
    for (const std::size_t r : rows)
        chosen.push_back(kept.at(r));
    JsonWriter w;
    w.beginObject();
    writeKeptMembers(w, store, chosen);
    w.endObject();
    return w.text() + "\n";
}

std::string keptNodesCsv(
    const model::ClusterStore& store, const std::vector<model::KeptNode>& kept, const std::vector<std::size_t>& rows)
{
    std::string out = "node,pod,group,code,message,blocking_filter,blocking_nodes,other_nodes,nodes_judged\n";
    for (const std::size_t r : rows) {
        const model::KeptNode& k = kept.at(r);
        out += csvTextField(store.nodeName(k.node));
        out += ',';
        out += csvTextField(k.pod.isValid() ? model::podKey(store, k.pod) : std::string());
        out += ',';
        out += csvTextField(model::keptGroupCode(k.reason));
        out += ',';
        out += csvTextField(k.reason.code());
        out += ',';
        out += csvTextField(k.reason.message);
        out += ',';
        if (!k.blocking.code.empty())
            out += csvTextField(k.blocking.code) + ',' + std::to_string(k.blocking.nodes) + ',' + std::to_string(k.blocking.of) + ','
                + std::to_string(k.blocking.judged);
        else
            out += ",,,";
        out += '\n';
    }
    return out;
}

} // namespace fleet::importers
