// SPDX-License-Identifier: Apache-2.0
#include "plansaver.h"

#include "importers/export/planexport.h"
#include "importers/output/outputfile.h"
#include "importers/plan/jsontext.h"

#include <QObject>

#include <exception>
#include <utility>

namespace fleet::app {

QString savePlanFile(const model::PlanEngine* engine, const QString& path, const importers::PlanSource& source, const importers::PlanKeptRecord* kept)
{
    if (!engine)
        return QObject::tr("No plan to save.");
    return savePlanActions(planActionsOf(*engine), path, source, kept);
}

std::vector<model::PlanAction> planActionsOf(const model::PlanEngine& engine)
{
    std::vector<model::PlanAction> actions;
    actions.reserve(engine.applied().size()); // growing it copied the actions again, most of the copy's time
    for (const model::AppliedAction& a : engine.applied())
        actions.push_back(a.action);
    return actions;
}

QString savePlanActions(std::vector<model::PlanAction> actions, const QString& path, const importers::PlanSource& source,
    const importers::PlanKeptRecord* kept)
{
    importers::PlanDocument doc;
    doc.source = source;
    doc.actions = std::move(actions);
    if (kept)
        doc.consolidation = *kept;
    importers::OutputFileOptions options; // the loaded files: a plan saved over one would destroy the cluster it names
    for (const importers::PlanSource::File& f : source.files)
        options.inputs.push_back(f.name);
    try {
        importers::writeOutputFile(path.toStdString(), importers::planJson(doc), options);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString exportPlanFile(const model::PlanEngine* engine, const QString& path, bool kubectlScript,
    const importers::PlanSource& source)
{
    if (!engine)
        return QObject::tr("No plan to export.");
    const model::ClusterStore& store = engine->state().store();
    importers::PlanEvaluation evaluation;
    evaluation.actions = engine->applied();
    evaluation.before = engine->state().totalsBefore();
    evaluation.after = engine->state().totals();
    evaluation.addedNodeNames = importers::addedNodeNames(engine->state());
    evaluation.state = source;
    try { // a name no shell word can carry (a NUL byte) refuses the script
        const std::string text = kubectlScript ? importers::planKubectlScript(evaluation, store) : importers::planCsv(evaluation, store);
        importers::OutputFileOptions options;
        options.executable = kubectlScript;
        importers::writeOutputFile(path.toStdString(), text, options); // a failure leaves the previous file
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace fleet::app
