# SPDX-License-Identifier: Apache-2.0
# bench_gui: the GUI thread's longest stalls through the what-if flows of the real window
# (included from tests/bench/CMakeLists.txt).
# xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_gui [--nodes N] [--seed S]
add_executable(bench_gui ${CMAKE_CURRENT_LIST_DIR}/bench_gui.cpp)
target_link_libraries(bench_gui PRIVATE fleet_app Qt6::Test fleet_warnings)
