# The linker: lld where the compiler can use it, else GNU gold, else the compiler's default (GNU
# ld). Linking a test program (65 MB with its debug information) took 15 s with GNU ld, 7.0 s
# with gold and 4.4 s with lld; the build links about 50 programs.
option(DCT_FAST_LINKER "Link with lld, else gold, where the compiler can use them" ON)

if(DCT_FAST_LINKER)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=lld DCT_HAVE_LLD)
    if(DCT_HAVE_LLD)
        add_link_options(-fuse-ld=lld)
    else()
        check_linker_flag(CXX -fuse-ld=gold DCT_HAVE_GOLD)
        if(DCT_HAVE_GOLD)
            add_link_options(-fuse-ld=gold)
        endif()
    endif()
endif()
