// SPDX-License-Identifier: Apache-2.0
#include "applog.h"

namespace fleet::app {

Q_LOGGING_CATEGORY(lcApp, "fleet.app", QtInfoMsg)

} // namespace fleet::app
