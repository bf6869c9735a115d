# SPDX-License-Identifier: Apache-2.0
# bench_fgd: the FGD paper's replay, seconds per policy and seed (included from
# tests/bench/CMakeLists.txt). No display: ./bench_fgd [TRACE] [POLICY,...] [FIRST-LAST]
add_executable(bench_fgd ${CMAKE_CURRENT_LIST_DIR}/bench_fgd.cpp)
target_compile_definitions(bench_fgd PRIVATE FLEET_SHARED_DATA_DIR="${FLEET_SHARED_DATA_DIR}")
target_link_libraries(bench_fgd PRIVATE fleet_importers fleet_warnings)
