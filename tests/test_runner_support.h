// Helpers for the tests of the runner's modules: a scratch folder that is removed afterwards
// (tests never write into the source tree), and a small course laid out in it.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace tilecamp::test {

class ScratchFolder {
 public:
  ScratchFolder() {
    std::random_device random;
    m_path = std::filesystem::temp_directory_path() / ("tilecamp-test-" + std::to_string(random()));
    std::filesystem::create_directories(m_path);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return m_path; }

  void write(const std::string& relative, const std::string& contents) const {
    const std::filesystem::path file = m_path / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary | std::ios::trunc) << contents;
  }

  std::string read(const std::string& relative) const {
    std::ifstream in(m_path / relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  std::filesystem::path m_path;
};

}  // namespace tilecamp::test
