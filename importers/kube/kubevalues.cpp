// SPDX-License-Identifier: Apache-2.0
// kubevalues.cpp: the Kubernetes values of KubeObjectMapper (see kubeobjectmapper_p.h):
// resource names (cached) and resource quantities (exact, in nanos, and scaled to the store's
// integer units), each recording a located error on a bad quantity instead of throwing. The
// JSON value readers they build on (null, object, array, string, number) are
// JsonWindowReader's (kubejsonwindow.cpp).
#include "kubeobjectmapper_p.h"

#include <cstring>
#include <limits>

namespace fleet::importers::kubejson_detail {

const ResourceEntry& KubeObjectMapper::resourceEntry(std::string_view name)
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
    // helper.IsExtendedResourceName: a domain-prefixed name outside the kubernetes.io domains
    // (and not a quota's "requests." name).
    e.wholeUnits = name.find('/') != std::string_view::npos && name.find("kubernetes.io/") == std::string_view::npos
        && !name.starts_with("requests.");
    m_resourceCache.push_back(std::move(e));
    return m_resourceCache.back();
}

std::string_view KubeObjectMapper::quantityText(od::value& v, const char*& where)
{
    const std::string_view token = v.raw_json_token();
    where = token.data();
    std::string_view text;
    if (!token.empty() && token.front() == '"') {
        text = m_json.stringValue(v, "a quantity");
    } else if (text = m_json.numberText(v); !text.empty()) {
        // a number, as written
    } else {
        m_json.failType(v, "a quantity (a string such as \"100m\" or \"2Gi\", or a number)");
    }
    return text;
}

void KubeObjectMapper::recordQuantityError(const model::QuantityError& e, std::string_view text, const char* where)
{
    // The model quotes the text (and a bad suffix) as they are: quote the text within
    // the length limit, then escape whatever control bytes are left.
    std::string message = e.what();
    const std::string raw = '"' + std::string(text) + '"';
    if (const std::size_t at = message.find(raw); at != std::string::npos)
        message.replace(at, raw.size(), quotedText(text));
    m_json.recordBadValue(where, escapedText(message, std::numeric_limits<std::size_t>::max()));
}

bool KubeObjectMapper::wholeUnitsOrRecord(const ResourceEntry* entry, std::string_view text, const char* where)
{
    if (entry == nullptr || !entry->wholeUnits || model::exactQuantity(text, QuantityScale::Units) % model::kNanosPerUnit == 0)
        return true;
    m_json.recordBadValue(where, "invalid quantity " + quotedText(text) + " of " + quotedText(entry->name)
            + ": must be an integer (an extended resource counts whole units; the API server refuses a fraction)");
    return false;
}

model::QuantityNanos KubeObjectMapper::exactQuantityValue(od::value& v, QuantityScale scale, const ResourceEntry* whole)
{
    const char* where = nullptr;
    const std::string_view text = quantityText(v, where);
    model::QuantityNanos value = 0;
    try {
        value = model::exactQuantity(text, scale);
        if (!wholeUnitsOrRecord(whole, text, where))
            return 0;
    } catch (const model::QuantityError& e) {
        recordQuantityError(e, text, where);
        return 0;
    }
    if (value < 0) {
        m_json.recordBadValue(where, "negative quantity " + quotedText(text) + ": requests, limits and capacities cannot be negative");
        return 0;
    }
    return value;
}

std::int64_t KubeObjectMapper::quantityValue(od::value& v, QuantityScale scale, const ResourceEntry* whole)
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
        if (!wholeUnitsOrRecord(whole, text, where))
            return 0;
    } catch (const model::QuantityError& e) {
        recordQuantityError(e, text, where);
        return 0;
    }
    if (value < 0) {
        m_json.recordBadValue(where, "negative quantity " + quotedText(text) + ": requests, limits and capacities cannot be negative");
        return 0;
    }
    return value;
}

} // namespace fleet::importers::kubejson_detail
