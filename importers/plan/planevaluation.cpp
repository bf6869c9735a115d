// SPDX-License-Identifier: Apache-2.0
// evaluatePlan and its outputs: the evaluation as JSON and text (`plan check`), CSV, and the
// reviewable kubectl script (planfile.h).
#include "planfile.h"
#include "planevaluation.h"

#include "importers/export/exportquoting.h"
#include "importers/terminaltext.h"
#include "jsontext.h"
#include "plansource.h"
#include "podtemplate.h"

#include "model/plan/notfounderror.h"
#include "model/topology.h"

#include <algorithm>
#include <set>

namespace fleet::importers {

namespace {

std::string nodeNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::NodeId n)
{
    if (!n.isValid())
        return {};
    if (n.index() < store.nodeCount())
        return std::string(store.nodeName(n));
    const std::size_t i = n.index() - store.nodeCount();
    return i < e.addedNodeNames.size() ? e.addedNodeNames[i] : "(added node " + std::to_string(i + 1) + ")";
}

// A pod the plan added (place-pods) is not in the store: its namespace is its template's.
std::pair<std::string, std::string> podNamesOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p)
{
    if (p.index() < store.podCount())
        return { std::string(store.podNamespace(p)), std::string(store.podName(p)) };
    const std::size_t i = p.index() - store.podCount();
    return i < e.addedPods.size() ? e.addedPods[i] : std::pair<std::string, std::string> { "", "(added pod " + std::to_string(i + 1) + ")" };
}

std::string podNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p)
{
    const auto [ns, name] = podNamesOf(store, e, p);
    return ns + "/" + name;
}

void writeTotals(JsonWriter& w, const model::PlanTotals& t)
{
    w.beginObject();
    w.key("nodes").value(t.nodes);
    w.key("nodesInUse").value(t.nodesInUse);
    w.key("nodesEmpty").value(t.nodesEmpty);
    w.key("gpus").value(t.gpus);
    w.key("gpuMilliAllocated").value(t.gpuMilliAllocated);
    w.key("podsPlaced").value(t.podsPlaced);
    w.key("podsUnplaced").value(t.podsUnplaced);
    w.key("podsRemovedWithNodes").value(t.podsRemovedWithNodes);
    w.key("costPerHour").value(t.costPerHour);
    w.endObject();
}

void writeReasons(JsonWriter& w, const std::vector<model::Reason>& reasons)
{
    w.beginArray();
    for (const model::Reason& r : reasons) {
        w.beginObject();
        w.key("code").value(r.code());
        w.key("message").value(r.message);
        w.endObject();
    }
    w.endArray();
}

// What the action names, in a few words ("drain-node ip-10-0-0-1").
std::string actionSubject(const model::PlanAction& a)
{
    switch (a.type) {
    case model::ActionType::MovePod:
        return a.pod.namespaceName + "/" + a.pod.name + " -> " + a.node + (a.override ? " (override)" : "");
    case model::ActionType::DrainNode:
    case model::ActionType::FailNode:
        return a.node;
    case model::ActionType::AddNode:
        return std::to_string(a.count) + " x " + a.instanceType + (a.domain.empty() ? "" : " in " + a.domain);
    case model::ActionType::FailDomain:
        return a.domain;
    case model::ActionType::PlaceWorkload:
        return (a.workloadKind.empty() ? "" : a.workloadKind + " ") + a.workloadNamespace + "/" + a.workloadName
            + (a.domain.empty() ? "" : " in " + a.domain);
    case model::ActionType::PlacePods: {
        std::string out = std::to_string(a.count) + " x " + a.pod.namespaceName + "/" + a.pod.name;
        if (!a.requiredLevel.empty())
            out += ", required " + a.requiredLevel;
        if (!a.preferredLevel.empty())
            out += ", preferred " + a.preferredLevel;
        if (a.sliceSize > 0)
            out += ", slices of " + std::to_string(a.sliceSize) + " per " + a.sliceLevel;
        return out + (a.gang ? ", gang" : "");
    }
    }
    return {};
}

