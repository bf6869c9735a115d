// SPDX-License-Identifier: Apache-2.0
#include "commandplan.h"

#include "commandlinepath.h"

#include "importers/document/fleetdocument.h"

#include <sys/stat.h>

namespace fleet::app {

CommandPlan readCommandPlan(const QString& value, const QStringList& inputs)
{
    CommandPlan out;
    const std::string path = commandLinePath(value);
    struct stat st {};
    std::string document;
    for (const QString& input : inputs)
        if (const std::string p = commandLinePath(input); importers::isFleetDocumentFile(p)) {
            document = p;
            break;
        }
    if (::stat(path.c_str(), &st) == 0 || document.empty()) {
        out.plan = importers::readPlanFile(path);
        out.label = path;
        return out;
    }
    const std::vector<importers::DocumentPlan> plans = importers::readFleetDocumentPlans(document);
    std::string names;
    for (const importers::DocumentPlan& p : plans) {
        if (p.name == value.toStdString()) {
            out.label = document + ":" + p.name;
            out.plan = importers::parsePlanText(p.planJson, out.label);
            out.savedEvaluationJson = p.evaluationJson;
            out.document = document;
            return out;
        }
        names += (names.empty() ? "" : ", ") + p.name;
    }
    throw std::runtime_error("--plan " + value.toStdString() + ": " + document + " holds no plan named \"" + value.toStdString() + "\" ("
                             + (plans.empty() ? std::string("it holds no plans") : "its plans: " + names) + "), and no file "
                             + path + " exists");
}

} // namespace fleet::app
