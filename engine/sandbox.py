"""The operating-system wall around a process that runs a user's Prolog.

The guard (``kb/guard.pl``) is the first wall: it reads a user's file and
refuses what it cannot prove harmless. This module is the second: before
a process loads a user's file, it walls itself in, so that a hole in the
guard still cannot reach the machine. Inside the wall the process

- cannot start a program or create a process (threads are fine),
- cannot open a socket,
- cannot write a file anywhere but its private scratch folder,
- cannot read files other than its inputs, the Python and SWI-Prolog
  installations, the system's libraries, the engine's own code and the
  shipped ``kb/`` (its example assignments, which hold reference
  solutions, excepted).

Two mechanisms of Linux do it, both from the process itself and without
privilege (``no_new_privs`` is all they need, so the wall is the same for
root and for anyone): **seccomp** for system calls, through
``libseccomp`` (Debian's ``libseccomp2``), and **Landlock** for the file
system (through its three system calls; no library wraps them). A kernel
or a machine without one of them is named by :func:`support`, and the
process then runs behind the guard alone: the command says so once.

A process that tries to start a program or create a process is ended by
the kernel with ``SIGSYS`` (:data:`WALL_SIGNAL`: Prolog's own errors for a
failed ``fork`` would say "not enough memory"), and its parent says what
happened (:func:`ended_words`). A refused socket fails with an error number
of its own (:data:`SOCKET_ERRNO`) and a refused file with "Permission
denied", so that the error Prolog reports can be told apart:
:func:`refusal` turns it into words ("tried to open a network socket").

>>> from engine.sandbox import support
>>> support().complete                                   # doctest: +SKIP
True
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import resource
import signal
import site
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

#: the signal that ends a walled process which tried to start a program or
#: create a process (the kernel's, for seccomp's "kill process")
WALL_SIGNAL = signal.SIGSYS
#: the error number a refused socket gets
SOCKET_ERRNO = 3002

#: a test-only setting: load users' files without the Prolog guard but
#: behind the wall, to test the wall alone
UNGUARDED_VARIABLE = "ADVICE_TEST_UNGUARDED"

# -- Landlock (linux/landlock.h) ---------------------------------------------------

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
#: ABI 1's rights: the four above, then removing and making files of each kind
_ABI1_RIGHTS = (1 << 13) - 1
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1

#: the rights that only apply to files (a rule for a file may give only these)
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV


def _fs_rights(abi: int) -> int:
    """Every file-system right Landlock ABI ``abi`` knows."""
    rights = _ABI1_RIGHTS
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    if abi >= 5:
        rights |= _IOCTL_DEV
    return rights


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64),
                ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


# -- seccomp (seccomp.h of libseccomp) ------------------------------------------------

_SCMP_ACT_ALLOW = 0x7FFF0000
_SCMP_ACT_KILL_PROCESS = 0x80000000
_SCMP_FLTATR_CTL_TSYNC = 4
_SCMP_CMP_NE, _SCMP_CMP_MASKED_EQ = 1, 7
_CLONE_THREAD = 0x00010000
_PR_SET_NO_NEW_PRIVS = 38


def _errno_action(number: int) -> int:
    return 0x00050000 | (number & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


#: system calls that create a process or start a program, always refused
_PROCESS_CALLS = ("fork", "vfork", "execve", "execveat")
#: system calls a walled process has no use for and that reach beyond it
_REFUSED_CALLS = (
    "ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root",
    "chroot", "unshare", "setns", "bpf", "perf_event_open", "keyctl", "add_key",
    "request_key", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "reboot", "swapon", "swapoff", "userfaultfd", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "open_by_handle_at", "name_to_handle_at",
    "fanotify_init", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
    "mount_setattr", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill",
)


@dataclass(frozen=True)
class Support:
    """What this machine offers the wall: the Landlock ABI (0: none) and
    whether seccomp filters can be loaded (libseccomp found and the kernel
    has them); ``missing`` names what is not there, in words."""

    landlock: int
    seccomp: bool

    @property
    def complete(self) -> bool:
        """Whether the whole wall can stand (Landlock with network rules, seccomp)."""
        return self.landlock >= 1 and self.seccomp

    @property
    def missing(self) -> tuple[str, ...]:
        """What the wall lacks here, each in words (empty when complete)."""
        out = []
        if self.landlock == 0:
            out.append("Landlock (the file-system wall)")
        if not self.seccomp:
            out.append("seccomp with libseccomp (the wall on programs and sockets)")
        return tuple(out)

    def as_json(self) -> dict:
        """The support for ``--json``."""
        return {"landlock_abi": self.landlock, "seccomp": self.seccomp,
                "complete": self.complete, "missing": list(self.missing)}


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _landlock_abi() -> int:
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(ctypes.c_long(_SYS_CREATE_RULESET), None, ctypes.c_size_t(0),
                       ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(abi), 0)


_LIBSECCOMP = None


def _libseccomp():
    """libseccomp, loaded once (before the wall: loading it later would
    be refused)."""
    global _LIBSECCOMP
    if _LIBSECCOMP is not None:
        return _LIBSECCOMP
    try:
        lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(_ArgCmp)]
    lib.seccomp_attr_set.restype = ctypes.c_int
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_load.restype = ctypes.c_int
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    _LIBSECCOMP = lib
    return lib


def _kernel_seccomp() -> bool:
    try:
        return "Seccomp_filters:\t1" in Path("/proc/self/status").read_text() or \
            Path("/proc/sys/kernel/seccomp/actions_avail").is_file()
    except OSError:
        return False


_SUPPORT: Support | None = None

#: a test-only setting: the mechanisms (``landlock``, ``seccomp``, comma
#: separated) to take as missing, to test how their absence is told
LACKS_VARIABLE = "ADVICE_TEST_WALL_LACKS"


def support() -> Support:
    """What this machine offers the wall (asked of the kernel once)."""
    global _SUPPORT
    if _SUPPORT is None:
        lacks = set(os.environ.get(LACKS_VARIABLE, "").split(","))
        if not sys.platform.startswith("linux"):
            _SUPPORT = Support(0, False)
        else:
            _SUPPORT = Support(0 if "landlock" in lacks else _landlock_abi(),
                               "seccomp" not in lacks and _kernel_seccomp()
                               and _libseccomp() is not None)
    return _SUPPORT


_ANNOUNCED = False


def announce() -> None:
    """Say once, on stderr, what the wall lacks here (nothing when it is
    whole): called by the process that is about to run a user's file."""
    global _ANNOUNCED
    if _ANNOUNCED:
        return
    _ANNOUNCED = True
    missing = support().missing
    if missing:
        rest = ("your Prolog files run behind the Prolog guard alone" if len(missing) == 2
                else "that part of the wall is missing, the Prolog guard and the rest stand")
        print(f"advice: warning: this machine has no {' and no '.join(missing)}: {rest}",
              file=sys.stderr)


