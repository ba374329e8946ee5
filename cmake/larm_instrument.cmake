# larm_instrument(TARGET): builds TARGET's C, C++ and Fortran sources through larm's GCC plugin,
# so that the program counts its own FLOPs and bytes as it runs natively (`larm count` then takes
# counts and times from the same runs). The plugin runs inside the GCC it was built for only:
# TARGET's compilers must be that GCC (LARM_GCC_PLUGIN_VERSION); any other is refused here, at
# configure time, with one line. TARGET still links liblarm for its regions (larm::larm).
function(larm_instrument target)
  # In larm's own build the plugin is a target not built yet; installed, a file.
  if(NOT LARM_GCC_PLUGIN OR (NOT TARGET larm_gcc_plugin AND NOT EXISTS "${LARM_GCC_PLUGIN}"))
    message(FATAL_ERROR "larm_instrument(${target}): larm was built without its GCC plugin "
                        "(Debian: gcc-12-plugin-dev)")
  endif()
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(_language C CXX Fortran)
    if(NOT _language IN_LIST _languages)
      continue()
    endif()
    if(NOT CMAKE_${_language}_COMPILER_ID STREQUAL "GNU" OR
       NOT CMAKE_${_language}_COMPILER_VERSION VERSION_EQUAL LARM_GCC_PLUGIN_VERSION)
      message(FATAL_ERROR "larm_instrument(${target}): larm's plugin runs in GCC "
                          "${LARM_GCC_PLUGIN_VERSION}; the ${_language} compiler is "
                          "${CMAKE_${_language}_COMPILER_ID} ${CMAKE_${_language}_COMPILER_VERSION}")
    endif()
    target_compile_options(${target}
                           PRIVATE $<$<COMPILE_LANGUAGE:${_language}>:-fplugin=${LARM_GCC_PLUGIN}>)
  endforeach()
  # Rebuilt when the plugin changes: its counts are the objects' own.
  get_target_property(_sources ${target} SOURCES)
  set_property(SOURCE ${_sources} TARGET_DIRECTORY ${target} APPEND
               PROPERTY OBJECT_DEPENDS "${LARM_GCC_PLUGIN}")
  if(TARGET larm_gcc_plugin)
    add_dependencies(${target} larm_gcc_plugin)
  endif()
endfunction()
