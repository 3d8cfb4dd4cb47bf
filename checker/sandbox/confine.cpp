#include "checker/sandbox/confine.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "checker/emu/emulator.h"

namespace tilecamp::sandbox {
namespace {

// Landlock's ABI grew after the distribution's headers: the rights and fields of later ABIs are
// spelled out here (values from the kernel's include/uapi/linux/landlock.h).
constexpr uint64_t k_fs_abi1 = (uint64_t{1} << 13) - 1;  // EXECUTE .. MAKE_SYM
constexpr uint64_t k_fs_refer = uint64_t{1} << 13;       // ABI 2
constexpr uint64_t k_fs_truncate = uint64_t{1} << 14;    // ABI 3
constexpr uint64_t k_fs_ioctl_dev = uint64_t{1} << 15;   // ABI 5
constexpr uint64_t k_net_bind_tcp = 1, k_net_connect_tcp = 2;       // ABI 4
constexpr uint64_t k_scope_abstract_unix = 1, k_scope_signal = 2;  // ABI 6

struct RulesetAttributes {
  uint64_t handled_access_fs = 0;
  uint64_t handled_access_net = 0;
  uint64_t scoped = 0;
};

uint64_t handled_fs_rights(int abi) {
  uint64_t rights = k_fs_abi1;
  if (abi >= 2) rights |= k_fs_refer;
  if (abi >= 3) rights |= k_fs_truncate;
  if (abi >= 5) rights |= k_fs_ioctl_dev;
  return rights;
}

int landlock_abi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

// One rule: `path` (a folder, or a file) readable. A path that does not exist is skipped.
Status allow_reading(int ruleset, const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return ok();
  landlock_path_beneath_attr rule{};
  rule.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | (directory ? LANDLOCK_ACCESS_FS_READ_DIR : 0);
  rule.parent_fd = fd;
  const long added = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (added != 0) return make_error(system_error("Landlock: allowing " + path));
  return ok();
}

Status apply_landlock(int abi, const Readable& readable) {
  RulesetAttributes attributes;
  attributes.handled_access_fs = handled_fs_rights(abi);
  size_t size = sizeof(uint64_t);
  if (abi >= 4) {
    attributes.handled_access_net = k_net_bind_tcp | k_net_connect_tcp;
    size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attributes.scoped = k_scope_abstract_unix | k_scope_signal;
    size = sizeof attributes;
  }
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attributes, size, 0));
  if (ruleset < 0) return make_error(system_error("Landlock: creating the ruleset"));
  Status status = ok();
  for (const std::string& directory : readable.directories) {
    if (status) status = allow_reading(ruleset, directory, true);
  }
  for (const std::string& file : readable.files) {
    if (status) status = allow_reading(ruleset, file, false);
  }
  if (status && ::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    status = make_error(system_error("Landlock: restricting this process"));
  }
  ::close(ruleset);
  return status;
}

// What compiling with NVRTC and emulating need, found by tracing both (strace -f) on the course.
constexpr int k_allowed[] = {
    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64), SCMP_SYS(close),
    SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(lseek), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx),
    SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2),
    SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(getdents64), SCMP_SYS(readlink), SCMP_SYS(readlinkat),
    SCMP_SYS(getcwd), SCMP_SYS(fcntl), SCMP_SYS(dup), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mprotect),
    SCMP_SYS(mremap), SCMP_SYS(madvise), SCMP_SYS(brk), SCMP_SYS(futex), SCMP_SYS(set_robust_list),
    SCMP_SYS(get_robust_list), SCMP_SYS(rseq), SCMP_SYS(set_tid_address), SCMP_SYS(clock_gettime),
    SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday),
    SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getppid), SCMP_SYS(getuid), SCMP_SYS(geteuid),
    SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask),
    SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack), SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity),
    SCMP_SYS(sched_get_priority_min), SCMP_SYS(sched_get_priority_max), SCMP_SYS(getrlimit),
    SCMP_SYS(prlimit64), SCMP_SYS(getrusage), SCMP_SYS(sysinfo), SCMP_SYS(uname), SCMP_SYS(getrandom),
    SCMP_SYS(membarrier), SCMP_SYS(exit), SCMP_SYS(exit_group),
};

