// SPDX-License-Identifier: Apache-2.0
#include "planautosave.h"
#include "app/controllers/workerpool.h"

#include "app/controllers/plancontroller.h"
#include "app/window/mainwindow.h"
#include "app/window/windowdocument.h"

#include "importers/output/outputfile.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QLockFile>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace fleet::app {

namespace {

constexpr qint64 kMaxAutosaveBytes = qint64 { 512 } << 20;

QString lockPathFor(const QString& folder, const QString& pid)
{
    return QDir(folder).filePath(QStringLiteral("plan-%1.lock").arg(pid));
}

QString aboutPathFor(const QString& folder, const QString& pid)
{
    return QDir(folder).filePath(QStringLiteral("plan-%1.about").arg(pid));
}

/// The PID in an autosave's file name: "plan-PID.json" (the plan shown) or "plan-PID-K.json"
/// (another plan of its document with unsaved work), and their ".about" files.
QString pidOf(const QFileInfo& file)
{
    return file.completeBaseName().mid(5).section(QLatin1Char('-'), 0, 0); // after "plan-"
}

/// A window's files of the plans it does not show: "plan-PID-*.json" and their ".about".
QStringList otherPlanFiles(const QString& folder, const QString& pid)
{
    QStringList out;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({ QStringLiteral("plan-%1-*.json").arg(pid), QStringLiteral("plan-%1-*.about").arg(pid) }, QDir::Files))
        out << dir.filePath(name);
    return out;
}

constexpr qint64 kMaxAboutBytes = 64 * 1024;
constexpr int kMaxShownNameChars = 200;

/// What an autosave's `.about` file says of its plan: the plan's name in the document and the
/// document's path, both empty when the file is missing, too large, or not the JSON object
/// written by saveIfChanged() (it comes from disk: bounded, and every field checked).
struct AutosaveAbout {
    QString plan;
    QString document;
};

AutosaveAbout readAbout(const QString& path)
{
    AutosaveAbout about;
    QFile in(path);
    if (in.size() > kMaxAboutBytes || !in.open(QIODevice::ReadOnly))
        return about;
    const QJsonObject o = QJsonDocument::fromJson(in.readAll()).object();
    about.plan = o.value(QStringLiteral("plan")).toString().simplified().left(kMaxShownNameChars);
    about.document = o.value(QStringLiteral("document")).toString();
    return about;
}

} // namespace

PlanAutosave::PlanAutosave(MainWindow* window, PlanController* plan, WindowDocument* document)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
    , m_document(document)
{
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, &PlanAutosave::saveIfChanged);
    connect(m_plan->undoStack(), &QUndoStack::indexChanged, this, [this] { m_changed = true; });
    connect(m_plan, &PlanController::planChanged, this, [this] { m_changed = true; });
    connect(m_document, &WindowDocument::saved, this, [this] { m_changed = true; }); // the next write removes the file
    connect(m_document, &WindowDocument::plansChanged, this, [this] { m_changed = true; }); // a plan left keeps its unsaved work
    // An undo back to the saved state leaves nothing unsaved: the file goes now, not at the next
    // interval (a kill before it offered the undone plan back at the next start).
    connect(m_plan->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            removeOnceSaved();
    });
    // Each cluster shown: a leftover kept for later is offered again once its own cluster is.
    connect(m_plan, &PlanController::engineReady, this, [this] {
        QTimer::singleShot(0, this, &PlanAutosave::offerRecovery); // after the window took the engine
    });
}

PlanAutosave::~PlanAutosave()
{
    closedCleanly();
}

QString PlanAutosave::folder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave"));
}

QString PlanAutosave::filePath() const
{
    return QDir(folder()).filePath(QStringLiteral("plan-%1.json").arg(QCoreApplication::applicationPid()));
}

QString PlanAutosave::aboutPath() const
{
    return aboutPathFor(folder(), QString::number(QCoreApplication::applicationPid()));
}

