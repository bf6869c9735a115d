// SPDX-License-Identifier: Apache-2.0
#include "planaddnodescommand.h"
#include "commandlinepath.h"
#include "plancommand.h"

#include "clustersource.h"
#include "outputpath.h"

#include "app/shared/importfailure.h"
#include "model/plan/planprices.h"

#include "importers/export/addnodesformat.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "model/plan/evictionrules.h"
#include "model/search/nodesneeded.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace fleet::app {

namespace {

constexpr const char* kPrefix = "fleetscope plan add-nodes: ";

} // namespace

int runPlanAddNodes(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Adds nodes of an instance type to a plan (an add-node action: each a copy of a node of that type in the cluster), "
        "or, with --fit-pending, works out how many such nodes the pending pods would take when placed by the default "
        "policy (best fit, largest first), and which pods would still not fit and why; the plan then holds an add-node per "
        "node group the pending pods need (each copying a healthy node of that group) and a move-pod for each pending pod placed. Exit status: 0 every pending pod "
        "placed, 1 some still do not fit, 2 an input cannot be read."));
    parser.addHelpOption();
    auto option = [&](const char* name, const char* help, const char* value) {
        parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value)));
    };
    option("instance-type", "The nodes' instance type (node.kubernetes.io/instance-type); the cluster must have one to copy.", "T");
    option("capacity-type", "Copy a node bought this way (on-demand, spot or reserved): its labels and price.", "C");
    option("domain", "The topology domain path to add them in (label=value steps joined by /); default: the cluster.", "PATH");
    option("count", "How many nodes to add.", "N");
    parser.addOption(QCommandLineOption(QStringLiteral("fit-pending"), QStringLiteral("Add as many as the pending pods take (computed).")));
    option("max-nodes", "With --fit-pending: the most nodes tried (default 1000).", "M");
    addPlanWriterOptions(parser);
    if (const int done = parsePlanVerb(parser, arguments, kPrefix, "add-nodes"); done >= 0)
        return done;
    auto fail = [](const std::string& what) {
        importers::printTerminalf(stderr, "%s%s\n", kPrefix, what.c_str());
        return 2;
    };
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return fail("--format: expected text or json, got \"" + format.toStdString() + "\"");
    if (!parser.isSet(QStringLiteral("instance-type")) || parser.value(QStringLiteral("instance-type")).isEmpty())
        return fail("--instance-type T is needed");
    const bool fit = parser.isSet(QStringLiteral("fit-pending"));
    if (fit == parser.isSet(QStringLiteral("count")))
        return fail("give either --count N or --fit-pending");
    int count = 1, maxNodes = 1000;
    bool ok = true;
    if (!fit)
        count = parser.value(QStringLiteral("count")).toInt(&ok);
    if (!ok || count < 1 || count > 100000)
        return fail("--count: expected a whole number from 1 to 100000, got \"" + parser.value(QStringLiteral("count")).toStdString() + "\"");
    if (parser.isSet(QStringLiteral("max-nodes")))
        maxNodes = parser.value(QStringLiteral("max-nodes")).toInt(&ok);
    if (!ok || maxNodes < 1 || maxNodes > 100000)
        return fail("--max-nodes: expected a whole number from 1 to 100000");
    if (!parser.isSet(QStringLiteral("output")))
        return fail("-o PLAN.json is needed");
    const std::string planPath = parser.value(QStringLiteral("output")).toStdString();
    const importers::OutputFileOptions planOutput = commandOutputOptions(parser);
    if (const std::string problem = outputTargetProblem("-o", planPath, planOutput); !problem.empty())
        return fail(problem);
    model::PlanAction action;
    action.type = model::ActionType::AddNode;
    action.instanceType = parser.value(QStringLiteral("instance-type")).toStdString();
    action.capacityType = parser.value(QStringLiteral("capacity-type")).toStdString();
    action.domain = parser.value(QStringLiteral("domain")).toStdString();
    action.count = count;

    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error))
        return fail(error.toStdString());
    importers::LoadedCluster loaded;
    importers::PlanDocument plan;
    try {
        loaded = loadClusterSource(source);
        plan.source = planSourceOf(source, loaded);
    } catch (const std::exception& e) {
        return fail(qPrintable(importFailureMessage(e, clusterSourceLabel(source))));
    }
    model::PriceTable prices;
    try {
        prices = importers::loadPriceTable(commandLinePath(parser.value(QStringLiteral("prices"))));
    } catch (const std::exception& e) {
        return fail(std::string("--prices: ") + importers::messageText(e));
    }
    const model::ClusterStore& store = *loaded.store;
    model::PlanEngine engine(store, *loaded.topology, model::planNodePrices(store, &prices));
    model::NodesNeededAnswer answer;
    // The node the next add-node would copy (model::templateNodeFor), said in the answer.
    auto nextTemplate = [&] {
        model::PlanAction probe = action;
        probe.count = 1;
        std::string name;
        if (const model::AppliedAction& added = engine.apply(probe); !added.nodesAdded.empty())
            name = std::string(store.nodeName(engine.state().nodeTemplate(added.nodesAdded.front())));
        engine.undo();
        return name;
    };
    std::string templateNode;
    std::vector<model::TemplateCopies> copies; // with --fit-pending: each template and its copies
    try {
        templateNode = nextTemplate();
        if (fit) {
            // One add-node per node group the pending pods need (model::fitPendingPerNodeGroup,
            // as the window's Add Nodes dialog asks it).
            const model::FitPendingAnswer fitted = model::fitPendingPerNodeGroup(engine, action, maxNodes);
            answer = fitted.answer;
            copies = fitted.copies;
            action.count = answer.nodes;
        } else if (action.count > 0) {
            (void)engine.apply(action); // refuses (throws) what the state lacks, as plan check would
        }
    } catch (const std::exception& e) {
        return fail(importers::messageText(e));
    }
    if (action.count > 0) {
        for (const model::AppliedAction& a : engine.applied())
            plan.actions.push_back(a.action);
        try {
            importers::writeOutputFile(planPath, importers::planJson(plan), planOutput);
        } catch (const std::exception& e) {
            return fail(importers::messageText(e));
        }
    }
    const model::PlanTotals& after = engine.state().totals();
    const model::PlanTotals& before = engine.state().totalsBefore();
    const importers::AddNodesOutcome outcome { store, action, templateNode, fit, copies, answer, after.costPerHour - before.costPerHour };
    if (format == QLatin1String("json"))
        std::cout << importers::addNodesJson(outcome);
    else
        std::cout << importers::addNodesText(outcome, parser.value(QStringLiteral("output")).toStdString());
    std::cout.flush();
    if (!std::cout)
        return fail("cannot write to standard output");
    return answer.unplaced.empty() ? 0 : 1;
}

} // namespace fleet::app
