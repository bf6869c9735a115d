#pragma once
// The "which cluster" part of the command line, shared by the GUI and the subcommands.

#include <QCommandLineOption>
#include <QString>
#include <QStringList>

#include <cstdint>

class QCommandLineParser;

namespace fleet::app {

/// Files to import, or a simulated cluster (`--simulate NODES`, `--seed N`).
struct ClusterSource {
    QStringList files;
    bool simulate = false;
    std::size_t simulatedNodes = 100000;
    std::uint64_t seed = 1;
};

/// Adds --simulate NODES and --seed N to `parser`, and the FILE... positional argument.
/// `simulateByDefault` must be what readClusterSource() is given: the help of --simulate says
/// that 100000 nodes are simulated when no FILE is given only where that is true.
void addClusterSourceOptions(QCommandLineParser& parser, bool simulateByDefault);

/// Reads the options added by addClusterSourceOptions(). With no file and no --simulate,
/// `simulateByDefault` decides (the GUI opens the simulated cluster; summary refuses).
/// Returns false and sets `error` for a bad number or a missing source.
bool readClusterSource(const QCommandLineParser& parser, bool simulateByDefault, ClusterSource& source, QString& error);

} // namespace fleet::app
