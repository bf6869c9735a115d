// SPDX-License-Identifier: Apache-2.0
// The plan's sections of a report (reportplan.h): the plan's counts, its actions listed or
// grouped, and the appendix.
#include "reportplan.h"

#include "importers/export/evaluationformat.h"
#include "importers/plan/planevaluation.h"
#include "model/domainpath.h"
#include "model/plan/drainownmoves.h"

#include <algorithm>
#include <map>
#include <optional>

namespace fleet::views {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// Okabe-Ito vermillion, lightened: a row that does not hold (its text says so too).
const QColor kNotHoldFill(0xf6, 0xd5, 0xc4);

// The reasons of one action, one line per code: "code: first message" and, when the code comes
// more than once (a drain's local-storage note for each of its pods), "(and N more)". The full
// list is `plan check --format json`'s; a row of a hundred notes would bury the table.
QString reasonsText(const std::vector<model::Reason>& reasons)
{
    QStringList lines;
    std::vector<std::pair<std::string, int>> seen; // code, count, in first-seen order
    std::vector<const model::Reason*> first;
    for (const model::Reason& r : reasons) {
        const std::string code = r.code();
        auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == code; });
        if (it == seen.end()) {
            seen.emplace_back(code, 1);
            first.push_back(&r);
        } else {
            ++it->second;
        }
    }
    for (std::size_t i = 0; i < seen.size(); ++i)
        lines << q(seen[i].first) + QStringLiteral(": ") + q(first[i]->message)
                + (seen[i].second > 1 ? QStringLiteral(" (and %1 more)").arg(reportCount(static_cast<std::int64_t>(seen[i].second - 1))) : QString());
    return lines.join(QLatin1Char('\n'));
}

// The topology level a long plan's actions are grouped by, named by what it is: the zone's
// level (the well-known label topology.kubernetes.io/zone, or its deprecated beta key) where the
// topology has one, else its outermost level (a trace's GPU model, whose nodes have no zone);
// level 0 when the topology has no levels. `name` heads the column, `noun` says it in a sentence.
struct GroupLevel {
    int level = 0;
    QString name; // "Zone", "GPU model", "Region", or the level's label key
    QString noun; // "zone", "GPU model", "region", "topology.example.com/block"
};

GroupLevel actionGroupLevel(const model::Topology& topology)
{
    const auto& keys = topology.levelKeys();
    if (keys.empty())
        return {};
    int level = 1;
    for (int l = 1; l <= static_cast<int>(keys.size()); ++l)
        if (keys[static_cast<std::size_t>(l - 1)] == "topology.kubernetes.io/zone"
            || keys[static_cast<std::size_t>(l - 1)] == "failure-domain.beta.kubernetes.io/zone") {
            level = l;
            break;
        }
    const std::string key = model::levelUserKey(topology, level);
    static const std::map<std::string, std::pair<const char*, const char*>> known {
        { "topology.kubernetes.io/zone", { "Zone", "zone" } },
        { "failure-domain.beta.kubernetes.io/zone", { "Zone", "zone" } },
        { "topology.kubernetes.io/region", { "Region", "region" } },
        { "failure-domain.beta.kubernetes.io/region", { "Region", "region" } },
        { "gpu-model", { "GPU model", "GPU model" } },
        { "instance-type", { "Instance type", "instance type" } },
        { "node.kubernetes.io/instance-type", { "Instance type", "instance type" } },
    };
    if (const auto it = known.find(key); it != known.end())
        return { level, QString::fromLatin1(it->second.first), QString::fromLatin1(it->second.second) };
    const QString shown = reportSafeText(q(key));
    return { level, shown, shown };
}

