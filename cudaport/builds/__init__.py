"""Build files and the Python side: CMake, Makefiles, build scripts, setup.py."""
