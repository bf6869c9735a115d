# SPDX-License-Identifier: Apache-2.0
# bench_document: save and open of the .fleet document of the simulated fleet with a
# consolidation plan (included from tests/bench/CMakeLists.txt). No display:
# ./bench_document [NODES] [SEED] [FOLDER]
add_executable(bench_document ${CMAKE_CURRENT_LIST_DIR}/bench_document.cpp)
target_link_libraries(bench_document PRIVATE fleet_importers fleet_warnings SQLite::SQLite3 ZLIB::ZLIB)
