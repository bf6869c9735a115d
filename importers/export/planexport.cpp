// SPDX-License-Identifier: Apache-2.0
// The exports of a checked plan: CSV and the reviewable kubectl script (planexport.h).
#include "planexport.h"

#include "importers/export/evaluationformat.h"
#include "importers/export/exportquoting.h"
#include "importers/plan/planevaluation.h"
#include "importers/plan/plansource.h"
#include "model/plan/drainownmoves.h"

#include <algorithm>
#include <set>

namespace fleet::importers {

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
        // A move's reasons are its pod's (an overridden move that breaks a rule); another
        // action's reasons (a drain that does not hold) are the action's, on a row of their own
        // (no pod), never on the row of a pod that moved as planned.
        const bool move = a.action.type == model::ActionType::MovePod;
        const bool ofNode = a.action.type == model::ActionType::DrainNode || a.action.type == model::ActionType::FailNode;
        auto reasonsOf = [&](model::PodId pod) {
            std::vector<model::Reason> found;
            for (const auto& [unplaced, reasons] : a.unplaced)
                if (unplaced == pod)
                    found.insert(found.end(), reasons.begin(), reasons.end());
            return found;
        };
        for (const auto& c : a.changes) {
            std::vector<model::Reason> podReasons = move ? a.reasons : std::vector<model::Reason> {};
            const std::vector<model::Reason> own = reasonsOf(c.pod);
            podReasons.insert(podReasons.end(), own.begin(), own.end());
            const auto [ns, name] = podNamesOf(store, e, c.pod);
            out += head + csvTextField(ns) + "," + csvTextField(name) + "," + csvTextField(nodeNameOf(store, e, c.from)) + ","
                + csvTextField(nodeNameOf(store, e, c.to)) + tail + csvTextField(joinedCodes(podReasons)) + "\r\n";
        }
        if (!move && !a.reasons.empty())
            out += head + ",," + csvTextField(ofNode ? a.action.node : "") + "," + tail + csvTextField(joinedCodes(a.reasons)) + "\r\n";
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
    out += "# listed as comments; the move-pod actions right before a drain that take its node's pods\n";
    out += "# to their destinations (a consolidation's) are what the drain evicts, listed under it.\n";
    out += "set -euo pipefail\n\n";
    out += "readonly plan_server=" + shellWord(e.state.server) + "\n\n";

    std::vector<bool> drains(e.actions.size(), false);
    for (std::size_t i = 0; i < e.actions.size(); ++i)
        drains[i] = e.actions[i].action.type == model::ActionType::DrainNode
            && std::none_of(e.actions[i].reasons.begin(), e.actions[i].reasons.end(), [](const model::Reason& r) {
                   return r.kind == model::ReasonKind::NotFound || r.kind == model::ReasonKind::NodeGone;
               }); // a drain of a node the state lacks or the plan removed has no command
    // A drain's own moves (model/plan/drainownmoves.h): kubectl drain evicts those pods, so they
    // are listed under the drain, not as other actions.
    const std::vector<bool> drainsOwn = model::drainOwnMoves(e.actions);
    out += "# The plan's actions. Each drain that holds names its node in drain_nodes.\n";
    out += "drain_nodes=(\n";
    std::set<std::string> listed;
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        const std::string index = actionNumber(i) + " ";
        if (drainsOwn[i])
            continue; // under its drain, below
        if (!drains[i]) {
            out += "    # " + index + std::string(model::actionTypeName(a.action.type)) + " " + comment(planActionSubject(a.action))
                + (a.holds ? std::string(": not a kubectl command") : ": does not hold (" + comment(joinedCodes(a.reasons)) + "), left out")
                + "\n";
            continue;
        }
        out += "    # " + index + "drain " + comment(a.action.node) + (a.holds ? "" : ": does not hold, left out") + "\n";
        std::size_t own = i;
        while (own > 0 && drainsOwn[own - 1])
            --own;
        for (; own < i; ++own) {
            const auto& c = e.actions[own].changes.front();
            out += "    #   " + comment(podNameOf(store, e, c.pod)) + " -> " + comment(nodeNameOf(store, e, c.to)) + " (move-pod " + actionNumber(own)
                + ")\n";
        }
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
