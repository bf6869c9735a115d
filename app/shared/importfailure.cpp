// SPDX-License-Identifier: Apache-2.0
#include "importfailure.h"

#include "importers/terminaltext.h"

#include <QObject>

#include <new>

namespace fleet::app {

QString importFailureMessage(const std::exception& error, const QString& sourceLabel)
{
    if (dynamic_cast<const std::bad_alloc*>(&error))
        return QObject::tr("out of memory while importing %1").arg(sourceLabel);
    return QString::fromStdString(importers::messageText(error)); // names in it escaped (importers/terminaltext.h)
}

QString filesSourceLabel(const QStringList& paths)
{
    if (paths.size() == 1)
        return paths.front();
    return QObject::tr("%n files (%1)", nullptr, int(paths.size())).arg(paths.join(QStringLiteral(", ")));
}

QString simulatedSourceLabel(std::size_t nodeCount, std::uint64_t seed, std::size_t regions)
{
    if (regions > 1)
        return QObject::tr("simulated fleet (%1 nodes, seed %2, %3 regions)").arg(nodeCount).arg(seed).arg(regions);
    return QObject::tr("simulated cluster (%1 nodes, seed %2)").arg(nodeCount).arg(seed);
}

QString liveSourceLabel(const QString& context)
{
    return context.isEmpty() ? QObject::tr("the current kubeconfig context") : QObject::tr("kubeconfig context %1").arg(context);
}

} // namespace fleet::app
