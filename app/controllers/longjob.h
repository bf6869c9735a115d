// SPDX-License-Identifier: Apache-2.0
#pragma once
// One long job of the window at a time, for one owner (a controller or a dialog): the work runs
// on a worker, a progress dialog with Cancel shows once it has taken longer than a delay, the
// worker's progress reaches the dialog about ten times a second, and the result comes back on
// the GUI thread, unless the job was superseded, dropped or its owner destroyed meanwhile.
//
// Threads: every LongJob method is for the GUI thread. The worker sees only its LongJobToken
// (a shared flag, progress and label, no pointer to the owner or the LongJob): a job whose owner
// is gone can go on running, its result is then released on a worker and nothing else happens.
// The work must not throw: its result carries its errors (an exception is logged and the job
// ends without a result).

#include "app/controllers/workerpool.h"

#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

class QProgressDialog;
class QThreadPool;
class QTimer;
class QWidget;

namespace fleet::app {

/// What a running job's worker polls and reports. Thread: any (the worker writes, the GUI
/// thread reads ten times a second).
class LongJobToken {
public:
    explicit LongJobToken(std::uint64_t generation) noexcept : m_generation(generation) {}

    /// True once the job was cancelled (Cancel, LongJob::cancel(), superseded, dropped, its owner
    /// destroyed): the work should return soon, with what it has.
    [[nodiscard]] bool isCancelled() const noexcept { return m_cancelled.load(std::memory_order_relaxed); }
    /// The flag itself, for code below app/ that polls a `const std::atomic<bool>*`.
    [[nodiscard]] const std::atomic<bool>* cancelFlag() const noexcept { return &m_cancelled; }
    void cancel() noexcept { m_cancelled.store(true, std::memory_order_relaxed); }

    /// How far the work is, 0..1 (clamped); cheap, call it as often as the work likes.
    void setProgress(double fraction) noexcept;
    /// The work cannot say how far it is: the dialog shows a busy bar until setProgress().
    void setBusy() noexcept { m_permille.store(-1, std::memory_order_relaxed); }
    /// The dialog's label from now on.
    void setLabel(const QString& text);

