# SPDX-License-Identifier: Apache-2.0
# bench_gang: topology-aware gang placement over the simulated fleet (included from
# tests/bench/CMakeLists.txt). No display: ./bench_gang [NODES] [SEED]
add_executable(bench_gang ${CMAKE_CURRENT_LIST_DIR}/bench_gang.cpp ${CMAKE_CURRENT_LIST_DIR}/gangbench.h)
target_link_libraries(bench_gang PRIVATE fleet_importers fleet_warnings)
