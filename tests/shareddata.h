// SPDX-License-Identifier: Apache-2.0
#pragma once
// The real reference data (../shared/data) that tests read: checked once per test program so
// that a missing folder fails with a message instead of an uncaught exception.

#include <QDir>
#include <QTest>

/// In initTestCase(): fails the test program when FLEET_SHARED_DATA_DIR has no shared data.
#define FLEET_REQUIRE_SHARED_DATA()                                                                                         \
    do {                                                                                                                    \
        if (!QDir(QStringLiteral(FLEET_SHARED_DATA_DIR)).exists(QStringLiteral("alibaba-gpu-v2023-openb")))                 \
            QFAIL(qPrintable(QStringLiteral("shared data not found at %1: configure with -DFLEET_SHARED_DATA_DIR=<folder> " \
                                            "or set the environment variable FLEET_SHARED_DATA_DIR before cmake")           \
                                 .arg(QStringLiteral(FLEET_SHARED_DATA_DIR))));                                             \
    } while (false)