// Calls that only an attack makes here: they end the process (SIGSYS) rather than fail.
constexpr int k_fatal[] = {
    SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(ptrace),
    SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(socket), SCMP_SYS(socketpair),
    SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen), SCMP_SYS(accept), SCMP_SYS(accept4),
    SCMP_SYS(sendto), SCMP_SYS(sendmsg), SCMP_SYS(recvfrom), SCMP_SYS(recvmsg), SCMP_SYS(mount),
    SCMP_SYS(umount2), SCMP_SYS(unshare), SCMP_SYS(setns), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
    SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(userfaultfd), SCMP_SYS(keyctl), SCMP_SYS(add_key),
    SCMP_SYS(request_key), SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(kexec_load),
    SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at), SCMP_SYS(io_uring_setup),
    SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register), SCMP_SYS(kill), SCMP_SYS(tkill),
    SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_getfd), SCMP_SYS(pidfd_send_signal),
};

Status apply_seccomp() {
  scmp_filter_ctx filter = ::seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (filter == nullptr) return make_error("seccomp: cannot create a filter");
  int failed = 0;
  for (int call : k_allowed) failed |= ::seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 0);
  for (int call : k_fatal) failed |= ::seccomp_rule_add(filter, SCMP_ACT_KILL_PROCESS, call, 0);
  // Threads (a later parallel emulator) but no new processes; glibc falls back from clone3,
  // whose flags a filter cannot read, to clone.
  failed |= ::seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
  failed |= ::seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // abort() signals this process itself, and nothing else.
  failed |= ::seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                               SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(::getpid())));
  if (failed == 0) failed = ::seccomp_load(filter);
  ::seccomp_release(filter);
  if (failed != 0) return make_error(std::string("seccomp: cannot install the filter: ") + std::strerror(-failed));
  return ok();
}

}  // namespace

std::string Mechanisms::missing() const {
  std::string missing;
  if (landlock_abi == 0) missing = "Landlock is not available (Linux 5.13 or newer, with landlock in its lsm= list)";
  if (!seccomp) missing += std::string(missing.empty() ? "" : "; ") + "seccomp filters are not available";
  return missing;
}

Mechanisms available_mechanisms() {
  Mechanisms mechanisms;
  mechanisms.landlock_abi = landlock_abi();
  // PR_GET_SECCOMP answers 0 (not filtered yet) or 2 (filtered) where seccomp exists, EINVAL where not.
  mechanisms.seccomp = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && ::seccomp_api_get() >= 1;
  return mechanisms;
}

Status apply_limits(const Limits& limits) {
  const rlim_t memory = static_cast<rlim_t>(limits.memory_bytes);
  // CPU time: the wall-clock deadline stops a check first; this ends a child whose parent is gone.
  // The emulator runs a launch's blocks on every core it may use: as many seconds for each.
  const rlim_t cpu = static_cast<rlim_t>(std::ceil(limits.seconds)) * emu::default_host_threads() + 2;
  const struct {
    int resource;
    rlim_t soft, hard;
    const char* name;
  } settings[] = {
      {RLIMIT_AS, memory, memory, "address space"},
      {RLIMIT_CPU, cpu, cpu + 1, "CPU time"},
      {RLIMIT_FSIZE, 0, 0, "file size"},
      {RLIMIT_CORE, 0, 0, "core dumps"},
      {RLIMIT_NOFILE, 256, 256, "open files"},
  };
  for (const auto& setting : settings) {
    // Never above a limit this process already has (a class grade's job sets its own CPU time).
    rlimit current{RLIM_INFINITY, RLIM_INFINITY};
    ::getrlimit(setting.resource, &current);
    const rlimit limit{std::min(setting.soft, current.rlim_max), std::min(setting.hard, current.rlim_max)};
    if (::setrlimit(setting.resource, &limit) != 0) return make_error(system_error(std::string("limiting the ") + setting.name));
  }
  return ok();
}

Expected<Mechanisms> confine_this_process(const Readable& readable) {
  const Mechanisms mechanisms = available_mechanisms();
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return make_error(system_error("PR_SET_NO_NEW_PRIVS"));
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return make_error(system_error("PR_SET_DUMPABLE"));
  if (mechanisms.landlock_abi > 0) TC_TRY(apply_landlock(mechanisms.landlock_abi, readable));
  if (mechanisms.seccomp) TC_TRY(apply_seccomp());
  return mechanisms;
}

}  // namespace tilecamp::sandbox
