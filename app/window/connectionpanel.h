// SPDX-License-Identifier: Apache-2.0
#pragma once
// The connection panel (a dock): what a live feed is doing, as LiveFeedStatus says,
// and what the window did with its batches.

#include "importers/live/livefeed.h"

#include <QWidget>

class QLabel;

namespace fleet::app {

class LiveController;

/// Shows the state ("Watching", "Retrying", ...), the server ("simulated" for the simulated
/// feed), events per second, the age of the last event, events, errors (the last one), the
/// request that takes long when one does (what it waits for, since when, when it gives up), retries
/// and relists, the batches applied and waiting (and why they wait), and the view: "whole
/// cluster", or "Partial view: pods of 1 of 2 namespaces (not listed: cache), ..." when the
/// user may list pods in some namespaces only. Refreshed on the controller's statusChanged()
/// and by a 1 s timer (the age of the last event). Thread: GUI.
class ConnectionPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionPanel(const LiveController* live, QWidget* parent = nullptr);
    /// Reads the controller again.
    void refresh();
    /// What the LIST the shown cluster came from saw: "" (the whole cluster, or not a live
    /// cluster) or its partial view (importers::LoadedCluster::partialView). Refreshes.
    void setListedView(const QString& partialView);
    /// The partial view now, "" when the view is whole: the feed's once it has listed
    /// (LiveFeedStatus::partialView, after a relist or as soon as it names one), else the LIST's.
    [[nodiscard]] QString partialView() const;
    /// The text of the field named `field` ("state", "server", "rate", "age", "events",
    /// "errors", "request", "retries", "applied", "waiting", "view"), for tests.
    [[nodiscard]] QString fieldText(const QString& field) const;

    /// "Connecting", "Listing", "Watching", "Retrying", "Failed", "Stopped".
    [[nodiscard]] static QString stateName(importers::live::LiveFeedStatus::State state);

private:
    const LiveController* m_live;
    QLabel* m_state = nullptr;
    QLabel* m_server = nullptr;
    QLabel* m_rate = nullptr;
    QLabel* m_age = nullptr;
    QLabel* m_events = nullptr;
    QLabel* m_errors = nullptr;
    QLabel* m_request = nullptr;
    QLabel* m_retries = nullptr;
    QLabel* m_applied = nullptr;
    QLabel* m_waiting = nullptr;
    QLabel* m_view = nullptr;
    QString m_listedView;
};

} // namespace fleet::app
