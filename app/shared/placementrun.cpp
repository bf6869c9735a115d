// SPDX-License-Identifier: Apache-2.0
#include "placementrun.h"

#include "model/clusterchange.h"
#include "views/plan/planmarkstracker.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <stdexcept>

namespace fleet::app {

namespace {

/// An engine that owns its store: whoever holds the engine (the undo stack's commands, a plan
/// metric, the inspector's plan state) keeps the copy alive.
struct OwnedEngine {
    OwnedEngine(std::shared_ptr<const model::ClusterStore> s, const model::Topology& topology, std::vector<double> prices)
        : store(std::move(s))
        , engine(*store, topology, std::move(prices))
    {
    }
    std::shared_ptr<const model::ClusterStore> store;
    model::PlanEngine engine;
};

/// Thrown between the worker's stages when the dialog cancelled (its result is dropped anyway).
struct PlaceCancelled {};

void enterStage(PlaceProgress& progress, PlaceStage stage)
{
    if (progress.cancel.load(std::memory_order_relaxed))
        throw PlaceCancelled {};
    progress.stage.store(static_cast<int>(stage), std::memory_order_relaxed);
}

/// The template pod's namespace/name in a place-pods action's Pod JSON.
std::pair<std::string, std::string> templateKey(const std::string& podJson)
{
    const QJsonObject meta = QJsonDocument::fromJson(QByteArray::fromStdString(podJson)).object().value(QStringLiteral("metadata")).toObject();
    return { meta.value(QStringLiteral("namespace")).toString().toStdString(), meta.value(QStringLiteral("name")).toString().toStdString() };
}

} // namespace

std::shared_ptr<PlaceWorkerResult> runPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::vector<double> prices, std::vector<model::PlanAction> current, PlaceRequestInput input, std::string gpuLabel, PlaceProgress& progress,
    const std::map<std::string, std::string>& addedTemplates)
{
    auto out = std::make_shared<PlaceWorkerResult>();
    PlaceWorkloadOutcome& o = out->outcome;
    o.pods = input.pods;
    QElapsedTimer clock;
    clock.start();
    try {
        const bool named = !input.name.empty();
        model::PlanAction action;
        std::shared_ptr<const model::ClusterStore> target;
        for (int k = 1; !target; ++k) {
            if (!named)
                input.name = k == 1 ? "placed" : "placed" + std::to_string(k); // not placed-K: the added pods are placed-0, placed-1, ...
            action = placePodsAction(input, gpuLabel);
            const auto [ns, name] = templateKey(action.podTemplate);
            if (!store->findPod(ns, name).isValid())
                break; // a new template: a copy below
            for (const model::PlanAction& a : current)
                if (a.type == model::ActionType::PlacePods && a.pod.namespaceName == ns && a.pod.name == name && a.podTemplate == action.podTemplate) {
                    action.pod = a.pod;
                    target = store; // the same workload again: its template is in the store already
                }
            // The same workload placed before in this window and undone since: the template
            // pod stays in the store that placement made (the plan left it), as it was.
            if (const auto added = addedTemplates.find(ns + "/" + name); !target && added != addedTemplates.end() && added->second == action.podTemplate) {
                action.pod.namespaceName = ns;
                action.pod.name = name;
                target = store;
            }
            if (target)
                break;
            if (named)
                throw PlaceRequestError(PlaceField::Name, "a pod " + ns + "/" + name + " is in the cluster already; name the template another way");
            if (name != input.name) // the template file names the pod: another --name cannot help
                throw PlaceRequestError(PlaceField::PodTemplate,
                    "the template's pod " + ns + "/" + name + " is in the cluster already; give it another metadata.name or set Name");
        }
        if (!target) {
            // The template pod joins a clone as a live batch adds a pod (one applyChanges): the
            // clone keeps the shown store's ids, tombstones and finalized sums. The name is free
            // (checked above), so the batch appends it.
            model::ClusterChangeBatch batch;
            addPlaceTemplatePod(batch.upserted, action, input.podTemplatePath.empty() ? std::string() : input.namespaceName);
            enterStage(progress, PlaceStage::Copy);
            QElapsedTimer copyClock;
            copyClock.start();
            auto copy = std::make_shared<model::ClusterStore>(store->clone());
            if (progress.cancel.load(std::memory_order_relaxed))
                throw PlaceCancelled {};
            const model::ClusterDiff diff = model::applyChanges(*copy, batch);
            if (diff.podsAdded.size() != 1)
                throw std::runtime_error("the template pod " + action.pod.namespaceName + "/" + action.pod.name + " could not be added to the cluster's copy");
            o.copyMs = static_cast<double>(copyClock.nsecsElapsed()) / 1e6;
            target = std::move(copy);
        }
        out->templateName = action.pod.namespaceName + "/" + action.pod.name;
        out->templateJson = action.podTemplate;
        enterStage(progress, PlaceStage::Engine);
        auto owned = std::make_shared<OwnedEngine>(target, *topology, std::move(prices));
        std::shared_ptr<model::PlanEngine> engine(owned, &owned->engine);
        enterStage(progress, PlaceStage::Replay);
        for (const model::PlanAction& a : current) {
            if (progress.cancel.load(std::memory_order_relaxed))
                throw PlaceCancelled {};
            const std::size_t before = engine->applied().size();
            (void)engine->apply(a);
            if (engine->applied().size() == before)
                throw std::runtime_error("the plan's action " + std::to_string(before + 1) + " could not be replayed over the copy");
        }
        out->appliedBefore = current.size();
        out->replayed = std::move(current);
        enterStage(progress, PlaceStage::Place);
        const model::AppliedAction& r = engine->apply(action);
        o.reasons = r.reasons;
        o.level = r.topologyLevel;
        o.domains = r.topologyDomains;
        o.podsPlaced = static_cast<std::int32_t>(r.podsAdded.size());
        o.placed = engine->applied().size() == out->appliedBefore + 1;
        if (o.placed) {
            out->marks = std::make_shared<views::PlanMarksTracker>();
            out->marks->rebuild(*engine, topology.get());
            out->store = std::move(target);
            out->engine = std::move(engine);
        }
    } catch (const PlaceCancelled&) {
        o.cancelled = true;
    } catch (const PlaceRequestError& e) {
        o.error = QString::fromStdString(e.what());
        o.errorField = e.field();
        o.fieldError = true;
    } catch (const std::exception& e) {
        o.error = QString::fromStdString(e.what()); // a level or slice the engine refuses names it
        o.errorField = PlaceField::Levels;
        o.fieldError = o.error.contains(QLatin1String("level")) || o.error.contains(QLatin1String("slice"));
        if (o.error.contains(QLatin1String("slice")))
            o.errorField = o.error.contains(QLatin1String("slice level")) ? PlaceField::SliceLevel : PlaceField::SliceSize;
    }
    o.workerMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return out;
}

} // namespace fleet::app
