# SPDX-License-Identifier: Apache-2.0
# bench_placewindow: Plan > Place Workload on the simulated fleet, the GUI thread's share
# (included from tests/bench/CMakeLists.txt).
# xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_placewindow [--nodes N]
add_executable(bench_placewindow ${CMAKE_CURRENT_LIST_DIR}/bench_placewindow.cpp)
target_link_libraries(bench_placewindow PRIVATE fleet_app Qt6::Test fleet_warnings)
