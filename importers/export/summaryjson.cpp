#include "summaryjson.h"

#include "model/quantity.h"

#include <cstdio>
#include <map>

namespace fleet::importers {
namespace {

using model::CoreResource;
using model::ResourceKey;
using model::ResourceVector;

// JSON string escaping (RFC 8259 section 7).
void writeString(std::ostream& out, std::string_view s)
{
    out << '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\r': out << "\\r"; break;
        case '\t': out << "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out << buf;
            } else {
                out << ch;
            }
        }
    }
    out << '"';
}

using Extended = std::vector<std::pair<ResourceKey, std::int64_t>>;

void writeResources(std::ostream& out, const model::ClusterStore& store, const ResourceVector& r, const Extended& extended)
{
    out << "{\"cpu_millicores\": " << r[CoreResource::Cpu] << ", \"memory_bytes\": " << r[CoreResource::Memory]
        << ", \"gpu\": " << formatMilliDecimal(r[CoreResource::Gpu]) << ", \"pods\": " << r[CoreResource::Pods];
    if (r[CoreResource::EphemeralStorage] != 0)
        out << ", \"ephemeral-storage\": " << r[CoreResource::EphemeralStorage];
    for (const auto& [key, value] : extended) {
        out << ", ";
        writeString(out, store.resources().name(key));
        out << ": " << value;
    }
    out << '}';
}

} // namespace

std::string formatMilliDecimal(std::int64_t milli)
{
    const bool negative = milli < 0;
    const std::uint64_t m = negative ? 0 - static_cast<std::uint64_t>(milli) : static_cast<std::uint64_t>(milli);
    std::string s = std::to_string(m / 1000);
    if (const std::uint64_t frac = m % 1000; frac != 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%03u", static_cast<unsigned>(frac));
        std::string f(buf);
        while (f.back() == '0')
            f.pop_back();
        s += f;
    }
    return negative ? "-" + s : s;
}

void writeSummaryJson(const model::ClusterStore& store, const ImportReport& report, std::ostream& out)
{
    std::map<ResourceKey, std::int64_t> extAllocatable, extRequested, extPending;
    std::size_t ready = 0, cordoned = 0, counted = 0, pending = 0;
    ResourceVector pendingTotal;

    out << "{\"nodes\": [";
    Extended alloc, req;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        alloc.clear();
        req.clear();
        for (const auto& [key, value] : store.nodeExtendedAllocatable(n)) {
            alloc.emplace_back(key, value);
            const std::int64_t r = store.nodeExtendedRequested(n, key);
            req.emplace_back(key, r);
            extAllocatable[key] += value;
            extRequested[key] += r;
        }
        ready += store.nodeReadiness(n) == model::Readiness::True;
        cordoned += store.nodeUnschedulable(n);
        out << (i ? ",\n  " : "\n  ") << "{\"name\": ";
        writeString(out, store.nodeName(n));
        out << ", \"ready\": \"" << model::readinessName(store.nodeReadiness(n)) << "\", \"cordoned\": "
            << (store.nodeUnschedulable(n) ? "true" : "false") << ", \"allocatable\": ";
        writeResources(out, store, store.nodeAllocatable(n), alloc);
        out << ", \"requested\": ";
        writeResources(out, store, store.nodeRequested(n), req);
        out << '}';
    }
    out << "],\n\"pods\": [";
    Extended podExt;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        podExt.assign(store.podExtendedRequest(p).begin(), store.podExtendedRequest(p).end());
        const bool isCounted = store.podIsCounted(p);
        counted += isCounted;
        if (store.podIsPending(p)) {
            ++pending;
            pendingTotal += store.podRequest(p);
            for (const auto& [key, value] : podExt)
                extPending[key] += value;
        }
        out << (i ? ",\n  " : "\n  ") << "{\"namespace\": ";
        writeString(out, store.podNamespace(p));
        out << ", \"name\": ";
        writeString(out, store.podName(p));
        out << ", \"node\": ";
        if (store.podNodeName(p).empty())
            out << "null";
        else
            writeString(out, store.podNodeName(p));
        out << ", \"phase\": \"" << model::podPhaseName(store.podPhase(p)) << "\", \"counted\": " << (isCounted ? "true" : "false")
            << ", \"request\": ";
        writeResources(out, store, store.podRequest(p), podExt);
        out << '}';
    }
    auto toVector = [](const std::map<ResourceKey, std::int64_t>& m) { return Extended(m.begin(), m.end()); };
    out << "],\n\"totals\": {\"nodes\": " << store.nodeCount() << ", \"ready_nodes\": " << ready
        << ", \"cordoned_nodes\": " << cordoned << ", \"pods\": " << store.podCount() << ", \"counted_pods\": " << counted
        << ", \"pending_pods\": " << pending << ",\n  \"allocatable\": ";
    writeResources(out, store, store.totalAllocatable(), toVector(extAllocatable));
    out << ",\n  \"requested\": ";
    writeResources(out, store, store.totalRequested(), toVector(extRequested));
    out << ",\n  \"pending\": ";
    writeResources(out, store, pendingTotal, toVector(extPending));
    out << "},\n\"warnings\": [";
    for (std::size_t i = 0; i < report.warnings.size(); ++i) {
        out << (i ? ", " : "");
        writeString(out, report.warnings[i]);
    }
    out << "]}\n";
}

