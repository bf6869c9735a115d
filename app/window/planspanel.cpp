// SPDX-License-Identifier: Apache-2.0
#include "planspanel.h"
#include "app/dialogs/filedialogs.h"

#include "app/window/mainwindow.h"
#include "app/window/windowdocument.h"
#include "importers/document/fleetdocument.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFont>
#include <QGuiApplication>
#include <QInputDialog>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QFileInfo>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QStatusBar>

#include <utility>

namespace fleet::app {

PlansPanel::PlansPanel(MainWindow* window, WindowDocument* document)
    : QObject(window)
    , m_window(window)
    , m_document(document)
{
    m_list = new QListWidget(window);
    m_list->setObjectName(QStringLiteral("plansList"));
    m_list->setToolTip(tr("The plans kept with this cluster: click one, or move to it with the arrow keys, to show it"));
    m_dock = new QDockWidget(tr("Plans"), window);
    m_dock->setObjectName(QStringLiteral("plansDock"));
    m_dock->setWidget(m_list);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();
    // As in a list of documents or tabs, the row made current (a click, the arrow keys) is the
    // plan shown; a right-click only picks the row its context menu acts on.
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_refreshing && !(QGuiApplication::mouseButtons() & Qt::RightButton))
            showRow(row);
    });
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { showRow(m_list->row(item)); });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { showRow(m_list->row(item)); }); // a row picked by a right-click first

    m_menu = new QMenu(tr("Pla&ns"), window);
    m_menu->setObjectName(QStringLiteral("menuPlans"));
    // Before Help.
    QAction* help = nullptr;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu() && a->menu()->title() == tr("&Help"))
            help = a;
    if (help)
        window->menuBar()->insertMenu(help, m_menu);
    else
        window->menuBar()->addMenu(m_menu);

    QAction* add = m_menu->addAction(tr("&New Plan"), this, [this] { m_document->newPlan(); });
    add->setObjectName(QStringLiteral("actionNewPlan"));
    add->setStatusTip(tr("Start an empty plan beside the others; the shown one is kept in the list"));
    QAction* duplicate = m_menu->addAction(tr("&Duplicate Plan"), this, [this] { m_document->duplicatePlan(target()); });
    duplicate->setObjectName(QStringLiteral("actionDuplicatePlan"));
    QAction* rename = m_menu->addAction(tr("&Rename Plan\u2026"), this, &PlansPanel::renameTarget);
    rename->setObjectName(QStringLiteral("actionRenamePlan"));
    QAction* remove = m_menu->addAction(tr("Dele&te Plan\u2026"), this, &PlansPanel::deleteTarget);
    remove->setObjectName(QStringLiteral("actionDeletePlan"));
    m_menu->addSeparator();
    QAction* import = m_menu->addAction(tr("&Import Plan\u2026"), this, &PlansPanel::importPlan);
    import->setObjectName(QStringLiteral("actionImportPlan"));
    import->setStatusTip(tr("Add a plan file to the plans (checked against the shown cluster)"));
    QAction* exportPlan = m_menu->addAction(tr("&Export Plan\u2026"), this, &PlansPanel::exportTarget);
    exportPlan->setObjectName(QStringLiteral("actionExportPlan"));
    m_menu->addSeparator();
    QAction* show = m_dock->toggleViewAction();
    show->setText(tr("Show Plans &List"));
    m_menu->addAction(show);
    m_entriesStart = m_menu->addSeparator();
    m_entries = new QActionGroup(this);
    m_entries->setExclusive(true);
    // The list's own context actions: the same, on the row under the pointer.
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_list->addActions({ add, duplicate, rename, remove, exportPlan });

    connect(m_document, &WindowDocument::plansChanged, this, &PlansPanel::refresh);
    refresh();
}

void PlansPanel::showRow(int row)
{
    if (row < 0 || row == m_document->currentPlan())
        return;
    // While another plan opens, the row asked for last is shown once it has opened (the arrow
    // keys held down pass over rows faster than plans open).
    if (m_document->currentPlan() < 0) {
        m_wanted = row;
        return;
    }
    m_wanted = -1;
    if (!m_document->switchToPlan(row)) {
        // Refused (a message says why): the highlight goes back to the plan on screen, once the
        // list is done with the click or key that moved it.
        QMetaObject::invokeMethod(this, [this] {
            const QScopedValueRollback<bool> refreshing(m_refreshing, true);
            if (m_document->currentPlan() >= 0)
                m_list->setCurrentRow(m_document->currentPlan());
        }, Qt::QueuedConnection);
    }
}

int PlansPanel::target() const
{
    if (m_dock->isVisible() && m_list->currentRow() >= 0)
        return m_list->currentRow();
    return m_document->currentPlan();
}

