// SPDX-License-Identifier: Apache-2.0
// What `fleetscope bench fgd` prints (fgdbenchformat.h).
#include "fgdbenchformat.h"

#include "importers/plan/jsontext.h"
#include "importers/terminaltext.h"

#include <cmath>
#include <cstdio>

namespace fleet::importers {

namespace {

double rounded(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

// The figure of `trace` and `policy`; zeros (and no paper figure) where none was measured.
const FgdBenchFigure& figureOf(const FgdBenchResults& results, const std::string& trace, const std::string& policy)
{
    static const FgdBenchFigure none;
    const auto t = results.find(trace);
    if (t == results.end())
        return none;
    const auto p = t->second.find(policy);
    return p == t->second.end() ? none : p->second;
}

} // namespace

std::string fgdBenchJson(const std::vector<std::string>& traces, const std::vector<std::string>& policies, const FgdBenchResults& results)
{
    JsonWriter w;
    w.beginObject();
    w.key("traces").beginObject();
    for (const std::string& trace : traces) {
        w.key(trace).beginObject();
        for (const std::string& policy : policies) {
            const FgdBenchFigure& f = figureOf(results, trace, policy);
            w.key(policy).beginObject();
            w.key("mean").value(rounded(f.mean));
            w.key("sd").value(rounded(f.sd));
            w.key("paper");
            if (f.paper)
                w.value(*f.paper);
            else
                w.null();
            w.key("seconds_max").value(rounded(f.secondsMax));
            w.endObject();
        }
        w.endObject();
    }
    w.endObject();
    w.endObject();
    return w.text() + "\n";
}

std::string fgdBenchText(const std::vector<std::string>& traces, const std::vector<std::string>& policies, const FgdBenchResults& results,
    std::uint64_t first, std::uint64_t last)
{
    std::string out;
    char line[256];
    for (const std::string& trace : traces) {
        // The trace's name comes from --trace or a file name under --data: one terminal line.
        std::snprintf(line, sizeof line, "%s: unallocated GPU %% at 100%% arrived, seeds %llu-%llu\n", terminalLine(trace).c_str(),
            static_cast<unsigned long long>(first), static_cast<unsigned long long>(last));
        out += line;
        std::snprintf(line, sizeof line, "  %-15s %7s %6s %7s %7s %9s\n", "policy", "mean", "sd", "paper", "diff", "max s");
        out += line;
        for (const std::string& policy : policies) {
            const FgdBenchFigure& f = figureOf(results, trace, policy);
            if (f.paper)
                std::snprintf(line, sizeof line, "  %-15s %7.2f %6.2f %7.2f %+7.2f %9.2f\n", policy.c_str(), f.mean, f.sd, *f.paper,
                    f.mean - *f.paper, f.secondsMax);
            else
                std::snprintf(line, sizeof line, "  %-15s %7.2f %6.2f %7s %7s %9.2f\n", policy.c_str(), f.mean, f.sd, "-", "-", f.secondsMax);
            out += line;
        }
    }
    return out;
}

} // namespace fleet::importers
