// SPDX-License-Identifier: Apache-2.0
#pragma once
// The thread pool of the window's long work (a plan engine's build, How Many?, consolidation,
// a plan opened, a report, a large structure freed), apart from QThreadPool::globalInstance().
//
// Design note (stalls): Qt 6.4's raster paint engine splits fills, blends and image draws over
// QThreadPool::globalInstance() and waits for the pieces on the GUI thread (a QSemaphore in
// qdrawhelper). A worker that holds a global pool thread for seconds (the pool has as many
// threads as cores: 2 here) makes every repaint of the window wait for it: bench_gui measured a
// 1.5 to 2 s GUI stall during How Many? at 100,000 nodes, with the GUI thread idle in
// QSemaphore::acquire under QProgressBar::paintEvent. Long work therefore runs here, and the
// global pool stays free for Qt's painting.

#include <QCoreApplication>
#include <QMutex>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace fleet::app {

/// The pool (as many threads as cores, at least 2), made on first use as a child of the
/// application, whose destruction waits for the work still running, as the global pool's does
/// (the main window makes it at its start, on the GUI thread; made first on another thread it
/// has no parent and lives on). Use it as QtConcurrent::run(longWorkPool(), ...). Thread: any.
inline QThreadPool* longWorkPool()
{
    static QMutex mutex;
    const QMutexLocker lock(&mutex);
    static QPointer<QThreadPool> pool;
    if (!pool) {
        QCoreApplication* app = QCoreApplication::instance();
        pool = new QThreadPool(app && QThread::currentThread() == app->thread() ? app : nullptr);
        pool->setObjectName(QStringLiteral("fleetLongWork"));
        pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
    return pool;
}

} // namespace fleet::app
