// lamina-expr: runs one batch of Lottie expressions in Duktape, as a child
// process of the importer (LaminaLottie's ExpressionRunner), confined:
//
//   lamina-expr CPU_SECONDS MEMORY_BYTES MAX_INPUT_BYTES
//
// It reads one JavaScript program from standard input (the expression
// library and the document's expressions, made by the importer), then,
// before running any of it, limits itself (CPU time, address space, no new
// files or processes) and installs a seccomp filter that allows reading
// standard input, writing, memory and exiting only. The engine itself is
// left without a clock (`Date`, `performance`) or its `Duktape` object;
// the program writes its results through `__emit(string)` (one line each).
// Neither Duktape nor any JavaScript engine can stop a running script
// reliably from inside, so the importer kills this process when it runs
// past its wall-clock limit, and the kernel ends it past its CPU time.

#include <duktape.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { EXIT_USAGE = 64, EXIT_INPUT = 65, EXIT_SANDBOX = 71, EXIT_FATAL = 70, EXIT_SCRIPT = 1 };

static void write_all(const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t n = write(STDOUT_FILENO, bytes, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      _exit(EXIT_FATAL);
    }
    bytes += n;
    length -= (size_t)n;
  }
}

static void write_line(const char *prefix, const char *text) {
  write_all(prefix, strlen(prefix));
  // A message is one line: newlines inside become spaces.
  for (const char *p = text; *p; p++) write_all(*p == '\n' ? " " : p, 1);
  write_all("\n", 1);
}

// Duktape calls this on an error it cannot throw (out of memory while
// throwing, for one): say so and end.
static void fatal(void *udata, const char *message) {
  (void)udata;
  write_line("F ", message ? message : "fatal engine error");
  _exit(EXIT_FATAL);
}

// __emit(string): one line of the results.
static duk_ret_t emit(duk_context *ctx) {
  duk_size_t length = 0;
  const char *s = duk_safe_to_lstring(ctx, 0, &length);
  write_all(s, length);
  write_all("\n", 1);
  return 0;
}

static int limit(int resource, rlim_t soft, rlim_t hard) {
  struct rlimit r = {soft, hard};
  return setrlimit(resource, &r);
}

// Only read, write, memory, signal return and exit: anything else (open,
// socket, fork, execve, clock_gettime outside the vDSO, …) kills the process.
static int install_seccomp(void) {
  struct sock_filter filter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#define ALLOW(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
    ALLOW(read), ALLOW(write), ALLOW(brk), ALLOW(mmap), ALLOW(munmap), ALLOW(mremap),
    ALLOW(madvise), ALLOW(mprotect), ALLOW(rt_sigreturn), ALLOW(exit), ALLOW(exit_group),
    ALLOW(futex),
#undef ALLOW
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  struct sock_fprog program = {(unsigned short)(sizeof(filter) / sizeof(filter[0])), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: lamina-expr CPU_SECONDS MEMORY_BYTES MAX_INPUT_BYTES\n");
    return EXIT_USAGE;
  }
  long cpu = atol(argv[1]);
  long long memory = atoll(argv[2]);
  long long max_input = atoll(argv[3]);
  if (cpu < 1 || memory < (16LL << 20) || max_input < 1) {
    fprintf(stderr, "lamina-expr: limits out of range\n");
    return EXIT_USAGE;
  }

  // Nothing but standard input, output and error: descriptors the parent
  // left open without close-on-exec (a library's, a GPU's) are closed.
  closefrom(3);

  // The whole program first: nothing of it runs before the limits hold.
  size_t capacity = 1 << 16, length = 0;
  char *input = malloc(capacity + 1);
  if (!input) return EXIT_INPUT;
  for (;;) {
    if (length == capacity) {
      if ((long long)capacity >= max_input) {
        write_line("F ", "the expression program is over its size limit");
        return EXIT_INPUT;
      }
      capacity *= 2;
      char *grown = realloc(input, capacity + 1);
      if (!grown) return EXIT_INPUT;
      input = grown;
    }
    ssize_t n = read(STDIN_FILENO, input + length, capacity - length);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return EXIT_INPUT;
    if (n == 0) break;
    length += (size_t)n;
  }
  input[length] = 0;
  close(STDIN_FILENO);
  if (chdir("/") != 0) return EXIT_SANDBOX;

  // Past the soft CPU limit SIGXCPU ends the process; the hard limit a
  // second later is SIGKILL's.
  if (limit(RLIMIT_CPU, (rlim_t)cpu, (rlim_t)cpu + 1) != 0 ||
      limit(RLIMIT_AS, (rlim_t)memory, (rlim_t)memory) != 0 ||
      limit(RLIMIT_NOFILE, 3, 3) != 0 ||
      limit(RLIMIT_NPROC, 0, 0) != 0 || limit(RLIMIT_CORE, 0, 0) != 0 ||
      install_seccomp() != 0) {
    write_line("F ", "the sandbox could not be set up");
    return EXIT_SANDBOX;
  }

  duk_context *ctx = duk_create_heap(NULL, NULL, NULL, NULL, fatal);
  if (!ctx) {
    write_line("F ", "the engine could not start");
    return EXIT_FATAL;
  }
  // No clock and no engine internals for the program.
  duk_push_global_object(ctx);
  static const char *removed[] = {"Date", "performance", "Duktape", "CBOR", "TextEncoder", "TextDecoder"};
  for (size_t i = 0; i < sizeof(removed) / sizeof(removed[0]); i++) duk_del_prop_string(ctx, -1, removed[i]);
  duk_push_c_function(ctx, emit, 1);
  duk_put_prop_string(ctx, -2, "__emit");
  duk_pop(ctx);

  int status = EXIT_SUCCESS;
  if (duk_peval_lstring(ctx, input, length) != 0) {
    write_line("E ", duk_safe_to_string(ctx, -1));
    status = EXIT_SCRIPT;
  }
  // No heap teardown: the process ends here.
  _exit(status);
}
