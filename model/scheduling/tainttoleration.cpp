// SPDX-License-Identifier: Apache-2.0
// NodeUnschedulable, node readiness and TaintToleration.
// Sources (kubernetes/kubernetes):
//   pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go: a cordoned node
//     (spec.unschedulable) fails unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule.
//   pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go: the first NoSchedule or
//     NoExecute taint the pod does not tolerate fails the node (FindMatchingUntoleratedTaint with
//     DoNotScheduleTaintsFilterFunc); PreferNoSchedule never does.
//   pkg/controller/nodelifecycle (TaintNodesByCondition): a node whose Ready condition is False
//     gets node.kubernetes.io/not-ready:NoSchedule, Unknown gets node.kubernetes.io/unreachable:
//     NoSchedule. The scheduler never reads the Ready condition; it sees only those taints, which
//     TaintToleration reports like any other (untolerated-taint:node.kubernetes.io/not-ready:
//     NoSchedule, the first untolerated taint of the node's list). Fleetscope's own readiness
//     check (node-not-ready) stands beside it on a node whose Ready condition is not True, and
//     is the only refusal where the input lacks the taint (a snapshot taken before the
//     controller acted, or a source without taints): there it acts as if the controller's taint
//     were present, so a pod that tolerates the taint passes (docs/scheduler-rules.md).
#include "filterplugins_p.h"
#include "matching.h"

namespace fleet::model::scheduling {

namespace {
constexpr std::string_view kUnschedulableKey = "node.kubernetes.io/unschedulable";
constexpr std::string_view kNotReadyKey = "node.kubernetes.io/not-ready";
constexpr std::string_view kUnreachableKey = "node.kubernetes.io/unreachable";

std::string taintText(const PlanLedger::Private& s, const Taint& t)
{
    std::string text(s.str(t.key));
    if (t.value.value != 0)
        text += "=" + std::string(s.str(t.value));
    return text + ":" + std::string(taintEffectName(t.effect));
}

/// Whether the pod tolerates a taint `key`:NoSchedule that the store may not have interned.
bool toleratesKey(const Ctx& c, std::string_view key)
{
    const StringId id = c.store->strings().find(key);
    for (const Toleration& t : c.store->podTolerations(c.pod)) {
        if (t.effect != TaintEffect::Any && t.effect != TaintEffect::NoSchedule)
            continue;
        if (t.key.value != 0 && t.key != id)
            continue;
        // The lifecycle controller's taints have no value.
        if (t.op == TolerationOperator::Exists || t.value.value == 0)
            return true;
    }
    return false;
}
} // namespace

TaintVerdict judgeTaints(const Ctx& c, std::span<const Taint> taints)
{
    TaintVerdict v;
    const auto tolerations = c.store->podTolerations(c.pod);
    for (std::uint32_t i = 0; i < taints.size(); ++i) {
        const Taint& t = taints[i];
        if (!blocksScheduling(t.effect))
            continue;
        const std::string_view key = c.s->str(t.key);
        const bool readiness = key == kNotReadyKey || key == kUnreachableKey;
        if (key == kNotReadyKey)
            v.hasNotReady = true;
        if (key == kUnreachableKey)
            v.hasUnreachable = true;
        if (toleratesTaint(tolerations, t))
            continue;
        v.anyUntolerated = true;
        if (readiness)
            v.readinessBlocks = true;
        if (v.firstUntolerated == kNone)
            v.firstUntolerated = i;
    }
    return v;
}

void prepareTaints(Ctx& c)
{
    c.toleratesUnschedulable = toleratesKey(c, kUnschedulableKey);
    c.toleratesNotReady = toleratesKey(c, kNotReadyKey);
    c.toleratesUnreachable = toleratesKey(c, kUnreachableKey);
    c.taintSets.reserve(c.s->taintSets.size());
    for (const auto& set : c.s->taintSets)
        c.taintSets.push_back(judgeTaints(c, set));
    for (const auto& a : c.s->added)
        c.addedNodeTaints.push_back(judgeTaints(c, a.taints));
}

bool checkUnschedulable(const Ctx& c, NodeId n, Reasons out)
{
    if (!c.state->nodeUnschedulable(n) || c.toleratesUnschedulable)
        return true;
    if (out)
        out->push_back(makeReason(ReasonKind::NodeUnschedulable, {},
            std::string(c.state->nodeName(n)) + " is cordoned (spec.unschedulable) and the pod does not tolerate "
                + std::string(kUnschedulableKey) + ":NoSchedule"));
    return false;
}

bool checkReadiness(const Ctx& c, NodeId n, Reasons out)
{
    const TaintVerdict& v = c.taintVerdict(n);
    const Readiness r = c.state->nodeReadiness(n);
    if (r == Readiness::True)
        return true; // a readiness taint on a Ready node is TaintToleration's alone
    bool blocks = v.readinessBlocks;
    if (r == Readiness::False && !v.hasNotReady && !c.toleratesNotReady)
        blocks = true;
    if (r == Readiness::Unknown && !v.hasUnreachable && !c.toleratesUnreachable)
        blocks = true;
    if (!blocks)
        return true;
    if (out) {
        std::string what;
        if (v.readinessBlocks) {
            // Name the readiness taint the pod does not tolerate (a pod may tolerate
            // not-ready:NoSchedule and not the not-ready:NoExecute the node also carries).
            const auto tolerations = c.store->podTolerations(c.pod);
            for (const Taint& t : c.state->nodeTaints(n)) {
                const std::string_view key = c.s->str(t.key);
                if (blocksScheduling(t.effect) && (key == kNotReadyKey || key == kUnreachableKey) && !toleratesTaint(tolerations, t)) {
                    what = "the pod does not tolerate its taint " + taintText(*c.s, t);
                    break;
                }
            }
        }
        if (what.empty()) {
            // The input lacks the lifecycle controller's taint: the one it would add.
            const std::string_view key = r == Readiness::Unknown ? kUnreachableKey : kNotReadyKey;
            what = "the pod does not tolerate " + std::string(key) + ":NoSchedule, which the node lifecycle controller gives such a node";
        }
        out->push_back(makeReason(ReasonKind::NodeNotReady, {},
            std::string(c.state->nodeName(n)) + " is not Ready (Ready is " + std::string(readinessName(r)) + ") and " + what));
    }
    return false;
}

bool checkTaints(const Ctx& c, NodeId n, Reasons out)
{
    const TaintVerdict& v = c.taintVerdict(n);
    if (v.firstUntolerated == kNone)
        return true;
    if (out) {
        const Taint& t = c.state->nodeTaints(n)[v.firstUntolerated];
        const std::string text = taintText(*c.s, t);
        out->push_back(makeReason(ReasonKind::UntoleratedTaint, text,
            std::string(c.state->nodeName(n)) + " has the taint " + text + ", which the pod does not tolerate"));
    }
    return false;
}

} // namespace fleet::model::scheduling