def announced() -> dict | None:
    """What :func:`announce` said, for ``--json`` (None: nothing was walled)."""
    return support().as_json() if _ANNOUNCED else None


def unguarded_for_tests() -> bool:
    """Whether the test-only setting :data:`UNGUARDED_VARIABLE` is on."""
    return os.environ.get(UNGUARDED_VARIABLE) == "1"


# -- what may be read -----------------------------------------------------------------

#: files of the system that a Python and a Prolog process read as they run
_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/random",
                 "/dev/zero")
#: folders of the system's shared libraries and installed programs' data
_SYSTEM_FOLDERS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib",
                   "/usr/share/swi-prolog", "/usr/share/zoneinfo")


def installation_reads() -> list[str]:
    """The folders and files every walled process may read: Python's and
    SWI-Prolog's installations, the system's libraries, the engine's own
    packages, ``kb/`` without its example assignments (which hold the
    reference solutions), and the compiled tables and tablebases of the
    engine's cache."""
    from engine.prolog import kb_path

    import advice
    import engine

    reads = [*_SYSTEM_FILES, *_SYSTEM_FOLDERS, sys.prefix, sys.base_prefix, sys.exec_prefix,
             sys.base_exec_prefix, str(Path(engine.__file__).parent),
             str(Path(advice.__file__).parent)]
    # the installation's library folders, not every folder on sys.path:
    # ``python -m`` puts the working folder there, which may be a class's
    reads += [p for p in sysconfig.get_paths().values() if Path(p).is_dir()]
    reads += [p for p in site.getsitepackages() if Path(p).is_dir()]
    for variable in ("SWI_HOME_DIR", "LIBSWIPL_PATH"):
        if os.environ.get(variable):
            reads.append(os.environ[variable])
    kb = kb_path("")
    reads += [str(p) for p in kb.iterdir() if p.name != "assignments"]
    # what the engine computed once: compiled tables, tablebases
    from engine.cache import cache_dir

    reads += [str(cache_dir(part)) for part in ("tables", "tablebases")]
    return list(dict.fromkeys(reads))


