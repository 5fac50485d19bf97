// The translation unit that builds the test programs' shared precompiled header
// (tests/CMakeLists.txt): the header is all it compiles.
