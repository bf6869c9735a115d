// SPDX-License-Identifier: Apache-2.0
#pragma once
// Dropping a large shared structure (a plan engine's ledger, a spent live batch) frees
// hundreds of megabytes in some cases: on the GUI thread that is a frozen frame (bench_live
// saw one of 211 ms when the first live diff dropped the plan engine). releaseOffGuiThread()
// hands the last reference to a worker, which frees it there. Thread: any; the object's
// destructor must be safe on any thread (no QObject, no reference to GUI-thread state).

#include "app/controllers/workerpool.h"

#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace fleet::app {

/// Drops `object` on a pool thread (nothing when it is null). When other references remain,
/// the last of them frees it wherever it is dropped.
template <class T>
void releaseOffGuiThread(std::shared_ptr<T> object)
{
    if (!object)
        return;
    (void)QtConcurrent::run(longWorkPool(), [object = std::move(object)]() mutable { object.reset(); });
}

} // namespace fleet::app
