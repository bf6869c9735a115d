# SPDX-License-Identifier: Apache-2.0
# bench_startup: fleetscope's startup to the first frame (included from tests/bench/CMakeLists.txt).
add_executable(bench_startup ${CMAKE_CURRENT_LIST_DIR}/bench_startup.cpp)
target_link_libraries(bench_startup PRIVATE fleet_app Qt6::Core fleet_warnings)
target_compile_definitions(bench_startup PRIVATE FLEETSCOPE_EXECUTABLE="$<TARGET_FILE:fleetscope>")
add_dependencies(bench_startup fleetscope)
