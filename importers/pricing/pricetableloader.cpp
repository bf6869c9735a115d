// SPDX-License-Identifier: Apache-2.0
#include "pricetableloader.h"

#include "importers/optionfile.h"
#include "importers/quotedtext.h"

#include <charconv>
#include <map>
#include <vector>

namespace fleet::importers {

PriceTableError::PriceTableError(std::string file, int line, int column, const std::string& message)
    : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) + ":" + std::to_string(column) : std::string()) + ": " + message)
    , m_file(std::move(file))
    , m_line(line)
    , m_column(column)
{
}

namespace {

struct Field {
    std::string_view text;
    int column; // 1-based
};

std::vector<Field> splitFields(std::string_view line)
{
    std::vector<Field> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        std::string_view f = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        int column = static_cast<int>(start) + 1;
        while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) {
            f.remove_prefix(1);
            ++column;
        }
        while (!f.empty() && (f.back() == ' ' || f.back() == '\t'))
            f.remove_suffix(1);
        fields.push_back({ f, column });
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return fields;
}

} // namespace

model::PriceTable parsePriceTable(std::string_view text, const std::string& fileName)
{
    model::PriceTable table;
    constexpr std::string_view kColumns[] = { "region", "instance_type", "capacity_type", "usd_per_hour" };
    int index[4] = { -1, -1, -1, -1 };
    bool haveHeader = false;
    std::size_t expectedFields = 0;
    int lineNo = 0;
    std::map<std::string, int> firstLineOf; // region, type, capacity -> line
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = text.find('\n', pos);
        std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        pos = end == std::string_view::npos ? text.size() + 1 : end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#')
            continue;
        const std::vector<Field> fields = splitFields(line);
        if (!haveHeader) {
            // A column named twice is refused: which of the two holds the price would be a
            // guess (a spreadsheet's reader takes one, this one the other).
            for (std::size_t i = 0; i < fields.size(); ++i)
                for (std::size_t j = 0; j < i; ++j)
                    if (!fields[i].text.empty() && fields[i].text == fields[j].text)
                        throw PriceTableError(fileName, lineNo, fields[i].column,
                            "the header names column " + quotedText(fields[i].text) + " twice (fields " + std::to_string(j + 1) + " and "
                                + std::to_string(i + 1) + "); name each column once");
            for (std::size_t i = 0; i < fields.size(); ++i)
                for (int c = 0; c < 4; ++c)
                    if (fields[i].text == kColumns[c])
                        index[c] = static_cast<int>(i);
            for (int c = 0; c < 4; ++c)
                if (index[c] < 0)
                    throw PriceTableError(fileName, lineNo, 1,
                        "expected a header row naming region, instance_type, capacity_type and usd_per_hour; no column "
                            + std::string(kColumns[c]));
            expectedFields = fields.size();
            haveHeader = true;
            continue;
        }
        if (fields.size() != expectedFields)
            throw PriceTableError(fileName, lineNo, fields.back().column,
                "expected " + std::to_string(expectedFields) + " fields as in the header, got " + std::to_string(fields.size()));
        const Field& region = fields[static_cast<std::size_t>(index[0])];
        const Field& type = fields[static_cast<std::size_t>(index[1])];
        const Field& capacity = fields[static_cast<std::size_t>(index[2])];
        const Field& price = fields[static_cast<std::size_t>(index[3])];
        if (region.text.empty())
            throw PriceTableError(fileName, lineNo, region.column, "expected a region (or *), got an empty field");
        if (type.text.empty())
            throw PriceTableError(fileName, lineNo, type.column, "expected an instance type, got an empty field");
        const std::optional<model::CapacityType> cap = model::capacityTypeFromName(capacity.text);
        if (!cap)
            throw PriceTableError(fileName, lineNo, capacity.column,
                "expected capacity_type on-demand, spot, reserved or capacity-block, got \"" + std::string(capacity.text) + "\"");
        double dollars = 0;
        const char* first = price.text.data();
        const char* last = first + price.text.size();
        const auto [ptr, ec] = std::from_chars(first, last, dollars);
        if (price.text.empty() || ec != std::errc() || ptr != last || !(dollars >= 0) || dollars > 1e9)
            throw PriceTableError(fileName, lineNo, price.column,
                "expected usd_per_hour, a non-negative number of US dollars, got \"" + std::string(price.text) + "\"");
        // One price per key: with two, which one a reader took would be a silent choice.
        const std::string key = std::string(region.text) + '\0' + std::string(type.text) + '\0' + std::to_string(static_cast<int>(*cap));
        if (const auto [at, fresh] = firstLineOf.emplace(key, lineNo); !fresh)
            throw PriceTableError(fileName, lineNo, region.column,
                "a price for region " + std::string(region.text) + ", instance type " + std::string(type.text) + ", capacity type "
                    + std::string(capacity.text) + " is given twice (lines " + std::to_string(at->second) + " and "
                    + std::to_string(lineNo) + "; capacity-block is reserved); give one row per key");
        table.set(region.text, type.text, *cap, dollars);
    }
    if (!haveHeader)
        throw PriceTableError(
            fileName, lineNo, 1, "expected a header row region,instance_type,capacity_type,usd_per_hour; the file has none");
    return table;
}

const model::PriceTable& shippedPriceTable()
{
    static const model::PriceTable table = parsePriceTable(shippedPriceTableText(), "resources/prices/aws-ec2-prices.csv");
    return table;
}

model::PriceTable loadPriceTable(const std::string& overridePath)
{
    model::PriceTable table = shippedPriceTable();
    if (overridePath.empty())
        return table;
    std::string text;
    try {
        text = readOptionFile(overridePath, OptionFileKind::Prices);
    } catch (const OptionFileError& e) {
        throw PriceTableError(overridePath, 0, 0, e.message());
    }
    table.overrideWith(parsePriceTable(text, overridePath));
    return table;
}

} // namespace fleet::importers
