# Debug information compressed (zlib) in objects, libraries and programs: every test program
# links the static layers and carries their debug information, so an uncompressed RelWithDebInfo
# tree takes about 6 GB and the asan tree about 11 GB. gdb, addr2line and the sanitizers'
# symbolizers read compressed sections. Turn off for tools that do not.
option(DCT_COMPRESS_DEBUG_INFO "Compress debug sections (-gz) where compiler and linker accept it" ON)

if(DCT_COMPRESS_DEBUG_INFO)
    include(CheckCXXCompilerFlag)
    include(CheckLinkerFlag)
    check_cxx_compiler_flag(-gz DCT_HAVE_GZ_COMPILE)
    check_linker_flag(CXX -gz DCT_HAVE_GZ_LINK)
    if(DCT_HAVE_GZ_COMPILE AND DCT_HAVE_GZ_LINK)
        add_compile_options(-gz)
        add_link_options(-gz)
    endif()
endif()
