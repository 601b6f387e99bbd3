# Installs the build into a scratch prefix, then builds and runs consumers
# with find_package(srcprof COMPONENTS vulkan gl) and with pkg-config, and
# builds the examples (examples/) against the installed copy for the
# examples.* tests to run. With LIVE, the live view's library, header and
# .pc file too, and a consumer of it both ways.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
if(SHARED)
  set(lib_suffix .so)
else()
  set(lib_suffix .a)
endif()
foreach(f include/srcprof/api.h include/srcprof/source_profiler.h include/srcprof/perf_block.h
          include/srcprof/gpu_timer.h include/srcprof/machine.h include/srcprof/vulkan.h
          include/srcprof/gl.h ${LIBDIR}/libsrcprof${lib_suffix}
          ${LIBDIR}/libsrcprof-vulkan${lib_suffix} ${LIBDIR}/libsrcprof-gl${lib_suffix}
          ${LIBDIR}/pkgconfig/srcprof.pc
          ${LIBDIR}/pkgconfig/srcprof-vulkan.pc ${LIBDIR}/pkgconfig/srcprof-gl.pc
          ${LIBDIR}/cmake/srcprof/srcprofConfig.cmake)
  list(APPEND installed ${f})
endforeach()
if(LIVE)
  list(APPEND installed include/srcprof/live.h include/srcprof/live_imgui.h
       share/srcprof/imgui/srcprof_live_imgui.cpp ${LIBDIR}/libsrcprof-live${lib_suffix}
       ${LIBDIR}/pkgconfig/srcprof-live.pc)
endif()
foreach(f IN LISTS installed)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed")
  endif()
endfunction()

run("configuring the find_package consumer"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DEXPECT_LIVE=${LIVE})
run("building the find_package consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run("the find_package consumer" ${WORK_DIR}/consumer/consumer)
run("the consumer with SRCPROF_PERF_BLOCKS OFF" ${WORK_DIR}/consumer/consumer_noblocks)
run("the C++17 consumer" ${WORK_DIR}/consumer/consumer_cpp)
run("the volk consumer, volk.h first" ${WORK_DIR}/consumer/volk_first)
run("the volk consumer, srcprof/vulkan.h first" ${WORK_DIR}/consumer/volk_after)
if(LIVE)
  run("the live view's find_package consumer" ${WORK_DIR}/consumer/live_consumer)
endif()

set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs --static srcprof-vulkan srcprof-gl
                OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not know srcprof-vulkan and srcprof-gl")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("building the pkg-config consumer (flags: ${flags})"
    cc -std=gnu11 ${SOURCE_DIR}/consumer.c -o ${WORK_DIR}/pc-consumer ${flags})
set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR}) # for a shared build (SRCPROF_SHARED)
run("the pkg-config consumer" ${WORK_DIR}/pc-consumer)
if(LIVE)
  execute_process(COMMAND pkg-config --cflags --libs --static srcprof-live
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config does not know srcprof-live")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("building the live view's pkg-config consumer (flags: ${flags})"
      cc -std=gnu11 ${SOURCE_DIR}/live_consumer.c -o ${WORK_DIR}/pc-live-consumer ${flags})
  run("the live view's pkg-config consumer" ${WORK_DIR}/pc-live-consumer)
  execute_process(COMMAND pkg-config --variable=imgui_source srcprof-live
                  OUTPUT_VARIABLE panel OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${panel}")
    message(FATAL_ERROR "pkg-config's imgui_source names no file: '${panel}'")
  endif()
endif()

run("configuring the examples"
    ${CMAKE_COMMAND} -S ${EXAMPLES_DIR} -B ${WORK_DIR}/examples -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run("building the examples" ${CMAKE_COMMAND} --build ${WORK_DIR}/examples)
