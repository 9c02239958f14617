// replay_main.cpp — runs fuzz_deck.cpp's LLVMFuzzerTestOneInput over files
// and folders without libFuzzer (any compiler): the corpus-replay test of
// CTest (tests/fuzz/seeds, tests/fuzz/regressions, inputs/,
// docs/results/*/decks/). A finding
// aborts, after the file's name is printed.
//
// Usage: fuzz_deck_replay PATH...   (a folder stands for every file in it, recursively)
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "fuzz_deck_replay: no such file or folder: %s\n", argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "fuzz_deck_replay: no input files\n");
    return 2;
  }
  for (const auto& f : files) {
    std::fprintf(stderr, "%s\n", f.c_str());
    std::ifstream in(f, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::printf("fuzz_deck_replay: %zu input(s), no finding\n", files.size());
  return 0;
}
