// SPDX-License-Identifier: Apache-2.0
// The usage source's YAML settings (usageconfig.h).
#include "importers/prometheus/usageconfig.h"

#include "importers/kube/secrets.h"
#include "importers/optionfile.h"
#include "importers/quotedtext.h"
#include "importers/yamlinput.h"

#include <QDateTime>
#include <QString>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <vector>

namespace fleet::importers::prometheus {

namespace {

namespace fs = std::filesystem;

// Reads the settings of one file; every error names it, the line and the key.
struct Reader {
    std::string m_path;

    [[noreturn]] void fail(std::size_t line, const std::string& key, const std::string& what) const
    {
        throw ImportError(m_path, line, key, what);
    }

    [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& what) const { fail(lineOf(at), key, what); }

    // The 1-based line of `at`, 0 when it has none. (Lines, not Nodes, are kept for later
    // errors: assigning a YAML::Node that is bound already writes into the tree.)
    static std::size_t lineOf(const YAML::Node& at)
    {
        return at.IsDefined() && at.Mark().line >= 0 ? static_cast<std::size_t>(at.Mark().line) + 1 : 0;
    }

    // Calls `field(name, value)` for each key of mapping `map`, or fails naming `key`.
    template<class F>
    void eachKey(const YAML::Node& map, const std::string& key, F&& field) const
    {
        if (map.IsNull())
            return;
        if (!map.IsMap())
            fail(map, key, "expected a mapping of settings");
        std::vector<std::string> seen;
        for (const auto& kv : map) {
            if (!kv.first.IsScalar())
                fail(kv.first, key, "expected a setting's name");
            const std::string name = kv.first.Scalar();
            if (std::find(seen.begin(), seen.end(), name) != seen.end())
                fail(kv.first, key.empty() ? name : key + "." + name, "given twice");
            seen.push_back(name);
            if (!field(name, kv.second, key.empty() ? name : key + "." + name))
                fail(kv.first, key.empty() ? name : key + "." + name, "unknown setting");
        }
    }

    std::string text(const YAML::Node& v, const std::string& key) const
    {
        if (v.IsNull())
            return {};
        if (!v.IsScalar())
            fail(v, key, "expected a string");
        return v.Scalar();
    }

    bool flag(const YAML::Node& v, const std::string& key) const
    {
        const std::string s = v.IsScalar() ? v.Scalar() : std::string();
        if (s == "true" || s == "True")
            return true;
        if (s == "false" || s == "False")
            return false;
        fail(v, key, "expected true or false");
    }

    // Seconds from a number or a Prometheus duration ("90s", "30m", "2h", "1d"); > 0.
    double duration(const YAML::Node& v, const std::string& key) const
    {
        const std::string s = v.IsScalar() ? v.Scalar() : std::string();
        char* end = nullptr;
        const double number = s.empty() ? 0 : std::strtod(s.c_str(), &end);
        double unit = 0;
        if (end && *end == '\0')
            unit = 1;
        else if (end && std::string_view(end) == "s")
            unit = 1;
        else if (end && std::string_view(end) == "m")
            unit = 60;
        else if (end && std::string_view(end) == "h")
            unit = 3600;
        else if (end && std::string_view(end) == "d")
            unit = 86400;
        if (unit == 0 || !std::isfinite(number) || number <= 0)
            fail(v, key, "expected a duration above 0 (seconds, or 90s, 30m, 2h, 1d), found " + quotedText(s, 40));
        // A year is far beyond any Prometheus retention; the bound also keeps the product finite.
        if (number * unit > kMaxUsageWindowSeconds)
            fail(v, key, "expected a duration of at most 365d, found " + quotedText(s, 40));
        return number * unit;
    }

    // A ratio 0..1 or a percentage "5%".
    double ratio(const YAML::Node& v, const std::string& key) const
    {
        std::string s = v.IsScalar() ? v.Scalar() : std::string();
        const bool percent = !s.empty() && s.back() == '%';
        if (percent)
            s.pop_back();
        char* end = nullptr;
        double r = s.empty() ? -1 : std::strtod(s.c_str(), &end);
        if (percent)
            r /= 100;
        if (!end || *end != '\0' || !(r >= 0 && r <= 1))
            fail(v, key, "expected a ratio 0..1 or a percentage (5%), found " + quotedText(v.IsScalar() ? v.Scalar() : std::string(), 40));
        return r;
    }

    std::string file(const YAML::Node& v, const std::string& key) const
    {
        const std::string name = text(v, key);
        if (name.empty() || fs::path(name).is_absolute())
            return name;
        std::error_code ec;
        return (fs::absolute(fs::path(m_path).parent_path(), ec) / name).lexically_normal().string();
    }

};

} // namespace

bool parseUsageTime(const std::string& text, double& seconds)
{
    // Decimal seconds only: strtod alone would take 1e308, 0x10, inf and nan.
    double value = 0;
    const bool decimal = !text.empty() && text.size() <= 32 && text.find_first_not_of("0123456789.") == std::string::npos
        && std::isdigit(static_cast<unsigned char>(text.front())) && std::isdigit(static_cast<unsigned char>(text.back()))
        && std::count(text.begin(), text.end(), '.') <= 1;
    if (decimal)
        value = std::strtod(text.c_str(), nullptr);
    else {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(text), Qt::ISODateWithMs);
        if (!t.isValid())
            return false;
        value = static_cast<double>(t.toMSecsSinceEpoch()) / 1000.0;
    }
    const double latest = static_cast<double>(QDateTime::currentSecsSinceEpoch() + kUsageTimeAfterNow);
    if (!(value >= kEarliestUsageTime && value <= latest))
        return false;
    seconds = value;
    return true;
}

