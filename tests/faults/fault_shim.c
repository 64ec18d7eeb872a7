// LD_PRELOAD fault-injection shim for the hfilekit writing tools (tests/faults/README.md).
//
// Intercepts libc's file calls and, driven by environment variables:
//   HFK_COUNTS=FILE        at exit (or just before an injected kill) write "OP N PREFIXN" per
//                          operation: calls made, and calls on paths under HFK_FAULT_PREFIX
//   HFK_TRACE=FILE         append one line per intercepted call: "OP INDEX PREFIXINDEX PATH"
//                          (INDEX counts every call of OP, PREFIXINDEX only those under
//                          HFK_FAULT_PREFIX, 0 if not under it) and write "count OP N" lines at exit
//   HFK_FAULT_OP=OP        the operation to fault (names below)
//   HFK_FAULT_NTH=N        ... at its Nth call (1-based; counted among calls under the prefix)
//   HFK_FAULT_ACTION=A     EIO | ENOSPC | EROFS | EDQUOT | <errno number>: fail the call
//                          kill-before | kill-after: send HFK_FAULT_SIGNAL (default 9) to the
//                          process before / after performing the call
//                          short: transfer only half the bytes (read/write calls), as a
//                          signal or a nearly full disk may; the tool must carry on
//   HFK_FAULT_STICKY=1     keep failing every later call of OP (under the prefix), as a full
//                          disk does
//   HFK_FAULT_PREFIX=DIR   only calls on paths under DIR count (fd calls: the path the fd was
//                          opened with; rename/link: either path)
//   HFK_FAULT_LOG=FILE     append "injected ACTION into OP #N PATH" when the fault fires
//                          ("stderr": to the process's standard error)
//
// Operation names: open_w (open/openat/creat for writing or creating), open_r (other opens),
// write (write), writev (writev/pwritev), pwrite (pwrite/pwrite64), read (read), readv,
// pread (pread/pread64), fsync (fsync/fdatasync), close (of an fd opened for writing; other
// closes count under no prefix), rename (rename/renameat/renameat2),
// unlink (unlink/unlinkat/remove), rmdir, link (link/linkat/symlink), mkdir (mkdir/mkdirat),
// ftruncate (ftruncate/ftruncate64), fallocate (fallocate/posix_fallocate).
#define _GNU_SOURCE
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum Op {
  OP_OPEN_W, OP_OPEN_R, OP_WRITE, OP_WRITEV, OP_PWRITE, OP_READ, OP_READV, OP_PREAD, OP_FSYNC,
  OP_CLOSE, OP_RENAME, OP_UNLINK, OP_RMDIR, OP_LINK, OP_MKDIR, OP_FTRUNCATE, OP_FALLOCATE, OP_N
};
static const char* const kOpNames[OP_N] = {
    "open_w", "open_r", "write", "writev", "pwrite", "read",  "readv",     "pread",    "fsync",
    "close",  "rename", "unlink", "rmdir", "link",  "mkdir", "ftruncate", "fallocate"};

#define MAX_FDS 65536
static char* g_fd_path[MAX_FDS];
static unsigned char g_fd_writable[MAX_FDS];  // opened for writing (its close is a fault point)
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long g_count[OP_N], g_prefix_count[OP_N];
static int g_trace_fd = -1, g_log_fd = -1;
static int g_fault_op = -1, g_fault_errno = 0, g_fault_kill = 0 /*1 before, 2 after*/;
static int g_fault_signal = SIGKILL, g_sticky = 0, g_fired = 0, g_fault_short = 0;
static unsigned long g_fault_nth = 0;
static char g_prefix[PATH_MAX];
static size_t g_prefix_len = 0;
static __thread int t_inside = 0;  // our own bookkeeping calls are not intercepted
static int g_ready = 0;

