// SPDX-License-Identifier: Apache-2.0
#include "reasonsjson.h"

namespace fleet::importers {

void writeReasonsJson(JsonWriter& w, const std::vector<model::Reason>& reasons)
{
    w.beginArray();
    for (const model::Reason& r : reasons)
        w.beginObject().key("code").value(r.code()).key("message").value(r.message).endObject();
    w.endArray();
}

} // namespace fleet::importers
