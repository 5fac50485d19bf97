# Install rules of everything but the programs (those are installed by app/*/CMakeLists.txt), and
# the Debian package made by CPack. Included at the end of the top-level CMakeLists.txt, after
# GNUInstallDirs. Layout under the prefix (/usr for the .deb):
#   bin/dctwin, bin/dctwin-cli, bin/dctwin-report
#   share/dctwin/{catalog,examples,schema}       found by the programs as <bin>/../share/dctwin
#   share/applications/dctwin.desktop
#   share/icons/hicolor/scalable/apps/dctwin.svg
#   share/metainfo/io.dctwin.DCTwin.metainfo.xml
#   share/man/man1/{dctwin,dctwin-cli,dctwin-report}.1.gz
#   share/bash-completion/completions/dctwin-cli

set(DCT_PACKAGING_DIR "${PROJECT_SOURCE_DIR}/packaging")

# The data folder: model::Catalog::dataDirectory() finds it relative to the running program.
install(DIRECTORY
        "${PROJECT_SOURCE_DIR}/data/catalog"
        "${PROJECT_SOURCE_DIR}/data/examples"
        "${PROJECT_SOURCE_DIR}/data/schema"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/dctwin")

# Desktop integration, only with the desktop program.
if(TARGET dctwin)
    install(FILES "${DCT_PACKAGING_DIR}/dctwin.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
    install(FILES "${DCT_PACKAGING_DIR}/icons/dctwin.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
    install(FILES "${DCT_PACKAGING_DIR}/io.dctwin.DCTwin.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
endif()

# Man pages (written by hand in roff), compressed as Debian installs them.
set(dct_man_pages dctwin-cli)
if(TARGET dctwin)
    list(APPEND dct_man_pages dctwin)
endif()
if(TARGET dctwin-report)
    list(APPEND dct_man_pages dctwin-report)
endif()
find_program(DCT_GZIP gzip)
set(dct_man_outputs)
foreach(page IN LISTS dct_man_pages)
    set(source "${DCT_PACKAGING_DIR}/man/${page}.1")
    if(DCT_GZIP)
        set(output "${PROJECT_BINARY_DIR}/packaging/man/${page}.1.gz")
        add_custom_command(OUTPUT "${output}"
            COMMAND ${CMAKE_COMMAND} -E make_directory "${PROJECT_BINARY_DIR}/packaging/man"
            COMMAND "${DCT_GZIP}" -9 -n -c "${source}" > "${output}"
            DEPENDS "${source}"
            COMMENT "Compressing the man page ${page}.1"
            VERBATIM)
        list(APPEND dct_man_outputs "${output}")
    else()
        list(APPEND dct_man_outputs "${source}")
    endif()
endforeach()
add_custom_target(dct_man_pages ALL DEPENDS ${dct_man_outputs})
install(FILES ${dct_man_outputs} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")

install(FILES "${DCT_PACKAGING_DIR}/completion/dctwin-cli"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")

# The .deb: cmake --build build && (cd build && cpack) writes build/dctwin_<version>_<arch>.deb.
set(DCT_PACKAGE_MAINTAINER "DC Twin developers <dctwin@localhost>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "dctwin")
set(CPACK_PACKAGE_VENDOR "DC Twin")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION # the summary above comes first
    "DC Twin describes a GPU cluster (nodes, fabric, racks, power chain, cooling plant, site and
prices) and a training workload, and evaluates network, collectives, facility power and
cooling, and cost together. The package holds the desktop program (dctwin), the batch
program (dctwin-cli), the report renderer (dctwin-report), and the catalog and example
scenarios.")
set(CPACK_PACKAGE_CONTACT "${DCT_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_NAME "dctwin")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT") # dctwin_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DCT_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Fonts: without any, Qt draws every text of the window and the PDF reports as empty boxes.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
find_program(DCT_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DCT_DPKG_SHLIBDEPS)
    # The shared libraries the programs link (Qt 6, SQLite, fmt, Boost, libstdc++) as packages.
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
    # Debian 12's runtime packages of what the programs link, listed by hand.
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "libc6, libstdc++6, libgcc-s1, libsqlite3-0, libfmt9, libboost-graph1.74.0")
    if(TARGET dctwin OR TARGET dctwin-report)
        string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS
            ", libqt6core6, libqt6gui6, libqt6widgets6, libqt6charts6, libqt6svg6"
            ", libqt6concurrent6, libqt6opengl6, libqt6openglwidgets6")
    endif()
endif()
include(CPack)
