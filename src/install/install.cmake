# install.cmake - install rules, the exported CMake package, pkg-config file,
# man page, bash completion and the Debian package (cpack -G DEB).

include(CMakePackageConfigHelpers)

option(HG_MANPAGE "Generate the man page from the --help texts (help2man)" ON)

install(TARGETS hgridopt-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${HG_LIB_TARGETS} EXPORT hgridoptTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hgridopt)

file(GLOB HG_PUBLIC_HEADERS CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/src/include/hgridopt/*.h)
install(FILES ${HG_PUBLIC_HEADERS}
              ${PROJECT_BINARY_DIR}/include/hgridopt/hg_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hgridopt)

# CMake package: find_package(hgridopt) gives hgridopt::hgridopt (the shared
# library when it is installed, else the static one) and the two explicit
# targets hgridopt::hgridopt_shared / hgridopt::hgridopt_static.
set(HG_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/hgridopt)
install(EXPORT hgridoptTargets NAMESPACE hgridopt:: DESTINATION ${HG_CMAKEDIR})
set(HG_CONFIG_OPENMP 0)
if(HG_OPENMP AND OpenMP_C_FOUND)
  set(HG_CONFIG_OPENMP 1)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/src/install/hgridoptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hgridoptConfig.cmake INSTALL_DESTINATION ${HG_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hgridoptConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hgridoptConfig.cmake
              ${PROJECT_BINARY_DIR}/hgridoptConfigVersion.cmake
        DESTINATION ${HG_CMAKEDIR})

# pkg-config
set(HG_PC_LIBS_PRIVATE "-lm")
set(HG_PC_REQUIRES_PRIVATE "gsl nlopt libcjson zlib")
if(HG_PLOT)
  set(HG_PC_REQUIRES_PRIVATE "${HG_PC_REQUIRES_PRIVATE} plplot")
endif()
if(HG_OPENMP AND OpenMP_C_FOUND)
  set(HG_PC_LIBS_PRIVATE "${HG_PC_LIBS_PRIVATE} ${OpenMP_C_FLAGS}")
endif()
# relocatable: the prefix is found from the .pc file's own folder, so a tree
# installed with `cmake --install --prefix DIR` or a package works as is
file(RELATIVE_PATH HG_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" HG_PC_TO_PREFIX "${HG_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/src/install/hgridopt.pc.in
               ${PROJECT_BINARY_DIR}/hgridopt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hgridopt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Man page, generated from the --help texts of every command.
if(HG_MANPAGE)
  find_program(HG_HELP2MAN help2man)
  if(NOT HG_HELP2MAN)
    message(FATAL_ERROR "help2man not found: install it (apt-get install "
            "help2man) or configure with -DHG_MANPAGE=OFF")
  endif()
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/hgridopt.1
    COMMAND bash ${PROJECT_SOURCE_DIR}/src/install/manpage.sh
            $<TARGET_FILE:hgridopt-cli> ${HG_HELP2MAN}
            ${PROJECT_BINARY_DIR}/hgridopt.1
    DEPENDS hgridopt-cli ${PROJECT_SOURCE_DIR}/src/install/manpage.sh
    COMMENT "man page hgridopt.1 from the --help texts" VERBATIM)
  add_custom_target(hgridopt-man ALL DEPENDS ${PROJECT_BINARY_DIR}/hgridopt.1)
  install(FILES ${PROJECT_BINARY_DIR}/hgridopt.1
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/src/cli/completion.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME hgridopt)

# Shipped data: tabulated distributions and the example systems, in the
# source tree's layout (examples/*.json name ../distributions/data/...).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/distributions/data/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/hgridopt/distributions/data)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/hgridopt/examples
        PATTERN "*.sh" EXCLUDE)

# Debian package: cpack -G DEB (dependencies from dpkg-shlibdeps).
set(CPACK_PACKAGE_NAME hgridopt)
set(CPACK_PACKAGE_VENDOR "hgridopt developers")
set(CPACK_PACKAGE_CONTACT "hgridopt developers <hgridopt@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "optimal hierarchical-grid contact detection for polydisperse particles")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgsl-dev, libnlopt-dev, libcjson-dev")
if(HG_PLOT)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "${CPACK_DEBIAN_PACKAGE_DEPENDS}, libplplot-dev, plplot-driver-cairo")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "lammps")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
