// The GPU backend's process machinery, which needs no GPU: the message format, a worker that hangs
// (killed at its deadline), one that dies (reported with how it ended), and the worker loop
// answering a malformed request without stopping. tests/gpu/ runs the real thing on a GPU.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <thread>

#include "checker/gpu/gpu_backend.h"
#include "checker/child/wire.h"
#include "checker/child/worker_process.h"
#include "checker/gpu/worker.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

TEST_CASE("worker messages round-trip through a pipe, and a truncated one is an error") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  child::MessageWriter writer;
  writer.u32(7).u64(1ull << 40).f64(2.5).text("transposeTiled").bytes(std::vector<uint8_t>{1, 2, 3});
  REQUIRE(child::write_frame(fds[1], writer.data()).has_value());
  auto frame = child::read_frame(fds[0], 1000);
  REQUIRE(frame.has_value());
  child::MessageReader reader(*frame);
  CHECK(reader.u32().value() == 7);
  CHECK(reader.u64().value() == (1ull << 40));
  CHECK(reader.f64().value() == 2.5);
  CHECK(reader.text().value() == "transposeTiled");
  CHECK(reader.bytes().value() == std::vector<uint8_t>{1, 2, 3});
  auto past_the_end = reader.u32();
  REQUIRE_FALSE(past_the_end.has_value());
  CHECK(past_the_end.error() == "truncated message: expected a 32-bit integer");

  auto nothing = child::read_frame(fds[0], 50);  // nobody writes: the wait times out
  REQUIRE_FALSE(nothing.has_value());
  CHECK(nothing.error() == "timeout");
  ::close(fds[1]);
  auto closed = child::read_frame(fds[0], 1000);
  REQUIRE_FALSE(closed.has_value());
  CHECK(closed.error() == "closed");
  ::close(fds[0]);
}

TEST_CASE("a worker that never answers is killed at its deadline, and a new one starts for the next call") {
  child::WorkerProcess worker("GPU worker", {"/bin/sh", "-c", "sleep 30", "sh"});
  const auto start = std::chrono::steady_clock::now();
  auto reply = worker.call("ping", 300);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_FALSE(reply.has_value());
  CHECK(reply.error() == "timeout");
  CHECK(seconds < 5);
  CHECK_FALSE(worker.running());
  CHECK(worker.generation() == 1);
  CHECK_FALSE(worker.call("ping", 100).has_value());
  CHECK(worker.generation() == 2);
}

TEST_CASE("a worker that dies is reported with how it ended") {
  child::WorkerProcess exits("GPU worker", {"/bin/sh", "-c", "exit 3", "sh"});
  auto reply = exits.call("ping", 5000);
  REQUIRE_FALSE(reply.has_value());
  CHECK(reply.error() == "the GPU worker exited with status 3");

  child::WorkerProcess killed("GPU worker", {"/bin/sh", "-c", "kill -SEGV $$", "sh"});
  auto crashed = killed.call("ping", 5000);
  REQUIRE_FALSE(crashed.has_value());
  CHECK(test::contains(crashed.error(), "was killed by signal 11"));
}

TEST_CASE("the worker answers a request it cannot serve with an error and goes on serving") {
  int requests[2], replies[2];
  REQUIRE(::pipe(requests) == 0);
  REQUIRE(::pipe(replies) == 0);
  std::thread worker([&] { gpu::run_worker(requests[0], replies[1]); });
  for (int round = 0; round < 2; ++round) {
    child::MessageWriter request;
    request.u32(99);  // no such request (and, without a GPU, no driver either)
    REQUIRE(child::write_frame(requests[1], request.data()).has_value());
    auto frame = child::read_frame(replies[0], 30000);
    REQUIRE(frame.has_value());
    child::MessageReader reply(*frame);
    CHECK(reply.u32().value() == static_cast<uint32_t>(gpu::Reply::Error));
    CHECK_FALSE(reply.text().value().empty());
  }
  ::close(requests[1]);  // the worker's read ends: it returns
  worker.join();
  ::close(requests[0]);
  ::close(replies[0]);
  ::close(replies[1]);
}

}  // namespace
}  // namespace tilecamp

namespace tilecamp {
namespace {

// The real worker, started the way the GPU backend starts it: it must answer (an error naming
// the missing driver here without a GPU, the GPU's description on one), not die at start.
TEST_CASE("tilecamp __gpu-worker answers a request on the descriptors it is given") {
  child::WorkerProcess worker("GPU worker", {TILECAMP_BINARY, "__gpu-worker"});
  child::MessageWriter request;
  request.u32(static_cast<uint32_t>(gpu::Request::Info));
  auto reply = worker.call(request.data(), 60000);
  REQUIRE_MESSAGE(reply.has_value(), (reply ? "" : reply.error()));
  const uint32_t status = reply->u32().value();
  const std::string first = reply->text().value();
  INFO(first);
  if (status == static_cast<uint32_t>(gpu::Reply::Error)) {
    CHECK(test::contains(first, "CUDA driver"));
  } else {
    CHECK(status == static_cast<uint32_t>(gpu::Reply::Ok));
    CHECK_FALSE(first.empty());  // the GPU's name
  }
}

}  // namespace
}  // namespace tilecamp
