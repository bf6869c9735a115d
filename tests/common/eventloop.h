// SPDX-License-Identifier: Apache-2.0
#pragma once
// Waiting on the GUI thread's event queue instead of for a fixed time: a check that something
// did NOT happen (a second frame, a second signal) waits until the work already queued ahead of
// it has run, then asserts. Thread: the GUI thread.

#include <QCoreApplication>
#include <QMetaObject>
#include <QTest>

#include <memory>

namespace fleet::testing {

/// Runs the event loop until every event posted to this thread before the call (queued signals
/// and invokeMethod calls of normal priority, in their FIFO order) has been delivered, and with
/// them every timer already due (one pass of the loop fires those); false when that took over
/// `timeoutMs`.
inline bool deliverPostedEvents(int timeoutMs = 10000)
{
    auto reached = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(QCoreApplication::instance(), [reached] { *reached = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([&] { return *reached; }, timeoutMs);
}

} // namespace fleet::testing
