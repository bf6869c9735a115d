// SPDX-License-Identifier: Apache-2.0
#include "fleetreport.h"
#include "reportplan.h"

#include "importers/export/evaluationformat.h"
#include "importers/plan/planevaluation.h"
#include "importers/quotedtext.h"
#include "model/accelerators.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/pendingdemand.h"
#include "model/report/reportfigures.h"
#include "model/search/consolidationbound.h"
#include "model/search/keptgroups.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace fleet::views {

namespace {

// The time of each section, for the benchmark's breakdown: QT_LOGGING_RULES="fleet.views.report.debug=true".
Q_LOGGING_CATEGORY(lcReportLayout, "fleet.views.report", QtInfoMsg)

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString share(double v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : q(model::formatShare(v));
}

// GPUs allocated as `plan check`, `summary` and the window's Plan dock write them
// (model::formatGpus(): three significant digits below 1,000, so a fraction of GPU shares or MIG
// slices shows there; whole GPUs from 1,000).
QString gpus(std::int64_t milli)
{
    return q(model::formatGpus(milli));
}

QString gpusWithShare(std::int64_t milli, double s)
{
    return gpus(milli) + QStringLiteral(" (") + share(s) + QLatin1Char(')');
}

// FGD's fragmented GPUs are an expectation, never a count: always two decimals ("31.29", "0.00",
// "1,525.62"), rounded half up from the milli-GPU `plan check --format json` and `summary
// --format json` give, so that a column of them reads alike.
QString fixedGpus(std::int64_t milli)
{
    const std::int64_t m = std::abs(milli);
    const std::int64_t hundredths = (m + 5) / 10;
    return (milli < 0 && hundredths > 0 ? QStringLiteral("\u2212") : QString()) + reportCount(hundredths / 100)
        + QStringLiteral(".%1").arg(hundredths % 100, 2, 10, QLatin1Char('0'));
}

QString fragmented(double gpus)
{
    return std::isnan(gpus) ? QStringLiteral("n/a (no GPU workload)") : fixedGpus(std::llround(gpus * 1000.0));
}

QString signedFragmented(double d)
{
    const std::int64_t milli = std::llround(d * 1000.0);
    return (milli >= 5 ? QStringLiteral("+") : QString()) + fixedGpus(milli);
}

QString signedCount(std::int64_t d)
{
    return d == 0 ? QStringLiteral("0") : (d > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + reportCount(std::abs(d));
}

QString signedDollars(double d)
{
    return std::abs(d) < 0.005 ? QStringLiteral("$0.00")
                               : (d > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + reportDollars(std::abs(d));
}

// A Change column's figure is the After minus the Before as the table prints them, so that a
// reader who checks the sums finds them exact: each side rounded as it is printed first (a
// difference of unrounded values was a cent or 0.01 off the printed ones).
std::int64_t printedCents(double dollars)
{
    return std::llround(dollars * 100.0);
}

QString dollarsChange(double before, double after)
{
    return signedDollars(static_cast<double>(printedCents(after) - printedCents(before)) / 100.0);
}

// fixedGpus()'s hundredths of a GPU (half up), of the milli-GPU fragmented() prints.
std::int64_t printedHundredths(double gpus)
{
    const std::int64_t milli = std::llround(gpus * 1000.0);
    const std::int64_t hundredths = (std::abs(milli) + 5) / 10;
    return milli < 0 ? -hundredths : hundredths;
}

QString fragmentedChange(double before, double after)
{
    return signedFragmented(static_cast<double>(printedHundredths(after) - printedHundredths(before)) / 100.0);
}

// GPUs allocated as gpus() prints them (model::formatGpus(): three significant digits below
// 1,000, whole from there), back in milli-GPU; their difference is written with every digit it
// has (12.3 - 1.23 is 11.07, where formatGpus() would write 11.1).
std::int64_t printedGpuMilli(std::int64_t milli)
{
    const QString text = gpus(std::abs(milli)).remove(QLatin1Char(','));
    const std::int64_t printed = std::llround(text.toDouble() * 1000.0);
    return milli < 0 ? -printed : printed;
}

QString gpusChange(std::int64_t beforeMilli, std::int64_t afterMilli)
{
    const std::int64_t d = printedGpuMilli(afterMilli) - printedGpuMilli(beforeMilli);
    return d == 0 ? QStringLiteral("0") : (d > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + reportMilli(std::abs(d));
}


// What a plan does to nodes: drains them (a consolidation), fails them (a what-if), or both.
struct PlanKind {
    bool drains = false;
    bool failures = false;
    [[nodiscard]] bool failureOnly() const noexcept { return failures && !drains; }
    // "freed", "failed" or "freed or failed": what happens to the nodes the plan removes.
    [[nodiscard]] QString removed() const
    {
        return failures ? (drains ? QStringLiteral("freed or failed") : QStringLiteral("failed")) : QStringLiteral("freed");
    }
};

PlanKind planKind(const FleetReportInput& in)
{
    PlanKind k;
    if (!in.evaluation)
        return k;
    for (const model::AppliedAction& a : *in.actions) {
        k.drains = k.drains || a.action.type == model::ActionType::DrainNode;
        k.failures = k.failures || a.action.type == model::ActionType::FailNode || a.action.type == model::ActionType::FailDomain;
    }
    return k;
}

// What the figures' "GPUs" count, under the table: the nvidia.com/gpu resource (summary's
// allocatable.gpu, plan check's gpus). The window's status bar counts physical GPUs, a
// MIG-partitioned GPU once (summary's accelerators.gpus): where the two differ, by how many and why.
void gpuDefinitionNote(const FleetReportInput& in, ReportPages& pages, std::int64_t gpus)
{
    const model::AcceleratorTotals a = model::acceleratorTotals(*in.store);
    if (gpus == 0 && a.migPartitionedGpus == 0)
        return;
    QString note = QStringLiteral("GPUs: allocatable nvidia.com/gpu, whole GPUs (summary's allocatable.gpu, plan check's gpus).");
    if (a.migPartitionedGpus > 0)
        note += QStringLiteral(" %1 more GPUs are partitioned into MIG slices (%2 slices, %3 requested), which these figures leave "
                               "out; the window's status bar counts each physical GPU once, MIG-partitioned or not: %4 in use / %5 "
                               "(summary's accelerators.gpus_requested / gpus).")
                    .arg(reportCount(a.migPartitionedGpus), reportCount(a.migSlicesAllocatable), reportCount(a.migSlicesRequested),
                        reportMilli(a.physicalGpusRequestedMilli()), reportMilli(a.physicalGpusMilli()));
    pages.addParagraph(note, 8);
}

void figuresSection(const FleetReportInput& in, const ReportSectionFigures& figures, ReportPages& pages)
{
    const model::FleetFigures& b = figures.before;
    const bool plan = in.evaluation != nullptr;
    pages.addHeading(plan ? QStringLiteral("Figures, before \u2192 after the plan") : QStringLiteral("Figures"), 2);
    ReportPages::Table t;
    t.fontSize = 8.5;
    const QString idleBefore = b.idleAllocatedGpus < 0 ? QStringLiteral("no usage data") : reportCount(b.idleAllocatedGpus);
    // Without any price, a cost would read $0.00: unknown, and why.
    const QString unknown = QStringLiteral("unknown: no prices known for these nodes");
    auto dollars = [&](double v) { return in.hasPrices ? reportDollars(v) : unknown; };
    auto dollarChange = [&](double before, double after) { return in.hasPrices ? dollarsChange(before, after) : QString(); };
    if (!plan) {
        t.header = { QStringLiteral("Figure"), QStringLiteral("Value") };
        t.columnShares = { 0.45, 0.55 };
        t.rows = {
            { QStringLiteral("Nodes"), reportCount(b.nodes) },
            { QStringLiteral("Nodes in use"), reportCount(b.nodesInUse) },
            { QStringLiteral("GPUs"), reportCount(b.gpus) },
            { QStringLiteral("GPUs allocated"), gpusWithShare(b.gpuMilliAllocated, b.gpuAllocatedShare) },
            { QStringLiteral("Idle allocated GPUs"), idleBefore },
            { QStringLiteral("Fragmented GPUs (FGD)"), fragmented(b.fragmentedGpus) },
            { QStringLiteral("Pending pods"), reportCount(b.pendingPods) },
            { QStringLiteral("Cost per hour"), dollars(b.costPerHour) },
            { QStringLiteral("Cost per month (730 h)"), dollars(b.costPerMonth()) },
        };
        pages.addTable(t);
        gpuDefinitionNote(in, pages, b.gpus);
        return;
    }
    const model::FleetFigures& a = figures.after;
    const PlanKind kind = planKind(in);
    // A failure loses capacity, it saves nothing: its cost change says so.
    auto costChange = [&](double before, double after) {
        const QString d = dollarChange(before, after);
        return kind.failureOnly() && !d.isEmpty() && printedCents(after) < printedCents(before) ? d + QStringLiteral(" (capacity lost)") : d;
    };
    t.header = { QStringLiteral("Figure"), QStringLiteral("Before"), QStringLiteral("After"), QStringLiteral("Change") };
    // The first column holds its longest label ("Terminating pods removed with their nodes") on one line.
    t.columnShares = { 0.4, 0.19, 0.19, 0.22 };
    t.rows = {
        { QStringLiteral("Nodes"), reportCount(b.nodes), reportCount(a.nodes), signedCount(a.nodes - b.nodes) },
        { QStringLiteral("Nodes ") + kind.removed(), QString(), reportCount(std::max<std::int64_t>(0, b.nodes - a.nodes)), QString() },
        { QStringLiteral("Nodes in use"), reportCount(b.nodesInUse), reportCount(a.nodesInUse), signedCount(a.nodesInUse - b.nodesInUse) },
        { QStringLiteral("GPUs"), reportCount(b.gpus), reportCount(a.gpus), signedCount(a.gpus - b.gpus) },
        { QStringLiteral("GPUs allocated"), gpusWithShare(b.gpuMilliAllocated, b.gpuAllocatedShare),
            gpusWithShare(a.gpuMilliAllocated, a.gpuAllocatedShare), gpusChange(b.gpuMilliAllocated, a.gpuMilliAllocated) },
        { QStringLiteral("Idle allocated GPUs"), idleBefore, b.idleAllocatedGpus < 0 ? QString() : QStringLiteral("(measured, not planned)"),
            QString() },
        { QStringLiteral("Fragmented GPUs (FGD)"), fragmented(b.fragmentedGpus), fragmented(a.fragmentedGpus),
            std::isnan(a.fragmentedGpus) || std::isnan(b.fragmentedGpus) ? QString() : fragmentedChange(b.fragmentedGpus, a.fragmentedGpus) },
        { QStringLiteral("Pending pods"), reportCount(b.pendingPods), reportCount(a.pendingPods), signedCount(a.pendingPods - b.pendingPods) },
        { QStringLiteral("Pods without a node"), reportCount(b.podsWithoutNode), reportCount(a.podsWithoutNode),
            signedCount(a.podsWithoutNode - b.podsWithoutNode) },
        // They go with their node (nothing re-places them): beside, not among, the pods without a
        // node, as `plan check` gives them (daemonSetPodsRemovedWithNodes and
        // terminatingPodsRemovedWithNodes, whose sum is its podsRemovedWithNodes) and the Plan dock
        // shows them. Terminating pods are leaving anyway: a row of their own.
        { QStringLiteral("DaemonSet pods removed with their nodes"), reportCount(b.podsRemovedWithNodes - b.terminatingRemovedWithNodes),
            reportCount(a.podsRemovedWithNodes - a.terminatingRemovedWithNodes),
            signedCount((a.podsRemovedWithNodes - a.terminatingRemovedWithNodes) - (b.podsRemovedWithNodes - b.terminatingRemovedWithNodes)) },
        { QStringLiteral("Cost per hour"), dollars(b.costPerHour), in.hasPrices ? dollars(a.costPerHour) : QString(),
            costChange(b.costPerHour, a.costPerHour) },
        { QStringLiteral("Cost per month (730 h)"), dollars(b.costPerMonth()), in.hasPrices ? dollars(a.costPerMonth()) : QString(),
            costChange(b.costPerMonth(), a.costPerMonth()) },
    };
    if (a.terminatingRemovedWithNodes > 0 || b.terminatingRemovedWithNodes > 0)
        t.rows.insert(t.rows.end() - 2,
            QStringList { QStringLiteral("Terminating pods removed with their nodes"), reportCount(b.terminatingRemovedWithNodes),
                reportCount(a.terminatingRemovedWithNodes), signedCount(a.terminatingRemovedWithNodes - b.terminatingRemovedWithNodes) });
    pages.addTable(t);
    gpuDefinitionNote(in, pages, b.gpus);
    if (in.hasPrices && in.pricedNodes < b.nodes)
        pages.addParagraph(QStringLiteral("%1 of the %2 nodes have no known price (or a price of $0): they count $0 in the costs.")
                               .arg(reportCount(b.nodes - in.pricedNodes), reportCount(b.nodes)),
            8);
    // Beside a consolidation (a plan that drains nodes): the lower bound, over the loaded state
    // with the pending pods where the plan placed them first, as `plan consolidate` computes it
    // (pendingPodsPlaced()), and the Karpenter multi-node baseline when the caller ran it.
    if (!figures.bound)
        return;
    const model::NodeCountBound& bound = *figures.bound;
    // Each figure over the better (larger) of the two bounds, as `plan consolidate` gives it.
    const std::int64_t better = std::max(bound.nodes, in.lpBoundNodes);
    auto ratio = [&](std::int64_t nodes) {
        return better > 0 ? QString::number(static_cast<double>(nodes) / static_cast<double>(better), 'f', 3) : QStringLiteral("n/a");
    };
    // The heading names what the table holds: the baseline only when it was run (--no-baseline
    // leaves it out), the LP bound when the search recorded one.
    const QString bounds = in.lpBoundNodes >= 0 ? QStringLiteral("the lower bounds") : QStringLiteral("the lower bound");
    pages.addHeading(in.baseline ? QStringLiteral("Beside the plan: the Karpenter baseline and ") + bounds : QStringLiteral("Beside the plan: ") + bounds, 3);
    ReportPages::Table c;
    c.fontSize = 8.5;
    c.header = { QString(), QStringLiteral("Nodes after"), QStringLiteral("Nodes freed"), QStringLiteral("Saved per hour"),
        QStringLiteral("Nodes / bound") };
    c.columnShares = { 0.36, 0.16, 0.16, 0.16, 0.16 };
    c.rows.push_back({ QStringLiteral("This plan"), reportCount(a.nodes), reportCount(std::max<std::int64_t>(0, b.nodes - a.nodes)),
        // Saved: the Before minus the After as the figures table prints them.
        in.hasPrices ? reportDollars(static_cast<double>(printedCents(b.costPerHour) - printedCents(a.costPerHour)) / 100.0) : QStringLiteral("unknown"),
        ratio(a.nodes) });
    if (in.baseline)
        c.rows.push_back({ QStringLiteral("Karpenter multi-node baseline"), reportCount(in.baseline->after.nodes),
            reportCount(in.baseline->nodesFreed), in.hasPrices ? reportDollars(in.baseline->savedPerHour) : QStringLiteral("unknown"),
            ratio(in.baseline->after.nodes) });
    c.rows.push_back({ QStringLiteral("Lower bound on the node count"), reportCount(bound.nodes), reportCount(std::max<std::int64_t>(0, b.nodes - bound.nodes)),
        QString(), ratio(bound.nodes) });
    if (in.lpBoundNodes >= 0)
        c.rows.push_back({ QStringLiteral("LP bound on the node count"), reportCount(in.lpBoundNodes),
            reportCount(std::max<std::int64_t>(0, b.nodes - in.lpBoundNodes)), QString(), ratio(in.lpBoundNodes) });
    pages.addTable(c);
    pages.addParagraph(QStringLiteral("The lower bound: the volume of requests per GPU model, cpu and memory over the largest node, and "
                                      "the nodes that cannot be drained (no plan can keep fewer nodes). ")
            + (in.lpBoundNodes >= 0 ? QStringLiteral("The LP bound: the linear relaxation of the packing that knows which pods may go "
                                                     "where (taints, selectors, node affinity, GPU model) and every resource at once, solved "
                                                     "with COIN-OR Clp by the search that wrote the plan and recorded in its file. Nodes / "
                                                     "bound is over the better (larger) of the two bounds. ")
                                    : QString())
            + (in.baseline ? QStringLiteral("The baseline: Karpenter's emptiness and multi-node consolidation (deletion only: every node "
                                            "without a reschedulable pod, then batches of up to 100 candidates by disruption cost, the "
                                            "longest prefix that can go), run on the same loaded state "
                                            "and prices as `plan consolidate` runs it.")
                           : QStringLiteral("The Karpenter baseline was not computed for this report."))
            + (in.hasPrices ? QString() : QStringLiteral(" Savings are unknown: no prices known for these nodes.")),
        8);
}


// One group of nodes that stay: its code and count, then each example in a row of its own, so
// that no cell grows to ReportPages::kMaxCellChars and is cut (a message is wrapped, whole).
void addStayRows(ReportPages::Table& t, const QString& code, std::int64_t nodes, const QStringList& examples)
{
    t.rows.push_back({ code, reportCount(nodes), examples.value(0) });
    for (qsizetype i = 1; i < examples.size(); ++i)
        t.rows.push_back({ QString(), QString(), examples[i] });
}

void staySection(const FleetReportInput& in, ReportPages& pages)
{
    if (!in.evaluation)
        return;
    const auto& applied = *in.actions;
    const PlanKind kind = planKind(in);
    if (!kind.drains) {
        pages.addHeading(QStringLiteral("Why nodes stay"), 2);
        pages.addParagraph(kind.failures ? QStringLiteral("The plan drains no node: a failure what-if keeps every node that does not fail.")
                                         : QStringLiteral("The plan removes no node."),
            8.5);
        return;
    }
    ReportPages::Table t;
    t.header = { QStringLiteral("Reason"), QStringLiteral("Nodes"), QStringLiteral("First examples") };
    t.columnShares = { 0.26, 0.1, 0.64 };
    if (in.kept) {
        // The consolidation search's own reasons, grouped as `plan consolidate` and the window's
        // Consolidate dialog group them (keptgroups.h): the same counts.
        pages.addHeading(QStringLiteral("Why nodes stay"), 2);
        pages.addParagraph(QStringLiteral("Every node the consolidation keeps, by the reason its search found, grouped as `plan consolidate` "
                                          "and the window's Consolidate dialog group them (the search's %1 order, %2).")
                               .arg(q(in.kept->order),
                                   in.keptRecorded ? QStringLiteral("as the search recorded it in the plan file")
                                                   : QStringLiteral("replayed on the loaded state")),
            8.5);
        std::map<std::string, QStringList> examples;
        for (const model::KeptNode& k : in.kept->kept) {
            QStringList& e = examples[model::keptGroupCode(k.reason)];
            if (e.size() < 3)
                e << q(std::string(in.store->nodeName(k.node))) + QStringLiteral(": ") + q(k.reason.message);
        }
        for (const model::KeptGroup& g : model::keptByCode(in.kept->kept))
            addStayRows(t, q(g.code), g.nodes, examples[g.code]);
        pages.addTable(t);
        return;
    }
    // Neither the plan file's record nor the search run again on this state gives the plan's
    // drains (written by hand, edited, made on another state, or a search stopped by a limit):
    // there are no search's reasons to give, so the section says what it shows instead.
    pages.addHeading(QStringLiteral("What holds the nodes the plan keeps"), 2);
    const std::vector<model::StayReason> reasons = model::whyNodesStay(in.engine->state(), applied, *in.context, 3);
    pages.addParagraph(QStringLiteral("These are not the reasons of a consolidation search (as `plan consolidate` gives them): the "
                                      "plan's drains are not those a search makes on this state (a plan written by hand or edited, made "
                                      "on another state, or a search stopped by a limit). Instead, every node the plan keeps, by the "
                                      "first reason found under the plan: an action on it that does not hold, a pod whose eviction is "
                                      "refused, prepaid capacity, a node that receives pods the plan moves or pending pods it places; "
                                      "else not-in-plan."),
        8.5);
    for (const model::StayReason& r : reasons) {
        QStringList examples;
        for (const auto& [node, message] : r.examples)
            examples << q(node) + QStringLiteral(": ") + q(message);
        addStayRows(t, q(r.code), r.nodes, examples);
    }
    pages.addTable(t);
}

void riskSection(const FleetReportInput& in, ReportPages& pages)
{
    if (!in.evaluation)
        return;
    const model::PlanRisks r = in.risks ? *in.risks : model::planRisks(*in.store, *in.actions);
    std::int64_t localStorage = 0; // the evictions' local-storage notes (evictionrules.h), one per pod
    for (const model::AppliedAction& a : *in.actions)
        for (const model::Reason& reason : a.reasons)
            localStorage += reason.kind == model::ReasonKind::LocalStorage ? 1 : 0;
    const PlanKind kind = planKind(in);
    ReportPages::Table t;
    t.header = { QStringLiteral("Risk"), QStringLiteral("Count"), QStringLiteral("Which") };
    t.columnShares = { 0.3, 0.12, 0.58 };
    auto failureRows = [&] {
        t.rows.push_back({ QStringLiteral("Nodes failed (lost)"), reportCount(r.nodesFailed), QString() });
        t.rows.push_back({ QStringLiteral("Pods re-placed on other nodes"), reportCount(r.podsReplaced), QString() });
        t.rows.push_back({ QStringLiteral("Pods stranded by failures"), reportCount(r.podsStranded), QString() });
        t.rows.push_back({ QStringLiteral("GPUs lost with failed nodes"), reportMilli(r.gpuMilliLost), QString() });
    };
    if (kind.failureOnly()) {
        // A failure evicts no one: no budget is spent and no do-not-disrupt pod is evicted
        // (budgets do not apply to failures, plan-v1); what it costs is capacity and pods.
        pages.addHeading(QStringLiteral("What the failures cost"), 2);
        failureRows();
        pages.addTable(t);
        pages.addParagraph(QStringLiteral("PodDisruptionBudgets and do-not-disrupt annotations do not apply to failures: a failed node's "
                                          "pods are not evicted, they lose their node."),
            8);
        return;
    }
    pages.addHeading(QStringLiteral("What the plan risks"), 2);
    QStringList budgets;
    for (std::size_t i = 0; i < r.budgets.size() && i < 5; ++i)
        budgets << QStringLiteral("%1 (%2 of %3 allowed)").arg(q(r.budgets[i].name)).arg(r.budgets[i].spent).arg(r.budgets[i].allowed);
    if (r.budgets.size() > 5)
        budgets << QStringLiteral("and %1 more").arg(reportCount(static_cast<std::int64_t>(r.budgets.size() - 5)));
    auto names = [](const std::vector<std::string>& v) {
        QStringList out;
        for (const std::string& s : v)
            out << q(s);
        return out.join(QStringLiteral(", "));
    };
    t.rows = {
        { QStringLiteral("PodDisruptionBudgets spent"), reportCount(static_cast<std::int64_t>(r.budgets.size())), budgets.join(QStringLiteral(", ")) },
        { QStringLiteral("Do-not-disrupt pods evicted"), reportCount(r.doNotDisruptPods), names(r.doNotDisruptExamples) },
        { QStringLiteral("Gangs moved (pods)"), reportCount(r.gangsMoved) + QStringLiteral(" (") + reportCount(r.gangPodsMoved) + QLatin1Char(')'),
            names(r.gangExamples) },
        { QStringLiteral("Nodes cordoned and drained"), reportCount(r.nodesCordoned), QString() },
        { QStringLiteral("Pods whose emptyDir data is deleted"), reportCount(localStorage), QString() },
    };
    if (kind.failures)
        failureRows();
    pages.addTable(t);
    if (kind.failures)
        pages.addParagraph(QStringLiteral("Budgets, do-not-disrupt pods and gangs count the plan's drains and moves only: they do not apply "
                                          "to failures."),
            8);
}

// A pod's PodScheduled message in kube-scheduler's FitError form ("0/100000 nodes are
// available: 144 Insufficient nvidia.com/gpu, 99856 node(s) didn't match ..."), its counts
// written as the report writes every count ("0/100,000", "99,856"); any other message as is.
// Only whole numbers are touched: digits inside a name (H100-80GB, ip-10-1-2-3) are not counts.
QString schedulerMessageText(const std::string& message)
{
    static const QRegularExpression fitError(QStringLiteral("^\\d+/\\d+ nodes are available"));
    static const QRegularExpression count(QStringLiteral("(?<![\\w.\\-])\\d{4,18}(?![\\w.\\-])"));
    QString text = q(message);
    if (!fitError.match(text).hasMatch())
        return text;
    QString out;
    qsizetype at = 0;
    for (auto it = count.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        out += reportCount(m.captured().toLongLong());
        at = m.capturedEnd();
    }
    out += text.mid(at);
    return out;
}

void wasteSection(const FleetReportInput& in, const ReportSectionFigures& figures, ReportPages& pages)
{
    // Both tables are of the loaded state: beside a plan, say so (a reader took the 8,748 pending
    // pods' shapes for what stays pending after the plan, which places 3,572 of them).
    const QString loaded = in.evaluation ? QStringLiteral(", before the plan") : QString();
    pages.addHeading(QStringLiteral("Idle and fragmented GPUs by domain (top ten%1)").arg(loaded), 2);
    const std::vector<model::DomainWaste>& waste = figures.waste;
    if (waste.empty()) {
        pages.addParagraph(QStringLiteral("No domain has fragmented or idle allocated GPUs."), 8.5);
    } else {
        ReportPages::Table t;
        t.header = { QStringLiteral("Domain"), QStringLiteral("Nodes"), QStringLiteral("GPUs"), QStringLiteral("Fragmented"),
            QStringLiteral("Idle allocated"), QStringLiteral("Unallocated") };
        t.columnShares = { 0.45, 0.09, 0.1, 0.12, 0.12, 0.12 };
        for (const model::DomainWaste& w : waste)
            t.rows.push_back({ reportDomainText(*in.topology, w.domain), reportCount(w.nodes), reportCount(w.gpus),
                fixedGpus(std::llround(w.fragmentedGpus * 1000.0)),
                w.idleAllocatedGpus < 0 ? QStringLiteral("n/a") : reportCount(w.idleAllocatedGpus), reportCount(w.unallocatedGpus) });
        pages.addTable(t);
    }
    pages.addHeading(QStringLiteral("Pending demand by shape") + (in.evaluation ? QStringLiteral(" (before the plan)") : QString()), 2);
    const std::vector<model::PendingShape> shapes = model::groupPendingPods(*in.store);
    if (shapes.empty()) {
        pages.addParagraph(QStringLiteral("No pod is pending."), 8.5);
        return;
    }
    ReportPages::Table t;
    t.header = { QStringLiteral("Pods"), QStringLiteral("CPU each"), QStringLiteral("Memory each"), QStringLiteral("GPU each"),
        QStringLiteral("GPU model"), QStringLiteral("Gated"), QStringLiteral("Why (most common)") };
    t.columnShares = { 0.08, 0.1, 0.11, 0.08, 0.13, 0.07, 0.43 };
    const std::size_t shown = std::min<std::size_t>(shapes.size(), 20);
    // A shape is its whole request (ephemeral storage and extended resources too, exact
    // amounts): two shapes can read alike in the rounded columns. Such rows say what tells them
    // apart, first in their "Why" cell.
    std::vector<QStringList> columns(shown);
    std::map<QStringList, int> alike;
    for (std::size_t i = 0; i < shown; ++i) {
        const model::PendingShape& s = shapes[i];
        columns[i] = { q(model::formatCpuMillicores(s.request[model::CoreResource::Cpu])), q(model::formatBytes(s.request[model::CoreResource::Memory])),
            reportMilli(s.request[model::CoreResource::Gpu]), s.gpuModel.empty() ? QStringLiteral("any") : q(s.gpuModel) };
        ++alike[columns[i]];
    }
    auto otherRequests = [&](const model::PendingShape& s) {
        QStringList parts;
        if (const std::int64_t storage = s.request[model::CoreResource::EphemeralStorage]; storage > 0)
            parts << QStringLiteral("ephemeral-storage ") + q(model::formatBytes(storage));
        if (!s.pods.empty())
            for (const auto& [key, amount] : in.store->podExtendedRequest(s.pods.front()))
                parts << q(in.store->resources().name(key)) + QLatin1Char(' ') + reportCount(amount);
        // Nothing else: said so, with the exact amounts the rounded columns may hide.
        if (parts.isEmpty())
            return QStringLiteral("Also asks: no ephemeral storage or extended resource (exactly cpu %1m, memory %2 bytes).")
                .arg(reportCount(s.request[model::CoreResource::Cpu]), reportCount(s.request[model::CoreResource::Memory]));
        return QStringLiteral("Also asks: ") + parts.join(QStringLiteral(", ")) + QLatin1Char('.');
    };
    bool anyAlike = false;
    for (std::size_t i = 0; i < shown; ++i) {
        const model::PendingShape& s = shapes[i];
        QString why = schedulerMessageText(s.reason);
        if (alike[columns[i]] > 1) {
            anyAlike = true;
            why = otherRequests(s) + (why.isEmpty() ? QString() : QLatin1Char('\n') + why);
        }
        t.rows.push_back({ reportCount(static_cast<std::int64_t>(s.podCount)), columns[i][0], columns[i][1], columns[i][2], columns[i][3],
            reportCount(static_cast<std::int64_t>(s.gatedPods)), why });
    }
    pages.addTable(t);
    if (anyAlike)
        pages.addParagraph(QStringLiteral("A shape is the whole request of its pods: rows that read alike above ask for other amounts "
                                          "of what their \"Also asks\" gives."),
            8);
    if (shapes.size() > 20)
        pages.addParagraph(QStringLiteral("And %1 more shapes.").arg(reportCount(static_cast<std::int64_t>(shapes.size() - 20))), 8.5);
}

void mapsSection(const FleetReportInput& in, ReportPages& pages)
{
    pages.addHeading(QStringLiteral("The map"), 1);
    // The nesting is the topology's own levels (a trace may be nested by GPU model, a fleet by
    // region, zone and network layer): named by their keys, outermost first.
    QString nesting = QStringLiteral("not nested (the topology has no levels)");
    if (in.topology && !in.topology->levelKeys().empty()) {
        QStringList keys;
        for (int level = 1; level <= static_cast<int>(in.topology->levelKeys().size()); ++level)
            keys << reportSafeText(q(model::levelUserKey(*in.topology, level)));
        nesting = QStringLiteral("nested by the topology's levels, outermost first: %1").arg(keys.join(QStringLiteral(", ")));
    }
    pages.addParagraph(QStringLiteral("Every node is one cell, %1; one cell is one node at any "
                                      "size. Colours: %2 (viridis; the legend at the right of each map gives the scale). ")
                           .arg(nesting, in.maps.metricTitle),
        8.5);
    const qreal height = in.maps.after.isNull() ? 520 : 330;
    if (in.maps.before.isNull()) {
        pages.addParagraph(QStringLiteral("The map could not be rendered (no OpenGL)."), 9, true);
        return;
    }
    pages.addImage(in.maps.before, height, in.evaluation ? QStringLiteral("Before the plan: the loaded state.") : QStringLiteral("The loaded state."));
    if (!in.maps.markerKey.isEmpty())
        pages.addParagraph(QStringLiteral("Markers drawn over the cells, as in the window: ") + in.maps.markerKey.join(QStringLiteral(", "))
                + QLatin1Char('.'),
            8);
    if (!in.maps.after.isNull())
        pages.addImage(in.maps.after, height,
            QStringLiteral("After the plan (%1): nodes the plan removes are grey (not applicable), crossed in black where a cell is a few pixels across.").arg(in.maps.afterTitle));
    if (!in.maps.planKey.isEmpty())
        pages.addParagraph(QStringLiteral("The plan's marks on the maps under it, inside the cells so that their colours stay readable: ")
                + in.maps.planKey.join(QStringLiteral(", "))
                + QStringLiteral(". Removed (drained or failed) nodes have a black cross, emptied ones a white cross; the nodes pods "
                                 "move to or from, or pending pods are placed on, an amber outline and moves applied although they do not fit (overrides) a red one, "
                                 "where the cells are large enough to keep their colour inside (the zoomed maps)."),
            8);
    if (!in.maps.difference.isNull())
        pages.addImage(in.maps.difference, height,
            QStringLiteral("The plan's difference: after minus before (blue less, red more; cool-to-warm), with the plan's marks."));
    if (!in.maps.difference.isNull() && !in.maps.differenceScale.isEmpty())
        pages.addParagraph(in.maps.differenceScale, 8);
    if (in.maps.zoomed.empty())
        return;
    pages.addHeading(QStringLiteral("Where the plan changes most"), 2);
    const PlanKind kind = planKind(in);
    // A failure displaces pods (re-placed or stranded); a drain or a move moves them.
    const QString pods = kind.failureOnly() ? QStringLiteral("displaced") : QStringLiteral("moved");
    const QString domains = in.maps.zoomed.size() == 1
        ? QStringLiteral("the domain")
        : QStringLiteral("the %1 domains").arg(reportCount(static_cast<std::int64_t>(in.maps.zoomed.size())));
    pages.addParagraph(QStringLiteral("The map zoomed to %1 the plan changes most (most nodes %2, then most pods %3, then most pending "
                                      "or new pods placed), before and after the plan, each with its legend and scale.")
                           .arg(domains, kind.removed(), pods),
        8.5);
    for (const ZoomedMaps& z : in.maps.zoomed) {
        // What changed here, and only that: a placement moves no pod and frees no node.
        QStringList changed;
        if (z.nodesFreed > 0 || z.podsMoved > 0)
            changed << reportCounted(z.nodesFreed, "node ", "nodes ") + kind.removed() << reportCounted(z.podsMoved, "pod ", "pods ") + pods;
        // Pending pods given a node here had none to move from: counted apart, not as moved.
        if (z.pendingPlaced > 0)
            changed << reportCounted(z.pendingPlaced, "pending pod placed", "pending pods placed");
        if (z.podsAdded > 0)
            changed << reportCounted(z.podsAdded, "new pod placed", "new pods placed");
        const QString what = QStringLiteral("%1 (%2): %3").arg(z.domain, reportCounted(z.nodes, "node", "nodes"), changed.join(QStringLiteral(", ")));
        pages.addImage(z.before, 300, QStringLiteral("Before the plan: ") + what + QLatin1Char('.'));
        pages.addImage(z.after, 300,
            QStringLiteral("After the plan: ") + what + QLatin1Char('.')
                + (z.afterPlanKey.isEmpty() ? QString() : QStringLiteral(" Plan marks here: ") + z.afterPlanKey.join(QStringLiteral(", ")) + QLatin1Char('.')));
    }
}

} // namespace

// Under the title, before anything a reader could take for a valid review: how many of the
// plan's actions do not hold on this state (the figures after apply only those that do, as
// `plan check` replays the plan), and that the plan was made on another state where it was.
void notHoldingBanner(const FleetReportInput& in, ReportPages& pages)
{
    if (!in.evaluation)
        return;
    const auto& actions = *in.actions;
    const auto broken = std::count_if(actions.begin(), actions.end(), [](const model::AppliedAction& a) { return !a.holds; });
    if (broken == 0)
        return;
    const QString counts = QStringLiteral("%1 of %2 %3").arg(reportCount(broken), reportCount(static_cast<std::int64_t>(actions.size())),
        actions.size() == 1 ? QStringLiteral("action does not hold") : broken == 1 ? QStringLiteral("actions does not hold") : QStringLiteral("actions do not hold"));
    const QString head = in.planNote.isEmpty()
        ? QStringLiteral("This plan does not hold on this cluster state: %1 here.").arg(counts)
        : QStringLiteral("This plan was made on another cluster state: %1 here.").arg(counts);
    // Okabe-Ito vermillion, darkened for text: the rows that do not hold are filled in its light tint.
    pages.addParagraph(head, 12, true, QColor(0xa8, 0x3c, 0x00));
    // What the figures after show of them, by what the engine did with each (as `plan check`
    // words each action: notHoldingEffectText()): a failure is applied whole and strands pods.
    std::int64_t notApplied = 0, stranding = 0, partial = 0;
    for (const model::AppliedAction& a : actions) {
        if (a.holds)
            continue;
        switch (importers::notHoldingEffect(a)) {
        case importers::NotHoldingEffect::NotApplied: ++notApplied; break;
        case importers::NotHoldingEffect::Stranding: ++stranding; break;
        case importers::NotHoldingEffect::Partial: ++partial; break;
        }
    }
    QStringList what;
    if (stranding > 0)
        what << (stranding == 1 ? QStringLiteral("The failure that does not hold is applied all the same: its nodes are gone, and the pods "
                                                 "that found no other node are left without one (\"Pods without a node\" in the figures).")
                                : QStringLiteral("The %1 failures that do not hold are applied all the same: their nodes are gone, and the pods "
                                                 "that found no other node are left without one (\"Pods without a node\" in the figures).")
                                      .arg(reportCount(stranding)));
    if (partial > 0)
        what << (partial == 1 ? QStringLiteral("1 action is applied in part")
                              : QStringLiteral("%1 actions are applied in part").arg(reportCount(partial)))
                + QStringLiteral(" (a drain moves the pods that can go and its node stays, cordoned; a move that does not fit is "
                                 "applied by override; a placement places what fits).");
    if (notApplied > 0)
        what << (notApplied == 1 ? QStringLiteral("1 action is not applied: the figures and maps after the plan leave it out.")
                                 : QStringLiteral("%1 actions are not applied: the figures and maps after the plan leave them out.")
                                       .arg(reportCount(notApplied)));
    what << QStringLiteral("\"The plan\" lists each action with what was applied of it and its reasons. `fleetscope plan check` and "
                           "`fleetscope report` exit with status 1 for this plan on this state.");
    pages.addParagraph(what.join(QLatin1Char(' ')), 9, false, QColor(0xa8, 0x3c, 0x00));
}

ReportSectionFigures reportSectionFigures(const FleetReportInput& in)
{
    ReportSectionFigures out;
    const model::PlanLedger& state = in.engine->state();
    out.before = model::figuresBefore(state, *in.context, in.usage);
    if (in.evaluation)
        out.after = model::figuresAfter(state, *in.context, in.usage);
    // Beside a consolidation (a plan that drains nodes): the lower bound, over the loaded state
    // with the pending pods where the plan placed them first (pendingPodsPlaced()).
    const bool drains = in.evaluation && std::any_of(in.engine->applied().begin(), in.engine->applied().end(), [](const model::AppliedAction& x) {
        return x.action.type == model::ActionType::DrainNode;
    });
    if (drains)
        out.bound = model::nodeCountLowerBound(*in.store, model::pendingPodsPlaced(*in.store, in.engine->applied()));
    out.waste = model::gpuWasteByDomain(*in.topology, *in.context, in.usage, 10);
    return out;
}

namespace {

void headSections(const FleetReportInput& in, const ReportSectionFigures& figures, ReportPages& pages)
{
    // Text from the input (file names, plan names, a document's source label) is shown as
    // escapedText() shows it on a terminal: a newline or ESC in a name cannot add a line that
    // looks like the report's own ("FAKE: approved by SRE" under the title).
    QStringList provenance;
    for (const QString& line : in.provenance)
        provenance.push_back(reportSafeText(line));
    pages.addHeading(reportSafeText(in.title), 1);
    notHoldingBanner(in, pages);
    ReportPages::Table about;
    about.header = { QStringLiteral("About this report"), QString() };
    about.columnShares = { 0.22, 0.78 };
    about.fontSize = 8.5;
    about.rows.push_back({ QStringLiteral("Cluster"), provenance.join(QLatin1Char('\n')) });
    about.rows.push_back({ QStringLiteral("Made"), in.created });
    about.rows.push_back({ QStringLiteral("Fleetscope"), in.version });
    about.rows.push_back({ QStringLiteral("Plan"), in.planName.isEmpty() ? QStringLiteral("none") : reportSafeText(in.planName) });
    if (in.topology && !in.topology->levelKeys().empty())
        about.rows.push_back({ QStringLiteral("Domains"),
            QStringLiteral("named by their labels' values, outermost first: ") + reportSafeText(reportDomainKeys(*in.topology)) });
    if (!in.planNote.isEmpty())
        about.rows.push_back({ QStringLiteral("Note"), reportSafeText(in.planNote) });
    pages.addTable(about);
    QElapsedTimer clock;
    clock.start();
    figuresSection(in, figures, pages);
    qCDebug(lcReportLayout, "figures: %lld ms", static_cast<long long>(clock.restart()));
    mapsSection(in, pages);
}

void tailSections(const FleetReportInput& in, const ReportSectionFigures& figures, ReportPages& pages)
{
    QElapsedTimer clock;
    clock.start();
    auto step = [&](const char* what) { qCDebug(lcReportLayout, "%s: %lld ms", what, static_cast<long long>(clock.restart())); };
    // Starts a page of its own: the first heading is of level 1 (buildFleetReportTail()).
    const bool appendix = addPlanSection(in, pages);
    step("plan");
    if (!in.evaluation)
        pages.addHeading(QStringLiteral("The fleet"), 1);
    staySection(in, pages);
    step("why nodes stay");
    riskSection(in, pages);
    step("risks");
    wasteSection(in, figures, pages);
    step("waste and pending");
    if (appendix) {
        addPlanAppendix(in, pages);
        step("appendix");
    }
}

} // namespace

void buildFleetReport(const FleetReportInput& in, ReportPages& pages)
{
    std::optional<ReportSectionFigures> own;
    const ReportSectionFigures& figures = in.figures ? *in.figures : own.emplace(reportSectionFigures(in));
    headSections(in, figures, pages);
    tailSections(in, figures, pages);
}

void buildFleetReportHead(const FleetReportInput& in, ReportPages& pages)
{
    std::optional<ReportSectionFigures> own;
    headSections(in, in.figures ? *in.figures : own.emplace(reportSectionFigures(in)), pages);
}

void buildFleetReportTail(const FleetReportInput& in, ReportPages& pages)
{
    std::optional<ReportSectionFigures> own;
    tailSections(in, in.figures ? *in.figures : own.emplace(reportSectionFigures(in)), pages);
}

} // namespace fleet::views
