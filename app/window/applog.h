// SPDX-License-Identifier: Apache-2.0
#pragma once
// The logging category of the fleetscope program (STYLE.md, "Errors": one per module).

#include <QLoggingCategory>

namespace fleet::app {

/// "fleet.app": messages of the program itself (import failures, startup). Warnings are on
/// by default; enable debug output with QT_LOGGING_RULES="fleet.app.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcApp)

} // namespace fleet::app
