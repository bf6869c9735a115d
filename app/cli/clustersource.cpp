#include "clustersource.h"

#include <QCommandLineParser>

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
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("kubectl JSON (List, NodeList, PodList) or Alibaba GPU trace CSV files, imported as one cluster."),
        simulateByDefault ? QStringLiteral("[FILE...]") : QStringLiteral("FILE..."));
}

bool readClusterSource(const QCommandLineParser& parser, bool simulateByDefault, ClusterSource& source, QString& error)
{
    source.files = parser.positionalArguments();
    bool ok = true;
    const qulonglong seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
    if (!ok) {
        error = QStringLiteral("--seed: expected a non-negative integer, got \"%1\"").arg(parser.value(QStringLiteral("seed")));
        return false;
    }
    source.seed = seed;
    if (parser.isSet(QStringLiteral("simulate"))) {
        const qulonglong nodes = parser.value(QStringLiteral("simulate")).toULongLong(&ok);
        if (!ok || nodes == 0 || nodes > 10'000'000) {
            error = QStringLiteral("--simulate: expected a node count from 1 to 10000000, got \"%1\"")
                        .arg(parser.value(QStringLiteral("simulate")));
            return false;
        }
        if (!source.files.isEmpty()) {
            error = QStringLiteral("--simulate cannot be combined with files");
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
    if (source.files.isEmpty()) {
        if (!simulateByDefault) {
            error = QStringLiteral("no input: give one or more FILEs or --simulate NODES");
            return false;
        }
        source.simulate = true;
    }
    return true;
}

} // namespace fleet::app