void writeSummaryText(const model::ClusterStore& store, const ImportReport& report, std::ostream& out)
{
    std::size_t ready = 0, cordoned = 0, counted = 0, pending = 0, terminal = 0;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        ready += store.nodeReadiness(model::NodeId(i)) == model::Readiness::True;
        cordoned += store.nodeUnschedulable(model::NodeId(i));
    }
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        counted += store.podIsCounted(p);
        pending += store.podIsPending(p);
        terminal += store.podIsTerminal(p);
    }
    const ResourceVector alloc = store.totalAllocatable();
    const ResourceVector req = store.totalRequested();
    const ResourceVector pend = store.totalPending();
    auto pct = [](std::int64_t a, std::int64_t b) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f%%", b > 0 ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0);
        return std::string(buf);
    };
    out << "nodes: " << store.nodeCount() << " (" << ready << " ready, " << store.nodeCount() - ready << " not ready, "
        << cordoned << " cordoned)\n";
    out << "pods: " << store.podCount() << " (" << counted << " counted on nodes, " << pending << " pending, " << terminal
        << " succeeded or failed)\n";
    out << "workloads: " << store.workloadCount() << "\n";
    out << "                 requested / allocatable        pending\n";
    char line[256];
    std::snprintf(line, sizeof line, "cpu (cores)    %10s / %-10s %6s  %10s\n", model::formatMilli(req[CoreResource::Cpu]).c_str(),
                  model::formatMilli(alloc[CoreResource::Cpu]).c_str(), pct(req[CoreResource::Cpu], alloc[CoreResource::Cpu]).c_str(),
                  model::formatMilli(pend[CoreResource::Cpu]).c_str());
    out << line;
    std::snprintf(line, sizeof line, "memory         %10s / %-10s %6s  %10s\n", model::formatBytes(req[CoreResource::Memory]).c_str(),
                  model::formatBytes(alloc[CoreResource::Memory]).c_str(),
                  pct(req[CoreResource::Memory], alloc[CoreResource::Memory]).c_str(), model::formatBytes(pend[CoreResource::Memory]).c_str());
    out << line;
    std::snprintf(line, sizeof line, "gpu            %10s / %-10s %6s  %10s\n", formatMilliDecimal(req[CoreResource::Gpu]).c_str(),
                  formatMilliDecimal(alloc[CoreResource::Gpu]).c_str(), pct(req[CoreResource::Gpu], alloc[CoreResource::Gpu]).c_str(),
                  formatMilliDecimal(pend[CoreResource::Gpu]).c_str());
    out << line;
    std::snprintf(line, sizeof line, "pods           %10lld / %-10lld %6s  %10lld\n", static_cast<long long>(req[CoreResource::Pods]),
                  static_cast<long long>(alloc[CoreResource::Pods]), pct(req[CoreResource::Pods], alloc[CoreResource::Pods]).c_str(),
                  static_cast<long long>(pend[CoreResource::Pods]));
    out << line;
    for (const auto& w : report.warnings)
        out << "warning: " << w << "\n";
}

} // namespace fleet::importers
