# What `cmake --install` puts under the prefix: the larm command line, liblarm (shared
# and static), its headers, a CMake package (find_package(larm) -> larm::larm, larm_instrument),
# larm.pc and larm-count.pc for pkg-config, the JSON schemas, larm count's Valgrind tool
# (instrument/count_tool), the GCC plugin and its wrappers (instrument/compiler_plugin) and a man
# page per command (help2man, from --help).
include(CMakePackageConfigHelpers)

install(TARGETS larm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS larm_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/larm/region.h include/larm/monitor.h include/larm/likwid-markers.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/larm)
install(DIRECTORY results/schema/ DESTINATION ${CMAKE_INSTALL_DATADIR}/larm/schema
        FILES_MATCHING PATTERN "*.schema.json")

# liblarm.a as installed: larm_static merged with the static libraries it uses.
set(_merged ${CMAKE_BINARY_DIR}/install-staging/liblarm.a)
set(_archives $<TARGET_FILE:larm_static> $<TARGET_FILE:larm_monitor> $<TARGET_FILE:larm_results>
              $<TARGET_FILE:larm_topology> $<TARGET_FILE:larm_platform>)
add_custom_command(
  OUTPUT ${_merged}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/install-staging
  COMMAND ${CMAKE_COMMAND} -DAR=${CMAKE_AR} -DOUT=${_merged} "-DIN=${_archives}"
          -P ${CMAKE_SOURCE_DIR}/cmake/merge_archives.cmake
  DEPENDS larm_static larm_monitor larm_results larm_topology larm_platform
          ${CMAKE_SOURCE_DIR}/cmake/merge_archives.cmake
  COMMENT "Merging liblarm.a for installation"
  VERBATIM)
add_custom_target(larm_static_merged ALL DEPENDS ${_merged})
install(FILES ${_merged} DESTINATION ${CMAKE_INSTALL_LIBDIR})

# What a static liblarm needs besides itself: hwloc, libnuma, PAPI when built with it.
set(LARM_STATIC_DEPENDENCIES ${HWLOC_LINK_LIBRARIES} ${NUMA_LIBRARY})
set(LARM_STATIC_DEPENDENCIES_FLAGS "-lhwloc -lnuma")
if(LARM_WITH_PAPI)
  list(APPEND LARM_STATIC_DEPENDENCIES ${PAPI_LIBRARY})
  string(APPEND LARM_STATIC_DEPENDENCIES_FLAGS " -lpapi")
endif()

configure_package_config_file(cmake/larmConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/install-staging/larmConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/larm
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install-staging/larmConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install-staging/larmConfig.cmake
              ${CMAKE_BINARY_DIR}/install-staging/larmConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/larm_instrument.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/larm)
# larm.pc names the prefix it is installed under: written at install time, when it is known.
install(CODE "
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(LARM_STATIC_DEPENDENCIES_FLAGS \"${LARM_STATIC_DEPENDENCIES_FLAGS}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/cmake/larm.pc.in\"
                 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/larm.pc\" @ONLY)
")
# larm-count.pc: `pkg-config --cflags larm-count` gives the flag that loads larm's GCC plugin.
if(LARM_GCC_PLUGIN)
  install(CODE "
    set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
    set(PROJECT_VERSION \"${PROJECT_VERSION}\")
    set(LARM_GCC_PLUGIN_VERSION \"${LARM_GCC_PLUGIN_VERSION}\")
    configure_file(\"${CMAKE_SOURCE_DIR}/cmake/larm-count.pc.in\"
                   \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/larm-count.pc\" @ONLY)
  ")
endif()

# A man page per command, generated from its --help by help2man (Debian: help2man).
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(_commands topology kernels plan characterize bench loaded-latency show diff place count profile monitor run advise validate
                hybrid plot report doctor fleet compare-fleet)
  set(_pages)
  set(_man ${CMAKE_BINARY_DIR}/man/man1)
  add_custom_command(
    OUTPUT ${_man}/larm.1
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_man}
    COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
            --include=${CMAKE_SOURCE_DIR}/docs/man/larm.h2m
            --output=${_man}/larm.1 $<TARGET_FILE:larm>
    DEPENDS larm ${CMAKE_SOURCE_DIR}/docs/man/larm.h2m
    VERBATIM)
  list(APPEND _pages ${_man}/larm.1)
  foreach(command ${_commands})
    # help2man runs a program with --help: a two-line wrapper runs `larm COMMAND --help`.
    set(_wrapper ${CMAKE_BINARY_DIR}/man/wrappers/larm-${command})
    file(GENERATE OUTPUT ${_wrapper}
         CONTENT "#!/bin/sh\nexec \"$<TARGET_FILE:larm>\" ${command} \"$@\"\n"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
    add_custom_command(
      OUTPUT ${_man}/larm-${command}.1
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_man}
      COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
              --include=${CMAKE_SOURCE_DIR}/docs/man/larm-${command}.h2m
              --output=${_man}/larm-${command}.1 ${_wrapper}
      DEPENDS larm ${CMAKE_SOURCE_DIR}/docs/man/larm-${command}.h2m
      VERBATIM)
    list(APPEND _pages ${_man}/larm-${command}.1)
  endforeach()
  # Installed compressed (gzip -9n: no name or time stamp, so that two builds give one file), as
  # Debian's policy asks; man reads them as they are.
  set(_compressed)
  foreach(page ${_pages})
    get_filename_component(_name ${page} NAME)
    set(_gz ${CMAKE_BINARY_DIR}/man/gz/${_name}.gz)
    add_custom_command(
      OUTPUT ${_gz}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man/gz
      COMMAND sh -c "gzip -9n < \"$1\" > \"$2\"" sh ${page} ${_gz}
      DEPENDS ${page}
      VERBATIM)
    list(APPEND _compressed ${_gz})
  endforeach()
  add_custom_target(larm_man_pages ALL DEPENDS ${_pages} ${_compressed})
  install(FILES ${_compressed} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found (Debian: help2man): no man pages")
endif()