void PlanAutosave::start(int intervalMs)
{
    if (!m_lock) {
        QDir().mkpath(folder());
        m_lock = std::make_unique<QLockFile>(lockPathFor(folder(), QString::number(QCoreApplication::applicationPid())));
        m_lock->setStaleLockTime(0);
        (void)m_lock->tryLock(0); // our own PID: no one else holds it
        removeStaleLocks();
    }
    m_timer->start(std::max(100, intervalMs));
}

void PlanAutosave::removeStaleLocks()
{
    const QDir dir(folder());
    const QString ownPid = QString::number(QCoreApplication::applicationPid());
    for (const QFileInfo& file : dir.entryInfoList({ QStringLiteral("plan-*.lock") }, QDir::Files)) {
        const QString pid = file.completeBaseName().mid(5); // "plan-"
        // A lock with a plan beside it is offerRecovery()'s: it asks, then removes both.
        if (pid == ownPid || QFile::exists(dir.filePath(QStringLiteral("plan-%1.json").arg(pid))) || !otherPlanFiles(folder(), pid).isEmpty())
            continue;
        QLockFile owner(file.filePath());
        owner.setStaleLockTime(0); // only a dead process's lock is stale, however old
        if (!owner.tryLock(0))
            continue; // its window runs
        QFile::remove(aboutPathFor(folder(), pid));
        owner.unlock(); // removes the lock file
    }
}

void PlanAutosave::saveIfChanged()
{
    // A large step undone or redone in slices (PlanController::isBusy()) leaves part of it in the
    // engine until it ends: written now, a recovery would bring back a plan no one made. The
    // step's end changes the plan, so the next interval writes it.
    if (!m_changed || m_closed || m_write.isRunning() || m_plan->isBusy())
        return;
    m_changed = false;
    std::vector<model::PlanAction> actions;
    if (const auto engine = m_plan->engine()) {
        actions.reserve(engine->applied().size());
        for (const model::AppliedAction& a : engine->applied())
            actions.push_back(a.action);
    }
    // The autosave holds unsaved work only: once the document is saved (or back at its saved
    // state) the file goes, so that a crash after a save offers no plan the document already has
    // (or one deleted from it since).
    const int current = m_document->currentPlan();
    const auto& plans = m_document->plans();
    // The shown plan as its file has it (saved, unchanged since) is no unsaved work either, when
    // only another plan of the document changed.
    const bool shownAsSaved = m_plan->undoStack()->isClean() && current >= 0 && static_cast<std::size_t>(current) < plans.size()
        && !plans[static_cast<std::size_t>(current)].savedAt.empty();
    if (!m_document->isModified() || shownAsSaved)
        actions.clear();
    const int count = static_cast<int>(actions.size());
    // Which plan of which document this is, so that a recovery can say so and keep the name.
    const QString documentPath = m_document->path().isEmpty() ? QString() : QFileInfo(m_document->path()).absoluteFilePath();
    auto aboutText = [&documentPath](const std::string& plan) {
        QJsonObject about;
        if (!plan.empty())
            about.insert(QStringLiteral("plan"), QString::fromStdString(plan));
        about.insert(QStringLiteral("document"), documentPath);
        return QJsonDocument(about).toJson(QJsonDocument::Compact).toStdString();
    };
    const std::string about = aboutText(current >= 0 && static_cast<std::size_t>(current) < plans.size() ? plans[static_cast<std::size_t>(current)].name : std::string());
    // The plans not shown whose work is not in the document's file: each as its entry's plan
    // JSON (kept at the switch that left it), which names its source. One changed since it was
    // saved, or never saved (a copy, an import, a recovery, any plan of a document never saved)
    // has no saved time. A copy of each entry's text: O(its size) here, written on the worker.
    struct Other {
        std::string about;
        std::string json;
    };
    std::vector<Other> others;
    if (m_document->isModified())
        for (std::size_t i = 0; i < plans.size(); ++i)
            if (static_cast<int>(i) != current && !plans[i].planJson.empty() && plans[i].savedAt.empty())
                others.push_back({ aboutText(plans[i].name), plans[i].planJson });
    QPointer<PlanAutosave> self(this);
    m_write = QtConcurrent::run(longWorkPool(),
        [self, path = filePath(), aboutPath = aboutPath(), about, source = m_document->shownSource(), actions = std::move(actions), count,
            others = std::move(others), folder = folder(), pid = QString::number(QCoreApplication::applicationPid())]() mutable {
        try {
            QStringList stale = otherPlanFiles(folder, pid);
            for (std::size_t k = 0; k < others.size(); ++k) {
                const QString base = QDir(folder).filePath(QStringLiteral("plan-%1-%2").arg(pid).arg(k + 1));
                importers::writeOutputFile((base + QStringLiteral(".about")).toStdString(), others[k].about);
                importers::writeOutputFile((base + QStringLiteral(".json")).toStdString(), others[k].json);
                stale.removeAll(base + QStringLiteral(".about"));
                stale.removeAll(base + QStringLiteral(".json"));
            }
            for (const QString& f : stale)
                QFile::remove(f);
            if (actions.empty()) {
                QFile::remove(path);
                QFile::remove(aboutPath);
            } else {
                importers::PlanDocument plan;
                plan.source = std::move(source);
                plan.actions = std::move(actions);
                importers::writeOutputFile(aboutPath.toStdString(), about);
                importers::writeOutputFile(path.toStdString(), importers::planJson(plan));
            }
        } catch (const std::exception&) {
            return; // a full disk: the next change tries again; the document itself is untouched
        }
        QMetaObject::invokeMethod(
            self, [self, count] { if (self) emit self->autosaved(count); }, Qt::QueuedConnection);
    });
}

