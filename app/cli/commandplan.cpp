// SPDX-License-Identifier: Apache-2.0
#include "commandplan.h"

#include "commandlinepath.h"

#include "importers/document/fleetdocument.h"

#include "importers/quotedtext.h"

#include <algorithm>
#include <cerrno>

#include <sys/stat.h>

namespace fleet::app {

namespace {

bool isBareName(const QString& value)
{
    return !value.contains(QLatin1Char('/'));
}

} // namespace

CommandPlan readCommandPlan(const QString& value, const QStringList& inputs)
{
    CommandPlan out;
    const std::string path = commandLinePath(value);
    const std::string shown = importers::quotedText(value.toStdString());
    struct stat st {};
    std::string document;
    for (const QString& input : inputs)
        if (const std::string p = commandLinePath(input); importers::isFleetDocumentFile(p)) {
            document = p;
            break;
        }
    const bool fileExists = ::stat(path.c_str(), &st) == 0;
    if (fileExists || document.empty()) {
        if (!fileExists && errno == ENOENT && isBareName(value)) {
            // A plan name where no document is given: say where names are looked up.
            throw std::runtime_error("--plan " + shown + ": no file of that name exists, and no input is a .fleet document (only a "
                                     + "document keeps plans by name: `fleetscope plans DOC.fleet` lists them)");
        }
        out.plan = importers::readPlanFile(path);
        out.label = path;
        // A file wins over a plan of the same name the document keeps (the rule before
        // documents kept plans); say so, since the other was perhaps meant.
        if (fileExists && !document.empty() && isBareName(value)) {
            try {
                const std::vector<importers::DocumentPlan> plans = importers::readFleetDocumentPlans(document);
                if (std::any_of(plans.begin(), plans.end(), [&](const importers::DocumentPlan& p) { return p.name == value.toStdString(); }))
                    out.note = "--plan " + shown + " is the file " + shown + " in the working folder, not the plan of that name "
                               + importers::quotedText(document) + " keeps (rename or move the file to use that plan)";
            } catch (const std::exception&) {
                // The document's own errors are the import's to report.
            }
        }
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
        names += (names.empty() ? "" : ", ") + importers::quotedText(p.name);
    }
    throw std::runtime_error("--plan " + shown + ": " + importers::quotedText(document) + " holds no plan of that name ("
                             + (plans.empty() ? std::string("it holds no plans") : "its plans: " + names) + "), and no file of that name exists");
}

} // namespace fleet::app
