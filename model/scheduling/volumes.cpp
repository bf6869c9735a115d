// SPDX-License-Identifier: Apache-2.0
// VolumeBinding (bound PersistentVolumes' node affinity only) and VolumeZone.
// Sources (kubernetes/kubernetes):
//   pkg/scheduler/framework/plugins/volumebinding/binder.go (checkBoundClaims): a bound PV
//     with spec.nodeAffinity.required must match the node (its terms ORed, as node affinity).
//   pkg/scheduler/framework/plugins/volumezone/volume_zone.go (Filter): a node with none of the
//     zone / region labels (topology.kubernetes.io/zone, /region and the
//     failure-domain.beta.kubernetes.io forms) passes; otherwise, for each zone / region label
//     of each PV, the node's value of that label (for a beta key, the GA key's when the beta
//     one is missing) must be one of the PV's values.
#include "filterplugins_p.h"

namespace fleet::model::scheduling {

namespace {
constexpr std::string_view kZoneKeys[] = { "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region" };

std::string_view gaKey(std::string_view key)
{
    if (key == "failure-domain.beta.kubernetes.io/zone")
        return "topology.kubernetes.io/zone";
    if (key == "failure-domain.beta.kubernetes.io/region")
        return "topology.kubernetes.io/region";
    return key;
}
} // namespace

void prepareVolumes(Ctx& c)
{
    for (const VolumeConstraint& v : c.store->podVolumes(c.pod))
        c.volumeAffinity.push_back(compileTerms(*c.s, v.nodeAffinity));
}

bool checkVolumes(const Ctx& c, NodeId n, Reasons out)
{
    const auto volumes = c.store->podVolumes(c.pod);
    if (volumes.empty())
        return true;
    bool ok = true;
    const std::string node(c.state->nodeName(n));
    for (std::size_t i = 0; i < volumes.size(); ++i) {
        if (c.volumeAffinity[i].empty() || termsPass(*c.s, c.volumeAffinity[i], n))
            continue;
        ok = false;
        if (!out)
            return false;
        out->push_back(makeReason(ReasonKind::VolumeNodeAffinity, {},
            "PersistentVolume " + std::string(c.s->str(volumes[i].volume)) + " has a node affinity that " + node + " does not match"));
    }
    bool nodeHasZone = false;
    for (std::string_view k : kZoneKeys)
        if (const StringId key = c.store->strings().find(k); key.isValid() && c.s->label(n, key).isValid())
            nodeHasZone = true;
    if (!nodeHasZone)
        return ok;
    for (const VolumeConstraint& v : volumes) {
        for (const auto& [key, values] : v.zoneLabels) {
            StringId value = c.s->label(n, key);
            if (!value.isValid())
                if (const StringId ga = c.store->strings().find(gaKey(c.s->str(key))); ga.isValid())
                    value = c.s->label(n, ga);
            if (value.isValid() && std::find(values.begin(), values.end(), value) != values.end())
                continue;
            ok = false;
            if (!out)
                return false;
            out->push_back(makeReason(ReasonKind::VolumeZone, {},
                "PersistentVolume " + std::string(c.s->str(v.volume)) + " is in " + std::string(c.s->str(key)) + " "
                    + (values.empty() ? std::string("(none)") : std::string(c.s->str(values.front()))) + (values.size() > 1 ? " (or others)" : "")
                    + ", " + node + " is " + (value.isValid() ? "in " + std::string(c.s->str(value)) : "not labelled with it")));
            return false; // the plugin stops at the first conflict
        }
    }
    return ok;
}

} // namespace fleet::model::scheduling
