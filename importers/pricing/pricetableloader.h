// SPDX-License-Identifier: Apache-2.0
#pragma once
// Node prices in: the table shipped in resources/prices/aws-ec2-prices.csv (compiled in at
// build time) and a user's override file of the same columns (`--prices FILE`).
//
// Format: CSV, one row per price, a header row naming the columns region, instance_type,
// capacity_type, usd_per_hour (required, in any order) and any others (ignored, e.g.
// source); blank lines and lines starting with '#' are skipped; fields are not quoted.
// capacity_type is on-demand, spot, reserved or capacity-block (= reserved);
// usd_per_hour a non-negative decimal number. region "*" applies to every region.
// Errors: the whole file is refused at the first bad row (a key given twice is a bad row), with an error naming the file,
// line and column (1-based) and what was expected; a valid file replaces every shipped row
// with the same key and adds the others. Plain C++ (no Qt). Thread: any.

#include "model/pricing/pricetable.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace fleet::importers {

/// A malformed or unreadable price file. what() is "FILE:LINE:COLUMN: message", or
/// "FILE: message" when the file cannot be read at all (line and column 0).
class PriceTableError : public std::runtime_error {
public:
    PriceTableError(std::string file, int line, int column, const std::string& message);
    [[nodiscard]] const std::string& file() const noexcept { return m_file; }
    [[nodiscard]] int line() const noexcept { return m_line; }
    [[nodiscard]] int column() const noexcept { return m_column; }

private:
    std::string m_file;
    int m_line;
    int m_column;
};

/// Parses price CSV `text`; `fileName` names it in errors. Throws PriceTableError.
[[nodiscard]] model::PriceTable parsePriceTable(std::string_view text, const std::string& fileName);

/// The shipped CSV text (resources/prices/aws-ec2-prices.csv as built in).
[[nodiscard]] std::string_view shippedPriceTableText() noexcept;
/// The shipped table, parsed once (thread-safe static). Throws PriceTableError only if the
/// shipped file is malformed (a test guards it).
[[nodiscard]] const model::PriceTable& shippedPriceTable();

/// The shipped table with the rows of the file at `overridePath` replacing and adding
/// to it; the shipped table alone when `overridePath` is empty. Throws PriceTableError.
[[nodiscard]] model::PriceTable loadPriceTable(const std::string& overridePath);

} // namespace fleet::importers