// --- the real functions ---------------------------------------------------------------------
#define REAL(name) real_##name
#define DECLARE_REAL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__)
DECLARE_REAL(int, open, const char*, int, ...);
DECLARE_REAL(int, open64, const char*, int, ...);
DECLARE_REAL(int, openat, int, const char*, int, ...);
DECLARE_REAL(int, openat64, int, const char*, int, ...);
DECLARE_REAL(int, creat, const char*, mode_t);
DECLARE_REAL(int, creat64, const char*, mode_t);
DECLARE_REAL(ssize_t, write, int, const void*, size_t);
DECLARE_REAL(ssize_t, writev, int, const struct iovec*, int);
DECLARE_REAL(ssize_t, pwritev, int, const struct iovec*, int, off_t);
DECLARE_REAL(ssize_t, pwrite, int, const void*, size_t, off_t);
DECLARE_REAL(ssize_t, pwrite64, int, const void*, size_t, off64_t);
DECLARE_REAL(ssize_t, read, int, void*, size_t);
DECLARE_REAL(ssize_t, readv, int, const struct iovec*, int);
DECLARE_REAL(ssize_t, pread, int, void*, size_t, off_t);
DECLARE_REAL(ssize_t, pread64, int, void*, size_t, off64_t);
DECLARE_REAL(int, fsync, int);
DECLARE_REAL(int, fdatasync, int);
DECLARE_REAL(int, close, int);
DECLARE_REAL(int, rename, const char*, const char*);
DECLARE_REAL(int, renameat, int, const char*, int, const char*);
DECLARE_REAL(int, renameat2, int, const char*, int, const char*, unsigned);
DECLARE_REAL(int, unlink, const char*);
DECLARE_REAL(int, unlinkat, int, const char*, int);
DECLARE_REAL(int, remove, const char*);
DECLARE_REAL(int, rmdir, const char*);
DECLARE_REAL(int, link, const char*, const char*);
DECLARE_REAL(int, linkat, int, const char*, int, const char*, int);
DECLARE_REAL(int, symlink, const char*, const char*);
DECLARE_REAL(int, mkdir, const char*, mode_t);
DECLARE_REAL(int, mkdirat, int, const char*, mode_t);
DECLARE_REAL(int, ftruncate, int, off_t);
DECLARE_REAL(int, ftruncate64, int, off64_t);
DECLARE_REAL(int, fallocate, int, int, off_t, off_t);
DECLARE_REAL(int, posix_fallocate, int, off_t, off_t);
DECLARE_REAL(FILE*, fopen, const char*, const char*);
DECLARE_REAL(FILE*, fopen64, const char*, const char*);
DECLARE_REAL(int, fclose, FILE*);

