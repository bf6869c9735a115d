# SPDX-License-Identifier: Apache-2.0
# bench_keptnodes: the Consolidate dialog's list of nodes that stay at fleet scale (included from
# tests/bench/CMakeLists.txt).   ./bench_keptnodes [NODES]   (default 100000)
add_executable(bench_keptnodes ${CMAKE_CURRENT_LIST_DIR}/bench_keptnodes.cpp)
target_link_libraries(bench_keptnodes PRIVATE fleet_views fleet_importers fleet_warnings)
