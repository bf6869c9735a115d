// SPDX-License-Identifier: Apache-2.0
#include "phasetimer.h"

namespace fleet::importers::document {

Q_LOGGING_CATEGORY(lcDocumentTiming, "fleet.document.timing", QtWarningMsg)

} // namespace fleet::importers::document
