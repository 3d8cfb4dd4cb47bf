// CompileCache around a fake compiler that counts its calls: an unchanged request is answered from
// the folder, any change compiles again, and an entry that is damaged, cut short, another request's,
// a link or another user's is ignored (the real compile is used and the entry rewritten).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "checker/compile/compile_cache.h"
#include "tests/test_runner_support.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

// Answers with a result that names the request, so an entry served for the wrong one shows.
class CountingCompiler : public Compiler {
 public:
  explicit CountingCompiler(int& calls) : m_calls(calls) {}

  Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) override {
    ++m_calls;
    if (!error.empty()) return make_error(error);
    CompileResult result;
    result.ok = ok;
    if (ok) result.ptx = "// PTX of " + source.path + " (" + options.arch + "): " + source.text;
    result.log = source.path + "(3): warning: variable \"i\" was declared but never referenced\n";
    result.diagnostics.push_back({source.path, 3, 7, "warning", "variable \"i\" was declared but never referenced",
                                  "  int i;", limit_kind});
    for (const std::string& expression : options.name_expressions) result.lowered_names[expression] = "_Z_" + expression;
    return result;
  }

  bool ok = true;
  std::string limit_kind;  // e.g. "time-limit": the result of a compile a limit cut off
  std::string error;       // the compiler could not run

 private:
  int& m_calls;
};

bool same_result(const CompileResult& a, const CompileResult& b) {
  if (a.ok != b.ok || a.ptx != b.ptx || a.log != b.log || a.lowered_names != b.lowered_names) return false;
  if (a.diagnostics.size() != b.diagnostics.size()) return false;
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const CompileDiagnostic &x = a.diagnostics[i], &y = b.diagnostics[i];
    if (x.file != y.file || x.line != y.line || x.column != y.column || x.severity != y.severity ||
        x.message != y.message || x.source_line != y.source_line || x.kind != y.kind) {
      return false;
    }
  }
  return true;
}

// A cache in a scratch folder around a CountingCompiler; `calls` counts the real compiles.
struct CacheFixture {
  test::ScratchFolder scratch;
  int calls = 0;
  CountingCompiler* compiler = nullptr;
  std::unique_ptr<CompileCache> cache = make("tilecamp 0.1.0 build 1, sandbox confined");

  std::unique_ptr<CompileCache> make(const std::string& identity, uint64_t max_bytes = k_default_cache_bytes) {
    auto inner = std::make_unique<CountingCompiler>(calls);
    compiler = inner.get();
    auto folder = CacheFolder::open(scratch.path() / "ptx", max_bytes);
    REQUIRE(folder);
    return std::make_unique<CompileCache>(std::move(inner), std::move(*folder), identity);
  }

  CompileResult compile(const SourceFile& source, const CompileOptions& options = {}) {
    auto result = cache->compile(source, options);
    REQUIRE(result);
    return *result;
  }
};

const SourceFile k_kernel{"exercises/01-vector-add/kernel.cu", "__global__ void add(float* a) { a[0] = 1; }\n"};
const SourceFile k_other{"exercises/01-vector-add/kernel.cu", "__global__ void add(float* a) { a[0] = 2; }\n"};

CompileResult fresh_compile(const SourceFile& source, const CompileOptions& options = {}) {
  int calls = 0;
  return *CountingCompiler(calls).compile(source, options);
}

void overwrite(const fs::path& path, const std::string& contents) {
  fs::remove(path);
  std::ofstream(path, std::ios::binary) << contents;
}

TEST_CASE("an unchanged request is answered from the cache, the whole result as compiled") {
  CacheFixture fixture;
  CompileOptions options;
  options.name_expressions = {"sgemm<16>"};
  const CompileResult first = fixture.compile(k_kernel, options);
  const CompileResult second = fixture.compile(k_kernel, options);
  CHECK(fixture.calls == 1);
  CHECK(fixture.cache->use().hits == 1);
  CHECK(fixture.cache->use().misses == 1);
  CHECK(same_result(second, first));
  CHECK(second.lowered_names.at("sgemm<16>") == "_Z_sgemm<16>");
}

