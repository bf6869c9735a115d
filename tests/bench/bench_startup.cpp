// SPDX-License-Identifier: Apache-2.0
// Startup of the fleetscope program: process start to the first frame of the cluster on
// screen, with its phases, for a simulated fleet (default 100,000 nodes). Prints figures;
// passes or fails nothing.
//
//   bench_startup [--nodes N] [--runs R] [--seed S]
//
// Runs `fleetscope --simulate N --quit-after-first-frame` R times (the first run also warms
// the page cache) and prints every run's phases and the median total. Uses $DISPLAY when it
// can be opened, else a private Xvfb (as `fleetscope screenshot` does).

#include "app/xvfb/privatexserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    fleet::app::PrivateXServer xserver;
    fleet::app::ensureXDisplay(xserver, 1400, 1000);
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("nodes"), QStringLiteral("Simulated nodes (default 100000)."),
        QStringLiteral("N"), QStringLiteral("100000")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("runs"), QStringLiteral("Runs (default 3)."), QStringLiteral("R"), QStringLiteral("3")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("seed"), QStringLiteral("Seed (default 1)."), QStringLiteral("S"), QStringLiteral("1")));
    parser.process(app);
    const int runs = std::max(1, parser.value(QStringLiteral("runs")).toInt());

    std::printf("bench_startup: fleetscope --simulate %s --seed %s --quit-after-first-frame, %d runs, display %s%s\n",
        qPrintable(parser.value(QStringLiteral("nodes"))), qPrintable(parser.value(QStringLiteral("seed"))), runs,
        qgetenv("DISPLAY").constData(), xserver.isRunning() ? " (private Xvfb)" : "");
    static const QRegularExpression totalRe(
        QStringLiteral("total: process start -> first cluster frame on screen\\s+([0-9.]+) ms"));
    std::vector<double> totals;
    for (int i = 0; i < runs; ++i) {
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(QStringLiteral(FLEETSCOPE_EXECUTABLE),
            { QStringLiteral("--simulate"), parser.value(QStringLiteral("nodes")), QStringLiteral("--seed"),
                parser.value(QStringLiteral("seed")), QStringLiteral("--quit-after-first-frame") });
        if (!p.waitForFinished(600'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            std::fprintf(stderr, "bench_startup: run %d failed (exit %d)\n", i + 1, p.exitCode());
            return 1;
        }
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        std::printf("run %d\n%s", i + 1, qPrintable(out));
        const auto m = totalRe.match(out);
        if (m.hasMatch())
            totals.push_back(m.captured(1).toDouble());
    }
    if (!totals.empty()) {
        std::sort(totals.begin(), totals.end());
        std::printf("median total (process start -> first cluster frame): %.1f ms over %zu runs (min %.1f, max %.1f)\n",
            totals[totals.size() / 2], totals.size(), totals.front(), totals.back());
    }
    return 0;
}
