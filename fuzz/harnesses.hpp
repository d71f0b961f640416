#pragma once
// The fuzz harnesses' bodies, shared by the libFuzzer binaries (fuzz_<name>.cpp, clang only)
// and the regression test (test_fuzz_regressions.cpp, part of the normal build), so a crasher
// saved under fuzz/regressions/<harness>/ replays through exactly the code that found it.
// Every harness accepts any input: an lb::Error is a clean refusal; a crash, a sanitizer
// report, any other exception, a hang or a runaway allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lb::fuzz {

// The harness names: image, pfm, pnm, scene, assets, lightfield, stereo, image16, dataset_text,
// raytrix_calib, csv, scores, hci_cfg.
const std::vector<std::string>& harness_names();

// Runs one input through the named harness. Returns true when the input was accepted, false
// when it was refused with lb::Error; anything else propagates (or crashes).
bool run_harness(const std::string& name, const std::uint8_t* data, std::size_t size);

// The folder harnesses (lightfield, stereo) read their input as a tiny archive: one option
// byte, then entries [name length n (1 byte)][n name bytes][data length (2 bytes, LE)][data].
// pack_folder builds such an input, for the seed corpora.
std::vector<std::uint8_t> pack_folder(std::uint8_t options,
                                      const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& files);

}  // namespace lb::fuzz
