// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plans inside the window's document: a Plans dock listing them and a Plans menu to
// switch between them, add, duplicate, rename, delete, import and export one.

#include <QObject>

class QAction;
class QActionGroup;
class QDockWidget;
class QListWidget;
class QMenu;

namespace fleet::app {

class MainWindow;
class WindowDocument;

/// The Plans dock (objectName plansDock: a list, plansList, one row per plan of the
/// WindowDocument, the shown one in bold; the row made current, by a click or the arrow keys,
/// is shown, as in a list of documents; one asked for while another plan opens is shown after it) and the menu
/// "Plans" (New Plan, Duplicate, Rename…, Delete, Import Plan…, Export Plan…, Show Plans
/// List, then one checkable entry per plan, "&1 NAME", that shows it). Duplicate, Rename,
/// Delete and Export act on the row selected in the dock while it is visible, else on the
/// shown plan. Everything goes through WindowDocument. Thread: GUI thread.
class PlansPanel : public QObject {
    Q_OBJECT
public:
    PlansPanel(MainWindow* window, WindowDocument* document);

    [[nodiscard]] QDockWidget* dock() const noexcept { return m_dock; }
    [[nodiscard]] QListWidget* list() const noexcept { return m_list; }
    [[nodiscard]] QMenu* menu() const noexcept { return m_menu; }

private:
    /// The rows and the menu's entries from the document's plans.
    void refresh();
    /// Shows plan `row` (WindowDocument::switchToPlan()), or after the plan being opened.
    void showRow(int row);
    /// The plan the editing actions act on (see the class comment), -1 when none.
    [[nodiscard]] int target() const;
    void renameTarget();
    void deleteTarget();
    void importPlan();
    void exportTarget();

    MainWindow* m_window;
    WindowDocument* m_document;
    QDockWidget* m_dock = nullptr;
    QListWidget* m_list = nullptr;
    int m_lastShown = -1; // the shown plan at the last refresh()
    int m_wanted = -1;    // the row asked for while another plan opened
    bool m_refreshing = false;
    QMenu* m_menu = nullptr;
    QAction* m_entriesStart = nullptr; // the separator after which the plan entries follow
    QActionGroup* m_entries = nullptr;
};

} // namespace fleet::app
