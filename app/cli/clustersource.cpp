// SPDX-License-Identifier: Apache-2.0
#include "clustersource.h"

#include "app/controllers/planopener.h"
#include "app/shared/importfailure.h"
#include "commandlinepath.h"

#include "importers/document/fleetdocument.h"
#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/kube/secrets.h"
#include "importers/optionfile.h"
#include "importers/plan/plansource.h"
#include "importers/prometheus/usageconfig.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fleet::app {

void addClusterSourceOptions(QCommandLineParser& parser, bool simulateByDefault)
{
    parser.addOption(QCommandLineOption(QStringLiteral("simulate"),
        simulateByDefault
            ? QStringLiteral("Open a simulated accelerator fleet of NODES nodes (default 100000 when no FILE is given).")
            : QStringLiteral("Read a simulated accelerator fleet of NODES nodes instead of FILEs (one of the two is needed)."),
        QStringLiteral("NODES")));
    parser.addOption(QCommandLineOption(QStringLiteral("seed"), QStringLiteral("Seed of the simulated cluster (default 1)."),
        QStringLiteral("N"), QStringLiteral("1")));
    parser.addOption(QCommandLineOption(QStringLiteral("regions"),
        QStringLiteral("Spread the simulated nodes over N regions, 1 to 4 (default 1: one regional cluster, us-west-2 and its zones). "
                       "More regions are several clusters' worth of nodes, for map scale tests, not one cluster a plan can act on."),
        QStringLiteral("N")));
    parser.addOption(QCommandLineOption(QStringLiteral("kubeconfig"),
        QStringLiteral("Read a live cluster (one LIST of nodes, pods, PDBs, namespaces and volumes; read-only) with this kubeconfig "
                       "file instead of FILEs. Without it, --context reads KUBECONFIG or ~/.kube/config as kubectl does."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("context"),
        QStringLiteral("The kubeconfig context of the live cluster (default: its current-context)."), QStringLiteral("NAME")));
    parser.addOption(QCommandLineOption(QStringLiteral("request-timeout"),
        QStringLiteral("The longest one request to the live cluster or one query to --prometheus may take, its retries included, as kubectl's: whole seconds "
                       "or a duration (30s, 2m, 1m30s); 0 for no bound but 60 s per step (default: 60s, the API server's own). "
                       "A request still waiting after 3 s is said on stderr."),
        QStringLiteral("DURATION")));
    parser.addOption(QCommandLineOption(QStringLiteral("prometheus"),
        QStringLiteral("Read what nodes and pods use (cAdvisor cpu and memory, dcgm-exporter GPU utilization, allocated but idle "
                       "GPUs) from this Prometheus, http(s)://HOST[:PORT][/PREFIX]."),
        QStringLiteral("URL")));
    parser.addOption(QCommandLineOption(QStringLiteral("prometheus-token-file"),
        QStringLiteral("A file holding the bearer token for --prometheus."), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("prometheus-ca"),
        QStringLiteral("A PEM file of the CA that signed --prometheus's certificate (default: the system's)."), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("usage-config"),
        QStringLiteral("Read usage from the Prometheus a YAML file describes: its URL, bearer token, CA, the PromQL of each figure, "
                       "the labels joining series to nodes and the idle rule's window, threshold and step (docs/usage.md)."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("usage-time"),
        QStringLiteral("When the usage is for: seconds since the epoch or an ISO 8601 time (default: now). An instant query looks "
                       "back 5 minutes only: for a snapshot, give the time it was taken."),
        QStringLiteral("TIME")));
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("kubectl JSON (List, NodeList, PodList) or Alibaba GPU trace CSV files, imported as one cluster."),
        simulateByDefault ? QStringLiteral("[FILE...]") : QStringLiteral("FILE..."));
}

namespace {

bool readUsageSource(const QCommandLineParser& parser, ClusterSource& source, QString& error)
{
    const bool config = parser.isSet(QStringLiteral("usage-config"));
    if (config && parser.isSet(QStringLiteral("prometheus"))) {
        error = QStringLiteral("--usage-config names the Prometheus itself: it cannot be combined with --prometheus");
        return false;
    }
    for (const char* option : { "prometheus-token-file", "prometheus-ca", "usage-time" })
        if (parser.isSet(QLatin1String(option)) && !parser.isSet(QStringLiteral("prometheus")) && !(config && std::string_view(option) == "usage-time")) {
            error = QStringLiteral("--%1 needs --prometheus URL").arg(QLatin1String(option));
            return false;
        }
    if (!parser.isSet(QStringLiteral("prometheus")) && !config)
        return true;
    importers::prometheus::UsageSource usage;
    if (config) {
        try {
            usage = importers::prometheus::readUsageConfig(commandLinePath(parser.value(QStringLiteral("usage-config"))));
        } catch (const importers::ImportError& e) {
            error = QStringLiteral("--usage-config: ") + QString::fromStdString(e.what());
            return false;
        }
    } else {
        usage.server.baseUrl = parser.value(QStringLiteral("prometheus")).toStdString();
        if (!usage.server.baseUrl.starts_with("http://") && !usage.server.baseUrl.starts_with("https://")) {
            error = QStringLiteral("--prometheus: expected an http:// or https:// URL, got \"%1\"")
                        .arg(QString::fromStdString(importers::kube::redactedUrl(usage.server.baseUrl)));
            return false;
        }
        if (parser.isSet(QStringLiteral("prometheus-token-file"))) {
            try {
                usage.server.bearerToken = QByteArray::fromStdString(importers::readOptionFile(
                                                                         commandLinePath(parser.value(QStringLiteral("prometheus-token-file"))),
                                                                         importers::OptionFileKind::BearerToken))
                                               .trimmed()
                                               .toStdString();
            } catch (const importers::OptionFileError& e) {
                error = QStringLiteral("--prometheus-token-file: ") + QString::fromStdString(e.what());
                return false;
            }
            // The token goes into an HTTP header: a CR or LF inside it would add a header of its own.
            if (auto problem = importers::kube::bearerTokenProblem(usage.server.bearerToken,
                    "the token in " + commandLinePath(parser.value(QStringLiteral("prometheus-token-file"))))) {
                usage.server.bearerToken.clear();
                error = QStringLiteral("--prometheus-token-file: %1").arg(QString::fromStdString(*problem));
                return false;
            }
        }
        usage.server.certificateAuthority = commandLinePath(parser.value(QStringLiteral("prometheus-ca")));
    }
    if (parser.isSet(QStringLiteral("usage-time"))) {
        const QString text = parser.value(QStringLiteral("usage-time"));
        if (!importers::prometheus::parseUsageTime(text.toStdString(), usage.time)) {
            error = QStringLiteral("--usage-time: %1, got \"%2\"").arg(QLatin1String(importers::prometheus::kUsageTimeExpected), text);
            return false;
        }
    }
    source.usage = std::move(usage);
    return true;
}

} // namespace

bool readClusterSource(const QCommandLineParser& parser, bool simulateByDefault, ClusterSource& source, QString& error)
{
    source.files = parser.positionalArguments();
    bool ok = true;
    // 0 to 2^63-1: the seed is written into plans and .fleet documents as a signed 64-bit
    // integer (JSON readers and SQLite hold no more). Decimal digits only.
    const QString seedText = parser.value(QStringLiteral("seed"));
    const bool digits = !seedText.isEmpty() && seedText.size() <= 19
        && std::all_of(seedText.begin(), seedText.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    const qlonglong seed = digits ? seedText.toLongLong(&ok) : 0;
    if (!digits || !ok) {
        error = QStringLiteral("--seed: expected an integer from 0 to 9223372036854775807, got \"%1\"").arg(seedText);
        return false;
    }
    source.seed = seed;
    if (parser.isSet(QStringLiteral("regions"))) {
        const QString text = parser.value(QStringLiteral("regions"));
        const uint regions = text.toUInt(&ok);
        if (!ok || regions < 1 || regions > importers::kMaxSimulatedRegions) {
            error = QStringLiteral("--regions: expected a region count from 1 to %1, got \"%2\"").arg(importers::kMaxSimulatedRegions).arg(text);
            return false;
        }
        source.simulatedRegions = regions;
    }
    if (!readUsageSource(parser, source, error))
        return false;
    if (parser.isSet(QStringLiteral("request-timeout"))) {
        const auto timeout = parseRequestTimeout(parser.value(QStringLiteral("request-timeout")));
        if (!timeout) {
            error = QStringLiteral(
                "--request-timeout: expected whole seconds or a duration such as 30s, 2m or 1m30s (0: no bound), got \"%1\"")
                        .arg(parser.value(QStringLiteral("request-timeout")));
            return false;
        }
        if (!parser.isSet(QStringLiteral("kubeconfig")) && !parser.isSet(QStringLiteral("context")) && !source.usage) {
            error = QStringLiteral(
                "--request-timeout applies to a live cluster (--kubeconfig or --context) or a Prometheus (--prometheus or --usage-config) only");
            return false;
        }
        source.requestTimeout = *timeout;
    }
    if (source.usage)
        source.usage->server.requestTimeout = source.requestTimeout;
    if (parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context"))) {
        if (parser.isSet(QStringLiteral("simulate")) || !source.files.isEmpty() || parser.isSet(QStringLiteral("seed"))
            || parser.isSet(QStringLiteral("regions"))) {
            error = QStringLiteral("--kubeconfig and --context read a live cluster: they cannot be combined with files, --simulate, --seed or --regions");
            return false;
        }
        source.live = true;
        source.kubeconfig = parser.value(QStringLiteral("kubeconfig"));
        source.context = parser.value(QStringLiteral("context"));
        if (parser.isSet(QStringLiteral("kubeconfig")) && source.kubeconfig.isEmpty()) {
            error = QStringLiteral("--kubeconfig: expected a file name");
            return false;
        }
        return true;
    }
    if (parser.isSet(QStringLiteral("simulate"))) {
        const qulonglong nodes = parser.value(QStringLiteral("simulate")).toULongLong(&ok);
        if (!ok || nodes == 0 || nodes > 10'000'000) {
            error = QStringLiteral("--simulate: expected a node count from 1 to 10000000, got \"%1\"")
                        .arg(parser.value(QStringLiteral("simulate")));
            return false;
        }
        // The window opens one plan file given beside --simulate on the simulated cluster, as
        // File > Open recognises a plan among the files it is given; cluster files and a
        // simulation do not mix.
        if (!source.files.isEmpty()
            && !(simulateByDefault && source.files.size() == 1 && looksLikePlanFile(source.files.front()))) {
            error = simulateByDefault ? QStringLiteral("--simulate cannot be combined with files but one plan file (opened on the simulated cluster)")
                                      : QStringLiteral("--simulate cannot be combined with files");
            return false;
        }
        source.simulate = true;
        source.simulatedNodes = nodes;
        return true;
    }
    if (!source.files.isEmpty() && parser.isSet(QStringLiteral("seed"))) {
        // A seed only shapes a simulated cluster; with files it would be silently ignored.
        error = QStringLiteral("--seed applies to --simulate only, not to files");
        return false;
    }
    if (!source.files.isEmpty() && parser.isSet(QStringLiteral("regions"))) {
        error = QStringLiteral("--regions applies to --simulate only, not to files");
        return false;
    }
    if (source.files.isEmpty()) {
        if (!simulateByDefault) {
            error = QStringLiteral("no input: give one or more FILEs or --simulate NODES");
            return false;
        }
        source.simulate = true;
    }
    return true;
}

namespace {

// Says on stderr what a slow request of the live LIST waits for (the command line has no other
// place to say it). Thread: the loading one.
class StderrRequestReporter final : public importers::ImportProgress, public importers::kube::RequestObserver {
public:
    void progress(std::size_t, std::size_t) override { }
    bool isCancelled() const override { return false; }
    void requestWaiting(const importers::kube::RequestWait& wait) override
    {
        importers::printTerminalf(stderr, "fleetscope: %s\n", wait.describe().c_str());
        std::fflush(stderr);
    }
};

} // namespace

std::optional<std::chrono::milliseconds> parseRequestTimeout(const QString& text)
{
    constexpr double kMaxMs = 30.0 * 24 * 3600 * 1000;
    bool whole = false;
    const qlonglong seconds = text.toLongLong(&whole);
    if (whole)
        return seconds >= 0 && seconds * 1000.0 <= kMaxMs ? std::optional(std::chrono::milliseconds(seconds * 1000))
                                                          : std::nullopt;
    // Go's time.ParseDuration, without a sign: one or more NUMBER UNIT.
    static const QRegularExpression part(QStringLiteral("\\G(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|\u00b5s|ms|s|m|h)"));
    double ms = 0;
    qsizetype at = 0;
    while (at < text.size()) {
        const auto m = part.match(text, at);
        if (!m.hasMatch())
            return std::nullopt;
        const QString unit = m.captured(2);
        const double scale = unit == "h" ? 3'600'000.0
            : unit == "m"                ? 60'000.0
            : unit == "s"                ? 1000.0
            : unit == "ms"               ? 1.0
            : unit == "ns"               ? 1e-6
                                         : 1e-3;
        ms += m.captured(1).toDouble() * scale;
        if (!std::isfinite(ms) || ms > kMaxMs)
            return std::nullopt;
        at = m.capturedEnd();
    }
    if (text.isEmpty())
        return std::nullopt;
    // A bound below a millisecond would give up at once: round it up.
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(ms)));
}

