# SPDX-License-Identifier: Apache-2.0
# bench_live: a live cluster: the LIST over TLS, then the watch in the window (included from
# tests/bench/CMakeLists.txt). Needs an X server:
#   xvfb-run -a -s "-screen 0 1920x1080x24" ./bench_live [--list-nodes N] [--list-pods P] [--nodes N] [--events E] [--rate R]
add_executable(bench_live ${CMAKE_CURRENT_LIST_DIR}/bench_live.cpp)
target_link_libraries(bench_live PRIVATE fleet_app fleet_fakekubeapi Qt6::Test fleet_warnings)
