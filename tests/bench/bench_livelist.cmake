# SPDX-License-Identifier: Apache-2.0
# bench_livelist: a LIST of NODES nodes and PODS pods over loopback TLS into the model (LIST keys).
add_executable(bench_livelist ${CMAKE_CURRENT_LIST_DIR}/bench_livelist.cpp)
target_link_libraries(bench_livelist PRIVATE fleet_importers fleet_fakekubeapi fleet_warnings Qt6::Core)
