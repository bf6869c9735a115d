// SPDX-License-Identifier: Apache-2.0
#pragma once
// Invalid values of one input file, collected so that the file is refused once with every
// one of them named ("an input with several invalid quantities is refused with every
// offending value listed ... past 20, 'and N more'"), instead of at the first.
//
// Used by the kubectl JSON importer (importers/kube/, invalid and negative quantities, by JSON
// path) and the Alibaba trace CSV importer (importers/traces/alibabacsv.cpp, bad fields, by
// column). The importer still refuses the whole file: it only reads on to find the others.

#include "importers/importreport.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fleet::importers {

/// One invalid value: its 1-based line, its place in the line (a JSON path, or a CSV column
/// "column 2 (cpu_milli)"; may be empty) and what is wrong with it (already quoting the value).
struct BadValue {
    std::size_t line = 0;
    std::string path;
    std::string message;
};

/// The bad values of one file, in file order: keeps the first kListed + 1 (what the message
/// lists, and the first) and counts them all. Thread: the importing thread.
class BadValueList {
public:
    /// Values listed one per line in the error; the rest are counted ("and N more").
    static constexpr std::size_t kListed = 20;

    /// Records one more bad value (kept only while fewer than kListed + 1 are kept).
    void add(BadValue value);
    /// Counts `count` bad values of which only the kept ones were add()ed (an importer that
    /// keeps its own list, e.g. by byte offset, and resolves lines at the end).
    void addUnlisted(std::size_t count) noexcept { m_count += count; }
    [[nodiscard]] bool empty() const noexcept { return m_count == 0; }
    [[nodiscard]] std::size_t count() const noexcept { return m_count; }
    [[nodiscard]] bool isFull() const noexcept { return m_values.size() > kListed; }

    /// Throws the ImportError that refuses `file`: at the first value (its line and path), with,
    /// when there are several, "<first message>; N invalid values in all:" then one
    /// "file:line: path: message" line for each of the first kListed and "and M more".
    /// Precondition: !empty().
    [[noreturn]] void raise(const std::string& file) const;

private:
    std::vector<BadValue> m_values;
    std::size_t m_count = 0;
};

} // namespace fleet::importers
