# SPDX-License-Identifier: Apache-2.0
# bench_labelselector: label selector parse + match over the simulated fleet (included from tests/bench/CMakeLists.txt).
#   ./bench_labelselector [NODES]   (default 100000)
add_executable(bench_labelselector ${CMAKE_CURRENT_LIST_DIR}/bench_labelselector.cpp)
target_link_libraries(bench_labelselector PRIVATE fleet_importers fleet_warnings)
