# SPDX-License-Identifier: Apache-2.0
# bench_import: kubectl JSON import end to end at fleet scale (included from tests/bench/CMakeLists.txt).
#   ./bench_import [NODES] [PODS] [--keep FILE]   (defaults 100000 and 1000000)
add_executable(bench_import ${CMAKE_CURRENT_LIST_DIR}/bench_import.cpp)
target_link_libraries(bench_import PRIVATE fleet_importers fleet_warnings)
