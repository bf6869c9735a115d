# SPDX-License-Identifier: Apache-2.0
# bench_document: save and open of the .fleet document of the simulated fleet with a
# consolidation plan (included from tests/bench/CMakeLists.txt), and fleetscope opening it to
# the first frame of the map (a private Xvfb when no display opens):
# ./bench_document [NODES] [SEED] [FOLDER]
add_executable(bench_document ${CMAKE_CURRENT_LIST_DIR}/bench_document.cpp)
target_link_libraries(bench_document PRIVATE fleet_app fleet_importers fleet_warnings Qt6::Core SQLite::SQLite3 ZLIB::ZLIB)
target_compile_definitions(bench_document PRIVATE FLEETSCOPE_EXECUTABLE="$<TARGET_FILE:fleetscope>")
add_dependencies(bench_document fleetscope)
