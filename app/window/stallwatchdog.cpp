// SPDX-License-Identifier: Apache-2.0
#include "stallwatchdog.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace fleet::app {

StallWatchdog::StallWatchdog(QObject* parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &StallWatchdog::tick);
}

void StallWatchdog::start()
{
    m_clock.start();
    m_timer->start();
}

void StallWatchdog::stop()
{
    m_timer->stop();
}

bool StallWatchdog::isRunning() const noexcept
{
    return m_timer->isActive();
}

void StallWatchdog::reset()
{
    m_maxMs = 0;
    m_maxContext.clear();
    m_gaps.clear();
    m_stalls.clear();
    if (m_clock.isValid())
        m_clock.restart();
}

void StallWatchdog::tick()
{
    const double gap = std::max(0.0, static_cast<double>(m_clock.nsecsElapsed()) / 1e6 - kTickMs);
    m_clock.restart();
    m_gaps.push_back(static_cast<float>(gap));
    if (gap > kNoticeMs)
        m_stalls.push_back({ gap, m_context, m_clock.msecsSinceReference() });
    if (gap > m_maxMs) {
        m_maxMs = gap;
        m_maxContext = m_context;
    }
}

int StallWatchdog::stallsOver(double ms) const noexcept
{
    return static_cast<int>(std::count_if(m_gaps.begin(), m_gaps.end(), [ms](float g) { return g > ms; }));
}

double StallWatchdog::quantileMs(double q) const
{
    if (m_gaps.empty())
        return 0;
    std::vector<float> sorted = m_gaps;
    const auto rank = static_cast<std::size_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size())));
    const std::size_t k = rank == 0 ? 0 : rank - 1;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
    return sorted[k];
}

} // namespace fleet::app