void PlansPanel::refresh()
{
    const auto& plans = m_document->plans();
    const int shown = m_document->currentPlan();
    const int selected = m_list->currentRow();
    const QScopedValueRollback<bool> refreshing(m_refreshing, true);
    m_list->clear();
    for (QAction* a : m_entries->actions()) {
        m_entries->removeAction(a);
        m_menu->removeAction(a);
        a->deleteLater();
    }
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const QString name = QString::fromStdString(plans[i].name);
        auto* item = new QListWidgetItem(name, m_list);
        QFont font = item->font();
        font.setBold(static_cast<int>(i) == shown);
        item->setFont(font);
        if (!plans[i].notes.empty())
            item->setToolTip(QString::fromStdString(plans[i].notes));
        QString label = name;
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* entry = m_menu->addAction(i < 9 ? tr("&%1 %2").arg(i + 1).arg(label) : label);
        entry->setObjectName(QStringLiteral("actionShowPlan%1").arg(i + 1));
        entry->setCheckable(true);
        entry->setChecked(static_cast<int>(i) == shown);
        m_entries->addAction(entry);
        connect(entry, &QAction::triggered, this, [this, i] { m_document->switchToPlan(static_cast<int>(i)); });
    }
    // The highlight follows the shown plan when that changes (a new, switched or deleted
    // plan), so that Plans > Rename and Delete act on the plan on screen; otherwise it stays
    // on the row the user picked in the list.
    if (shown != m_lastShown && shown >= 0)
        m_list->setCurrentRow(shown);
    else if (selected >= 0 && selected < m_list->count())
        m_list->setCurrentRow(selected);
    else if (shown >= 0)
        m_list->setCurrentRow(shown);
    m_lastShown = shown;
    if (shown >= 0 && m_wanted >= 0) {
        const int wanted = std::exchange(m_wanted, -1);
        if (wanted != shown && wanted < m_list->count())
            QMetaObject::invokeMethod(this, [this, wanted] { showRow(wanted); }, Qt::QueuedConnection);
    }
}

void PlansPanel::renameTarget()
{
    const int index = target();
    if (index < 0)
        return;
    const QString old = QString::fromStdString(m_document->plans()[static_cast<std::size_t>(index)].name);
    // A name refused is offered again for editing, as typed, under the reason.
    QString name = old, why;
    for (;;) {
        bool ok = false;
        const QString label = why.isEmpty() ? tr("Name of the plan:") : why + QStringLiteral("\n\n") + tr("Name of the plan:");
        name = QInputDialog::getText(m_window, tr("Rename Plan"), label, QLineEdit::Normal, name, &ok);
        if (!ok || name.trimmed() == old)
            break;
        if (m_document->renamePlan(index, name))
            break;
        why = name.trimmed().isEmpty()                                             ? tr("A plan needs a name.")
            : !importers::isPrintablePlanName(name.trimmed().toStdString()) ? tr("A plan's name is printable text: no tabs, control or invisible characters.")
                                                                             : tr("Another plan is named %1 already.").arg(name.trimmed());
    }
    m_window->restoreMapFocus();
}

void PlansPanel::deleteTarget()
{
    const int index = target();
    if (index < 0)
        return;
    const QString name = QString::fromStdString(m_document->plans()[static_cast<std::size_t>(index)].name);
    // No is the default: Enter must not delete a plan.
    const auto answer = QMessageBox::question(m_window, tr("Delete Plan"),
        tr("Delete the plan %1? It is removed from the document when it is saved next.").arg(name), QMessageBox::Yes | QMessageBox::No,
        QMessageBox::No);
    m_window->restoreMapFocus();
    if (answer == QMessageBox::Yes && !m_document->deletePlan(index))
        QMessageBox::information(m_window, tr("Delete Plan"), tr("A plan is being opened; delete it again in a moment."));
}

void PlansPanel::importPlan()
{
    const QString path = askOpenFileName(m_window, tr("Import Plan"), tr("Plan files (*.json);;All files (*)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return;
    if (const QString error = m_document->importPlan(path); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Import Plan"), withFullStop(error));
}

void PlansPanel::exportTarget()
{
    const int index = target();
    if (index < 0)
        return;
    const QString name = QString::fromStdString(m_document->plans()[static_cast<std::size_t>(index)].name);
    const QString path = askSaveFileName(m_window, tr("Export Plan"), name + QStringLiteral(".json"), tr("Plan files (*.json)"));
    m_window->restoreMapFocus();
    if (path.isEmpty())
        return;
    if (const QString error = m_document->exportPlan(index, path); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Export Plan"), withFullStop(error));
    else
        m_window->statusBar()->showMessage(tr("Exported plan %1 to %2.").arg(name, QFileInfo(path).absoluteFilePath()), MainWindow::kMessageMs);
}

} // namespace fleet::app
