// SPDX-License-Identifier: Apache-2.0
// NodeAffinity: spec.nodeSelector and the required node affinity terms, and the GPU model
// check of the Alibaba trace.
// Source: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (Filter) with
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go: every nodeSelector
// label must be on the node with that value; the required terms are ORed, a term ANDs its
// expressions and fields; NotIn and DoesNotExist pass on a missing label; Gt / Lt compare
// integers; matchFields knows metadata.name only; a term with no requirement matches nothing.
// GPU model: the trace importer (importers/traces/alibabacsv.cpp) turns a task's gpu_spec into
// a required term on the label alibabacloud.com/gpu-card-model. When the terms fail and some
// term fails only on requirements of that key, the reason is gpu-model-mismatch instead of
// node-affinity-mismatch.
#include "filterplugins_p.h"
#include "matching.h"

namespace fleet::model::scheduling {

namespace {
constexpr std::string_view kGpuModelLabel = "alibabacloud.com/gpu-card-model";
} // namespace

void prepareNodeAffinity(Ctx& c)
{
    for (const Label& l : c.store->podNodeSelector(c.pod)) {
        if (const LabelColumn* col = c.s->column(l.key)) {
            const auto it = col->indexOfValue.find(l.value.value);
            c.nodeSelector.emplace_back(col, it == col->indexOfValue.end() ? kNoNodeHasIt : it->second);
        } else {
            c.nodeSelectorUnindexed.emplace_back(l.key, l.value);
        }
    }
    c.affinity = compileTerms(*c.s, c.store->podRequiredAffinity(c.pod));
}

bool checkNodeAffinity(const Ctx& c, NodeId n, Reasons out)
{
    bool selectorOk = true;
    for (const auto& [col, value] : c.nodeSelector)
        if (col->valueOfNode[n.index()] != value)
            selectorOk = false;
    for (const auto& [key, value] : c.nodeSelectorUnindexed)
        if (c.s->label(n, key) != value)
            selectorOk = false;
    if (!selectorOk && !out)
        return false;
    const bool affinityOk = termsPass(*c.s, c.affinity, n);
    if (selectorOk && affinityOk)
        return true;
    if (!out)
        return false;
    const std::string node(c.state->nodeName(n));
    if (!selectorOk) {
        std::string missing;
        for (const Label& l : c.store->podNodeSelector(c.pod)) {
            if (c.s->label(n, l.key) == l.value)
                continue;
            missing += missing.empty() ? "" : ", ";
            missing += std::string(c.s->str(l.key)) + "=" + std::string(c.s->str(l.value));
        }
        out->push_back(makeReason(ReasonKind::NodeSelectorMismatch, {}, node + " lacks the pod's nodeSelector labels " + missing));
    }
    if (!affinityOk) {
        // GPU model: a term whose only failing requirements are on the GPU model label.
        const StringId gpuKey = c.store->strings().find(kGpuModelLabel);
        bool gpuModelOnly = false;
        for (const CompiledTerm& t : c.affinity) {
            bool otherFails = t.empty(), gpuFails = false;
            for (const CompiledRequirement& r : t) {
                if (requirementPasses(*c.s, r, n))
                    continue;
                if (gpuKey.isValid() && !r.source->matchField && r.source->key == gpuKey)
                    gpuFails = true;
                else
                    otherFails = true;
            }
            gpuModelOnly = gpuModelOnly || (gpuFails && !otherFails);
        }
        if (gpuModelOnly) {
            const StringId model = c.s->label(n, gpuKey);
            out->push_back(makeReason(ReasonKind::GpuModelMismatch, {},
                node + "'s GPU model (" + (model.isValid() ? std::string(c.s->str(model)) : std::string("none")) + ") is not one the pod accepts"));
        } else {
            out->push_back(makeReason(ReasonKind::NodeAffinityMismatch, {},
                node + " matches none of the pod's " + std::to_string(c.affinity.size()) + " required node affinity term"
                    + (c.affinity.size() == 1 ? "" : "s")));
        }
    }
    return false;
}

} // namespace fleet::model::scheduling
