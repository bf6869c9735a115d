// SPDX-License-Identifier: Apache-2.0
#include "connectionpanel.h"

#include "app/controllers/livecontroller.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QTimer>

namespace fleet::app {

using State = importers::live::LiveFeedStatus::State;

QString ConnectionPanel::stateName(State state)
{
    switch (state) {
    case State::Connecting: return tr("Connecting");
    case State::Listing: return tr("Listing");
    case State::Watching: return tr("Watching");
    case State::Retrying: return tr("Retrying");
    case State::Failed: return tr("Failed");
    case State::Stopped: return tr("Stopped");
    }
    return {};
}

ConnectionPanel::ConnectionPanel(const LiveController* live, QWidget* parent)
    : QWidget(parent)
    , m_live(live)
{
    auto* form = new QFormLayout(this);
    // A long value (the reason batches wait, a slow request) goes under its label at the dock's
    // whole width rather than into a narrow column beside it, where it was cut.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto add = [&](const QString& label, const char* name) {
        auto* value = new QLabel(this);
        value->setObjectName(QString::fromLatin1(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        form->addRow(label, value);
        return value;
    };
    m_state = add(tr("State:"), "state");
    m_server = add(tr("Server:"), "server");
    m_rate = add(tr("Events per second:"), "rate");
    m_age = add(tr("Last event:"), "age");
    m_events = add(tr("Events:"), "events");
    m_errors = add(tr("Errors:"), "errors");
    m_request = add(tr("Slow request:"), "request");
    m_retries = add(tr("Retries:"), "retries");
    m_applied = add(tr("Applied:"), "applied");
    m_waiting = add(tr("Waiting:"), "waiting");
    m_view = add(tr("View:"), "view");
    connect(live, &LiveController::liveStatusChanged, this, &ConnectionPanel::refresh);
    auto* timer = new QTimer(this);
    timer->setInterval(1000);
    connect(timer, &QTimer::timeout, this, &ConnectionPanel::refresh);
    timer->start();
    refresh();
}

void ConnectionPanel::setListedView(const QString& partialView)
{
    m_listedView = partialView;
    refresh();
}

QString ConnectionPanel::partialView() const
{
    const importers::live::LiveFeedStatus& s = m_live->status();
    // The feed's word stands once it has one: a partial view it names, or a relist after which
    // it names none (the view became whole). Before that the LIST's.
    if (m_live->isRunning() && (!s.partialView.empty() || s.relists > 0))
        return QString::fromStdString(s.partialView);
    return m_listedView;
}

void ConnectionPanel::refresh()
{
    const QLocale locale;
    const importers::live::LiveFeedStatus& s = m_live->status();
    const QString partial = partialView();
    m_view->setText(partial.isEmpty() ? tr("whole cluster") : tr("Partial view: %1").arg(partial));
    m_view->setStyleSheet(partial.isEmpty() ? QString() : QStringLiteral("color: #8a5a00; font-weight: bold;"));
    if (!m_live->isRunning() && s.server.empty()) {
        m_state->setText(tr("Not connected"));
        for (QLabel* l : { m_server, m_rate, m_age, m_events, m_errors, m_request, m_retries, m_applied, m_waiting })
            l->setText(QStringLiteral("\u2014"));
        if (partial.isEmpty())
            m_view->setText(QStringLiteral("\u2014"));
        return;
    }
    m_state->setText(stateName(s.state));
    m_server->setText(QString::fromStdString(s.server)
        + (s.resourceVersion.empty() ? QString() : tr(" (resourceVersion %1)").arg(QString::fromStdString(s.resourceVersion))));
    m_rate->setText(locale.toString(s.eventsPerSecond, 'f', 0));
    m_age->setText(s.lastEventAgeSeconds < 0 ? tr("none yet") : tr("%1 s ago").arg(locale.toString(s.lastEventAgeSeconds, 'f', 1)));
    m_events->setText(locale.toString(static_cast<qulonglong>(s.events)));
    m_errors->setText(s.lastError.empty() ? tr("none") : QString::fromStdString(s.lastError));
    m_request->setText(s.slowRequest.empty() ? tr("none") : QString::fromStdString(s.slowRequest));
    m_retries->setText(tr("%1 (relists %2)").arg(locale.toString(static_cast<qulonglong>(s.retries)),
        locale.toString(static_cast<qulonglong>(s.relists))));
    m_applied->setText(tr("%1 batches, %2 events (last in %3 ms)")
                           .arg(locale.toString(static_cast<qulonglong>(m_live->batchesApplied())),
                               locale.toString(static_cast<qulonglong>(m_live->eventsApplied())),
                               locale.toString(m_live->lastApplyMs(), 'f', 1)));
    const std::size_t waiting = m_live->batchesWaiting();
    m_waiting->setText(waiting == 0 ? tr("none")
                                    : tr("%1: %2").arg(LiveController::batchesText(waiting), m_live->waitingReason()));
    // Each value whole in its tooltip, where the dock is too small for it.
    for (QLabel* l : { m_state, m_server, m_rate, m_age, m_events, m_errors, m_request, m_retries, m_applied, m_waiting, m_view })
        l->setToolTip(l->text());
}

QString ConnectionPanel::fieldText(const QString& field) const
{
    const auto* label = findChild<QLabel*>(field);
    return label ? label->text() : QString();
}

} // namespace fleet::app