std::string joinedCodes(const std::vector<model::Reason>& reasons)
{
    std::string out;
    for (const model::Reason& r : reasons)
        out += (out.empty() ? "" : " ") + r.code();
    return out;
}

} // namespace

std::size_t addPlanTemplatePods(model::ClusterStore& store, const PlanDocument& plan, const std::string& planName)
{
    std::size_t added = 0;
    for (std::size_t i = 0; i < plan.actions.size(); ++i) {
        const model::PlanAction& a = plan.actions[i];
        if (a.type != model::ActionType::PlacePods)
            continue;
        bool found = false;
        for (std::uint32_t p = 0; p < store.podCount() && !found; ++p)
            found = store.podName(model::PodId(p)) == a.pod.name && store.podNamespace(model::PodId(p)) == a.pod.namespaceName;
        if (found)
            continue;
        const std::string where = planName + ": at $.actions[" + std::to_string(i) + "]";
        if (a.podTemplate.empty())
            throw PlanFileError(where + ": the template pod " + a.pod.namespaceName + "/" + a.pod.name
                + " is not in the cluster state and the action has no podTemplate");
        try {
            const model::PodId p = addTemplatePod(store, a.podTemplate, where + ".podTemplate");
            if (store.podNamespace(p) != a.pod.namespaceName || store.podName(p) != a.pod.name)
                throw std::runtime_error(where + ".podTemplate: names " + std::string(store.podNamespace(p)) + "/" + std::string(store.podName(p))
                    + ", not the action's pod " + a.pod.namespaceName + "/" + a.pod.name);
        } catch (const PlanFileError&) {
            throw;
        } catch (const std::exception& e) {
            throw PlanFileError(e.what());
        }
        ++added;
    }
    return added;
}

bool PlanEvaluation::allHold() const
{
    return std::all_of(actions.begin(), actions.end(), [](const model::AppliedAction& a) { return a.holds; });
}

PlanEvaluation evaluatePlan(
    const model::ClusterStore& store, const model::Topology& topology, const PlanDocument& plan, std::vector<double> nodePricePerHour)
{
    model::PlanEngine engine(store, topology, std::move(nodePricePerHour));
    return evaluatePlanOn(engine, plan);
}

PlanEvaluation evaluatePlanOn(model::PlanEngine& engine, const PlanDocument& plan)
{
    const model::ClusterStore& store = engine.state().store();
    PlanEvaluation e;
    e.before = engine.state().totals();
    for (const model::PlanAction& a : plan.actions) {
        try {
            e.actions.push_back(engine.apply(a));
        } catch (const model::NotFoundError& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::NotFound, err.detail(), err.what()));
            e.actions.push_back(std::move(r));
        } catch (const std::invalid_argument& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::Unsupported, std::string(model::actionTypeName(a.type)), err.what()));
            e.actions.push_back(std::move(r));
        }
    }
    e.after = engine.state().totals();
    e.addedNodeNames = addedNodeNames(engine.state());
    const model::PlanLedger& state = engine.state();
    for (std::size_t i = store.podCount(); i < state.podCount(); ++i) {
        const model::PodId p(static_cast<std::uint32_t>(i));
        e.addedPods.emplace_back(std::string(store.podNamespace(state.podTemplate(p))), std::string(state.podName(p)));
    }
    return e;
}

std::string planActionSubject(const model::PlanAction& action)
{
    return actionSubject(action);
}

std::vector<std::string> addedNodeNames(const model::PlanLedger& state)
{
    std::vector<std::string> names;
    for (std::size_t i = state.store().nodeCount(); i < state.nodeCount(); ++i)
        names.emplace_back(state.nodeName(model::NodeId(static_cast<std::uint32_t>(i))));
    return names;
}

