# Installation of srcprof's libraries: one export set and one pkg-config
# file per library, and a CMake package whose components are the GPU timer
# modules: find_package(srcprof COMPONENTS vulkan gl) gives srcprof::profiler,
# srcprof::vulkan and srcprof::gl.
include(CMakePackageConfigHelpers)
# Relocatable .pc files: the prefix is found from the file's own directory.
file(RELATIVE_PATH SRCPROF_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" SRCPROF_PC_TO_PREFIX "${SRCPROF_PC_TO_PREFIX}")

# srcprof_install(<target> <export name> <export set> <pc name> [REQUIRES ...]
#                 [REQUIRES_PRIVATE ...] [CFLAGS ...] [LIBS_PRIVATE ...]
#                 [VARIABLES name=value...])
# REQUIRES_PRIVATE: packages whose headers the installed headers include
# (their Cflags reach a consumer; their libraries only a static link).
# VARIABLES: further pkg-config variables (pkg-config --variable=name).
# Installs <target> (or its shared twin with SRCPROF_SHARED) as
# srcprof::<export name> in <export set>, and <pc name>.pc for it.
function(srcprof_install target export_name export_set pc_name)
  cmake_parse_arguments(ARG "" "DESCRIPTION"
    "REQUIRES;REQUIRES_PRIVATE;CFLAGS;LIBS_PRIVATE;VARIABLES" ${ARGN})
  set(t ${target}${SRCPROF_LIB_SUFFIX})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
  install(TARGETS ${t} EXPORT ${export_set}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${export_set} NAMESPACE srcprof::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/srcprof)
  get_target_property(lib ${t} OUTPUT_NAME)
  set(PC_NAME ${pc_name})
  set(PC_DESCRIPTION "${ARG_DESCRIPTION}")
  set(PC_LIB ${lib})
  list(JOIN ARG_REQUIRES ", " PC_REQUIRES)
  list(JOIN ARG_REQUIRES_PRIVATE ", " PC_REQUIRES_PRIVATE)
  list(JOIN ARG_CFLAGS " " PC_CFLAGS)
  list(JOIN ARG_LIBS_PRIVATE " " PC_LIBS_PRIVATE)
  list(JOIN ARG_VARIABLES "\n" PC_VARIABLES)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/srcprof.pc.in
                 ${CMAKE_CURRENT_BINARY_DIR}/${pc_name}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc_name}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

# The package's config and version files (after every srcprof_install).
function(srcprof_install_package)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/srcprofConfig.cmake.in
    ${PROJECT_BINARY_DIR}/srcprofConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/srcprof)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/srcprofConfigVersion.cmake
    COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/srcprofConfig.cmake
                ${PROJECT_BINARY_DIR}/srcprofConfigVersion.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/srcprof)
endfunction()
