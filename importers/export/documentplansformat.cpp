// SPDX-License-Identifier: Apache-2.0
#include "documentplansformat.h"

#include "importers/plan/jsontext.h"
#include "importers/terminaltext.h"
#include "model/figures.h"

#include <cstdint>

namespace fleet::importers {

std::string documentPlansJson(const std::string& path, const std::vector<DocumentPlan>& plans,
                              const std::vector<std::size_t>& actionCounts)
{
    JsonWriter w;
    w.beginObject();
    w.key("document").value(path);
    w.key("plans").beginArray();
    for (std::size_t i = 0; i < plans.size(); ++i) {
        w.beginObject();
        w.key("name").value(plans[i].name);
        w.key("actions").value(static_cast<std::int64_t>(actionCounts[i]));
        w.key("saved_at").value(plans[i].savedAt);
        w.key("evaluation_kept").value(!plans[i].evaluationJson.empty());
        w.key("notes").value(plans[i].notes);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.text() + "\n";
}

std::string documentPlansText(const std::string& path, const std::vector<DocumentPlan>& plans,
                              const std::vector<std::size_t>& actionCounts)
{
    std::string out = terminalLineOf(path, ": ", model::formatCount(static_cast<std::int64_t>(plans.size())),
                                     plans.size() == 1 ? " plan" : " plans")
        + "\n";
    for (std::size_t i = 0; i < plans.size(); ++i) {
        out += terminalLineOf("  ", plans[i].name, ": ", model::formatCount(static_cast<std::int64_t>(actionCounts[i])),
                              actionCounts[i] == 1 ? " action" : " actions", ", saved ", plans[i].savedAt,
                              plans[i].notes.empty() ? "" : ", notes: ", plans[i].notes)
            + "\n";
    }
    if (!plans.empty())
        out += terminalLineOf("Use one with --plan NAME and ", path, " as the input.") + "\n";
    return out;
}

} // namespace fleet::importers
