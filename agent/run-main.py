# A one-off Python run, given to `python3 -c` with the code's file (/run/nixshed/main.py) after it:
# the code runs as its file, but imports from the working directory (the project) as `python3 -c`
# code does, where a script would import from its own directory, which holds nothing else. Its
# tracebacks start at its own lines. A src layout's packages (src/shop/) import too, as an editable
# install makes them (pip install -e cannot run in a jail): after the standard library and
# site-packages, so that they shadow neither.
import sys


def _main(excepthook=sys.__excepthook__):
    import os

    if os.path.isdir("src"):
        sys.path.append(os.path.abspath("src"))
    path = sys.argv.pop(1)
    sys.argv[0] = path

    def hook(kind, error, trace):
        # This file's frames come first (as "<string>"); the code's own follow.
        while trace is not None and trace.tb_frame.f_code.co_filename == "<string>":
            trace = trace.tb_next
        # Python prints the exception's own traceback, whatever the one given.
        excepthook(kind, error.with_traceback(trace), trace)

    sys.excepthook = hook
    main = sys.modules["__main__"].__dict__
    del main["_main"], main["sys"]
    main["__file__"] = path
    with open(path, "rb") as source:
        code = compile(source.read(), path, "exec", dont_inherit=True)
    exec(code, main)


_main()
