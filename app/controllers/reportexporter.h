// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Export Report: the report `fleetscope report` writes (views/report/fleetreport.h),
// for what the window shows: the loaded state with its provenance, the plan shown (re-evaluated
// on a plan engine of its own, as `plan check` does with the saved plan) and the chosen metric.
// Written to a PDF (or the first page as a PNG) chosen in a file dialog, through the atomic
// writer (importers/output/outputfile.h), which refuses to overwrite a .fleet document.
//
// Threads (app/shared/reportbuilder.h): the plan's replay, what it risks, the Karpenter
// baseline, the layout and the painting run on workers; the maps are drawn by the fleet map's
// off-screen path, as `fleetscope report` draws them (the same print resolution,
// views::kReportMapDevicePixelRatio, whatever the screen's): one map per event-loop turn
// (views::ReportMapRenderer), the view readied and its legend rendered on the GUI thread, its
// pixels painted on a worker, so that the window answers between two maps and Cancel stops
// between them; the GUI thread's part of a map still grows with the fleet. The steps are one
// LongJob (app/controllers/longjob.h): a progress dialog with Cancel shows after half a second;
// Cancel stops the export at the next step and writes nothing.

#include <QObject>
#include <QString>

#include <memory>

class QMenu;

namespace fleet::views {
class ReportMapRenderer;
}

namespace fleet::app {

class LongJob;
class LongJobToken;
class MainWindow;
struct ReportJob;

class ReportExporter : public QObject {
    Q_OBJECT
public:
    /// Adds File > Export Report… (objectName "actionExportReport") to `file`.
    ReportExporter(MainWindow* window, QMenu* file);
    ~ReportExporter() override;

    /// Exports the report of what the window shows to `path` (.pdf or .png) on workers; false
    /// when nothing started (no cluster, an export runs, a refused path: a message says why).
    bool exportTo(const QString& path);
    [[nodiscard]] bool isRunning() const noexcept;
    /// The last export's outcome for people ("Wrote ... (N pages)", or the error).
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }

signals:
    /// An export ended: written (`ok`), failed or cancelled.
    void finished(bool ok, const QString& message);

private:
    struct Replayed;
    struct Written;
    void showDialog();
    void drawMaps(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job);
    void drawNextMap(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job, std::shared_ptr<views::ReportMapRenderer> renderer);
    /// The maps drawn: the layout and the file on a worker.
    void writeReport(std::shared_ptr<LongJobToken> token, std::shared_ptr<ReportJob> job, std::shared_ptr<views::ReportMapRenderer> renderer);
    /// Ends the export `token` names (nothing when it is no longer the running one).
    void onDone(const std::shared_ptr<LongJobToken>& token, bool ok, const QString& message);

    MainWindow* m_window;
    LongJob* m_job; // the export: replay (worker), maps (GUI thread), layout and file (worker)
    QString m_path;
    QString m_lastMessage;
};

} // namespace fleet::app