def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


@dataclass(frozen=True)
class Plan:
    """The wall of one process: what it may read besides the installations
    (``inputs``, files or folders), and its private ``scratch`` folder, the
    one place it may write."""

    inputs: tuple[str, ...]
    scratch: str

    def covers(self, path: str | Path) -> bool:
        """Whether ``path`` may be read inside this wall as one of the inputs."""
        target = Path(path).resolve()
        return any(_is_within(target, Path(i).resolve()) for i in self.inputs)


# -- entering the wall ------------------------------------------------------------------

@dataclass(frozen=True)
class Entered:
    """What a process walled itself in with: the Landlock ABI used (0: no
    file-system wall) and whether the seccomp filter is loaded."""

    landlock: int
    seccomp: bool
    plan: Plan


_ENTERED: Entered | None = None


def entered() -> Entered | None:
    """The wall this process entered, if any."""
    return _ENTERED


class WallError(OSError):
    """The wall could not be put up (the process must not go on)."""


def enter(plan: Plan) -> Entered:
    """Wall this process in (see the module): from now on it reads only the
    installations and ``plan.inputs``, writes only in ``plan.scratch``, and
    starts no program or process and opens no socket. Irreversible; a
    second call returns the first wall. What the machine lacks
    (:func:`support`) is left out."""
    global _ENTERED
    if _ENTERED is not None:
        return _ENTERED
    have = support()
    os.environ["TMPDIR"] = plan.scratch
    # a process the wall ends leaves no core file behind
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    libc = _libc()
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise WallError(ctypes.get_errno(), "cannot set no_new_privs")
    if have.landlock:
        _landlock(plan, have.landlock)
    if have.seccomp:
        _seccomp(have.landlock >= 6)
    _ENTERED = Entered(have.landlock, have.seccomp, plan)
    return _ENTERED


