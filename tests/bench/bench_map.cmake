# SPDX-License-Identifier: Apache-2.0
# bench_map: the fleet map at scale (included from tests/bench/CMakeLists.txt). Needs an X
# server: xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_map [--nodes N] [-o map.png]
add_executable(bench_map ${CMAKE_CURRENT_LIST_DIR}/bench_map.cpp)
target_link_libraries(bench_map PRIVATE fleet_views fleet_importers fleet_warnings)
