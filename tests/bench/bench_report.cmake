# SPDX-License-Identifier: Apache-2.0
# bench_report: `fleetscope report` of the simulated fleet with a consolidation plan, run as a
# user runs it (included from tests/bench/CMakeLists.txt). ./bench_report [NODES] [WORK_DIR]
add_executable(bench_report ${CMAKE_CURRENT_LIST_DIR}/bench_report.cpp)
target_link_libraries(bench_report PRIVATE fleet_warnings)
target_compile_definitions(bench_report PRIVATE FLEETSCOPE_EXECUTABLE="$<TARGET_FILE:fleetscope>")
add_dependencies(bench_report fleetscope)
