// SPDX-License-Identifier: Apache-2.0
#include "planopener.h"

#include "model/figures.h"
#include "app/controllers/longjob.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/storereaders.h"

#include "importers/plan/plansource.h"
#include "model/plan/notfounderror.h"

#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>

#include <stdexcept>

namespace fleet::app {

namespace {

model::AppliedAction notApplied(const model::PlanAction& action, const model::PlanEngine& engine, model::Reason reason)
{
    model::AppliedAction r;
    r.action = action;
    r.holds = false;
    r.before = r.after = engine.state().totals();
    r.reasons.push_back(std::move(reason));
    return r;
}

} // namespace

namespace {

// The plan read by `read` (a file, or JSON text kept in a .fleet document) applied as
// openPlanFile() describes; `name` names it in errors.
OpenedPlan openPlan(const std::function<importers::PlanDocument()>& read, const std::string& name,
    std::shared_ptr<const model::ClusterStore> store, const model::Topology& topology, const std::vector<double>& nodePricePerHour,
    const std::function<importers::PlanSource()>& currentSource, const std::atomic<bool>* cancel, const std::function<void(double)>& progress)
{
    OpenedPlan out;
    importers::PlanDocument doc;
    try {
        doc = read();
        // A place-pods action names a template pod; a state without it gets it from the action
        // (as `plan check` does), on a copy: the shown store never changes.
        bool lacksTemplates = false;
        for (const model::PlanAction& a : doc.actions)
            if (a.type == model::ActionType::PlacePods && !store->findPod(a.pod.namespaceName, a.pod.name).isValid())
                lacksTemplates = true;
        if (lacksTemplates) {
            auto copy = std::make_shared<model::ClusterStore>(store->clone());
            importers::addPlanTemplatePods(*copy, doc, name);
            store = std::move(copy);
        }
    } catch (const std::exception& e) {
        out.error = e.what();
        return out;
    }
    out.actionCount = doc.actions.size();
    if (currentSource) {
        try {
            out.sourceNote = importers::sourceDifference(doc.source, currentSource());
        } catch (const std::exception& e) {
            out.sourceNote = std::string("the shown state cannot be named (") + e.what() + ")";
        }
    }
    auto engine = std::make_shared<model::PlanEngine>(*store, topology, nodePricePerHour);
    for (std::size_t i = 0; i < doc.actions.size(); ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            return out;
        }
        const model::PlanAction& a = doc.actions[i];
        const std::size_t before = engine->applied().size();
        try {
            const model::AppliedAction& r = engine->apply(a);
            if (engine->applied().size() == before)
                out.notApplied.emplace_back(i, r); // refused: a move that no longer fits
            else if (r.holds)
                ++out.holding;
        } catch (const model::NotFoundError& e) {
            out.notApplied.emplace_back(i, notApplied(a, *engine, model::makeReason(model::ReasonKind::NotFound, e.detail(), e.what())));
        } catch (const std::invalid_argument& e) {
            out.notApplied.emplace_back(
                i, notApplied(a, *engine, model::makeReason(model::ReasonKind::Unsupported, std::string(model::actionTypeName(a.type)), e.what())));
        }
        if (progress)
            progress(static_cast<double>(i + 1) / static_cast<double>(doc.actions.size()));
    }
    out.store = std::move(store);
    out.engine = std::move(engine);
    return out;
}

} // namespace

OpenedPlan openPlanFile(const std::string& path, std::shared_ptr<const model::ClusterStore> store, const model::Topology& topology,
    const std::vector<double>& nodePricePerHour, const std::function<importers::PlanSource()>& currentSource, const std::atomic<bool>* cancel,
    const std::function<void(double)>& progress)
{
    return openPlan([&path] { return importers::readPlanFile(path); }, path, std::move(store), topology, nodePricePerHour, currentSource,
        cancel, progress);
}

OpenedPlan openPlanText(const std::string& json, const std::string& name, std::shared_ptr<const model::ClusterStore> store,
    const model::Topology& topology, const std::vector<double>& nodePricePerHour, const std::function<importers::PlanSource()>& currentSource,
    const std::atomic<bool>* cancel, const std::function<void(double)>& progress)
{
    return openPlan([&json, &name] { return importers::parsePlanText(json, name); }, name, std::move(store), topology, nodePricePerHour,
        currentSource, cancel, progress);
}

bool looksLikePlanFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(64 * 1024);
    const QByteArray trimmed = head.trimmed();
    return trimmed.startsWith('{') && head.contains("\"fleetscopePlan\"");
}

struct PlanOpener::Result {
    OpenedPlan plan;
    /// The undo step of every applied action and the plan marks, made on the worker; empty
    /// when nothing was applied (or the file could not be read, or the job was cancelled).
    PlanController::PreparedStep prepared;
};

