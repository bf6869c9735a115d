// SPDX-License-Identifier: Apache-2.0
#include "badvalues.h"

#include <algorithm>

namespace fleet::importers {

void BadValueList::add(BadValue value)
{
    ++m_count;
    if (m_values.size() <= kListed)
        m_values.push_back(std::move(value));
}

void BadValueList::raise(const std::string& file) const
{
    const BadValue& first = m_values.front();
    if (m_count == 1)
        throw ImportError(file, first.line, first.path, first.message);
    std::string message = first.message + "; " + std::to_string(m_count) + " invalid values in all:";
    const std::size_t listed = std::min(m_values.size(), kListed);
    for (std::size_t i = 0; i < listed; ++i) {
        const BadValue& v = m_values[i];
        message += "\n  " + file + ":" + std::to_string(v.line) + ": " + (v.path.empty() ? "" : v.path + ": ") + v.message;
    }
    if (m_count > listed)
        message += "\n  and " + std::to_string(m_count - listed) + " more";
    throw ImportError(file, first.line, first.path, message);
}

} // namespace fleet::importers
