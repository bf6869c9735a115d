# SPDX-License-Identifier: Apache-2.0
# bench_plandrag: the what-if drag's shading at scale (included from tests/bench/CMakeLists.txt).
# xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_plandrag [--nodes N]
add_executable(bench_plandrag ${CMAKE_CURRENT_LIST_DIR}/bench_plandrag.cpp)
target_link_libraries(bench_plandrag PRIVATE fleet_views fleet_importers fleet_model Qt6::Test fleet_warnings)