void PlanAutosave::removeOnceSaved()
{
    if (m_closed || !m_timer->isActive() || m_document->isModified())
        return;
    // A write under way (or a sliced step, whose end writes) would leave its file after the
    // removal: the removal runs once it has ended, as the next write, on the worker.
    if (m_write.isRunning() || m_plan->isBusy()) {
        QTimer::singleShot(20, this, &PlanAutosave::removeOnceSaved);
        return;
    }
    m_changed = true;
    saveIfChanged();
}

void PlanAutosave::closedCleanly()
{
    if (m_closed)
        return;
    m_closed = true;
    m_timer->stop();
    m_write.waitForFinished();
    if (m_lock) {
        QFile::remove(filePath());
        QFile::remove(aboutPath());
        for (const QString& f : otherPlanFiles(folder(), QString::number(QCoreApplication::applicationPid())))
            QFile::remove(f);
        m_lock->unlock(); // removes the lock file
    }
}

void PlanAutosave::offerRecovery()
{
    const QDir dir(folder());
    const QString ownPid = QString::number(QCoreApplication::applicationPid());
    const QFileInfoList files = dir.entryInfoList({ QStringLiteral("plan-*.json") }, QDir::Files, QDir::Time);
    bool shownOne = false;
    for (const QFileInfo& file : files) {
        const QString pid = pidOf(file);
        if (pid == ownPid)
            continue;
        if (const auto kept = m_keptForLater.constFind(file.filePath()); kept != m_keptForLater.cend()) {
            const std::shared_ptr<const void> keptOn = kept->lock();
            if (keptOn && keptOn.get() == static_cast<const void*>(m_window->cluster().get()))
                continue; // kept for later while this cluster is shown
        }
        QLockFile owner(lockPathFor(folder(), pid));
        owner.setStaleLockTime(0); // only a dead process's lock is stale, however old
        if (!owner.tryLock(0))
            continue; // another window runs: its plan is its own
        QFile in(file.filePath());
        std::string json;
        std::size_t actions = 0;
        importers::PlanSource planned;
        bool readable = in.size() <= kMaxAutosaveBytes && in.open(QIODevice::ReadOnly);
        if (readable) {
            const QByteArray bytes = in.readAll();
            json.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
            try {
                const importers::PlanDocument parsed = importers::parsePlanText(json, file.filePath().toStdString());
                actions = parsed.actions.size();
                planned = parsed.source;
            } catch (const std::exception&) {
                readable = false; // cut short by the crash: nothing to offer
            }
        }
        in.close();
        const QString aboutPath = dir.filePath(file.completeBaseName() + QStringLiteral(".about"));
        const AutosaveAbout about = readAbout(aboutPath);
        if (readable && actions > 0) {
            const QString when = QLocale().toString(file.lastModified().time(), QLocale::ShortFormat);
            const QString count = actions == 1 ? tr("1 action") : tr("%1 actions").arg(QLocale().toString(static_cast<qulonglong>(actions)));
            const QString documentName = QFileInfo(about.document).fileName();
            QString question;
            if (about.plan.isEmpty())
                question = tr("Fleetscope did not quit cleanly. Recover the plan from %1 (%2)?").arg(when, count);
            else if (documentName.isEmpty())
                question = tr("Fleetscope did not quit cleanly. Recover the plan \u201c%1\u201d from %2 (%3)?").arg(about.plan, when, count);
            else
                question = tr("Fleetscope did not quit cleanly. Recover the plan \u201c%1\u201d of %2 from %3 (%4)?")
                               .arg(about.plan, documentName, when, count);
            QMessageBox box(QMessageBox::Question, tr("Recover Plan"), question, QMessageBox::Yes | QMessageBox::No, m_window);
            box.setTextFormat(Qt::PlainText); // names from a file are shown, never interpreted
            box.setObjectName(QStringLiteral("recoverPlanBox"));
            // Whether the cluster shown is the plan's: known at once for a simulation, a live
            // cluster or a document; for files once their digests are in (computed on a worker
            // when the cluster is shown), unknown before.
            const importers::PlanSource shown = m_window->shownFiles().isEmpty() ? m_window->planSource() : m_document->shownSource();
            const bool shownKnown = !shown.files.empty() || !shown.server.empty() || !shown.simulated.empty();
            const std::string elsewhere = shownKnown ? importers::clusterDifference(planned, shown) : std::string();
            const QString madeOn = tr("It was made on %1.").arg(QString::fromStdString(importers::sourceText(planned)));
            QPushButton* later = nullptr;
            if (elsewhere.empty()) {
                box.setInformativeText(madeOn + QLatin1Char(' ')
                    + tr("It is added to the plans and checked against the cluster shown; Discard deletes it."));
                box.button(QMessageBox::Yes)->setText(tr("&Recover"));
            } else {
                box.setIcon(QMessageBox::Warning);
                box.setInformativeText(tr("The cluster shown is not the one it was made on: %1. Recover Here checks it against the "
                                          "cluster shown, where its actions may not hold; Keep for Later keeps it until that "
                                          "cluster%2 is open; Discard deletes it.")
                                           .arg(QString::fromStdString(elsewhere),
                                               documentName.isEmpty() ? QString() : tr(" (or %1)").arg(documentName)));
                box.button(QMessageBox::Yes)->setText(tr("&Recover Here"));
                later = box.addButton(tr("&Keep for Later"), QMessageBox::RejectRole);
                later->setObjectName(QStringLiteral("recoverLater"));
            }
            box.button(QMessageBox::No)->setText(tr("&Discard"));
            if (later)
                box.setDefaultButton(later);
            else
                box.setDefaultButton(QMessageBox::Yes);
            box.exec();
            const bool recover = box.clickedButton() == box.button(QMessageBox::Yes);
            m_window->restoreMapFocus();
            if (later && box.clickedButton() == later) {
                m_keptForLater.insert(file.filePath(), std::weak_ptr<const void>(m_window->cluster()));
                owner.unlock();
                continue;
            }
            // The first plan recovered is shown (once any plan being opened is); the later ones
            // join the list, to be shown from there. Which one is shown never depends on how
            // fast the questions are answered against how fast a plan opens.
            const QString name = about.plan.isEmpty() ? tr("Recovered %1").arg(when) : tr("%1 (recovered %2)").arg(about.plan, when);
            if (recover && !shownOne) {
                m_document->addPlanToShow(name, std::move(json));
                shownOne = true;
            } else if (recover) {
                m_document->keepPlan(name, std::move(json));
            }
        }
        QFile::remove(file.filePath());
        QFile::remove(aboutPath);
        owner.unlock();
    }
}

} // namespace fleet::app
