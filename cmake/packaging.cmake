# A Debian package of what `cmake --install` puts under /usr: `cpack -G DEB` in a build directory
# (scripts/make-deb.sh) writes larm_<version>_<arch>.deb. Its Depends come from the libraries the
# binaries link (dpkg-shlibdeps), not from a list kept by hand; gnuplot and Valgrind are
# recommended: larm runs without them and says what it misses (no figures drawn, no larm count).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME larm)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "larm developers <larm@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# liblarm.so's shlibs file, and the ldconfig trigger Debian asks of a package with a library.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/triggers)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox, valgrind")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Locality-Aware Roofline Model of a compute node")
# The long description, after the summary CPack puts on Description's first line.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "larm measures what a shared-memory node delivers: a roof per cache level
and per local and remote NUMA memory, contention and congestion roofs,
FLOP ceilings per instruction set and a hybrid fast/slow memory model.
It places the regions of an application (liblarm, or a Valgrind tool
that counts without instrumentation) on those roofs and names what
limits each one. Figures with gnuplot, a self-contained HTML report.")
set(CPACK_STRIP_FILES ON)

# /usr/share/doc/larm: the README, the documentation, the changelog (gzip -9n, as Debian's
# policy asks) and the copyright file.
include(GNUInstallDirs)
set(_doc ${CMAKE_INSTALL_DATADIR}/doc/larm)
install(FILES README.md DESTINATION ${_doc})
install(DIRECTORY docs/ DESTINATION ${_doc}/docs FILES_MATCHING PATTERN "*.md")
install(FILES cmake/debian/copyright DESTINATION ${_doc})
set(_changelog ${CMAKE_BINARY_DIR}/install-staging/changelog.gz)
add_custom_command(
  OUTPUT ${_changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/install-staging
  COMMAND sh -c "gzip -9n < \"$1\" > \"$2\"" sh ${CMAKE_SOURCE_DIR}/CHANGELOG.md ${_changelog}
  DEPENDS ${CMAKE_SOURCE_DIR}/CHANGELOG.md
  VERBATIM)
add_custom_target(larm_changelog ALL DEPENDS ${_changelog})
install(FILES ${_changelog} DESTINATION ${_doc})

# Valgrind's tools are static executables by design (Debian's valgrind overrides the same tag).
install(FILES cmake/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME larm)

include(CPack)
