# SPDX-License-Identifier: Apache-2.0
# bench_metrics: every metric's column and raster at fleet scale (included from
# tests/bench/CMakeLists.txt). No display: ./bench_metrics [--nodes N] [--seed S]
add_executable(bench_metrics ${CMAKE_CURRENT_LIST_DIR}/bench_metrics.cpp)
target_link_libraries(bench_metrics PRIVATE fleet_views fleet_importers fleet_warnings)