#define RESOLVE(name) \
  if (!real_##name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name)

static void resolve_all(void) {
  RESOLVE(open); RESOLVE(open64); RESOLVE(openat); RESOLVE(openat64); RESOLVE(creat);
  RESOLVE(creat64); RESOLVE(write); RESOLVE(writev); RESOLVE(pwritev); RESOLVE(pwrite);
  RESOLVE(pwrite64); RESOLVE(read); RESOLVE(readv); RESOLVE(pread); RESOLVE(pread64);
  RESOLVE(fsync); RESOLVE(fdatasync); RESOLVE(close); RESOLVE(rename); RESOLVE(renameat);
  RESOLVE(renameat2); RESOLVE(unlink); RESOLVE(unlinkat); RESOLVE(remove); RESOLVE(rmdir);
  RESOLVE(link); RESOLVE(linkat); RESOLVE(symlink); RESOLVE(mkdir); RESOLVE(mkdirat);
  RESOLVE(ftruncate); RESOLVE(ftruncate64); RESOLVE(fallocate); RESOLVE(posix_fallocate);
  RESOLVE(fopen); RESOLVE(fopen64); RESOLVE(fclose);
}

// --- setup and exit -------------------------------------------------------------------------
static int parse_errno(const char* s) {
  static const struct { const char* name; int value; } kNames[] = {
      {"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EROFS", EROFS}, {"EDQUOT", EDQUOT},
      {"EACCES", EACCES}, {"EPERM", EPERM}, {"EINTR", EINTR}, {"ENOMEM", ENOMEM}};
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (strcmp(s, kNames[i].name) == 0) return kNames[i].value;
  return atoi(s);
}

static void write_all(int fd, const char* s, size_t n) {
  while (n > 0) {
    ssize_t w = real_write(fd, s, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    s += w;
    n -= (size_t)w;
  }
}

static void dump_counts(void) {
  const char* counts = getenv("HFK_COUNTS");
  if (g_trace_fd < 0 && !(counts && *counts)) return;
  t_inside++;
  int cfd = counts && *counts ? real_open(counts, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                              : -1;
  char line[128];
  pthread_mutex_lock(&g_mu);
  for (int i = 0; i < OP_N; ++i) {
    int n = snprintf(line, sizeof line, "count %s %lu %lu\n", kOpNames[i], g_count[i],
                     g_prefix_count[i]);
    if (g_trace_fd >= 0) write_all(g_trace_fd, line, (size_t)n);
    if (cfd >= 0) write_all(cfd, line + 6, (size_t)n - 6);
  }
  pthread_mutex_unlock(&g_mu);
  if (cfd >= 0) real_close(cfd);
  t_inside--;
}

__attribute__((constructor)) static void shim_init(void) {
  t_inside++;
  resolve_all();
  const char* e;
  if ((e = getenv("HFK_TRACE")) && *e)
    g_trace_fd = real_open(e, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if ((e = getenv("HFK_FAULT_LOG")) && *e)
    g_log_fd = strcmp(e, "stderr") == 0 ? fcntl(2, F_DUPFD_CLOEXEC, 3)
                                        : real_open(e, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if ((e = getenv("HFK_FAULT_PREFIX")) && *e) {
    snprintf(g_prefix, sizeof g_prefix, "%s", e);
    g_prefix_len = strlen(g_prefix);
    while (g_prefix_len > 1 && g_prefix[g_prefix_len - 1] == '/') g_prefix[--g_prefix_len] = 0;
  }
  if ((e = getenv("HFK_FAULT_OP")) && *e) {
    for (int i = 0; i < OP_N; ++i)
      if (strcmp(e, kOpNames[i]) == 0) g_fault_op = i;
    if (g_fault_op < 0) {
      fprintf(stderr, "fault_shim: unknown HFK_FAULT_OP %s\n", e);
      _exit(97);
    }
    const char* nth = getenv("HFK_FAULT_NTH");
    g_fault_nth = nth ? strtoul(nth, NULL, 10) : 1;
    const char* a = getenv("HFK_FAULT_ACTION");
    if (!a || !*a) a = "EIO";
    if (strcmp(a, "kill-before") == 0) g_fault_kill = 1;
    else if (strcmp(a, "kill-after") == 0) g_fault_kill = 2;
    else if (strcmp(a, "short") == 0) g_fault_short = 1;
    else g_fault_errno = parse_errno(a);
    if (!g_fault_kill && !g_fault_short && g_fault_errno <= 0) {
      fprintf(stderr, "fault_shim: bad HFK_FAULT_ACTION %s\n", a);
      _exit(97);
    }
    if ((e = getenv("HFK_FAULT_SIGNAL")) && *e) g_fault_signal = atoi(e);
    g_sticky = (e = getenv("HFK_FAULT_STICKY")) && *e == '1';
  }
  atexit(dump_counts);
  g_ready = 1;
  t_inside--;
}

// --- paths ----------------------------------------------------------------------------------
static void abs_path(int dirfd, const char* p, char* out, size_t cap) {
  if (!p) {
    snprintf(out, cap, "?");
    return;
  }
  if (p[0] == '/') {
    snprintf(out, cap, "%s", p);
    return;
  }
  const char* base = NULL;
  char cwd[PATH_MAX];
  if (dirfd != AT_FDCWD && dirfd >= 0 && dirfd < MAX_FDS) base = g_fd_path[dirfd];
  if (!base) base = getcwd(cwd, sizeof cwd) ? cwd : ".";
  snprintf(out, cap, "%s/%s", base, p);
}

static int under_prefix(const char* path) {
  if (g_prefix_len == 0) return 1;
  if (!path) return 0;
  return strncmp(path, g_prefix, g_prefix_len) == 0 &&
         (path[g_prefix_len] == 0 || path[g_prefix_len] == '/' || g_prefix[g_prefix_len - 1] == '/');
}

static const char* fd_path(int fd) {
  if (fd >= 0 && fd < MAX_FDS && g_fd_path[fd]) return g_fd_path[fd];
  return NULL;
}

static void remember_fd(int fd, const char* path, int writable) {
  if (fd < 0 || fd >= MAX_FDS) return;
  pthread_mutex_lock(&g_mu);
  free(g_fd_path[fd]);
  g_fd_path[fd] = strdup(path);
  g_fd_writable[fd] = (unsigned char)writable;
  pthread_mutex_unlock(&g_mu);
}

// The path a close of `fd` counts under: only an fd opened for writing has something to lose
// at its close, and the tools read on worker threads, which would make the numbering of
// read-only closes differ from run to run.
static const char* close_path(int fd) {
  if (fd < 0 || fd >= MAX_FDS || !g_fd_writable[fd]) return NULL;
  return fd_path(fd);
}

static void forget_fd(int fd) {
  if (fd < 0 || fd >= MAX_FDS) return;
  pthread_mutex_lock(&g_mu);
  free(g_fd_path[fd]);
  g_fd_path[fd] = NULL;
  pthread_mutex_unlock(&g_mu);
}

// --- the decision ---------------------------------------------------------------------------
// 0: perform normally; <0: fail with -ret as errno; 2: perform, then signal.
static int decide(int op, const char* path, const char* path2) {
  if (t_inside || !g_ready) return 0;
  t_inside++;
  int matched = under_prefix(path) || (path2 && under_prefix(path2));
  pthread_mutex_lock(&g_mu);
  unsigned long n = ++g_count[op];
  unsigned long pn = matched ? ++g_prefix_count[op] : 0;
  pthread_mutex_unlock(&g_mu);
  if (g_trace_fd >= 0) {
    char line[2 * PATH_MAX + 96];
    int len = snprintf(line, sizeof line, "%s %lu %lu %s%s%s\n", kOpNames[op], n, pn,
                       path ? path : "?", path2 ? " -> " : "", path2 ? path2 : "");
    if (len > (int)sizeof line - 1) len = (int)sizeof line - 1;
    write_all(g_trace_fd, line, (size_t)len);
  }
  int result = 0;
  if (op == g_fault_op && matched &&
      (pn == g_fault_nth || (g_sticky && pn > g_fault_nth && g_fired))) {
    if (g_log_fd >= 0 && !g_fired) {
      char line[2 * PATH_MAX + 96];
      const char* action = g_fault_kill == 1   ? "kill-before"
                           : g_fault_kill == 2 ? "kill-after"
                           : g_fault_short     ? "short"
                                               : strerrorname_np(g_fault_errno);
      int len = snprintf(line, sizeof line, "injected %s into %s #%lu %s%s%s\n",
                         action ? action : "?", kOpNames[op], pn, path ? path : "?",
                         path2 ? " -> " : "", path2 ? path2 : "");
      if (len > (int)sizeof line - 1) len = (int)sizeof line - 1;
      write_all(g_log_fd, line, (size_t)len);
    }
    g_fired = 1;
    if (g_fault_kill == 1) {
      dump_counts();
      kill(getpid(), g_fault_signal);
      // SIGTERM with a handler: carry on as if the call had not been interrupted.
    } else if (g_fault_kill == 2) {
      result = 2;
    } else if (g_fault_short) {
      result = 3;  // transfer only half the bytes (reads and writes; other calls: no effect)
    } else {
      result = -g_fault_errno;
    }
  }
  t_inside--;
  return result;
}

static void after(int verdict) {
  if (verdict == 2) {
    t_inside++;
    dump_counts();
    kill(getpid(), g_fault_signal);
    t_inside--;
  }
}

#define FAIL_IF(verdict, failval) \
  do {                            \
    if ((verdict) < 0) {          \
      errno = -(verdict);         \
      return failval;             \
    }                             \
  } while (0)

// --- opens ----------------------------------------------------------------------------------
static int is_write_open(int flags) {
  return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0;
}

static int do_open(int dirfd, const char* path, int flags, mode_t mode, int at, int is64) {
  char abs[PATH_MAX];
  if (!real_open) resolve_all();
  abs_path(at ? dirfd : AT_FDCWD, path, abs, sizeof abs);
  int v = decide(is_write_open(flags) ? OP_OPEN_W : OP_OPEN_R, abs, NULL);
  FAIL_IF(v, -1);
  int fd;
  if (at) fd = is64 ? real_openat64(dirfd, path, flags, mode) : real_openat(dirfd, path, flags, mode);
  else fd = is64 ? real_open64(path, flags, mode) : real_open(path, flags, mode);
  if (fd >= 0 && !t_inside) remember_fd(fd, abs, is_write_open(flags));
  int saved = errno;
  after(v);
  errno = saved;
  return fd;
}

#define MODE_ARG(flags, mode)                                  \
  mode_t mode = 0;                                             \
  if ((flags) & (O_CREAT | __O_TMPFILE)) {                     \
    va_list ap;                                                \
    va_start(ap, flags);                                       \
    mode = (mode_t)va_arg(ap, int);                            \
    va_end(ap);                                                \
  }

int open(const char* path, int flags, ...) {
  MODE_ARG(flags, mode);
  return do_open(AT_FDCWD, path, flags, mode, 0, 0);
}
int open64(const char* path, int flags, ...) {
  MODE_ARG(flags, mode);
  return do_open(AT_FDCWD, path, flags, mode, 0, 1);
}
int openat(int dirfd, const char* path, int flags, ...) {
  MODE_ARG(flags, mode);
  return do_open(dirfd, path, flags, mode, 1, 0);
}
int openat64(int dirfd, const char* path, int flags, ...) {
  MODE_ARG(flags, mode);
  return do_open(dirfd, path, flags, mode, 1, 1);
}
int __open_2(const char* path, int flags) { return do_open(AT_FDCWD, path, flags, 0, 0, 0); }
int __open64_2(const char* path, int flags) { return do_open(AT_FDCWD, path, flags, 0, 0, 1); }
int __openat_2(int dirfd, const char* path, int flags) {
  return do_open(dirfd, path, flags, 0, 1, 0);
}
int __openat64_2(int dirfd, const char* path, int flags) {
  return do_open(dirfd, path, flags, 0, 1, 1);
}
int creat(const char* path, mode_t mode) {
  return do_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode, 0, 0);
}
int creat64(const char* path, mode_t mode) {
  return do_open(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode, 0, 1);
}

// stdio (std::ifstream / std::ofstream open through fopen; glibc then calls its internal open,
// which no shim sees, but the stream's reads and writes go through read()/write()).
static FILE* do_fopen(const char* path, const char* mode, int is64) {
  char abs[PATH_MAX];
  if (!real_fopen) resolve_all();
  abs_path(AT_FDCWD, path, abs, sizeof abs);
  int w = mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'));
  int v = decide(w ? OP_OPEN_W : OP_OPEN_R, abs, NULL);
  FAIL_IF(v, NULL);
  FILE* f = is64 ? real_fopen64(path, mode) : real_fopen(path, mode);
  if (f && !t_inside) remember_fd(fileno(f), abs, w);
  int saved = errno;
  after(v);
  errno = saved;
  return f;
}
FILE* fopen(const char* path, const char* mode) { return do_fopen(path, mode, 0); }
FILE* fopen64(const char* path, const char* mode) { return do_fopen(path, mode, 1); }
int fclose(FILE* f) {
  if (!real_fclose) resolve_all();
  int fd = f ? fileno(f) : -1;
  int v = decide(OP_CLOSE, close_path(fd), NULL);
  if (!t_inside) forget_fd(fd);
  int r = real_fclose(f);
  int e = errno;
  after(v);
  if (v < 0) {
    errno = -v;
    return EOF;
  }
  errno = e;
  return r;
}

// --- fd calls -------------------------------------------------------------------------------
#define FD_CALL(op, fd, failval, call) \
  do {                                 \
    if (!real_write) resolve_all();    \
    int v_ = decide(op, fd_path(fd), NULL); \
    FAIL_IF(v_, failval);              \
    __typeof__(call) r_ = call;        \
    int e_ = errno;                    \
    after(v_);                         \
    errno = e_;                        \
    return r_;                         \
  } while (0)

#define HALF(v, n) (((v) == 3 && (n) > 1) ? (n) / 2 : (n))

// The first iovecs of `iov` holding half its bytes (the last one cut), for a short transfer.
static int half_iov(const struct iovec* iov, int cnt, struct iovec* out, int cap) {
  size_t total = 0;
  for (int i = 0; i < cnt; ++i) total += iov[i].iov_len;
  size_t want = total > 1 ? total / 2 : total, got = 0;
  int n = 0;
  for (int i = 0; i < cnt && n < cap && got < want; ++i) {
    out[n] = iov[i];
    if (got + out[n].iov_len > want) out[n].iov_len = want - got;
    got += out[n].iov_len;
    ++n;
  }
  return n;
}

ssize_t write(int fd, const void* buf, size_t n) {
  FD_CALL(OP_WRITE, fd, -1, real_write(fd, buf, HALF(v_, n)));
}
ssize_t writev(int fd, const struct iovec* iov, int cnt) {
  struct iovec h[64];
  FD_CALL(OP_WRITEV, fd, -1,
          v_ == 3 && cnt <= 64 ? real_writev(fd, h, half_iov(iov, cnt, h, 64))
                               : real_writev(fd, iov, cnt));
}
ssize_t pwritev(int fd, const struct iovec* iov, int cnt, off_t off) {
  struct iovec h[64];
  FD_CALL(OP_WRITEV, fd, -1,
          v_ == 3 && cnt <= 64 ? real_pwritev(fd, h, half_iov(iov, cnt, h, 64), off)
                               : real_pwritev(fd, iov, cnt, off));
}
ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  FD_CALL(OP_PWRITE, fd, -1, real_pwrite(fd, buf, HALF(v_, n), off));
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  FD_CALL(OP_PWRITE, fd, -1, real_pwrite64(fd, buf, HALF(v_, n), off));
}
ssize_t read(int fd, void* buf, size_t n) {
  FD_CALL(OP_READ, fd, -1, real_read(fd, buf, HALF(v_, n)));
}
ssize_t readv(int fd, const struct iovec* iov, int cnt) {
  struct iovec h[64];
  FD_CALL(OP_READV, fd, -1,
          v_ == 3 && cnt <= 64 ? real_readv(fd, h, half_iov(iov, cnt, h, 64))
                               : real_readv(fd, iov, cnt));
}
ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  FD_CALL(OP_PREAD, fd, -1, real_pread(fd, buf, HALF(v_, n), off));
}
ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  FD_CALL(OP_PREAD, fd, -1, real_pread64(fd, buf, HALF(v_, n), off));
}
int fsync(int fd) { FD_CALL(OP_FSYNC, fd, -1, real_fsync(fd)); }
int fdatasync(int fd) { FD_CALL(OP_FSYNC, fd, -1, real_fdatasync(fd)); }
int ftruncate(int fd, off_t len) { FD_CALL(OP_FTRUNCATE, fd, -1, real_ftruncate(fd, len)); }
int ftruncate64(int fd, off64_t len) {
  FD_CALL(OP_FTRUNCATE, fd, -1, real_ftruncate64(fd, len));
}
int fallocate(int fd, int mode, off_t off, off_t len) {
  FD_CALL(OP_FALLOCATE, fd, -1, real_fallocate(fd, mode, off, len));
}
int posix_fallocate(int fd, off_t off, off_t len) {
  if (!real_posix_fallocate) resolve_all();
  int v = decide(OP_FALLOCATE, fd_path(fd), NULL);
  if (v < 0) return -v;  // returns the error number, errno untouched
  int r = real_posix_fallocate(fd, off, len);
  after(v);
  return r;
}

int close(int fd) {
  if (!real_close) resolve_all();
  int v = decide(OP_CLOSE, close_path(fd), NULL);
  if (!t_inside) forget_fd(fd);
  int r = real_close(fd);  // Linux releases the fd even when close reports an error
  int e = errno;
  after(v);
  if (v < 0) {
    errno = -v;
    return -1;
  }
  errno = e;
  return r;
}

// --- path calls -----------------------------------------------------------------------------
__attribute__((noinline)) static int path_decide(int op, int d1, const char* p1, int d2,
                                                 const char* p2) {
  char a[PATH_MAX], b[PATH_MAX];
  abs_path(d1, p1, a, sizeof a);
  if (p2) abs_path(d2, p2, b, sizeof b);
  return decide(op, a, p2 ? b : NULL);
}

#define PATH_CALL(op, dirfd, p, dirfd2, p2, failval, call) \
  do {                                                     \
    if (!real_rename) resolve_all();                       \
    int v_ = path_decide(op, dirfd, p, dirfd2, p2);        \
    FAIL_IF(v_, failval);                                  \
    int r_ = call;                                         \
    int e_ = errno;                                        \
    after(v_);                                             \
    errno = e_;                                            \
    return r_;                                             \
  } while (0)

static const char* const kNoPath = NULL;

int rename(const char* a, const char* b) {
  PATH_CALL(OP_RENAME, AT_FDCWD, a, AT_FDCWD, b, -1, real_rename(a, b));
}
int renameat(int da, const char* a, int db, const char* b) {
  PATH_CALL(OP_RENAME, da, a, db, b, -1, real_renameat(da, a, db, b));
}
int renameat2(int da, const char* a, int db, const char* b, unsigned flags) {
  PATH_CALL(OP_RENAME, da, a, db, b, -1, real_renameat2(da, a, db, b, flags));
}
int unlink(const char* p) { PATH_CALL(OP_UNLINK, AT_FDCWD, p, 0, kNoPath, -1, real_unlink(p)); }
int unlinkat(int d, const char* p, int flags) {
  PATH_CALL((flags & AT_REMOVEDIR) ? OP_RMDIR : OP_UNLINK, d, p, 0, kNoPath, -1,
            real_unlinkat(d, p, flags));
}
int remove(const char* p) { PATH_CALL(OP_UNLINK, AT_FDCWD, p, 0, kNoPath, -1, real_remove(p)); }
int rmdir(const char* p) { PATH_CALL(OP_RMDIR, AT_FDCWD, p, 0, kNoPath, -1, real_rmdir(p)); }
int link(const char* a, const char* b) {
  PATH_CALL(OP_LINK, AT_FDCWD, a, AT_FDCWD, b, -1, real_link(a, b));
}
int linkat(int da, const char* a, int db, const char* b, int flags) {
  PATH_CALL(OP_LINK, da, a, db, b, -1, real_linkat(da, a, db, b, flags));
}
int symlink(const char* a, const char* b) {
  PATH_CALL(OP_LINK, AT_FDCWD, a, AT_FDCWD, b, -1, real_symlink(a, b));
}
int mkdir(const char* p, mode_t m) { PATH_CALL(OP_MKDIR, AT_FDCWD, p, 0, kNoPath, -1, real_mkdir(p, m)); }
int mkdirat(int d, const char* p, mode_t m) {
  PATH_CALL(OP_MKDIR, d, p, 0, kNoPath, -1, real_mkdirat(d, p, m));
}