std::string evaluationJson(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store)
{
    JsonWriter w;
    w.beginObject();
    w.key("plan").value(planName);
    w.key("holds").value(e.allHold());
    w.key("state");
    writePlanSource(w, e.state);
    if (!e.sourceNote.empty())
        w.key("sourceNote").value(e.sourceNote);
    w.key("actions").beginArray();
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        w.beginObject();
        w.key("index").value(static_cast<std::int64_t>(i));
        w.key("type").value(model::actionTypeName(a.action.type));
        w.key("subject").value(actionSubject(a.action));
        w.key("holds").value(a.holds);
        w.key("reasons");
        writeReasons(w, a.reasons);
        w.key("changes").beginArray();
        for (const auto& c : a.changes) {
            w.beginObject();
            w.key("pod").value(podNameOf(store, e, c.pod));
            w.key("from");
            c.from.isValid() ? w.value(nodeNameOf(store, e, c.from)) : w.null();
            w.key("to");
            c.to.isValid() ? w.value(nodeNameOf(store, e, c.to)) : w.null();
            w.endObject();
        }
        w.endArray();
        if (!a.nodesAdded.empty() || !a.nodesRemoved.empty()) {
            w.key("nodesAdded").beginArray();
            for (const model::NodeId n : a.nodesAdded)
                w.value(nodeNameOf(store, e, n));
            w.endArray();
            w.key("nodesRemoved").beginArray();
            for (const model::NodeId n : a.nodesRemoved)
                w.value(nodeNameOf(store, e, n));
            w.endArray();
        }
        if (!a.unplaced.empty()) {
            w.key("unplaced").beginArray();
            for (const auto& [pod, reasons] : a.unplaced) {
                w.beginObject();
                w.key("pod").value(podNameOf(store, e, pod));
                w.key("reasons");
                writeReasons(w, reasons);
                w.endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
    w.key("before");
    writeTotals(w, e.before);
    w.key("after");
    writeTotals(w, e.after);
    w.endObject();
    return w.text() + "\n";
}

std::string evaluationText(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store)
{
    // Every line that names input (the plan's path, action subjects, reasons naming pods,
    // nodes, labels and taints) goes through terminalLine(): one terminal line each, with no
    // control byte.
    std::string out = "plan " + terminalLine(planName) + ": " + std::to_string(e.actions.size()) + " action" + (e.actions.size() == 1 ? "" : "s") + ", ";
    const auto broken = std::count_if(e.actions.begin(), e.actions.end(), [](const auto& a) { return !a.holds; });
    out += broken == 0 ? "all hold\n" : std::to_string(broken) + " do not hold\n";
    if (!e.sourceNote.empty())
        out += "  note: " + terminalLine(e.sourceNote) + "\n";
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        out += "  [" + std::to_string(i) + "] " + std::string(model::actionTypeName(a.action.type)) + " " + terminalLine(actionSubject(a.action))
            + ": " + (a.holds ? "holds" : "DOES NOT HOLD");
        if (!a.changes.empty()) {
            const bool placing = a.action.type == model::ActionType::PlacePods || a.action.type == model::ActionType::PlaceWorkload;
            out += " (" + std::to_string(a.changes.size()) + " pod" + (a.changes.size() == 1 ? "" : "s")
                + (placing ? " placed)" : " moved or stopped)");
        }
        out += "\n";
        for (const model::Reason& r : a.reasons)
            out += "      " + terminalLine(r.code() + ": " + r.message) + "\n";
    }
    auto totals = [&](const char* label, const model::PlanTotals& t) {
        char buf[400];
        std::snprintf(buf, sizeof buf,
            "%-7s nodes %lld (in use %lld, empty %lld), GPUs %lld (allocated %.1f), pods placed %lld, unplaced %lld, "
            "DaemonSet pods removed with their nodes %lld, cost %.2f/h\n",
            label, static_cast<long long>(t.nodes), static_cast<long long>(t.nodesInUse), static_cast<long long>(t.nodesEmpty),
            static_cast<long long>(t.gpus), static_cast<double>(t.gpuMilliAllocated) / 1000.0, static_cast<long long>(t.podsPlaced),
            static_cast<long long>(t.podsUnplaced), static_cast<long long>(t.podsRemovedWithNodes), t.costPerHour);
        out += buf;
    };
    totals("before:", e.before);
    totals("after:", e.after);
    return out;
}

std::string notHoldingText(const PlanEvaluation& e, std::size_t listed)
{
    std::string out;
    std::size_t shown = 0;
    std::size_t more = 0;
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        if (a.holds)
            continue;
        if (shown == listed) {
            ++more;
            continue;
        }
        std::string codes; // each code once (a drain has one per pod that finds no node)
        std::set<std::string> seen;
        for (const model::Reason& r : a.reasons)
            if (seen.insert(r.code()).second)
                codes += (codes.empty() ? "" : " ") + r.code();
        out += (shown++ ? "; [" : "[") + std::to_string(i) + "] " + std::string(model::actionTypeName(a.action.type)) + " "
            + terminalLine(actionSubject(a.action)) + (codes.empty() ? "" : " (" + terminalLine(codes) + ")");
    }
    if (more > 0)
        out += "; and " + std::to_string(more) + " more";
    return out;
}