// A node's domain at `level` (its ancestor there, or its own when the tree is shallower), as
// the report names domains; "" when the node is not in the store or `level` is 0.
QString domainAtLevel(const model::ClusterStore& store, const model::Topology& topology, const std::string& nodeName, int level)
{
    if (nodeName.empty() || level <= 0)
        return {};
    const model::NodeId n = store.findNode(nodeName);
    if (!n.isValid())
        return {};
    model::DomainId d = topology.nodeDomain(n);
    while (d.isValid() && topology.domainLevel(d) > level)
        d = topology.domainParent(d);
    return d.isValid() && topology.domainLevel(d) > 0 ? reportDomainText(topology, d) : QString();
}

// One row of the plan's table: action `i`, or a drain with its own moves (actions `first` to `i`:
// the moves of its pods straight to nodes that stay, model/plan/drainownmoves.h), numbered
// "first–last" and counting the pods of all of them.
QStringList actionRow(std::size_t first, std::size_t i, const model::AppliedAction& a)
{
    const QString number = first == i ? reportCount(static_cast<std::int64_t>(i + 1))
                                      : reportCount(static_cast<std::int64_t>(first + 1)) + QStringLiteral("\u2013")
            + reportCount(static_cast<std::int64_t>(i + 1));
    return { number, q(std::string(model::actionTypeName(a.action.type))), q(importers::planActionSubject(a.action)),
        a.holds ? QStringLiteral("holds") : QStringLiteral("does not hold"),
        reportCount(static_cast<std::int64_t>(a.changes.size() + (i - first))),
        a.holds ? reasonsText(a.reasons) : reasonsText(a.reasons).prepend(q(importers::notHoldingEffectText(a)) + QLatin1Char('\n')) };
}

// The actions' numbers count from 1 in the order they apply, as `plan check`'s text ("#1") and
// the window's Plan panel ("1.") number them (the last of 26,516 actions is 26,516); `plan check
// --format json`'s "index" is the plan file's 0-based array index. Said once above each list.
QString actionNumbering()
{
    return QStringLiteral("Actions are numbered from 1, in the order they apply, as `plan check` (#1) and the window's Plan panel "
                          "number them; the JSON of `plan check --format json` gives each its 0-based index in the plan file "
                          "(#1 is index 0).");
}

ReportPages::Table actionsTable(const FleetReportInput& in)
{
    ReportPages::Table t;
    t.header = { QStringLiteral("#"), QStringLiteral("Action"), QStringLiteral("Subject"), QStringLiteral("Holds"), QStringLiteral("Pods"),
        QStringLiteral("Reasons") };
    t.columnShares = { 0.12, 0.11, 0.3, 0.1, 0.06, 0.31 };
    t.fontSize = 7;
    const auto& actions = *in.actions;
    // A long plan's table (the appendix) shows a drain's own moves in its row; a short one shows
    // every action as it is.
    const std::vector<bool> own = actions.size() > in.groupActionsAbove ? model::drainOwnMoves(actions) : std::vector<bool>(actions.size(), false);
    t.rows.reserve(actions.size());
    t.fill.reserve(actions.size());
    // A run of own moves is always followed by its drain (drainOwnMoves()): that row shows them.
    std::optional<std::size_t> runStart;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        if (own[i]) {
            runStart = runStart.value_or(i);
            continue;
        }
        t.rows.push_back(actionRow(runStart.value_or(i), i, actions[i]));
        t.fill.push_back(actions[i].holds ? QColor() : kNotHoldFill);
        runStart.reset();
    }
    return t;
}

} // namespace