    /// 0..1000, or -1 when busy.
    [[nodiscard]] int permille() const noexcept { return m_permille.load(std::memory_order_relaxed); }
    /// The label set since the last call (taken), or a null string.
    [[nodiscard]] QString takeLabel();
    /// Which start() of its LongJob this is (LongJob::isCurrent()).
    [[nodiscard]] std::uint64_t generation() const noexcept { return m_generation; }

private:
    const std::uint64_t m_generation;
    std::atomic<bool> m_cancelled { false };
    std::atomic<int> m_permille { 0 };
    QMutex m_labelMutex;
    QString m_label;
};

/// Runs an owner's long jobs, one at a time. Usage, on the GUI thread:
///
///     m_job = new LongJob(window, { "openPlanProgress", tr("Open Plan") }, this);
///     m_job->start(tr("Checking…"), [input](LongJobToken& token) { return work(input, token); },
///                  [this](Result r) { show(r); });
///
/// - start(): a job already running is superseded first (as drop()). The work runs on `pool`
///   (longWorkPool() unless the options name another); `done` runs on the GUI thread with its
///   result, after the job ended (isRunning() false, the dialog hidden: `done` may start the
///   next one) and after the last progress was emitted.
/// - The dialog (a QProgressDialog, window-modal over the dialog parent, made on first use)
///   shows once the job has run `delayMs`, never earlier; a job ended before never shows it.
///   Its Cancel calls cancel().
/// - cancel(): the token says cancelled; the job goes on until the work returns, and `done` still
///   gets its result (the owner says "cancelled"). cancelRequested() is emitted.
/// - drop(): cancels and ends the job now: its `done` is never called and its result is
///   released on a worker when it comes. For a result made stale (a new cluster, another question).
/// - Destruction: as drop(); the dialog goes with the LongJob. The worker never touches the
///   owner, so an owner destroyed while its job runs is safe (its `done`, held by the LongJob, is
///   destroyed with it, never called).
/// - A job of several steps (workers and GUI-thread steps between them): begin() the job,
///   run() each worker step with the token, check isCurrent() in GUI-thread steps, end() it.
class LongJob : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString dialogName;  // the progress dialog's objectName (tests find it by it)
        QString title;       // its window title
        int delayMs = 500;   // it shows once the job has run this long
        int steps = 100;     // its bar's range, 0..steps: the token's 0..1 is scaled to it
        QThreadPool* pool = nullptr; // null: longWorkPool()
    };

    /// The dialog's parent is `dialogParent` (a window or a dialog); `owner` is the QObject parent.
    LongJob(QWidget* dialogParent, Options options, QObject* owner);
    ~LongJob() override;

    /// Starts `work(LongJobToken&)` on the pool, `done(result)` on the GUI thread (see above).
    template <class Work, class Done>
    std::shared_ptr<LongJobToken> start(const QString& label, Work work, Done done)
    {
        std::shared_ptr<LongJobToken> token = begin(label);
        run(token, std::move(work), [this, token, done = std::move(done)](auto result) mutable {
            end(token);
            done(std::move(result));
        });
        return token;
    }

    /// Begins a job of several steps labelled `label` (a running one is superseded first): its
    /// token, the dialog armed. The job runs until end() or drop().
    std::shared_ptr<LongJobToken> begin(const QString& label);
    /// Runs one worker step of the job `token` names: `work(*token)` on the pool, then
    /// `done(result)` on the GUI thread if the job is still current (the job goes on: end() it).
    template <class Work, class Done>
    void run(const std::shared_ptr<LongJobToken>& token, Work work, Done done)
    {
        using Result = std::invoke_result_t<Work&, LongJobToken&>;
        if (!isCurrent(token))
            return;
        m_deliver = [done = std::move(done)](std::shared_ptr<void> result) mutable {
            done(std::move(*std::static_pointer_cast<Result>(result)));
        };
        QPointer<LongJob> self(this);
        (void)QtConcurrent::run(m_pool, [self, token, work = std::move(work)]() mutable {
            std::shared_ptr<void> result;
            try {
                result = std::make_shared<Result>(work(*token));
            } catch (const std::exception& e) {
                logFailure(e.what());
            } catch (...) {
                logFailure("an unknown exception");
            }
            deliverLater(std::move(self), token->generation(), std::move(result));
        });
    }
    /// Ends the job `token` names (nothing when it is no longer current): the dialog hides.
    void end(const std::shared_ptr<LongJobToken>& token);

    /// Cancels the running job (see above); nothing when none runs.
    void cancel();
    /// Cancels the running job and ends it now: its result is never delivered.
    void drop();

    [[nodiscard]] bool isRunning() const noexcept { return m_token != nullptr; }
    /// True while `token` names the running job (not superseded, dropped or ended).
    [[nodiscard]] bool isCurrent(const std::shared_ptr<LongJobToken>& token) const noexcept { return token && token == m_token; }
    /// The running job's token (null when none runs).
    [[nodiscard]] const std::shared_ptr<LongJobToken>& token() const noexcept { return m_token; }
    /// The progress dialog (null before the first job).
    [[nodiscard]] QProgressDialog* dialog() const noexcept;
    /// Sets the running job's label / progress (0..1) now, from the GUI thread.
    void setLabel(const QString& text);
    void setProgress(double fraction);

signals:
    /// The running job got this far, 0..100 (at most about ten a second, the last before its result).
    void progressed(int percent);
    /// cancel() was called (the dialog's Cancel, or the owner).
    void cancelRequested();

private:
    static void logFailure(const char* what);
    /// From the worker: hands `result` to the GUI thread (released on a worker there when the
    /// LongJob is gone or the job no longer current).
    static void deliverLater(QPointer<LongJob> self, std::uint64_t generation, std::shared_ptr<void> result);
    void deliver(std::uint64_t generation, std::shared_ptr<void> result);
    void showDialog();
    void poll();
    /// Emits the last progress without drawing it (the job ends): no event loop runs here.
    void flushProgress();
    /// No job runs from now on: its `done` is forgotten, the dialog hidden, the timers stopped.
    void stop();
    void hideDialog();

    QWidget* m_dialogParent;
    Options m_options;
    QThreadPool* m_pool;
    QPointer<QProgressDialog> m_dialog;
    QTimer* m_poll;
    QTimer* m_showTimer; // the dialog's delay
    std::shared_ptr<LongJobToken> m_token;
    std::function<void(std::shared_ptr<void>)> m_deliver;
    std::uint64_t m_generation = 0;
    int m_shownPermille = 0;
};

} // namespace fleet::app
