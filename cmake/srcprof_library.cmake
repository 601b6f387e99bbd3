# srcprof_library(<target> OUTPUT_NAME <name> SOURCES <files...>)
#
# One of srcprof's installable libraries, built so that nothing but what its
# installed headers declare is visible to the program that links it (the
# headers mark their declarations with default visibility; every other
# symbol is compiled hidden):
#   <target>         the static library: its objects are linked into one
#                    relocatable object whose hidden symbols are then made
#                    local (objcopy --localize-hidden), so an internal name
#                    cannot collide with one of the program's;
#   <target>_shared  the same code as a shared library, exporting only the
#                    headers' functions (built for the symbol checks, and
#                    installed when SRCPROF_SHARED is on).
# The caller adds include directories and dependencies to both with
# srcprof_library_link(<target> ...).
function(srcprof_library target)
  cmake_parse_arguments(ARG "" "OUTPUT_NAME" "SOURCES" ${ARGN})
  add_library(${target}_objects OBJECT ${ARG_SOURCES})
  set_target_properties(${target}_objects PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)

  set(merged ${CMAKE_CURRENT_BINARY_DIR}/${ARG_OUTPUT_NAME}-merged.o)
  add_custom_command(OUTPUT ${merged}
    COMMAND ${CMAKE_LINKER} -r -o ${merged} $<TARGET_OBJECTS:${target}_objects>
    COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${merged}
    DEPENDS ${target}_objects $<TARGET_OBJECTS:${target}_objects>
    COMMAND_EXPAND_LISTS
    COMMENT "${ARG_OUTPUT_NAME}: one object, internal symbols made local"
    VERBATIM)
  add_library(${target} STATIC ${merged})
  set_source_files_properties(${merged} PROPERTIES EXTERNAL_OBJECT ON GENERATED ON)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${ARG_OUTPUT_NAME} LINKER_LANGUAGE C)

  add_library(${target}_shared SHARED $<TARGET_OBJECTS:${target}_objects>)
  set_target_properties(${target}_shared PROPERTIES
    OUTPUT_NAME ${ARG_OUTPUT_NAME}
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/shared
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
    LINKER_LANGUAGE C)
endfunction()

# srcprof_library_link(<target> [INCLUDE <dir>] [PUBLIC <libs...>] [SHARED_PUBLIC <libs...>])
# Usage requirements of <target> (the static library), its objects and its
# shared twin: the public include directory, the libraries it depends on
# (PUBLIC, for the static library and the objects) and their shared
# counterparts (SHARED_PUBLIC, for the shared library).
function(srcprof_library_link target)
  cmake_parse_arguments(ARG "" "INCLUDE" "PUBLIC;SHARED_PUBLIC" ${ARGN})
  if(ARG_INCLUDE)
    foreach(t ${target} ${target}_objects ${target}_shared)
      target_include_directories(${t} PUBLIC
        $<BUILD_INTERFACE:${ARG_INCLUDE}>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    endforeach()
  endif()
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC})
  target_link_libraries(${target}_objects PUBLIC ${ARG_PUBLIC})
  target_link_libraries(${target}_shared PUBLIC ${ARG_SHARED_PUBLIC})
endfunction()