importers::LoadedCluster loadClusterOnly(const ClusterSource& source)
{
    if (source.live) {
        auto request = importers::kube::KubeconfigRequest::fromEnvironment(commandLinePath(source.kubeconfig), source.context.toStdString());
        request.requestTimeout = source.requestTimeout;
        request.input = source.kubeconfigInput;
        const auto config = importers::kube::loadKubeconfig(request);
        StderrRequestReporter reporter;
        return importers::loadLiveCluster(config, &reporter);
    }
    if (source.simulate) {
        importers::SimulationSpec spec;
        spec.nodeCount = source.simulatedNodes;
        spec.seed = source.seed;
        spec.regionCount = source.simulatedRegions;
        return importers::loadSimulatedCluster(spec);
    }
    std::vector<std::string> files;
    for (const QString& f : source.files)
        files.push_back(commandLinePath(f));
    return importers::loadClusterFiles(files);
}

importers::LoadedCluster loadClusterSource(const ClusterSource& source)
{
    importers::LoadedCluster loaded = loadClusterOnly(source);
    if (source.usage) {
        // A slow Prometheus is said on stderr as a slow API server is; one that fails does not
        // stop the command (importers/prometheus/usagequery.h), and the command says so here,
        // whatever it prints of the report's warnings.
        importers::prometheus::UsageSource usage = *source.usage;
        StderrRequestReporter reporter;
        usage.server.observer = &reporter;
        loaded.usage = importers::prometheus::loadClusterUsage(usage, *loaded.store, loaded.report);
        if (!loaded.usage && !loaded.report.warnings.empty())
            importers::printTerminalf(stderr, "fleetscope: warning: %s; going on without usage figures (the cluster itself was read)\n",
                loaded.report.warnings.back().c_str());
    }
    return loaded;
}

importers::PlanSource clusterPlanSource(const ClusterSource& source, const importers::LoadedCluster& loaded)
{
    if (source.live)
        return importers::sourceOfLiveCluster(loaded.server, loaded.resourceVersion);
    if (source.simulate)
        return importers::sourceOfSimulation(source.simulatedNodes, source.seed, source.simulatedRegions);
    std::vector<std::string> files;
    for (const QString& f : source.files)
        files.push_back(commandLinePath(f));
    // A .fleet document is the state it was saved from: a plan made on it names that source,
    // so that it re-checks against the original files (or the document) without a note.
    if (files.size() == 1 && importers::isFleetDocumentFile(files.front())) {
        try {
            return importers::readFleetDocumentProvenance(files.front());
        } catch (const importers::FleetDocumentError& e) {
            throw importers::PlanFileError(e.what());
        }
    }
    return importers::sourceOfFiles(files);
}

QString clusterSourceLabel(const ClusterSource& source)
{
    if (source.live)
        return liveSourceLabel(source.context);
    return source.simulate ? simulatedSourceLabel(source.simulatedNodes, source.seed, source.simulatedRegions) : filesSourceLabel(source.files);
}

} // namespace fleet::app
