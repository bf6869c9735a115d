// SPDX-License-Identifier: Apache-2.0
#include "editactions.h"

#include "app/controllers/plancontroller.h"
#include "app/controllers/plansteprunner.h"
#include "app/window/textfieldundo.h"

#include "views/map/fleetmapview.h"
#include "views/plan/planpanel.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenu>
#include <QUndoStack>

namespace fleet::app {

namespace {

/// While a large step is undone or redone in slices (PlanStepRunner), or another plan is being
/// opened, `undo` and `redo` wait for it. The stack enables them again when its index moves, which is after the runner
/// started: hence the queued call.
void followStepRunner(PlanController* plan, QUndoStack* stack, QAction* undo, QAction* redo)
{
    const auto follow = [plan, stack, undo, redo] {
        const bool busy = plan->isBusy() || plan->isOpeningPlan();
        undo->setEnabled(!busy && stack->canUndo());
        redo->setEnabled(!busy && stack->canRedo());
    };
    QObject::connect(plan->stepRunner(), &PlanStepRunner::busyChanged, undo, [follow](bool) { follow(); }, Qt::QueuedConnection);
    // While another plan is being opened, the shown one is about to be replaced: no undo of it.
    // At once too: a key pressed before the queued call must not undo the plan being left.
    QObject::connect(plan, &PlanController::editsBlockedChanged, undo, follow);
    QObject::connect(plan, &PlanController::editsBlockedChanged, undo, follow, Qt::QueuedConnection);
}

} // namespace

EditActions::EditActions(QMainWindow* window, PlanController* plan, views::FleetMapView* map)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
    , m_map(map)
{
}

void EditActions::addEditMenu(QMenu* edit)
{
    QUndoStack* stack = m_plan->undoStack();
    QAction* undo = stack->createUndoAction(m_window, tr("&Undo"));
    undo->setObjectName(QStringLiteral("actionUndo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = stack->createRedoAction(m_window, tr("&Redo"));
    redo->setObjectName(QStringLiteral("actionRedo"));
    redo->setShortcuts({ QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y) });
    edit->addAction(undo);
    edit->addAction(redo);
    followStepRunner(m_plan, stack, undo, redo);
    new TextFieldUndo(undo, redo, m_window); // in a text field the keys edit the field
    m_undo = undo;
    m_redo = redo;
    m_window->installEventFilter(this);
    edit->addSeparator();
    // The selected node's name, as the plan names it (a node the plan added too), for a
    // terminal's kubectl or a ticket.
    QAction* copyName = edit->addAction(tr("Copy Node &Name"), this, [this] {
        const model::NodeId n = m_map->selectedNode();
        if (!n.isValid() || !m_plan->store())
            return;
        const auto plan = m_plan->planState();
        const std::string_view name = plan ? plan->nodeName(n) : (n.index() < m_plan->store()->nodeCount() ? m_plan->store()->nodeName(n) : std::string_view());
        if (!name.empty())
            QGuiApplication::clipboard()->setText(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
    });
    copyName->setObjectName(QStringLiteral("actionCopyNodeName"));
    copyName->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyName->setShortcutContext(Qt::WindowShortcut);
    copyName->setStatusTip(tr("Copy the selected node's name"));
}

void EditActions::addPlanPanelActions()
{
    QUndoStack* stack = m_plan->undoStack();
    // The panel's buttons keep short texts (the Edit menu's name the command).
    auto* undo = new QAction(tr("Undo"), m_window);
    auto* redo = new QAction(tr("Redo"), m_window);
    undo->setObjectName(QStringLiteral("planPanelUndo"));
    redo->setObjectName(QStringLiteral("planPanelRedo"));
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(undo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo, [undo](const QString& t) { undo->setToolTip(tr("Undo %1").arg(t)); });
    connect(stack, &QUndoStack::redoTextChanged, redo, [redo](const QString& t) { redo->setToolTip(tr("Redo %1").arg(t)); });
    // One action at a time from the last, even inside one undo step (a consolidation's drains).
    auto* removeLast = new QAction(tr("Remove Last"), m_window);
    removeLast->setObjectName(QStringLiteral("planPanelRemoveLast"));
    removeLast->setToolTip(tr("Remove the plan's last action (Undo puts it back)"));
    removeLast->setEnabled(false);
    connect(removeLast, &QAction::triggered, m_plan, &PlanController::removeLastAction);
    connect(m_plan, &PlanController::planChanged, removeLast, [this, removeLast] { removeLast->setEnabled(m_plan->hasPlan()); });
    m_plan->panel()->addToolActions({ undo, redo, removeLast });
    followStepRunner(m_plan, stack, undo, redo);
}

bool EditActions::eventFilter(QObject* watched, QEvent* event)
{
    // A disabled action's shortcut does not fire: the key press reaches the focused widget and,
    // ignored there, the window.
    if (watched != m_window || event->type() != QEvent::KeyPress || !m_undo)
        return QObject::eventFilter(watched, event);
    const QKeySequence key(static_cast<QKeyEvent*>(event)->keyCombination());
    const bool undo = m_undo->shortcuts().contains(key);
    if ((!undo && !m_redo->shortcuts().contains(key)) || (undo ? m_undo : m_redo)->isEnabled())
        return QObject::eventFilter(watched, event);
    if (!m_plan->isOpeningPlan() && !m_plan->isBusy())
        return QObject::eventFilter(watched, event); // nothing to undo or redo: nothing to say
    m_plan->refuseWhileBusy(undo ? tr("Undo") : tr("Redo"));
    return true;
}

} // namespace fleet::app
