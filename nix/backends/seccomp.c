/*
 * Prints the seccomp filter bin/run gives bwrap (--seccomp). Two things no namespace stops:
 *
 * No set-user-ID or set-group-ID bit on any file a jail makes. The jail's user is the daemon's outside it (root, in a
 * container or CI), so such a file left in a read-write project is a program anybody on the host could run as that
 * user; nosuid on the jail's own mounts does not reach the host's. So chmod, fchmod, fchmodat(2), creating a file
 * (open, openat, creat) and mknod(at) with either bit fail with EPERM. A filter cannot tell a directory from a file,
 * so a directory's set-group-ID bit is refused too (SECURITY.md, boundary 4). openat2 (its mode in a struct the filter
 * cannot read) and io_uring (whose operations no filter sees) are ENOSYS: libc's open does not use the one, and
 * programs fall back from the other.
 *
 * No kernel keyrings (add_key, request_key, keyctl: ENOSYS, as where the kernel has none). They are not namespaced by
 * a user namespace: the jail's user is the daemon's, so a jail could link that user's keyring (/proc/keys names it)
 * into a session keyring of its own, read the keys kept there (Kerberos caches, tokens) and plant some.
 *
 * Another architecture's system calls (i386 or x32 on x86_64), numbered otherwise, are ENOSYS too.
 *
 * Built and run at build time (./seccomp.nix); its output is cBPF, as bwrap reads it.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "no seccomp filter written for this architecture"
#endif

/* Numbered alike on every architecture since the tables were unified; older headers may lack them. */
#define NR_IO_URING_SETUP 425
#define NR_OPENAT2 437
#define NR_FCHMODAT2 452

#define SET_ID_BITS 06000
/* Only a call that creates a file uses its mode. */
#define CREATING (O_CREAT | (O_TMPFILE & ~O_DIRECTORY))

/* A call whose mode is argument `mode`, and, where it may not create, whose flags are argument `flags` (else -1). */
struct rule {
  int nr, mode, flags;
};

static const struct rule rules[] = {
#ifdef SYS_chmod
    {SYS_chmod, 1, -1},
#endif
    {SYS_fchmod, 1, -1},
    {SYS_fchmodat, 2, -1},
    {NR_FCHMODAT2, 2, -1},
#ifdef SYS_open
    {SYS_open, 2, 1},
#endif
    {SYS_openat, 3, 2},
#ifdef SYS_creat
    {SYS_creat, 1, -1},
#endif
#ifdef SYS_mknod
    {SYS_mknod, 1, -1},
#endif
    {SYS_mknodat, 2, -1},
};

/* Calls that fail with ENOSYS whatever their arguments. */
static const int refused[] = {NR_IO_URING_SETUP, NR_OPENAT2, SYS_add_key, SYS_request_key, SYS_keyctl};

static struct sock_filter program[128];
static unsigned short length;

static void emit(struct sock_filter instruction) {
  if (length == sizeof program / sizeof program[0]) {
    fputs("seccomp: filter too long\n", stderr);
    exit(1);
  }
  program[length++] = instruction;
}

/* The low 32 bits of a system call's argument (both architectures are little-endian). */
#define LOAD(field) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field)))
#define RETURN(value) emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, value))
#define JUMP(test, k, yes, no) emit((struct sock_filter)BPF_JUMP(BPF_JMP | test | BPF_K, k, yes, no))
#define ALLOW SECCOMP_RET_ALLOW
#define FAIL(errno_value) (SECCOMP_RET_ERRNO | (errno_value))

static void load_argument(int index) {
  emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args) + 8 * index));
}

int main(void) {
  LOAD(arch);
  JUMP(BPF_JEQ, NATIVE_ARCH, 1, 0);
  RETURN(FAIL(ENOSYS));
  LOAD(nr);
#ifdef __x86_64__
  JUMP(BPF_JGE, 0x40000000, 0, 1); /* x32's numbers */
  RETURN(FAIL(ENOSYS));
#endif
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    JUMP(BPF_JEQ, refused[i], 0, 1);
    RETURN(FAIL(ENOSYS));
  }
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    const struct rule *rule = &rules[i];
    /* Not this call: on past its body (4 instructions, 7 with the flags' test). */
    JUMP(BPF_JEQ, rule->nr, 0, rule->flags < 0 ? 4 : 7);
    if (rule->flags >= 0) {
      load_argument(rule->flags);
      JUMP(BPF_JSET, CREATING, 1, 0);
      RETURN(ALLOW);
    }
    load_argument(rule->mode);
    JUMP(BPF_JSET, SET_ID_BITS, 0, 1);
    RETURN(FAIL(EPERM));
    RETURN(ALLOW);
  }
  RETURN(ALLOW);
  if (fwrite(program, sizeof program[0], length, stdout) != length || fflush(stdout) != 0) {
    perror("seccomp");
    return 1;
  }
  return 0;
}