std::string planCsv(const PlanEvaluation& e, const model::ClusterStore& store)
{
    // Every text field goes through csvTextField (importers/export/exportquoting.h): names come from the input.
    std::string out = "action,type,namespace,pod,from,to,holds,reasons\r\n";
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        const std::string head = csvNumberField(static_cast<std::int64_t>(i)) + "," + csvTextField(model::actionTypeName(a.action.type)) + ",";
        const std::string tail = "," + csvTextField(a.holds ? "true" : "false") + ",";
        if (a.changes.empty()) {
            // An action that moved no pod (add-node, a refused move, a drain or failure of a node
            // with no pod to move) still has its row: a move's pod and destination, a drained
            // or failed node in "from".
            const bool move = a.action.type == model::ActionType::MovePod;
            const bool ofNode = a.action.type == model::ActionType::DrainNode || a.action.type == model::ActionType::FailNode;
            out += head + csvTextField(move ? a.action.pod.namespaceName : "") + "," + csvTextField(move ? a.action.pod.name : "") + ","
                + csvTextField(ofNode ? a.action.node : "") + "," + csvTextField(move ? a.action.node : "") + tail
                + csvTextField(joinedCodes(a.reasons)) + "\r\n";
            continue;
        }
        for (const auto& c : a.changes) {
            // The action's own reasons (an overridden move that breaks a rule) and this pod's.
            std::vector<model::Reason> podReasons = a.reasons;
            for (const auto& [pod, reasons] : a.unplaced)
                if (pod == c.pod)
                    podReasons.insert(podReasons.end(), reasons.begin(), reasons.end());
            const auto [ns, name] = podNamesOf(store, e, c.pod);
            out += head + csvTextField(ns) + "," + csvTextField(name) + "," + csvTextField(nodeNameOf(store, e, c.from)) + ","
                + csvTextField(nodeNameOf(store, e, c.to)) + tail + csvTextField(joinedCodes(podReasons)) + "\r\n";
        }
    }
    return out;
}

namespace {

// The part of the script that reads its options, checks the cluster and runs the batches. It
// holds no input text: what comes from the input is above it, quoted (importers/export/exportquoting.h).
constexpr const char* kScriptRunner = R"SH(
me=${0##*/}
usage() {
    cat <<USAGE
Usage: $me --context NAME [--server URL] [--apply] [--batch-size N] [--timeout DURATION] [--pause SECONDS]
  --context NAME      the kubeconfig context to act on (or FLEETSCOPE_CONTEXT); required. The server
                      it points at (kubectl config view --minify) must be the plan's cluster.
  --server URL        the API server the context must point at, for a plan that records none (made
                      on files or a simulation); for a plan that records one, it must be that one.
  --apply             run the commands; without it this is a dry run that prints them.
  --batch-size N      nodes cordoned, then drained, together (default 10).
  --timeout DURATION  kubectl drain --timeout for each node, such as 90s, 10m, 1h (default 10m).
  --pause SECONDS     wait between two batches (default 60).
USAGE
}
fail() {
    printf '%s: %s\n' "$me" "$1" >&2
    exit 2
}

context=${FLEETSCOPE_CONTEXT:-}
server=
apply=0
batch_size=10
drain_timeout=10m
pause_seconds=60
while [ "$#" -gt 0 ]; do
    case $1 in
    --apply) apply=1; shift; continue ;;
    -h | --help) usage; exit 0 ;;
    --context=* | --server=* | --batch-size=* | --timeout=* | --pause=*) option=${1%%=*}; value=${1#*=}; shift ;;
    --context | --server | --batch-size | --timeout | --pause)
        [ "$#" -ge 2 ] || fail "$1 needs a value"
        option=$1; value=$2; shift 2 ;;
    *) usage >&2; fail "unknown argument: $1" ;;
    esac
    case $option in
    --context) context=$value ;;
    --server) server=$value ;;
    --batch-size)
        [[ $value =~ ^[1-9][0-9]{0,5}$ ]] || fail "--batch-size: expected a whole number from 1 to 999999, got \"$value\""
        batch_size=$value ;;
    --timeout)
        [[ $value =~ ^([0-9]{1,6}[hms])+$ ]] || fail "--timeout: expected a duration such as 90s, 10m or 1h, got \"$value\""
        drain_timeout=$value ;;
    --pause)
        [[ $value =~ ^[0-9]{1,6}$ ]] || fail "--pause: expected whole seconds, got \"$value\""
        pause_seconds=$value ;;
    esac