PlanOpener::PlanOpener(QMainWindow* window, PlanController* plan)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
    , m_job(new LongJob(window, { QStringLiteral("openPlanProgress"), tr("Open Plan"), kProgressAfterMs, 100, nullptr }, this))
{
    // A new cluster, or a new plan, makes a running result stale.
    connect(plan, &PlanController::engineReady, this, [this] { ++m_engineEpoch; });
    connect(m_job, &LongJob::progressed, this, &PlanOpener::progressed);
}

PlanOpener::~PlanOpener() = default;

void PlanOpener::cancel()
{
    m_job->cancel();
}

bool PlanOpener::isRunning() const noexcept
{
    return m_job->isRunning();
}

bool PlanOpener::open(const QString& path, std::function<importers::PlanSource()> currentSource)
{
    return start(path, path, std::string(), std::move(currentSource));
}

bool PlanOpener::openText(const QString& name, std::string json, std::function<importers::PlanSource()> currentSource)
{
    return start(QString(), name, std::move(json), std::move(currentSource));
}

bool PlanOpener::start(const QString& path, const QString& name, std::string json, std::function<importers::PlanSource()> currentSource)
{
    const auto engine = m_plan->engine();
    if (m_job->isRunning() || !engine || !m_plan->store() || !m_plan->topology())
        return false;
    m_path = path;
    const QString shownName = path.isEmpty() ? name : QFileInfo(path).fileName();
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    m_job->start(tr("Checking %1 against the shown cluster\u2026").arg(shownName),
        [path, name, json = std::move(json), store = m_plan->store(), topology = m_plan->topology(), prices = m_plan->nodePrices(),
            source = std::move(currentSource), reading, prepare = m_plan->stepPreparer()](LongJobToken& token) {
            auto progress = [&token](double f) { token.setProgress(f); };
            auto result = std::make_shared<Result>();
            result->plan = path.isEmpty() ? openPlanText(json, name.toStdString(), store, *topology, prices, source, token.cancelFlag(), progress)
                                          : openPlanFile(path.toStdString(), store, *topology, prices, source, token.cancelFlag(), progress);
            // The undo step's commands and their texts, and the plan marks: here, not in the
            // adoption's turn of the GUI thread.
            if (result->plan.engine && !result->plan.engine->applied().empty() && !token.isCancelled())
                result->prepared = prepare(*result->plan.engine, 0);
            return result;
        },
        [this, epoch = m_engineEpoch, shownName, undoable = !path.isEmpty()](std::shared_ptr<Result> result) {
            onResult(epoch, shownName, undoable, std::move(result));
        });
    m_plan->setOpeningPlan(shownName.isEmpty() ? tr("another plan") : tr("the plan %1").arg(shownName));
    return true;
}

void PlanOpener::onResult(std::uint64_t engineEpoch, const QString& name, bool undoable, std::shared_ptr<Result> job)
{
    m_plan->setOpeningPlan(QString());
    OpenedPlan* result = &job->plan;
    if (!result->error.empty()) {
        m_lastMessage = tr("Cannot open the plan %1: %2").arg(name, QString::fromStdString(result->error));
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Open Plan"), m_lastMessage, QMessageBox::Close, m_window);
        box->setObjectName(QStringLiteral("openPlanError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        emit finished(false);
        return;
    }
    if (result->cancelled) {
        m_lastMessage = tr("Opening the plan %1 was cancelled; the plan is as it was.").arg(name);
        emit finished(false);
        return;
    }
    if (engineEpoch != m_engineEpoch || !m_plan->engine()) {
        m_lastMessage = tr("The cluster changed while %1 was being checked; open it again.").arg(name);
        releaseOffGuiThread(std::move(job)); // an engine and its commands: O(nodes + pods + actions) to free
        emit finished(false);
        return;
    }
    const std::size_t notHolding = result->actionCount - result->holding;
    auto n = [](std::size_t v) { return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(v))); };
    m_lastMessage = tr("Opened plan %1: %2, %3 hold, %4 do not hold%5.")
                        .arg(name, result->actionCount == 1 ? tr("1 action") : tr("%1 actions").arg(n(result->actionCount)),
                            n(result->holding), n(notHolding),
                            result->notApplied.empty() ? QString() : tr(" (%1 could not be applied)").arg(n(result->notApplied.size())));
    if (!result->sourceNote.empty())
        m_lastMessage += QLatin1Char(' ') + tr("Note: %1.").arg(QString::fromStdString(result->sourceNote));
    emit aboutToReplace();
    m_plan->adoptOpenedPlan(result->store, result->engine, std::move(result->notApplied), undoable ? tr("Open plan %1").arg(name) : QString(),
        m_lastMessage, std::move(job->prepared));
    emit finished(true);
}

} // namespace fleet::app
