// SPDX-License-Identifier: Apache-2.0
// Plan files written: the JSON text (the actions, the source, the consolidation's kept record
// with the digest of the actions it describes), written whole or not at all
// (importers/output/outputfile.h). What is read is planfilereader.cpp's. The schema is
// resources/schemas/plan-v1.md.
#include "planfile.h"

#include "jsontext.h"
#include "keptentry.h"
#include "plansource.h"

#include "importers/output/outputfile.h"

#include <QCryptographicHash>

namespace fleet::importers {

namespace {

// The "actions" array of a plan file (planJson()).
void writeActions(JsonWriter& w, const std::vector<model::PlanAction>& actions)
{
    w.beginArray();
    for (const model::PlanAction& a : actions) {
        w.beginObject();
        w.key("type").value(model::actionTypeName(a.type));
        switch (a.type) {
        case model::ActionType::MovePod:
            w.key("pod").beginObject();
            w.key("namespace").value(a.pod.namespaceName);
            w.key("name").value(a.pod.name);
            if (!a.pod.uid.empty())
                w.key("uid").value(a.pod.uid);
            w.endObject();
            w.key("node").value(a.node);
            if (a.override)
                w.key("override").value(true);
            break;
        case model::ActionType::DrainNode:
            w.key("node").value(a.node);
            if (!a.policy.empty())
                w.key("policy").value(a.policy);
            if (!a.domain.empty())
                w.key("domain").value(a.domain);
            break;
        case model::ActionType::FailNode:
            w.key("node").value(a.node);
            break;
        case model::ActionType::AddNode:
            w.key("instanceType").value(a.instanceType);
            if (!a.capacityType.empty())
                w.key("capacityType").value(a.capacityType);
            if (!a.domain.empty())
                w.key("domain").value(a.domain);
            w.key("count").value(std::int64_t { a.count });
            break;
        case model::ActionType::FailDomain:
            w.key("domain").value(a.domain);
            break;
        case model::ActionType::PlaceWorkload:
            w.key("workload").beginObject();
            w.key("namespace").value(a.workloadNamespace);
            w.key("name").value(a.workloadName);
            if (!a.workloadKind.empty())
                w.key("kind").value(a.workloadKind);
            w.endObject();
            if (!a.domain.empty())
                w.key("domain").value(a.domain);
            if (!a.policy.empty())
                w.key("policy").value(a.policy);
            break;
        case model::ActionType::PlacePods:
            w.key("pod").beginObject();
            w.key("namespace").value(a.pod.namespaceName);
            w.key("name").value(a.pod.name);
            w.endObject();
            w.key("count").value(std::int64_t { a.count });
            if (!a.requiredLevel.empty())
                w.key("requiredLevel").value(a.requiredLevel);
            if (!a.preferredLevel.empty())
                w.key("preferredLevel").value(a.preferredLevel);
            if (a.sliceSize > 0) {
                w.key("sliceSize").value(std::int64_t { a.sliceSize });
                w.key("sliceLevel").value(a.sliceLevel);
            }
            if (!a.keepWithinLevel.empty())
                w.key("keepWithin").value(a.keepWithinLevel);
            w.key("gang").value(a.gang);
            if (!a.policy.empty())
                w.key("policy").value(a.policy);
            if (!a.podTemplate.empty())
                w.key("podTemplate").rawValue(a.podTemplate);
            break;
        }
        w.endObject();
    }
    w.endArray();
}

// The actions' canonical text, which PlanKeptRecord::actionsSha256 digests: their array written
// on its own (the file's layout around it, and how a reader got the actions, do not matter).
std::string actionsJson(const std::vector<model::PlanAction>& actions)
{
    JsonWriter w;
    writeActions(w, actions);
    return w.text();
}

std::string sha256Hex(std::string_view bytes)
{
    return QCryptographicHash::hash(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())), QCryptographicHash::Sha256).toHex().toStdString();
}

void writeKeptRecord(JsonWriter& w, const PlanKeptRecord& r, const std::string& actionsSha256)
{
    w.beginObject();
    w.key("version").value(std::int64_t { PlanKeptRecord::kVersion });
    w.key("order").value(r.order);
    w.key("actionsSha256").value(actionsSha256);
    w.key("kept").beginArray();
    for (const PlanKeptRecord::Entry& k : r.kept)
        writeKeptEntryJson(w, k); // the entries of `plan consolidate --format json`'s "kept"
    w.endArray();
    if (r.lpBound) {
        w.key("lpBound").beginObject();
        w.key("nodes").value(r.lpBound->nodes);
        w.endObject();
    }
    w.endObject();
}

} // namespace

std::string planActionsSha256(const std::vector<model::PlanAction>& actions)
{
    return sha256Hex(actionsJson(actions));
}

std::string planJson(const PlanDocument& plan)
{
    JsonWriter w;
    w.beginObject();
    w.key("fleetscopePlan").value(std::int64_t { 1 });
    w.key("source");
    writePlanSource(w, plan.source);
    w.key("actions");
    writeActions(w, plan.actions);
    if (plan.consolidation) {
        // A record made for other actions (the plan was edited since the search) is left out:
        // it would describe another plan.
        const std::string digest = planActionsSha256(plan.actions);
        if (plan.consolidation->actionsSha256.empty() || plan.consolidation->actionsSha256 == digest) {
            w.key("consolidation");
            writeKeptRecord(w, *plan.consolidation, digest);
        }
    }
    w.endObject();
    return w.text() + "\n";
}

void writePlanFile(const PlanDocument& plan, const std::string& path)
{
    try {
        writeOutputFile(path, planJson(plan));
    } catch (const OutputFileError& e) {
        throw PlanFileError(e.what());
    }
}

} // namespace fleet::importers
