// SPDX-License-Identifier: Apache-2.0
// `diff --plan`'s outputs: a plan against what happened, as JSON and as terminal text.
#include "planoutcomeformat.h"

#include "evaluationformat.h"
#include "reasonsjson.h"
#include "statediffformat.h"

#include "importers/plan/jsontext.h"
#include "importers/plan/planevaluation.h"
#include "importers/terminaltext.h"
#include "model/figures.h"

#include <filesystem>

namespace fleet::importers {

using namespace fleet::model;

std::string planOutcomeStateLabel(const std::vector<std::string>& paths)
{
    std::string label;
    for (const std::string& p : paths) {
        if (!label.empty())
            label += " + ";
        label += std::filesystem::path(p).filename().string();
    }
    return label;
}

std::string planOutcomePlanLabel(const std::string& document, const std::string& planNameOrFile)
{
    if (document.empty())
        return std::filesystem::path(planNameOrFile).filename().string();
    return std::filesystem::path(document).filename().string() + ":" + planNameOrFile;
}

std::string planOutcomeJson(const PlanOutcome& o, const std::string& planLabel, const std::string& beforeLabel, const std::string& afterLabel)
{
    JsonWriter w;
    w.beginObject();
    w.key("plan").value(planLabel);
    w.key("before").value(beforeLabel);
    w.key("after").value(afterLabel);
    w.key("actions").beginArray();
    for (const ActionOutcome& a : o.actions) {
        w.beginObject();
        w.key("index").value(static_cast<std::int64_t>(a.index));
        w.key("type").value(actionTypeName(a.action.type));
        w.key("subject").value(planActionSubject(a.action));
        w.key("outcome").value(actionOutcomeName(a.outcome));
        w.key("evidence").value(a.evidence);
        w.key("reasons");
        writeReasonsJson(w, a.reasons);
        w.endObject();
    }
    w.endArray();
    w.key("totals").beginObject();
    w.key("actions").value(static_cast<std::int64_t>(o.actions.size()));
    w.key("carried_out").value(static_cast<std::int64_t>(o.carriedOut));
    w.key("not_carried_out").value(static_cast<std::int64_t>(o.notCarriedOut));
    w.key("no_longer_possible").value(static_cast<std::int64_t>(o.noLongerPossible));
    w.endObject();
    w.key("savings").beginObject();
    w.key("planned_dollars_per_hour").value(o.plannedSavingsPerHour);
    w.key("realised_dollars_per_hour").value(o.realisedSavingsPerHour());
    w.key("then_dollars_per_hour").value(o.touchedThenPerHour);
    w.key("now_dollars_per_hour").value(o.touchedNowPerHour);
    w.key("touched_nodes").beginArray();
    for (const std::string& n : o.touchedNodes)
        w.value(n);
    w.endArray();
    w.endObject();
    w.endObject();
    return w.text() + "\n";
}

std::string planOutcomeText(const PlanOutcome& o, const std::string& planLabel, const std::string& afterLabel)
{
    auto n = [](std::size_t v) { return formatCount(static_cast<std::int64_t>(v)); };
    std::string out = terminalLineOf("plan ", planLabel, " against ", afterLabel, ": ", n(o.carriedOut), " carried out, ",
                                     n(o.notCarriedOut), " not carried out, ", n(o.noLongerPossible), " no longer possible (of ",
                                     n(o.actions.size()), o.actions.size() == 1 ? " action)" : " actions)")
        + "\n";
    for (const ActionOutcome& a : o.actions) {
        std::string why;
        for (const Reason& r : a.reasons)
            why += (why.empty() ? "" : ", ") + r.code();
        out += terminalLineOf("  ", actionNumber(a.index), " ", actionTypeName(a.action.type), " ", planActionSubject(a.action), ": ",
                              actionOutcomeName(a.outcome), " (", a.evidence, why.empty() ? "" : "; ", why, ")")
            + "\n";
    }
    out += terminalLineOf("savings: planned ", dollarsPerHourExact(o.plannedSavingsPerHour), ", realised ",
                          dollarsPerHourExact(o.realisedSavingsPerHour()), " (the ", n(o.touchedNodes.size()),
                          o.touchedNodes.size() == 1 ? " node" : " nodes", " the plan touched: ", dollarsPerHourExact(o.touchedThenPerHour),
                          " then, ", dollarsPerHourExact(o.touchedNowPerHour), " now)")
        + "\n";
    return out;
}

} // namespace fleet::importers
