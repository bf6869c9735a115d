# SPDX-License-Identifier: Apache-2.0
# bench_consolidate: consolidation of the simulated fleet, ours beside the Karpenter baseline
# (included from tests/bench/CMakeLists.txt). No display: ./bench_consolidate [NODES] [SEED] [LIMIT_S] [REGIONS]
add_executable(bench_consolidate ${CMAKE_CURRENT_LIST_DIR}/bench_consolidate.cpp ${CMAKE_CURRENT_LIST_DIR}/gangbench.h)
target_link_libraries(bench_consolidate PRIVATE fleet_importers fleet_warnings)
