#pragma once
// The viewer's whole program (options, window, frame loop); main.cpp only calls it.
namespace lb::viewer {
int viewer_main(int argc, char** argv);
}