done

# The context must point at the cluster the plan was made on, before anything runs.
[ -n "$context" ] || fail "give --context NAME (or FLEETSCOPE_CONTEXT), the kubeconfig context of the plan's cluster${plan_server:+ ($plan_server)}"
expected=$plan_server
if [ -z "$expected" ]; then
    [ -n "$server" ] || fail "this plan records no API server (it was made on files or a simulation): give --server URL, the server context \"$context\" must point at"
    expected=$server
elif [ -n "$server" ] && [ "$server" != "$expected" ]; then
    fail "--server $server is not the server this plan was made on ($expected)"
fi
# --context=NAME as one word: a context whose name starts with '-' stays a context's name
# for kubectl, never becomes another option (--context --kubeconfig=... would).
actual=$(kubectl --context="$context" config view --minify -o 'jsonpath={.clusters[0].cluster.server}') \
    || fail "cannot read the server of context \"$context\" (kubectl config view failed)"
[ "$actual" = "$expected" ] \
    || fail "context \"$context\" points at ${actual:-no server}, not at $expected where this plan was made: nothing was run"

run() {
    if [ "$apply" = 1 ]; then
        printf '+ kubectl %q' "--context=$context"; printf ' %q' "$@"; printf '\n'
        kubectl --context="$context" "$@"
    else
        printf 'would run: kubectl %q' "--context=$context"; printf ' %q' "$@"; printf '\n'
    fi
}

total=${#drain_nodes[@]}
batches=$(( (total + batch_size - 1) / batch_size ))
if [ "$apply" = 1 ]; then
    printf '%s: applying to context %q (%s): %d node(s) to drain in %d batch(es)\n' "$me" "$context" "$actual" "$total" "$batches"
else
    printf '%s: dry run (nothing is changed; give --apply to run) on context %q (%s): %d node(s) to drain in %d batch(es)\n' \
        "$me" "$context" "$actual" "$total" "$batches"
fi
for ((start = 0; start < total; start += batch_size)); do
    batch=("${drain_nodes[@]:start:batch_size}")
    printf 'batch %d of %d: %d node(s)\n' $((start / batch_size + 1)) "$batches" "${#batch[@]}"
    for node in "${batch[@]}"; do
        run cordon -- "$node"
    done
    for node in "${batch[@]}"; do
        run drain --ignore-daemonsets --delete-emptydir-data --timeout="$drain_timeout" -- "$node"
    done
    if [ $((start + batch_size)) -lt "$total" ]; then
        if [ "$apply" = 1 ]; then
            printf 'pausing %d s before the next batch\n' "$pause_seconds"
            sleep "$pause_seconds"
        else
            printf 'would pause %d s before the next batch\n' "$pause_seconds"
        fi
    fi
done
printf '%s: done\n' "$me"
)SH";

} // namespace

