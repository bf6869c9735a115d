# SPDX-License-Identifier: Apache-2.0
# bench_explore: search, filter masks, heatmap aggregates and node table sort at fleet scale
# (included from tests/bench/CMakeLists.txt).   ./bench_explore [NODES]   (default 100000)
add_executable(bench_explore ${CMAKE_CURRENT_LIST_DIR}/bench_explore.cpp)
target_link_libraries(bench_explore PRIVATE fleet_views fleet_importers fleet_warnings)
