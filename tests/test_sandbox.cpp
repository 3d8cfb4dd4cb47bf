// The sandbox that compiles and emulates kernels: what a confined process can and cannot do, and
// what the limits make of a kernel that runs too long or asks for too much. Where this machine's
// kernel lacks Landlock or seccomp, the confinement tests say so and check nothing else.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "checker/child/worker_process.h"
#include "checker/sandbox/confine.h"
#include "checker/sandbox/sandbox.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

// A file no kernel may ever read, holding a line that must never appear in any output.
struct Canary {
  fs::path folder;
  fs::path file;
  std::string secret;
  Canary() {
    std::random_device random;
    secret = "tilecamp-canary-" + std::to_string(random()) + std::to_string(random());
    folder = fs::temp_directory_path() / ("tilecamp-canary-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    file = folder / "secret.txt";
    std::ofstream(file) << secret << "\n";
  }
  ~Canary() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
};

bool sandbox_available() {
  const sandbox::Mechanisms mechanisms = sandbox::available_mechanisms();
  if (!mechanisms.complete()) MESSAGE("skipped: " << mechanisms.missing());
  return mechanisms.complete();
}

// Runs `body` in a forked child that first confines itself to reading `readable`; returns the
// child's wait status.
template <typename Body>
int in_confined_child(const sandbox::Readable& readable, Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!sandbox::apply_limits({}) || !sandbox::confine_this_process(readable)) ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST_CASE("a confined process reads only what it was allowed, and writes nothing") {
  if (!sandbox_available()) return;
  Canary canary;
  const fs::path allowed = canary.folder / "allowed";
  fs::create_directories(allowed);
  std::ofstream(allowed / "header.h") << "#define OK 1\n";
  const std::string allowed_file = (allowed / "header.h").string();
  const std::string secret_file = canary.file.string();
  const std::string new_file = (canary.folder / "written.txt").string();
  const int status = in_confined_child({{allowed.string()}, {}}, [&] {
    int result = 0;
    const int readable = ::open(allowed_file.c_str(), O_RDONLY);
    if (readable >= 0) result |= 1;
    if (::open(secret_file.c_str(), O_RDONLY) < 0 && errno == EACCES) result |= 2;
    if (::open(new_file.c_str(), O_WRONLY | O_CREAT, 0600) < 0 && errno == EACCES) result |= 4;
    if (::open("/proc/self/environ", O_RDONLY) < 0 && errno == EACCES) result |= 8;
    return result;
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 15);
  CHECK_FALSE(fs::exists(new_file));
}

TEST_CASE("a confined process that starts a program, opens a socket or signals another is killed") {
  if (!sandbox_available()) return;
  const int exec_status = in_confined_child({}, [] {
    char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
    ::execv("/bin/true", argv);
    return 1;
  });
  CHECK((WIFSIGNALED(exec_status) && WTERMSIG(exec_status) == SIGSYS));
  const int socket_status = in_confined_child({}, [] { return ::socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; });
  CHECK((WIFSIGNALED(socket_status) && WTERMSIG(socket_status) == SIGSYS));
  const int kill_status = in_confined_child({}, [] { return ::kill(::getppid(), 0) == 0 ? 0 : 1; });
  CHECK((WIFSIGNALED(kill_status) && WTERMSIG(kill_status) == SIGSYS));
  // A system call that is neither allowed nor fatal fails: here, creating a pipe.
  const int pipe_status = in_confined_child({}, [] {
    int fds[2];
    return ::pipe(fds) != 0 && errno == EPERM ? 0 : 1;
  });
  CHECK((WIFEXITED(pipe_status) && WEXITSTATUS(pipe_status) == 0));
}

TEST_CASE("a worker process starts with only the environment and descriptors it is given") {
  child::WorkerCommand command;
  command.name = "probe";
  // No pipeline: while setting one up the shell itself holds the pipe's descriptors for a moment.
  command.argv = {"/bin/sh", "-c", "cat /proc/self/environ; echo; ls /proc/$$/fd; pwd", "sh"};
  command.environment = std::vector<std::string>{"ONLY=this"};
  command.working_directory = "/";
  const int leaked = ::open("/dev/null", O_RDONLY);  // a descriptor of this process, not for the child
  child::WorkerProcess worker(command);
  CHECK_FALSE(worker.call("ping", 5000).has_value());  // the shell answers nothing and exits
  ::close(leaked);
  const std::string output = worker.output();
  CHECK(test::contains(output, "ONLY=this"));
  CHECK_FALSE(test::contains(output, "PATH="));
  CHECK_MESSAGE(test::contains(output, "\n0\n1\n2\n3\n4\n/\n"), output);  // its descriptors, then its working folder
}

sandbox::SandboxOptions options_with(double seconds, uint64_t memory_bytes = uint64_t{2} << 30) {
  sandbox::SandboxOptions options;
  options.program = TILECAMP_BINARY;
  options.limits.seconds = seconds;
  options.limits.memory_bytes = memory_bytes;
  return options;
}

// Compiles `source` in the sandbox and loads it into a sandboxed emulator; fails the test if either
// does not work. The request names the module's one kernel.
std::unique_ptr<Backend> loaded(sandbox::Sandbox& sandbox, const std::string& name, const std::string& source,
                                LaunchRequest& request) {
  auto compiled = sandbox.compiler()->compile({name, source}, {});
  REQUIRE(compiled.has_value());
  REQUIRE_MESSAGE(compiled->ok, compiled->log);
  std::unique_ptr<Backend> backend = sandbox.emulator();
  REQUIRE(backend->load(compiled->ptx).has_value());
  REQUIRE(backend->module().functions.size() == 1);
  request.kernel = backend->module().functions[0].name;
  return backend;
}

constexpr char k_add_kernel[] =
    "__global__ void add(const float* a, float* b, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) b[i] = a[i] + 1.0f;\n"
    "}\n";

TEST_CASE("the sandbox compiles and runs a kernel as the in-process emulator does") {
  auto sandbox = sandbox::Sandbox::create(options_with(60));
  LaunchRequest request;
  auto backend = loaded(*sandbox, "add.cu", k_add_kernel, request);
  CHECK(backend->module().functions[0].parameters.size() == 3);
  std::vector<float> input(100);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  request.config.grid = {4, 1, 1};
  request.config.block = {32, 1, 1};
  std::vector<uint8_t> bytes(input.size() * 4);
  std::memcpy(bytes.data(), input.data(), bytes.size());
  request.buffers = {{"a", bytes, BufferRole::In}, {"b", std::vector<uint8_t>(bytes.size()), BufferRole::Out}};
  std::vector<uint8_t> n(4);
  const int count = 100;
  std::memcpy(n.data(), &count, 4);
  request.arguments = {{{}, 0}, {{}, 1}, {n, -1}};
  auto outcome = backend->launch(request);
  REQUIRE(outcome.has_value());
  REQUIRE(outcome->buffers.size() == 2);
  float last = 0;
  std::memcpy(&last, outcome->buffers[1].data() + 99 * 4, 4);
  CHECK(last == 100.0f);
  CHECK(outcome->profile.completed);
  CHECK(outcome->profile.totals.global_ld_requests == 4);
}

TEST_CASE("NVRTC in the sandbox cannot open a file outside the toolkit, even with the include policy off") {
  if (!sandbox_available()) return;
  Canary canary;
  auto sandbox = sandbox::Sandbox::create(options_with(60));
  auto compiler = sandbox->compiler();
  CompileOptions options;
  options.check_includes = false;  // only the sandbox stands between the kernel and the file
  for (const std::string& path : {canary.file.string(), std::string("/proc/self/environ")}) {
    auto compiled = compiler->compile({"kernel.cu", "#include \"" + path + "\"\n" + k_add_kernel}, options);
    REQUIRE(compiled.has_value());
    CHECK_FALSE(compiled->ok);
    CHECK(test::contains(compiled->log, "Permission denied"));
    CHECK_FALSE(test::contains(compiled->log, canary.secret));
  }
}

TEST_CASE("a kernel that runs past the check's time is stopped before the deadline, told where its instructions went") {
  auto sandbox = sandbox::Sandbox::create(options_with(2));
  auto compiler = sandbox->compiler();
  LaunchRequest request;
  auto backend = loaded(*sandbox, "spin.cu",
                        "__global__ void spin(float* a) {\n  float s = 0;\n  for (int k = 0; k < 100000; ++k) s += a[k % 7];\n"
                        "  a[0] = s;\n}\n",
                        request);
  request.config.grid = {64, 1, 1};
  request.config.block = {256, 1, 1};
  request.buffers = {{"a", std::vector<uint8_t>(64), BufferRole::InOut}};
  request.arguments = {{{}, 0}};
  const auto start = std::chrono::steady_clock::now();
  auto outcome = backend->launch(request);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(outcome.has_value());
  REQUIRE(outcome->profile.diagnostics.size() == 1);
  const Diagnostic& stopped = outcome->profile.diagnostics[0];
  CHECK(stopped.kind == "time-limit");
  CHECK(stopped.line == 3);
  CHECK(test::contains(stopped.message, "still running when the check's time ran out"));
  // Nearly all of its instructions are the loop's, on line 3; the rest of the kernel barely counts.
  CHECK(test::contains(stopped.message, "Its instructions went to line 3 (9"));
  CHECK(test::contains(stopped.message, "(change the limit with --time-limit)"));
  CHECK_FALSE(outcome->profile.completed);
  CHECK(seconds > 1.2);  // the emulator stops itself 0.4 s before the 2 s deadline, not at once
  CHECK(seconds < 2.5);
  // The deadline is the check's: the next call in it, once the time is spent, finds it spent.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  auto again = compiler->compile({"add.cu", k_add_kernel}, {});
  REQUIRE(again.has_value());
  CHECK_FALSE(again->ok);
  REQUIRE(again->diagnostics.size() == 1);
  CHECK(again->diagnostics[0].kind == "time-limit");
  sandbox->start_check();  // a new check has its time again
  auto fresh = compiler->compile({"add.cu", k_add_kernel}, {});
  REQUIRE(fresh.has_value());
  CHECK(fresh->ok);
}

TEST_CASE("a kernel whose memory passes the limit is stopped: a memory-limit finding") {
  auto sandbox = sandbox::Sandbox::create(options_with(60, uint64_t{512} << 20));
  LaunchRequest request;
  auto backend = loaded(*sandbox, "big.cu", "__device__ char big[1ull << 31];\n__global__ void touch(int i) { big[i] = 1; }\n",
                        request);
  std::vector<uint8_t> index(4, 0);
  request.arguments = {{index, -1}};
  auto outcome = backend->launch(request);
  REQUIRE(outcome.has_value());
  REQUIRE(outcome->profile.diagnostics.size() == 1);
  CHECK(outcome->profile.diagnostics[0].kind == "memory-limit");
  CHECK(test::contains(outcome->profile.diagnostics[0].message, "more than the 512 MiB"));
}

TEST_CASE("a case's buffers are held once in the sandbox, not copied: 400 MB of buffers run under 1.5 GiB") {
  auto sandbox = sandbox::Sandbox::create(options_with(60, uint64_t{1536} << 20));
  LaunchRequest request;
  auto backend = loaded(*sandbox, "touch.cu", "__global__ void touch(float* a, float* b) { b[7] = a[7]; }\n", request);
  const size_t bytes = size_t{200} << 20;
  request.buffers = {{"a", std::vector<uint8_t>(bytes, 1), BufferRole::In}, {"b", std::vector<uint8_t>(bytes), BufferRole::Out}};
  request.arguments = {{{}, 0}, {{}, 1}};
  auto outcome = backend->launch(request);
  REQUIRE(outcome.has_value());
  CHECK(outcome->profile.diagnostics.empty());
  REQUIRE(outcome->buffers.size() == 2);
  CHECK(outcome->buffers[1][28] == 1);
}

TEST_CASE("a compile that runs past the check's time is a time-limit finding of the file") {
  auto sandbox = sandbox::Sandbox::create(options_with(2));
  auto compiler = sandbox->compiler();
  std::string bomb = "#define A0(x) x x\n";
  for (int i = 1; i <= 7; ++i) bomb += "#define A" + std::to_string(i) + "(x) A" + std::to_string(i - 1) + "(A" + std::to_string(i - 1) + "(x))\n";
  bomb += "__device__ int f() { return A7(1+) 0; }\n";
  const auto start = std::chrono::steady_clock::now();
  auto compiled = compiler->compile({"bomb.cu", bomb}, {});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(compiled.has_value());
  CHECK_FALSE(compiled->ok);
  REQUIRE(compiled->diagnostics.size() == 1);
  CHECK(compiled->diagnostics[0].kind == "time-limit");
  CHECK(compiled->diagnostics[0].file == "bomb.cu");
  CHECK(test::contains(compiled->diagnostics[0].message, "compiling bomb.cu took longer than the 2 s"));
  CHECK(seconds < 4);
}

}  // namespace
}  // namespace tilecamp
