// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan's part of a report (fleetreport.h): "The plan", its counts and its actions, and, for a
// plan too long to list there, the appendix that lists every action. The figures, the risks, why
// nodes stay and the waste are fleetreport.cpp's. Private to views/report: include it from
// fleetreport.cpp.

#include "views/report/fleetreport.h"
#include "views/report/reportpages.h"

namespace fleet::views {

/// Adds "The plan" (a level-1 heading) for `in.evaluation`: the plan's name and how many of its
/// actions hold, the note on its source, then every action in a table (number from 1, type,
/// subject, holds, pods, reasons; a row that does not hold shaded) when there are at most
/// `in.groupActionsAbove`, else the actions grouped by type and zone (or the topology's outermost
/// level: actionGroupLevel()), a drain counting its own moves (model/plan/drainownmoves.h).
/// Adds nothing without a plan. Returns true when the actions are to be listed in the appendix
/// (addPlanAppendix()). Thread: the GUI thread or a worker, as the pages.
[[nodiscard]] bool addPlanSection(const FleetReportInput& in, ReportPages& pages);
/// Adds "Appendix: every action of the plan" (a level-1 heading): every action of
/// `in.evaluation` in one table, a drain's own moves in its row. Needs a plan.
void addPlanAppendix(const FleetReportInput& in, ReportPages& pages);

} // namespace fleet::views
