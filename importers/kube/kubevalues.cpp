// SPDX-License-Identifier: Apache-2.0
// kubevalues.cpp: the value readers of KubectlJsonImporter (see kubejsonimporter_p.h): null,
// object, array and string values, keys, and resource quantities (exact, in nanos, and scaled
// to the store's integer units), each recording a located error on a wrong type or a bad
// quantity instead of throwing. Used by the mapping in kubeobjects.cpp.
#include "kubejsonimporter_p.h"

#include <cstring>
#include <limits>

namespace fleet::importers::kubejson_detail {

bool KubectlJsonImporter::isNull(od::value& v)
{
    return v.raw_json_token().front() == 'n';
}

od::object KubectlJsonImporter::objectValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '{')
        failType(v, expected);
    return v.get_object();
}

od::array KubectlJsonImporter::arrayValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '[')
        failType(v, expected);
    return v.get_array();
}

std::string_view KubectlJsonImporter::stringValue(od::value& v, const char* what, const char** where)
{
    // Zero-copy: the raw token is the string with its quotes plus the whitespace up to the
    // next structural character; only strings with escapes are decoded by simdjson.
    const std::string_view token = v.raw_json_token();
    if (where)
        *where = token.data();
    if (token.empty() || token.front() != '"' || token.data() >= dataEnd())
        failType(v, what);
    std::size_t n = token.size();
    while (n > 1 && isJsonSpace(token[n - 1]))
        --n;
    if (n < 2 || token[n - 1] != '"')
        failType(v, what);
    const std::string_view content = token.substr(1, n - 2);
    if (std::memchr(content.data(), '\\', content.size()) == nullptr)
        return content;
    return v.get_string();
}

std::string_view KubectlJsonImporter::keyText(od::field& f)
{
    const char* k = f.key().raw();
    const char* p = k;
    while (*p != '"' && *p != '\\')
        ++p;
    if (*p == '"')
        return { k, static_cast<std::size_t>(p - k) };
    return f.unescaped_key();
}

const ResourceEntry& KubectlJsonImporter::resourceEntry(std::string_view name)
{
    for (const ResourceEntry& e : m_resourceCache)
        if (e.name == name)
            return e;
    ResourceEntry e;
    e.name.assign(name);
    e.key = m_store.resources().keyFor(name);
    e.scale = model::mapResourceName(name).scale;
    if (name == "nvidia.com/gpu")
        e.gpuCountSource = 0;
    else if (name == "amd.com/gpu")
        e.gpuCountSource = 1;
    else if (name == "alibabacloud.com/gpu-count")
        e.gpuCountSource = 2;
    m_resourceCache.push_back(std::move(e));
    return m_resourceCache.back();
}

std::string_view KubectlJsonImporter::quantityText(od::value& v, const char*& where)
{
    const std::string_view token = v.raw_json_token();
    where = token.data();
    std::string_view text;
    if (!token.empty() && token.front() == '"') {
        text = stringValue(v, "a quantity");
    } else if (!token.empty() && (token.front() == '-' || (token.front() >= '0' && token.front() <= '9')) && where < dataEnd()) {
        std::size_t n = token.size();
        while (n > 0 && isJsonSpace(token[n - 1]))
            --n;
        text = token.substr(0, n);
    } else {
        failType(v, "a quantity (a string such as \"100m\" or \"2Gi\", or a number)");
    }
    return text;
}

void KubectlJsonImporter::recordQuantityError(const model::QuantityError& e, std::string_view text, const char* where)
{
    // The model quotes the text (and a bad suffix) as they are: quote the text within
    // the length limit, then escape whatever control bytes are left.
    std::string message = e.what();
    const std::string raw = '"' + std::string(text) + '"';
    if (const std::size_t at = message.find(raw); at != std::string::npos)
        message.replace(at, raw.size(), quotedText(text));
    recordBadValue(where, escapedText(message, std::numeric_limits<std::size_t>::max()));
}

model::QuantityNanos KubectlJsonImporter::exactQuantityValue(od::value& v, QuantityScale scale)
{
    const char* where = nullptr;
    const std::string_view text = quantityText(v, where);
    model::QuantityNanos value = 0;
    try {
        value = model::exactQuantity(text, scale);
    } catch (const model::QuantityError& e) {
        recordQuantityError(e, text, where);
        return 0;
    }
    if (value < 0) {
        recordBadValue(where, "negative quantity " + quotedText(text) + ": requests, limits and capacities cannot be negative");
        return 0;
    }
    return value;
}

std::int64_t KubectlJsonImporter::quantityValue(od::value& v, QuantityScale scale)
{
    const char* where = nullptr;
    const std::string_view text = quantityText(v, where);
    std::int64_t value = 0;
    try {
        switch (scale) {
        case QuantityScale::Milli:
            value = model::parseQuantityMilli(text);
            break;
        case QuantityScale::Units:
            value = model::parseQuantity(text);
            break;
        case QuantityScale::ThousandUnits:
            value = model::parseQuantity(text);
            if (value > std::numeric_limits<std::int64_t>::max() / 1000
                || value < std::numeric_limits<std::int64_t>::min() / 1000)
                throw model::QuantityError("invalid quantity " + quotedText(text) + ": value out of range");
            value *= 1000;
            break;
        }
    } catch (const model::QuantityError& e) {
        recordQuantityError(e, text, where);
        return 0;
    }
    if (value < 0) {
        recordBadValue(where, "negative quantity " + quotedText(text) + ": requests, limits and capacities cannot be negative");
        return 0;
    }
    return value;
}

} // namespace fleet::importers::kubejson_detail