UsageSource parseUsageConfig(const std::string& text, const std::string& path)
{
    YAML::Node root;
    try {
        root = loadBoundedYaml(text);
    } catch (const YamlInputError& e) {
        throw ImportError(path, e.line(), e.keyPath(), e.message());
    }
    const Reader r { path };
    UsageSource source;
    UsageQueries& q = source.queries;
    std::string tokenFile;
    std::size_t tokenLine = 0, urlLine = 0;
    bool hasPrometheus = false;
    if (!root.IsDefined() || root.IsNull())
        throw ImportError(path, 0, {}, "an empty usage config: prometheus.url is needed");
    r.eachKey(root, {}, [&](const std::string& name, const YAML::Node& v, const std::string& key) {
        if (name == "prometheus") {
            hasPrometheus = true;
            r.eachKey(v, key, [&](const std::string& n, const YAML::Node& w, const std::string& k) {
                if (n == "url") {
                    source.server.baseUrl = r.text(w, k);
                    urlLine = Reader::lineOf(w);
                } else if (n == "bearerToken") {
                    source.server.bearerToken = r.text(w, k);
                    tokenLine = Reader::lineOf(w);
                } else if (n == "bearerTokenFile") {
                    tokenFile = r.file(w, k);
                    if (tokenLine == 0)
                        tokenLine = Reader::lineOf(w);
                } else if (n == "certificateAuthority") {
                    source.server.certificateAuthority = r.file(w, k);
                } else if (n == "insecureSkipTlsVerify") {
                    source.server.insecureSkipTlsVerify = r.flag(w, k);
                } else {
                    return false;
                }
                return true;
            });
        } else if (name == "queries") {
            std::string* const fields[] = { &q.cpu, &q.memory, &q.cadvisorNodeLabel, &q.gpuRatio, &q.gpuPercent, &q.gpuNodeLabel, &q.neuron,
                &q.neuronNodeLabel };
            static constexpr const char* kNames[] = { "cpu", "memory", "cadvisorNodeLabel", "gpuRatio", "gpuPercent", "gpuNodeLabel", "neuron",
                "neuronNodeLabel" };
            r.eachKey(v, key, [&](const std::string& n, const YAML::Node& w, const std::string& k) {
                for (std::size_t i = 0; i < std::size(kNames); ++i)
                    if (n == kNames[i]) {
                        *fields[i] = r.text(w, k);
                        // Only Neuron may be turned off; every other figure needs its query.
                        if (fields[i]->empty() && fields[i] != &q.neuron)
                            r.fail(w, k, "expected a PromQL query or a label name, found nothing");
                        return true;
                    }
                return false;
            });
        } else if (name == "idle") {
            r.eachKey(v, key, [&](const std::string& n, const YAML::Node& w, const std::string& k) {
                if (n == "window")
                    q.windowSeconds = r.duration(w, k);
                else if (n == "threshold")
                    q.idleThreshold = r.ratio(w, k);
                else if (n == "step")
                    q.stepSeconds = r.duration(w, k);
                else
                    return false;
                return true;
            });
            if (q.stepSeconds > q.windowSeconds)
                r.fail(v, key + ".step", "the step is longer than the window");
            else if (q.windowSeconds / q.stepSeconds > kMaxRangePoints - 1)
                r.fail(v, key + ".step",
                       "the window holds more than 11,000 points at this step, more than Prometheus returns for "
                       "one series; use a longer step");
        } else if (name == "time") {
            if (!v.IsScalar() || !parseUsageTime(v.Scalar(), source.time))
                r.fail(v, key, kUsageTimeExpected);
        } else {
            return false;
        }
        return true;
    });
    if (!hasPrometheus || source.server.baseUrl.empty())
        r.fail(urlLine, "prometheus.url", "the Prometheus to read usage from is needed (http(s)://HOST[:PORT][/PREFIX])");
    if (!source.server.baseUrl.starts_with("http://") && !source.server.baseUrl.starts_with("https://"))
        r.fail(urlLine, "prometheus.url",
            "expected an http:// or https:// URL, found \"" + kube::redactedUrl(source.server.baseUrl) + "\"");
    if (!tokenFile.empty()) {
        if (!source.server.bearerToken.empty())
            r.fail(tokenLine, "prometheus.bearerTokenFile", "give bearerToken or bearerTokenFile, not both");
        std::string t;
        try {
            t = readOptionFile(tokenFile, OptionFileKind::BearerToken);
        } catch (const OptionFileError& e) {
            r.fail(tokenLine, "prometheus.bearerTokenFile", quotedText(tokenFile, 200) + " " + e.message());
        }
        while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ' || t.back() == '\t'))
            t.pop_back();
        source.server.bearerToken = std::move(t);
    }
    return source;
}

UsageSource readUsageConfig(const std::string& path)
{
    return parseUsageConfig(readOptionFile(path, OptionFileKind::UsageConfig), path);
}

} // namespace fleet::importers::prometheus
