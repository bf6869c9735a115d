// SPDX-License-Identifier: Apache-2.0
#include "checkmoveformat.h"

#include "importers/export/reasonsjson.h"
#include "importers/plan/jsontext.h"
#include "importers/quotedtext.h"

namespace fleet::importers {

std::string checkMoveJson(
    const std::string& pod, const std::string& node, const model::Verdict& verdict, const std::vector<model::Reason>& evictionBlockers)
{
    JsonWriter w;
    w.beginObject();
    w.key("pod").value(pod);
    w.key("to").value(node);
    w.key("feasible").value(verdict.feasible);
    w.key("reasons");
    writeReasonsJson(w, verdict.reasons);
    w.key("movesAlone").value(verdict.feasible && evictionBlockers.empty());
    w.key("evictionBlockers");
    writeReasonsJson(w, evictionBlockers);
    w.endObject();
    return w.text() + "\n";
}

std::string checkMoveText(
    const std::string& pod, const std::string& node, const model::Verdict& verdict, const std::vector<model::Reason>& evictionBlockers)
{
    // Every line quotes names from the input: escaped, so that a control sequence in a name
    // never reaches the terminal (the JSON form escapes them as JSON does).
    constexpr std::size_t kLineChars = 4096;
    std::string head = pod + " -> " + node + ": ";
    if (evictionBlockers.empty()) {
        head += verdict.feasible ? "feasible" : "not feasible";
    } else {
        std::string codes;
        for (const model::Reason& r : evictionBlockers)
            codes += (codes.empty() ? "" : ", ") + r.code();
        head += (verdict.feasible ? "feasible for the scheduler, but the pod cannot move alone (" : "not feasible, and the pod cannot move alone (")
            + codes + ")";
    }
    std::string out = escapedText(head, kLineChars) + "\n";
    // The eviction rules first, then the filters': the window's refusal lists them so.
    for (const std::vector<model::Reason>* reasons : { &evictionBlockers, &verdict.reasons })
        for (const model::Reason& r : *reasons)
            out += "  " + escapedText(r.code() + ": " + r.message, kLineChars) + "\n";
    return out;
}

} // namespace fleet::importers
