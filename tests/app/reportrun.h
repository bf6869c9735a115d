// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the tests of `fleetscope report` (tst_clireport*.cpp) run, as a user runs it
// (fleetscoperun.h): a subcommand's JSON output (summary, plan check, plan consolidate), and a
// consolidation and its report (`plan consolidate` writes the plan, `report` reads it on the same
// state). Thread: the test's.

#include "fleetscoperun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace fleet::tests {

/// The JSON object `fleetscope ARGS...` writes on standard output ({} when it writes none). Exit
/// code 1 is taken too (plan check writes its JSON when some action does not hold); any other
/// is warned of with its standard error.
inline QJsonObject runFleetscopeJson(const QStringList& args)
{
    const FleetscopeRun r = runFleetscope(args);
    if (r.exitCode != 0 && r.exitCode != 1)
        qWarning("fleetscope %s: %s", qPrintable(args.join(QLatin1Char(' '))), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

/// `fleetscope report cluster.json --plan plan.json --prices prices.csv -o PDF` on the plan
/// fixtures (tests/data/plan/README.md): "" when it exits 0 saying "wrote ", else why not.
inline QString reportOfPlanFixtures(const QString& pdf)
{
    const QString data = QStringLiteral(FLEET_TEST_DATA_DIR "/plan/");
    const FleetscopeRun r = runFleetscope({ QStringLiteral("report"), data + QStringLiteral("cluster.json"), QStringLiteral("--plan"),
        data + QStringLiteral("plan.json"), QStringLiteral("--prices"), data + QStringLiteral("prices.csv"), QStringLiteral("-o"), pdf });
    if (r.exitCode != 0)
        return QStringLiteral("report exited %1: ").arg(r.exitCode) + QString::fromUtf8(r.err);
    return r.out.contains("wrote ") ? QString() : QStringLiteral("report did not say what it wrote: ") + QString::fromUtf8(r.out);
}

/// Runs `fleetscope plan consolidate SOURCE... OPTIONS... -o PLAN`, then `fleetscope report
/// SOURCE... --plan PLAN -o PDF` (`source`: the state's arguments, a file or --simulate N ...).
/// "" when both exit 0, else which did not, and its standard error. `consolidate`, when given,
/// receives the first run (with "--format json" among `options` its output is the search's JSON).
inline QString consolidateAndReport(const QStringList& source, const QString& plan, const QString& pdf, const QStringList& options = {},
                                    FleetscopeRun* consolidate = nullptr)
{
    const FleetscopeRun c = runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + source + options
        + QStringList { QStringLiteral("-o"), plan });
    if (consolidate)
        *consolidate = c;
    if (c.exitCode != 0)
        return QStringLiteral("plan consolidate exited %1: ").arg(c.exitCode) + QString::fromUtf8(c.err);
    const FleetscopeRun r
        = runFleetscope(QStringList { QStringLiteral("report") } + source + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("-o"), pdf });
    if (r.exitCode != 0)
        return QStringLiteral("report exited %1: ").arg(r.exitCode) + QString::fromUtf8(r.err);
    return {};
}

} // namespace fleet::tests
