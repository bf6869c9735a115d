// SPDX-License-Identifier: Apache-2.0
#include "jsonerrorplace.h"

#include "model/figures.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace fleet::importers {

std::string jsonErrorPlace(std::string_view text)
{
    // QJsonDocument refuses texts over its size limit without a place: nothing to add then.
    const QByteArray bytes = QByteArray::fromRawData(text.data(), static_cast<qsizetype>(text.size()));
    QJsonParseError error;
    (void)QJsonDocument::fromJson(bytes, &error);
    if (error.error == QJsonParseError::NoError || error.offset < 0)
        return {};
    const auto offset = std::min<std::size_t>(static_cast<std::size_t>(error.offset), text.size());
    const std::string_view before = text.substr(0, offset);
    const auto line = static_cast<std::int64_t>(std::count(before.begin(), before.end(), '\n')) + 1;
    const std::size_t lineStart = before.rfind('\n');
    const auto column = static_cast<std::int64_t>(offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    const std::string what = error.errorString().toStdString();
    // Only whitespace after the error's place: the text ends before its JSON does.
    const bool atEnd = text.find_first_not_of(" \t\r\n", offset) == std::string_view::npos;
    if (atEnd)
        return "at the end of the file, line " + model::formatCount(line) + " (byte " + model::formatCount(static_cast<std::int64_t>(text.size()))
            + "): " + what + ": the file ends before its JSON does (cut short?)";
    return "at line " + model::formatCount(line) + ", column " + model::formatCount(column) + " (byte "
        + model::formatCount(static_cast<std::int64_t>(offset)) + " of " + model::formatCount(static_cast<std::int64_t>(text.size())) + "): " + what;
}

} // namespace fleet::importers