bool addPlanSection(const FleetReportInput& in, ReportPages& pages)
{
    if (!in.evaluation)
        return false;
    const auto& actions = *in.actions;
    pages.addHeading(QStringLiteral("The plan"), 1);
    const auto broken = std::count_if(actions.begin(), actions.end(), [](const model::AppliedAction& a) { return !a.holds; });
    const auto holding = static_cast<std::int64_t>(actions.size()) - broken;
    pages.addParagraph(QStringLiteral("%1: %2, %3, %4.")
                           .arg(in.planName, reportCounted(static_cast<std::int64_t>(actions.size()), "action", "actions"),
                               reportCounted(holding, "holds", "hold"), reportCounted(broken, "does not hold", "do not hold")));
    if (!in.planNote.isEmpty())
        pages.addParagraph(QStringLiteral("Note: ") + in.planNote, 8.5);
    if (actions.size() <= in.groupActionsAbove) {
        if (broken > 0)
            pages.addSwatches({ { kNotHoldFill, QStringLiteral("does not hold") } });
        pages.addParagraph(actionNumbering(), 8.5);
        pages.addTable(actionsTable(in));
        return false;
    }
    const std::vector<bool> own = model::drainOwnMoves(actions);
    const auto ownMoves = std::count(own.begin(), own.end(), true);
    if (ownMoves > 0)
        pages.addParagraph(QStringLiteral("%1 of them move a pod of a node the plan drains straight to a node that stays, each pod once. "
                                          "In the table below each is a move-pod where it goes, and a drain's pods are those moved off "
                                          "its node, its own moves included; in the appendix they are shown in one row with their drain "
                                          "(its numbers from the first move to the drain, its pods those moved).")
                               .arg(reportCounted(ownMoves, "move-pod action", "move-pod actions")),
            8.5);
    if (broken > 0)
        pages.addSwatches({ { kNotHoldFill, QStringLiteral("does not hold") } });
    // Thousands of actions: by type and zone (or what the topology's level is) here, every
    // action in the appendix.
    struct Group {
        std::int64_t actions = 0, hold = 0, pods = 0;
    };
    const GroupLevel by = actionGroupLevel(*in.topology);
    std::map<std::pair<QString, QString>, Group> groups;
    std::int64_t ownPods = 0; // the pods of the own moves before the next drain
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const model::AppliedAction& a = actions[i];
        // Every action counts once, under its own type, so that each type's rows sum to the
        // plan's actions of that type; a drain's pods include its own moves' (the pods moved
        // off its node), each own move counting its pod where it goes as well.
        Group& g = groups[{ q(std::string(model::actionTypeName(a.action.type))), domainAtLevel(*in.store, *in.topology, a.action.node, by.level) }];
        g.actions += 1;
        g.hold += a.holds ? 1 : 0;
        g.pods += static_cast<std::int64_t>(a.changes.size());
        if (own[i]) {
            ++ownPods;
        } else if (a.action.type == model::ActionType::DrainNode) {
            g.pods += ownPods;
            ownPods = 0;
        }
    }
    pages.addParagraph(by.level > 0 ? QStringLiteral("The actions by type and %1 (the %1 of the node each names; \u2014: the action names "
                                                     "no node of the cluster); every action, with its reasons, is listed in the appendix.")
                                          .arg(by.noun)
                                    : QStringLiteral("The actions by type (the topology has no levels to group them by); every action, "
                                                     "with its reasons, is listed in the appendix."),
        8.5);
    ReportPages::Table t;
    t.header = { QStringLiteral("Action"), by.level > 0 ? by.name : QStringLiteral("Domain"), QStringLiteral("Actions"), QStringLiteral("Hold"),
        QStringLiteral("Do not hold"), QStringLiteral("Pods") };
    t.columnShares = { 0.14, 0.38, 0.12, 0.12, 0.12, 0.12 };
    for (const auto& [key, g] : groups) {
        t.rows.push_back({ key.first, key.second.isEmpty() ? QStringLiteral("\u2014") : key.second, reportCount(g.actions), reportCount(g.hold),
            reportCount(g.actions - g.hold), reportCount(g.pods) });
        t.fill.push_back(g.hold < g.actions ? kNotHoldFill : QColor());
    }
    pages.addTable(t);
    return true;
}

void addPlanAppendix(const FleetReportInput& in, ReportPages& pages)
{
    pages.addHeading(QStringLiteral("Appendix: every action of the plan"), 1);
    pages.addParagraph(actionNumbering(), 8.5);
    pages.addSwatches({ { kNotHoldFill, QStringLiteral("does not hold") } });
    pages.addTable(actionsTable(in));
}

} // namespace fleet::views
