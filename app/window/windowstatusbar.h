// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window's status bar: the cluster totals, the warning count, the node under the
// pointer, the import's progress and messages, the what-if's messages and the partial-view
// notice, each a field of its own so that no message ever takes the totals' place.

#include "app/window/clustertotals.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QLabel;
class QMainWindow;
class QProgressBar;
class QTimer;
class QToolButton;

namespace fleet::app {

/// The status bar's variants of a plan message, longest first: the whole sentence, then its
/// head with the reason codes alone ("Cannot move a to b: insufficient-cpu, gang-member"), so a
/// shortened refusal still says why. Thread: any.
[[nodiscard]] QStringList planMessageVariants(const QString& message);

class ImportController;
class StatusField;

/// Fills `window`'s QStatusBar, left to right: the totals (StatusField "totalsLabel", the only
/// stretching field), the warning count ("warningCountLabel"), the node under the pointer
/// ("hoverLabel"), the import field ("importStatus"), the what-if's field ("planStatus", shown
/// only while it has a message), the import's progress bar ("importProgress") and Cancel
/// button ("cancelImportButton"), shown while an import runs, and the partial-view notice
/// ("partialViewNotice"). The fields shorten their text to fit (StatusField); the hover field
/// gets what the others leave and hides below a few characters (fitHoverField()).
/// Thread: GUI thread.
class WindowStatusBar : public QObject {
    Q_OBJECT
public:
    /// How long a message of the import (cancelled) stays, in ms; the what-if's stay 3 times as long.
    static constexpr int kMessageMs = 5000;

    /// `imports`: an import message is not cleared while an import runs.
    WindowStatusBar(QMainWindow* window, ImportController* imports);

    // ---- the import ----
    /// Shows the progress bar and Cancel button (busy) or hides them.
    void setBusy(bool busy);
    /// An import of `label` started: busy, "Importing…" until the first progress.
    void importStarted(const QString& label);
    /// The import's progress in per mille; negative: unknown yet (a busy indicator).
    void setProgress(int permille);
    /// The import waits (a slow server): `text` says on what.
    void setImportWaiting(const QString& text);
    /// A message of the import (longest first, StatusField::setVariants), cleared after kMessageMs.
    void showImportMessage(const QStringList& variants);
    /// The import ended (finished or failed): not busy, its field empty.
    void importEnded();
    [[nodiscard]] QString importStatusText() const;

    // ---- the what-if ----
    /// A sentence of the plan (PlanController::messageShown), shown for 3 * kMessageMs.
    void showPlanMessage(const QString& message);
    [[nodiscard]] QString planStatusText() const;

    // ---- the cluster ----
    /// The totals of the shown cluster and, when `warnings` is set, its warning count.
    void setTotals(const ClusterTotals& totals);
    void setWarningCount(std::size_t warnings);
    void setTotalsToolTip(const QString& tip);
    /// The totals' full text and the warning count, "" before the first cluster.
    [[nodiscard]] QString totalsText() const;
    /// The totals' tooltip (setTotalsToolTip()).
    [[nodiscard]] QString totalsToolTip() const;
    /// The totals as shown at the current width (maybe shortened).
    [[nodiscard]] QString displayedTotalsText() const;
    /// The name of the node under the pointer ("" for none).
    void setHover(const QString& text);
    [[nodiscard]] QString hoverText() const;
    /// The partial-view notice: its variants (empty: hidden) and tooltip.
    void setPartialView(const QStringList& variants, const QString& toolTip);
    [[nodiscard]] QString partialViewText() const;

    /// Keeps the hover name from taking the totals' room: the totals never give way. Called
    /// when a field changes and when the window is resized.
    void fitHoverField();

signals:
    /// The Cancel button was clicked.
    void cancelRequested();

private:
    QMainWindow* m_window = nullptr;
    ImportController* m_imports = nullptr;
    StatusField* m_totalsLabel = nullptr;
    QLabel* m_warningCountLabel = nullptr; // apart from the totals, so that it is never clipped
    StatusField* m_hoverLabel = nullptr;
    StatusField* m_importStatus = nullptr; // progress text or the last message, beside the bar
    QTimer* m_messageTimer = nullptr; // clears a message after kMessageMs
    StatusField* m_planStatus = nullptr;
    QTimer* m_planMessageTimer = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QToolButton* m_cancelButton = nullptr;
    StatusField* m_partialViewNotice = nullptr; // shown while the live view is partial
};

} // namespace fleet::app
