// lightbench: the interactive viewer. See docs/VIEWER.md. The viewer itself is the lb_viewer
// library (viewer_main.cpp), so a test build links it with extra algorithms.
#include "viewer_main.hpp"

int main(int argc, char** argv) { return lb::viewer::viewer_main(argc, argv); }