std::string planKubectlScript(const PlanEvaluation& e, const model::ClusterStore& store)
{
    // Every string from the input (names, reasons, the source, the server) goes through
    // shellWord or shellCommentText (importers/export/exportquoting.h): files and live lists are untrusted.
    auto comment = [](std::string_view s) { return shellCommentText(s); };
    std::string out;
    out += "#!/usr/bin/env bash\n";
    out += "# A Fleetscope plan as kubectl commands, for review. Fleetscope never runs this script.\n";
    out += "#\n";
    out += "# Made on: " + comment(sourceText(e.state)) + "\n";
    out += "# Cluster: " + (e.state.server.empty() ? std::string("no API server recorded: give --server URL") : comment(e.state.server)) + "\n";
    out += "#\n";
    out += "# It is a dry run that prints what it would do unless given --apply, and it refuses to run\n";
    out += "# without --context NAME (or FLEETSCOPE_CONTEXT) whose server is the plan's cluster (checked\n";
    out += "# with `kubectl config view --minify`). Run it with --help for its options.\n";
    out += "#\n";
    out += "# The nodes to drain go in batches (--batch-size, default 10), in the plan's order: a batch's\n";
    out += "# nodes are cordoned, then drained one by one with `kubectl drain --ignore-daemonsets\n";
    out += "# --delete-emptydir-data --timeout=...` (DaemonSet pods stay; emptyDir data is deleted), then\n";
    out += "# a pause (--pause) before the next batch. A failed command stops the script; the nodes of\n";
    out += "# its batch stay cordoned, and it can run again (cordon and drain are idempotent).\n";
    out += "#\n";
    out += "# The scheduler, not this script, decides where an evicted pod lands: the destination\n";
    out += "# beside each pod is where the plan expects it (Fleetscope's default placement policy).\n";
    out += "# Other actions (moves, added or failed nodes, placements) have no kubectl form and are\n";
    out += "# listed as comments.\n";
    out += "set -euo pipefail\n\n";
    out += "readonly plan_server=" + shellWord(e.state.server) + "\n\n";

    std::vector<bool> drains(e.actions.size(), false);
    for (std::size_t i = 0; i < e.actions.size(); ++i)
        drains[i] = e.actions[i].action.type == model::ActionType::DrainNode
            && std::none_of(e.actions[i].reasons.begin(), e.actions[i].reasons.end(), [](const model::Reason& r) {
                   return r.kind == model::ReasonKind::NotFound || r.kind == model::ReasonKind::NodeGone;
               }); // a drain of a node the state lacks or the plan removed has no command
    out += "# The plan's actions. Each drain that holds names its node in drain_nodes.\n";
    out += "drain_nodes=(\n";
    std::set<std::string> listed;
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        const std::string index = "[" + std::to_string(i) + "] ";
        if (!drains[i]) {
            out += "    # " + index + std::string(model::actionTypeName(a.action.type)) + " " + comment(actionSubject(a.action))
                + (a.holds ? std::string(": not a kubectl command") : ": does not hold (" + comment(joinedCodes(a.reasons)) + "), left out")
                + "\n";
            continue;
        }
        out += "    # " + index + "drain " + comment(a.action.node) + (a.holds ? "" : ": does not hold, left out") + "\n";
        for (const auto& c : a.changes)
            out += "    #   " + comment(podNameOf(store, e, c.pod)) + " -> " + comment(nodeNameOf(store, e, c.to)) + "\n";
        for (const auto& [pod, reasons] : a.unplaced)
            out += "    #   " + comment(podNameOf(store, e, pod)) + " stays: " + comment(joinedCodes(reasons)) + "\n";
        for (const model::Reason& r : a.reasons)
            if (r.kind == model::ReasonKind::LocalStorage)
                out += "    #   note: " + comment(r.message) + "\n";
        if (!a.holds) {
            // The pods above that stay would block the drain or be lost: it is not run.
            out += "    #   (the pods that stay would block this drain or be lost)\n";
            continue;
        }
        if (listed.insert(a.action.node).second)
            out += "    " + shellWord(a.action.node) + "\n";
    }
    out += ")\n";
    out += "readonly drain_nodes\n";
    out += kScriptRunner;
    return out;
}

} // namespace fleet::importers
