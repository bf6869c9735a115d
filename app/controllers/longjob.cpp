// SPDX-License-Identifier: Apache-2.0
#include "longjob.h"

#include "app/controllers/offthreadrelease.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QProgressDialog>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace fleet::app {
namespace {
Q_LOGGING_CATEGORY(lcLongJob, "fleet.app.longjob", QtInfoMsg)
constexpr int kPollMs = 100; // progress about ten times a second
} // namespace

void LongJobToken::setProgress(double fraction) noexcept
{
    const double f = std::clamp(fraction, 0.0, 1.0);
    m_permille.store(static_cast<int>(std::lround(f * 1000.0)), std::memory_order_relaxed);
}

void LongJobToken::setLabel(const QString& text)
{
    const QMutexLocker lock(&m_labelMutex);
    m_label = text;
}

QString LongJobToken::takeLabel()
{
    const QMutexLocker lock(&m_labelMutex);
    return std::exchange(m_label, QString());
}

LongJob::LongJob(QWidget* dialogParent, Options options, QObject* owner)
    : QObject(owner)
    , m_dialogParent(dialogParent)
    , m_options(std::move(options))
    , m_pool(m_options.pool ? m_options.pool : longWorkPool())
    , m_poll(new QTimer(this))
    , m_showTimer(new QTimer(this))
{
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &LongJob::poll);
    m_showTimer->setSingleShot(true);
    m_showTimer->setTimerType(Qt::PreciseTimer); // never early
    connect(m_showTimer, &QTimer::timeout, this, &LongJob::showDialog);
}

LongJob::~LongJob()
{
    if (m_token)
        m_token->cancel();
    m_deliver = nullptr;
    delete m_dialog.data(); // hidden with the job: it would outlive it over the owner's window
}

QProgressDialog* LongJob::dialog() const noexcept
{
    return m_dialog.data();
}

std::shared_ptr<LongJobToken> LongJob::begin(const QString& label)
{
    drop();
    m_token = std::make_shared<LongJobToken>(++m_generation);
    m_shownPermille = 0;
    if (!m_dialog) {
        m_dialog = new QProgressDialog(m_dialogParent);
        m_dialog->setObjectName(m_options.dialogName);
        m_dialog->setWindowTitle(m_options.title);
        m_dialog->setRange(0, m_options.steps);
        m_dialog->setWindowModality(Qt::WindowModal);
        m_dialog->setAutoReset(false);
        m_dialog->setAutoClose(false);
        connect(m_dialog, &QProgressDialog::canceled, this, &LongJob::cancel);
    }
    m_dialog->reset(); // also stops QProgressDialog's own show timer: this one times the delay
    m_dialog->setRange(0, m_options.steps);
    m_dialog->setLabelText(label);
    m_showTimer->start(m_options.delayMs);
    m_poll->start();
    return m_token;
}

void LongJob::end(const std::shared_ptr<LongJobToken>& token)
{
    if (!isCurrent(token))
        return;
    flushProgress(); // the last progress, before the result (the dialog hides: not drawn)
    stop();
}

void LongJob::cancel()
{
    if (!m_token)
        return;
    m_token->cancel();
    emit cancelRequested();
}

void LongJob::drop()
{
    if (!m_token)
        return;
    m_token->cancel();
    stop();
}

void LongJob::stop()
{
    m_token.reset();
    m_deliver = nullptr;
    m_poll->stop();
    m_showTimer->stop();
    hideDialog();
}

void LongJob::setLabel(const QString& text)
{
    if (m_token && m_dialog)
        m_dialog->setLabelText(text);
}

void LongJob::setProgress(double fraction)
{
    if (!m_token)
        return;
    m_token->setProgress(fraction);
    poll();
}

void LongJob::showDialog()
{
    if (!m_token || !m_dialog)
        return;
    m_dialog->show();
    if (m_shownPermille > 0)
        m_dialog->setValue(static_cast<int>(std::lround(m_shownPermille * m_options.steps / 1000.0)));
}

void LongJob::poll()
{
    if (!m_token || !m_dialog)
        return;
    if (QString label = m_token->takeLabel(); !label.isNull())
        m_dialog->setLabelText(label);
    const int permille = m_token->permille();
    if (permille == m_shownPermille)
        return;
    m_shownPermille = permille;
    if (permille < 0) {
        m_dialog->setRange(0, 0); // busy
        return;
    }
    if (m_dialog->maximum() == 0)
        m_dialog->setRange(0, m_options.steps);
    emit progressed(permille / 10);
    // Drawn only once shown (QProgressDialog::setValue() would show it early on its own
    // estimate), and last: setValue() runs the event loop while the modal dialog shows, where
    // the job may end or its owner go.
    if (m_dialog && m_token && m_dialog->isVisible())
        m_dialog->setValue(static_cast<int>(std::lround(permille * m_options.steps / 1000.0)));
}

void LongJob::flushProgress()
{
    if (!m_token)
        return;
    const int permille = m_token->permille();
    if (permille >= 0 && permille != m_shownPermille) {
        m_shownPermille = permille;
        emit progressed(permille / 10);
    }
}

void LongJob::hideDialog()
{
    if (!m_dialog)
        return;
    m_dialog->reset(); // also stops its delay: a job ended before never shows it
    m_dialog->hide();
    m_dialog->setRange(0, m_options.steps);
}

void LongJob::logFailure(const char* what)
{
    qCWarning(lcLongJob, "a long job's work failed: %s", what);
}

void LongJob::deliverLater(QPointer<LongJob> self, std::uint64_t generation, std::shared_ptr<void> result)
{
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [self = std::move(self), generation, result = std::move(result)]() mutable {
            if (self)
                self->deliver(generation, std::move(result));
            else
                releaseOffGuiThread(std::move(result));
        },
        Qt::QueuedConnection);
}

void LongJob::deliver(std::uint64_t generation, std::shared_ptr<void> result)
{
    if (!m_token || m_token->generation() != generation || !m_deliver) {
        releaseOffGuiThread(std::move(result)); // superseded, dropped or ended meanwhile
        return;
    }
    if (!result) { // the work threw (logged): the job ends without a result
        end(m_token);
        return;
    }
    std::function<void(std::shared_ptr<void>)> deliverTo = std::exchange(m_deliver, nullptr);
    deliverTo(std::move(result));
}

} // namespace fleet::app
