// SPDX-License-Identifier: Apache-2.0
#pragma once
// How long the GUI thread went without turning its event loop: the figure behind the rule
// "nothing on the GUI thread takes longer than 50 ms at 100,000 nodes" (DESIGN.md, Threads).

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <vector>

class QTimer;

namespace fleet::app {

/// A timer on the GUI thread that fires every kTickMs while the event loop turns; the gap
/// between two ticks beyond kTickMs is a stall: the loop was busy that long (work, a modal
/// loop's own turns do count as turns). Records every stall with the context set at the time
/// it ended (setContext(): a benchmark names its flow and action), the largest, and the
/// quantiles. Costs one timer event per kTickMs while running; nothing when stopped.
/// Thread: GUI thread (the thread it lives on is the one it measures).
class StallWatchdog : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 5;
    /// The rule's bound (DESIGN.md): a turn longer than this counts in stallsOver().
    static constexpr double kBudgetMs = 50.0;

    explicit StallWatchdog(QObject* parent = nullptr);

    void start();
    void stop();
    /// Forgets what was recorded (the context stays).
    void reset();
    [[nodiscard]] bool isRunning() const noexcept;

    /// What the GUI thread is doing now, for people ("consolidate / undo"); a stall is charged
    /// to the context in force when it ended.
    void setContext(const QString& context) { m_context = context; }

    /// The longest gap between two turns of the event loop, in ms (the tick interval
    /// subtracted: 0 when the loop never stalled), and the context it ended in.
    [[nodiscard]] double maxStallMs() const noexcept { return m_maxMs; }
    [[nodiscard]] QString maxStallContext() const { return m_maxContext; }
    /// How many gaps were longer than `ms` (default the 50 ms budget).
    [[nodiscard]] int stallsOver(double ms = kBudgetMs) const noexcept;
    /// The q-quantile (0..1) of the gaps recorded, in ms (nearest rank; 0 when none).
    [[nodiscard]] double quantileMs(double q) const;
    /// Every gap recorded, in ms, in order.
    [[nodiscard]] const std::vector<float>& gapsMs() const noexcept { return m_gaps; }
    /// A gap longer than kNoticeMs (a frame at 60 Hz), with the context it ended in.
    struct Stall {
        double ms = 0;
        QString context;
        /// When it ended, in ms of CLOCK_MONOTONIC (QElapsedTimer's reference), to find the turn
        /// in a profile recorded with `perf record -k CLOCK_MONOTONIC`.
        qint64 endedAtMs = 0;
    };
    static constexpr double kNoticeMs = 16.0;
    /// The gaps longer than kNoticeMs, in order.
    [[nodiscard]] const std::vector<Stall>& stalls() const noexcept { return m_stalls; }

private:
    void tick();

    QTimer* m_timer = nullptr;
    QElapsedTimer m_clock;
    QString m_context, m_maxContext;
    double m_maxMs = 0;
    std::vector<float> m_gaps;
    std::vector<Stall> m_stalls;
};

} // namespace fleet::app
