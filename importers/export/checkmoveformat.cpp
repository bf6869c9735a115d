// SPDX-License-Identifier: Apache-2.0
#include "checkmoveformat.h"

#include "importers/export/reasonsjson.h"
#include "importers/plan/jsontext.h"
#include "importers/quotedtext.h"

namespace fleet::importers {

std::string checkMoveJson(const std::string& pod, const std::string& node, const model::Verdict& verdict)
{
    JsonWriter w;
    w.beginObject();
    w.key("pod").value(pod);
    w.key("to").value(node);
    w.key("feasible").value(verdict.feasible);
    w.key("reasons");
    writeReasonsJson(w, verdict.reasons);
    w.endObject();
    return w.text() + "\n";
}

std::string checkMoveText(const std::string& pod, const std::string& node, const model::Verdict& verdict)
{
    // Every line quotes names from the input: escaped, so that a control sequence in a name
    // never reaches the terminal (the JSON form escapes them as JSON does).
    constexpr std::size_t kLineChars = 4096;
    std::string out = escapedText(pod + " -> " + node + ": " + (verdict.feasible ? "feasible" : "not feasible"), kLineChars) + "\n";
    for (const model::Reason& r : verdict.reasons)
        out += "  " + escapedText(r.code() + ": " + r.message, kLineChars) + "\n";
    return out;
}

} // namespace fleet::importers