TEST_CASE("a compile error is kept like a success: the learner sees the same messages") {
  CacheFixture fixture;
  fixture.compiler->ok = false;
  const CompileResult first = fixture.compile(k_kernel);
  const CompileResult second = fixture.compile(k_kernel);
  CHECK(fixture.calls == 1);
  CHECK_FALSE(second.ok);
  CHECK(same_result(second, first));
}

TEST_CASE("a change of the text, the path or any option compiles again") {
  const std::vector<std::pair<const char*, std::function<void(SourceFile&, CompileOptions&)>>> changes = {
      {"text", [](SourceFile& s, CompileOptions&) { s.text += " "; }},
      {"path", [](SourceFile& s, CompileOptions&) { s.path = "mine.cu"; }},
      {"arch", [](SourceFile&, CompileOptions& o) { o.arch = "compute_80"; }},
      {"name_expressions", [](SourceFile&, CompileOptions& o) { o.name_expressions = {"f<2>"}; }},
      {"defines", [](SourceFile&, CompileOptions& o) { o.defines = {"TILE=16"}; }},
      {"appended_source", [](SourceFile&, CompileOptions& o) { o.appended_source = "__global__ void k() {}"; }},
      {"check_includes", [](SourceFile&, CompileOptions& o) { o.check_includes = false; }},
  };
  for (const auto& [field, change] : changes) {
    CAPTURE(field);
    CacheFixture fixture;
    fixture.compile(k_kernel);
    SourceFile source = k_kernel;
    CompileOptions options;
    change(source, options);
    const CompileResult changed = fixture.compile(source, options);
    CHECK(fixture.calls == 2);
    CHECK(same_result(changed, fresh_compile(source, options)));
    fixture.compile(source, options);
    CHECK(fixture.calls == 2);  // and that one is kept in turn
  }
}

TEST_CASE("fields are hashed with their lengths: bytes moved from one field to the next make another request") {
  CacheFixture fixture;
  CompileOptions ab_c, a_bc, expression, define;
  ab_c.defines = {"ab", "c"};
  a_bc.defines = {"a", "bc"};
  expression.name_expressions = {"X"};
  define.defines = {"X"};
  fixture.compile({"ab", "c"});
  fixture.compile({"a", "bc"});
  fixture.compile(k_kernel, ab_c);
  fixture.compile(k_kernel, a_bc);
  fixture.compile(k_kernel, expression);
  fixture.compile(k_kernel, define);
  CHECK(fixture.calls == 6);
  CHECK(fixture.cache->use().hits == 0);
}

TEST_CASE("another compiler identity (NVRTC, the toolkit, tilecamp's build, the sandbox) compiles again") {
  CacheFixture fixture;
  fixture.compile(k_kernel);
  fixture.cache = fixture.make("tilecamp 0.1.0 build 2, sandbox confined");
  fixture.compile(k_kernel);
  CHECK(fixture.calls == 2);
}

TEST_CASE("a result a limit cut off (time-limit, memory-limit...) is never kept") {
  CacheFixture fixture;
  fixture.compiler->limit_kind = "time-limit";
  fixture.compile(k_kernel);
  fixture.compile(k_kernel);
  CHECK(fixture.calls == 2);
  CHECK_FALSE(fs::exists(fixture.cache->entry_path(k_kernel, {})));
}

TEST_CASE("a file that reads the clock (__TIME__, __DATE__, __TIMESTAMP__) is compiled every time") {
  for (const char* macro : {"__TIME__", "__DATE__", "__TIMESTAMP__"}) {
    CAPTURE(macro);
    CacheFixture fixture;
    const SourceFile source{"stamp.cu", std::string("__device__ const char built[] = ") + macro + ";\n"};
    fixture.compile(source);
    fixture.compile(source);
    CHECK(fixture.calls == 2);
    CHECK_FALSE(fs::exists(fixture.cache->entry_path(source, {})));
  }
}

