// SPDX-License-Identifier: Apache-2.0
#include "keptentry.h"

#include "model/plan/evictionrules.h"

namespace fleet::importers {

PlanKeptRecord::Entry keptEntry(const model::ClusterStore& store, const model::KeptNode& kept)
{
    PlanKeptRecord::Entry e;
    e.node = std::string(store.nodeName(kept.node));
    e.pod = kept.pod.isValid() ? model::podKey(store, kept.pod) : std::string();
    e.code = kept.reason.code();
    e.message = kept.reason.message;
    e.blocking = kept.blocking;
    return e;
}

void writeKeptEntryJson(JsonWriter& w, const PlanKeptRecord::Entry& entry)
{
    w.beginObject();
    w.key("node").value(entry.node);
    w.key("pod").value(entry.pod);
    w.key("code").value(entry.code);
    w.key("message").value(entry.message);
    const model::BlockingFilter& b = entry.blocking;
    if (!b.code.empty()) {
        w.key("blockingFilter").beginObject();
        w.key("code").value(b.code);
        w.key("nodes").value(b.nodes);
        w.key("of").value(b.of);
        w.key("judged").value(b.judged);
        if (!b.nextCode.empty())
            w.key("next").beginObject().key("code").value(b.nextCode).key("nodes").value(b.nextNodes).endObject();
        w.endObject();
    }
    w.endObject();
}

} // namespace fleet::importers
