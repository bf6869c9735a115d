# SPDX-License-Identifier: Apache-2.0
# bench_whatif: the what-if engine (ledger, filters, drag shading) over the simulated fleet
# (included from tests/bench/CMakeLists.txt). No display: ./bench_whatif [NODES] [SEED]
add_executable(bench_whatif ${CMAKE_CURRENT_LIST_DIR}/bench_whatif.cpp ${CMAKE_CURRENT_LIST_DIR}/whatifdrain.h)
target_link_libraries(bench_whatif PRIVATE fleet_importers fleet_warnings)