TEST_CASE("an error of the compiler itself is passed on and not kept") {
  CacheFixture fixture;
  fixture.compiler->error = "nvrtcCreateProgram for kernel.cu: NVRTC_ERROR_OUT_OF_MEMORY";
  CHECK(fixture.cache->compile(k_kernel, {}).error() == fixture.compiler->error);
  CHECK_FALSE(fixture.cache->compile(k_kernel, {}));
  CHECK(fixture.calls == 2);
}

TEST_CASE("without a folder every compile goes to the compiler") {
  int calls = 0;
  CompileCache cache(std::make_unique<CountingCompiler>(calls), std::nullopt, "identity");
  CHECK(cache.compile(k_kernel, {}));
  CHECK(cache.compile(k_kernel, {}));
  CHECK(calls == 2);
  CHECK_FALSE(cache.enabled());
  CHECK(cache.use().misses == 2);
}

// Attacks and accidents: each entry below must be ignored, the real compile used, the entry rewritten.

TEST_CASE("a planted corrupt entry is ignored: compiled again, then rewritten") {
  CacheFixture fixture;
  fixture.compile(k_kernel);
  const fs::path entry = fixture.cache->entry_path(k_kernel, {});
  std::string bytes = test::read_text(entry);
  bytes[bytes.size() / 2] ^= 0x20;
  overwrite(entry, bytes);
  CHECK(same_result(fixture.compile(k_kernel), fresh_compile(k_kernel)));
  CHECK(fixture.calls == 2);
  fixture.compile(k_kernel);
  CHECK(fixture.calls == 2);
}

TEST_CASE("a truncated entry is ignored, down to an empty file") {
  CacheFixture fixture;
  fixture.compile(k_kernel);
  const fs::path entry = fixture.cache->entry_path(k_kernel, {});
  const std::string bytes = test::read_text(entry);
  int expected_calls = 1;
  for (const size_t kept : {bytes.size() - 1, bytes.size() / 2, size_t{31}, size_t{0}}) {
    CAPTURE(kept);
    overwrite(entry, bytes.substr(0, kept));
    CHECK(same_result(fixture.compile(k_kernel), fresh_compile(k_kernel)));
    CHECK(fixture.calls == ++expected_calls);
  }
}

TEST_CASE("an entry that holds another request's key is ignored, though whole and checksummed") {
  CacheFixture fixture;
  fixture.compile(k_kernel);
  fixture.compile(k_other);
  fs::copy_file(fixture.cache->entry_path(k_kernel, {}), fixture.cache->entry_path(k_other, {}),
                fs::copy_options::overwrite_existing);
  const CompileResult result = fixture.compile(k_other);
  CHECK(fixture.calls == 3);
  CHECK(same_result(result, fresh_compile(k_other)));
}

TEST_CASE("an entry that is a link is not followed, even to another valid entry") {
  CacheFixture fixture;
  fixture.compile(k_kernel);
  fixture.compile(k_other);
  const fs::path entry = fixture.cache->entry_path(k_other, {});
  for (const fs::path& target : {fixture.cache->entry_path(k_kernel, {}), fs::path("/etc/passwd")}) {
    CAPTURE(target);
    fs::remove(entry);
    fs::create_symlink(target, entry);
    CHECK(same_result(fixture.compile(k_other), fresh_compile(k_other)));
    CHECK(fs::is_regular_file(fs::symlink_status(entry)));  // the link itself was replaced
  }
  CHECK(fixture.calls == 4);
}

