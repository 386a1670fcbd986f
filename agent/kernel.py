# nixshed session kernel for Python: runs each call's code in one persistent `__main__` namespace.
#
# Protocol (the daemon's side is daemon/src/sandbox/sessions/protocol.ts):
#   fd 3, daemon -> kernel, one request per call:
#       "<id> <marker> <code bytes> <stdin bytes>\n" <code> "\0" <stdin> "\0"
#   fd 4, kernel -> daemon: "ready <pid>\n" once, then per call "done <id> <exit code> <state>\n",
#       state "-" or "interrupted" (SIGINT stopped the code; the namespace is kept).
#   fds 1 and 2 are the user's: after each call the kernel writes <marker> to both, and the daemon
#   cuts the call's output there. fd 0 is /dev/null, or the call's stdin while it runs.
# The protocol descriptors are moved out of the way (close-on-exec, high numbers) before any user
# code runs, so neither user code nor its children can read or write them by accident.
import fcntl
import io
import os
import signal
import subprocess
import sys
import traceback
import types
import _ast


# ast.PyCF_ONLY_AST, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT and inspect.CO_COROUTINE, without importing
# either module (the builtin _ast has the node classes).
ONLY_AST = 0x0400
ALLOW_TOP_LEVEL_AWAIT = 0x2000
CO_COROUTINE = 0x0080


def _hide(fd):
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 200)
    os.close(fd)
    return moved


def _command_line(line):
    """Runs a command line calling the session's interpreter by bash; its exit code, 128+N for signal N.

    The kernel's own module, loaded before any user code, so that a project's subprocess.py on the
    session's path stands in for nothing; run() kills the line when the call is interrupted.
    """
    code = subprocess.run(["bash", "-c", line]).returncode
    return 128 - code if code < 0 else code


def _kernel():
    sys.modules["_nixshed"] = types.SimpleNamespace(command_line=_command_line)
    requests = os.fdopen(_hide(3), "rb", buffering=65536)
    replies = _hide(4)
    # The user's stdout/stderr as the daemon gave them, restored after every call so that a call
    # which redirected fd 1 or 2 cannot hide the end marker.
    saved_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 200)
    saved_err = fcntl.fcntl(2, fcntl.F_DUPFD_CLOEXEC, 200)
    devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)

    # Line-buffered as on a terminal, so that print() and a child's output keep their order.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(line_buffering=True)

    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    sys.argv = [""]
    sys.path[0] = ""  # imports from the working directory, as in `python3 -c`
    # ...and a src layout's packages, as an editable install (run-main.py) makes them, shadowing nothing.
    if os.path.isdir("src"):
        sys.path.append(os.path.abspath("src"))

    # SIGINT means "stop this call": KeyboardInterrupt while user code runs, ignored otherwise.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def set_stdin(data):
        if data:
            fd = os.memfd_create("stdin")
            os.write(fd, data)
            os.lseek(fd, 0, os.SEEK_SET)
            os.dup2(fd, 0)
            os.close(fd)
        else:
            os.dup2(devnull, 0)
        # A fresh reader, so nothing buffered from an earlier call's stdin leaks into this one.
        sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))

    loop = None

    def event_loop():
        nonlocal loop
        if loop is None or loop.is_closed():
            import asyncio

            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
        return loop

    def cancel_tasks():
        # An interrupted `await` leaves its task pending: it must not resume in a later call.
        if loop is not None and not loop.is_closed():
            import asyncio

            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))

    def report(exc):
        # The traceback from the user's code on: without the kernel's (and asyncio's) frames.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != "<session>":
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)

    def compile_call(code):
        # As a REPL does: a final expression statement is compiled in "single" mode, so its value
        # is shown through sys.displayhook (its repr; None shows nothing).
        tree = compile(code, "<session>", "exec", flags=ONLY_AST | ALLOW_TOP_LEVEL_AWAIT)
        last = tree.body[-1:]
        if not last or not isinstance(last[0], _ast.Expr):
            return [compile(tree, "<session>", "exec", flags=ALLOW_TOP_LEVEL_AWAIT)]
        body = _ast.Module(body=tree.body[:-1], type_ignores=[])
        return [
            compile(body, "<session>", "exec", flags=ALLOW_TOP_LEVEL_AWAIT),
            compile(_ast.Interactive(body=last), "<session>", "single", flags=ALLOW_TOP_LEVEL_AWAIT),
        ]

    def run(code):
        try:
            parts = compile_call(code)
        except (SyntaxError, ValueError) as exc:
            traceback.print_exception(type(exc), exc, None)
            return 1, "-"
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            for compiled in parts:
                if compiled.co_flags & CO_COROUTINE:
                    # Top-level await, as in IPython: one event loop for the session's life.
                    loop = event_loop()
                    loop.run_until_complete(eval(compiled, main.__dict__))
                else:
                    exec(compiled, main.__dict__)
            return 0, "-"
        except SystemExit as exc:
            code = exc.code
            if code is None:
                return 0, "-"
            if isinstance(code, int):
                return code & 0xFF, "-"
            print(code, file=sys.stderr)
            return 1, "-"
        except KeyboardInterrupt as exc:
            report(exc)
            cancel_tasks()
            return 130, "interrupted"
        except BaseException as exc:
            report(exc)
            return 1, "-"
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def flush():
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except Exception:
                pass
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__

    kernel_pid = os.getpid()
    os.write(replies, b"ready %d\n" % kernel_pid)
    while True:
        header = requests.readline()
        if not header:
            return
        call_id, marker, code_len, stdin_len = header.split()
        code = requests.read(int(code_len) + 1)[:-1]
        stdin = requests.read(int(stdin_len) + 1)[:-1]
        set_stdin(stdin)
        status, state = run(code.decode("utf-8", "replace"))
        flush()
        if os.getpid() != kernel_pid:
            # A child the code forked (os.fork) ends with the code, like a script would; it must not
            # go on speaking the protocol.
            os._exit(status)
        os.dup2(saved_out, 1)
        os.dup2(saved_err, 2)
        os.dup2(devnull, 0)
        os.write(1, marker)
        os.write(2, marker)
        os.write(replies, b"done %s %d %s\n" % (call_id, status, state.encode()))


_kernel()