def _landlock(plan: Plan, abi: int) -> None:
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    rights = _fs_rights(abi)
    attr = _RulesetAttr(rights, _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0,
                        _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(ctypes.c_long(_SYS_CREATE_RULESET), ctypes.byref(attr),
                           ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise WallError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        read = _READ_FILE | _READ_DIR
        for path in [*installation_reads(), *plan.inputs]:
            _allow(libc, ruleset, path, read)
        # kb/ itself may be listed (the guard looks up the shipped modules'
        # names), its example assignments not read
        from engine.prolog import kb_path

        _allow(libc, ruleset, str(kb_path("")), _READ_DIR)
        _allow(libc, ruleset, "/dev/null", _READ_FILE | _WRITE_FILE)
        _allow(libc, ruleset, plan.scratch, rights)
        if libc.syscall(ctypes.c_long(_SYS_RESTRICT_SELF), ctypes.c_int(ruleset),
                        ctypes.c_uint32(0)) != 0:
            raise WallError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


def _allow(libc, ruleset: int, path: str, rights: int) -> None:
    """Add a rule giving ``rights`` beneath ``path`` (a file: its file
    rights only); a path that does not exist is skipped."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = _PathBeneathAttr(rights, fd)
        if libc.syscall(ctypes.c_long(_SYS_ADD_RULE), ctypes.c_int(ruleset),
                        ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                        ctypes.c_uint32(0)) != 0:
            raise WallError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)


def _seccomp(signals_scoped: bool) -> None:
    lib = _libseccomp()
    ctx = lib.seccomp_init(_SCMP_ACT_ALLOW)
    if not ctx:
        raise WallError(errno.ENOMEM, "seccomp_init failed")
    try:
        # every thread of the process, not only this one
        lib.seccomp_attr_set(ctx, _SCMP_FLTATR_CTL_TSYNC, 1)
        process, socket = _SCMP_ACT_KILL_PROCESS, _errno_action(SOCKET_ERRNO)
        for name in _PROCESS_CALLS:
            _rule(lib, ctx, process, name)
        # clone makes threads (CLONE_THREAD) and processes; clone3's flags
        # are behind a pointer, so it is refused as unknown (glibc then
        # falls back to clone)
        _rule(lib, ctx, process, "clone", _ArgCmp(0, _SCMP_CMP_MASKED_EQ, _CLONE_THREAD, 0))
        _rule(lib, ctx, _errno_action(errno.ENOSYS), "clone3")
        _rule(lib, ctx, socket, "socket")
        for name in _REFUSED_CALLS:
            _rule(lib, ctx, _errno_action(errno.EPERM), name)
        if not signals_scoped:
            # signals only to this process (Landlock scopes them from ABI 6)
            pid = os.getpid()
            for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
                _rule(lib, ctx, _errno_action(errno.EPERM), name,
                      _ArgCmp(0, _SCMP_CMP_NE, pid, 0))
        if lib.seccomp_load(ctx) != 0:
            raise WallError(ctypes.get_errno(), "seccomp_load failed")
    finally:
        lib.seccomp_release(ctx)


def _rule(lib, ctx, action: int, name: str, *compare: _ArgCmp) -> None:
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number < 0:
        return  # not a system call of this architecture
    array = (_ArgCmp * len(compare))(*compare) if compare else None
    if lib.seccomp_rule_add_array(ctx, action, number, len(compare), array) != 0:
        raise WallError(errno.EINVAL, f"seccomp rule for {name} refused")


# -- what a refusal looks like ------------------------------------------------------------

_SOCKET_WORDS = re.compile(rf"Unknown error {SOCKET_ERRNO}\b")
_OPEN_WORDS = re.compile(r"No permission to \w+ source_sink `'?(?P<file>[^'`]+)'?'"
                         r"|Permission denied")


#: what a process the wall ended (:data:`WALL_SIGNAL`) tried
PROGRAM_WORDS = "tried to start a program or create a process"


def ended_words(code: int | None) -> str | None:
    """Why the wall ended a process, from its exit status (None: it did not)."""
    if code == -WALL_SIGNAL:
        return f"the wall ended it: it {PROGRAM_WORDS}"
    return None


def program_refused(process: str) -> str:
    """What the wall refused of a ``process`` (``Prolog``, ``worker``) it
    ended, after "a knowledge base"."""
    return f"{PROGRAM_WORDS}; the wall ended its {process} process"


def refusal(message: str) -> str | None:
    """What a Prolog error ``message`` raised inside the wall says the wall
    refused, in words (None: not the wall's doing)."""
    if _ENTERED is None:
        return None
    if _SOCKET_WORDS.search(message):
        return "tried to open a network socket"
    if _ENTERED.landlock:
        found = _OPEN_WORDS.search(message)
        if found:
            file = found.group("file")
            return f"tried to open {file}, outside what it may read or write" if file \
                else "tried to reach a file outside what it may read or write"
    return None