TEST_CASE("an entry that is a FIFO or a folder is ignored, without waiting for a writer") {
  CacheFixture fixture;
  const fs::path entry = fixture.cache->entry_path(k_kernel, {});
  REQUIRE(::mkfifo(entry.c_str(), 0600) == 0);
  CHECK(same_result(fixture.compile(k_kernel), fresh_compile(k_kernel)));
  fs::remove(entry);
  fs::create_directory(entry);
  CHECK(same_result(fixture.compile(k_kernel), fresh_compile(k_kernel)));
  CHECK(fixture.calls == 2);
}

TEST_CASE("an entry another user owns is ignored") {
  if (::geteuid() != 0) return;  // only root can give a file away
  CacheFixture fixture;
  fixture.compile(k_kernel);
  const fs::path entry = fixture.cache->entry_path(k_kernel, {});
  REQUIRE(::chown(entry.c_str(), 65534, 65534) == 0);
  CHECK(same_result(fixture.compile(k_kernel), fresh_compile(k_kernel)));
  CHECK(fixture.calls == 2);
}

// The folder.

TEST_CASE("the cache folder is made 0700, with its missing parents") {
  test::ScratchFolder scratch;
  auto folder = CacheFolder::open(scratch.path() / "home" / ".cache" / "tilecamp" / "ptx");
  REQUIRE(folder);
  for (const fs::path& made : {scratch.path() / "home" / ".cache", folder->path()}) {
    struct stat info {};
    REQUIRE(::stat(made.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
  }
}

TEST_CASE("a cache folder that cannot be made or written is an error, for the caller to go without") {
  test::ScratchFolder scratch;
  scratch.write("a-file", "x");
  CHECK(CacheFolder::open("/proc/tilecamp-ptx").error().starts_with("cannot create /proc/tilecamp-ptx"));
  CHECK(test::contains(CacheFolder::open(scratch.path() / "a-file").error(), "is not a folder"));
  CHECK(test::contains(CacheFolder::open(scratch.path() / "a-file" / "ptx").error(), "cannot create"));
  if (::geteuid() == 0) {
    fs::create_directory(scratch.path() / "theirs");
    REQUIRE(::chown((scratch.path() / "theirs").c_str(), 65534, 65534) == 0);
    CHECK(test::contains(CacheFolder::open(scratch.path() / "theirs").error(), "belongs to another user"));
  } else {  // root may write anywhere
    fs::create_directory(scratch.path() / "read-only", scratch.path());
    fs::permissions(scratch.path() / "read-only", fs::perms::owner_read | fs::perms::owner_exec);
    CHECK(test::contains(CacheFolder::open(scratch.path() / "read-only").error(), "cannot write into"));
  }
}

TEST_CASE("past its bound the folder drops the entries used longest ago, and only entries") {
  CacheFixture fixture;
  const SourceFile a{"a.cu", "a"}, b{"b.cu", "b"}, c{"c.cu", "c"};
  fixture.compile(a);
  const uint64_t entry_bytes = fs::file_size(fixture.cache->entry_path(a, {}));
  fixture.cache = fixture.make("tilecamp 0.1.0 build 1, sandbox confined", entry_bytes * 5 / 2);
  fixture.scratch.write("ptx/notes.txt", std::string(entry_bytes * 4, 'n'));
  fixture.compile(b);
  const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(fixture.cache->entry_path(a, {}), an_hour_ago);
  fs::last_write_time(fixture.cache->entry_path(b, {}), an_hour_ago + std::chrono::minutes(1));
  fixture.compile(a);  // a hit: `a` was just used
  fixture.compile(c);  // three entries: `b` goes
  CHECK(fixture.calls == 3);
  CHECK(fs::exists(fixture.cache->entry_path(a, {})));
  CHECK_FALSE(fs::exists(fixture.cache->entry_path(b, {})));
  CHECK(fs::exists(fixture.cache->entry_path(c, {})));
  CHECK(fs::exists(fixture.scratch.path() / "ptx" / "notes.txt"));
}

TEST_CASE("processes writing and evicting the same entries at once leave only whole entries") {
  test::ScratchFolder scratch;
  std::vector<SourceFile> sources;
  for (int i = 0; i < 12; ++i) sources.push_back({"k" + std::to_string(i) + ".cu", std::string(4096 + i, 'x')});
  auto cache_in = [&](int& calls) {
    auto folder = CacheFolder::open(scratch.path(), 8 * 4096);  // room for about 7: evictions all along
    REQUIRE(folder);
    return CompileCache(std::make_unique<CountingCompiler>(calls), std::move(*folder), "identity");
  };
  std::vector<pid_t> children;
  for (int process = 0; process < 4; ++process) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int calls = 0;
      CompileCache cache = cache_in(calls);
      bool all_right = true;
      for (int round = 0; round < 20; ++round) {
        for (const SourceFile& source : sources) {
          auto result = cache.compile(source, {});
          all_right &= result && same_result(*result, fresh_compile(source));
        }
      }
      ::_exit(all_right ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  int calls = 0;
  CompileCache cache = cache_in(calls);
  std::vector<SourceFile> kept;
  for (const SourceFile& source : sources) {
    if (fs::exists(cache.entry_path(source, {}))) kept.push_back(source);
  }
  CHECK(kept.size() >= 4);
  for (const SourceFile& source : kept) CHECK(same_result(*cache.compile(source, {}), fresh_compile(source)));
  CHECK(calls == 0);  // every entry left is whole: read, not compiled again
  for (const fs::directory_entry& item : fs::directory_iterator(scratch.path())) {
    CHECK_FALSE(item.path().filename().string().starts_with("."));  // no write left half-done
  }
}

// Where the cache is, and what its key knows of the toolchain.

// Sets environment variables for one test and puts them back afterwards.
class EnvironmentScope {
 public:
  void set(const char* name, const char* value) {
    if (!m_saved.contains(name)) {
      const char* old = std::getenv(name);
      m_saved[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~EnvironmentScope() {
    for (const auto& [name, value] : m_saved) value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str());
  }

 private:
  std::map<std::string, std::optional<std::string>> m_saved;
};

TEST_CASE("the cache is in TILECAMP_CACHE_DIR, else XDG_CACHE_HOME/tilecamp/ptx, else ~/.cache/tilecamp/ptx, off turns it off") {
  EnvironmentScope environment;
  environment.set("TILECAMP_CACHE_DIR", "/tmp/mine");
  environment.set("XDG_CACHE_HOME", "/xdg");
  environment.set("HOME", "/home/learner");
  CHECK(ptx_cache_directory() == fs::path("/tmp/mine"));
  environment.set("TILECAMP_CACHE_DIR", "off");
  CHECK(ptx_cache_directory() == std::nullopt);
  environment.set("TILECAMP_CACHE_DIR", "");
  CHECK(ptx_cache_directory() == fs::path("/xdg/tilecamp/ptx"));
  environment.set("TILECAMP_CACHE_DIR", nullptr);
  environment.set("XDG_CACHE_HOME", nullptr);
  CHECK(ptx_cache_directory() == fs::path("/home/learner/.cache/tilecamp/ptx"));
  environment.set("HOME", nullptr);
  CHECK(ptx_cache_directory() == std::nullopt);
}

TEST_CASE("the toolchain stamp names NVRTC's version and changes with the toolkit's headers") {
  test::ScratchFolder toolkit;
  EnvironmentScope environment;
  environment.set("TILECAMP_CUDA_INCLUDE", toolkit.path().c_str());
  toolkit.write("cuda.h", "#define CUDA_VERSION 13000\n");
  const std::string before = toolchain_stamp();
  CHECK(before.starts_with("nvrtc 1"));
  CHECK(test::contains(before, (toolkit.path() / "cuda.h").string()));
  toolkit.write("cuda.h", "#define CUDA_VERSION 13010\n\n");
  CHECK(toolchain_stamp() != before);
}

}  // namespace
}  // namespace tilecamp
