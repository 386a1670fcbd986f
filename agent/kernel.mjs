// nixshed session kernel for Node.js: each call's code is evaluated the way Node's own REPL
// evaluates a line (its defaultEval), so top-level let/const/function/class declarations persist
// across calls, top-level `await` works, and the value of a final expression is shown as the REPL
// shows it (undefined shows nothing).
//
// Protocol: see agent/kernel.py. Node marks inherited descriptors above 2 close-on-exec at
// startup, so the protocol descriptors (3, 4) never reach a child process; fd 0 is reopened per
// call (close + open returns the lowest free descriptor) because Node has no dup2.
import domain from "node:domain";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import repl from "node:repl";
import { PassThrough } from "node:stream";

const requests = new net.Socket({ fd: 3, readable: true, writable: false });
const replies = new net.Socket({ fd: 4, readable: false, writable: true });
const stdinFile = path.join(os.tmpdir(), `.nixshed-stdin.${process.pid}`);

// The REPL routes the errors of evaluated code (and of callbacks it scheduled) to its domain.
const evalDomain = domain.create();
let finishCall = null;
evalDomain.on("error", (error) => {
  if (finishCall) finishCall(error);
  else process.stderr.write(`Uncaught ${describe(error)}\n`);
});
const server = repl.start({
  input: new PassThrough(),
  output: new PassThrough(),
  terminal: false,
  prompt: "",
  useGlobal: true,
  breakEvalOnSigint: true,
  // @ts-expect-error an option Node's REPL reads (lib/repl.js) that its type declarations omit
  domain: evalDomain,
});

// SIGINT while the code awaits: abandon the call (its promise may still settle later); the state
// stays. While the code runs synchronously the REPL's own watchdog interrupts it instead, and only
// when no process listener exists (with one, Node dies of the signal); the watchdog also leaves
// the signal's handler reset, so the listener is re-added after every synchronous run.
function onSigint() {
  if (finishCall)
    finishCall(Object.assign(new Error("Script execution was interrupted by `SIGINT`"), { code: "ERR_SCRIPT_EXECUTION_INTERRUPTED" }));
}
process.on("SIGINT", onSigint);

/** A stack frame of node's own code or of this kernel, which says nothing of the user's. */
const INTERNAL_FRAME = /^\s+at .*(\bnode:|kernel\.mjs)/;
/** What the REPL's writer adds to a promise: its async ids. */
const ASYNC_IDS = /^\s+\[Symbol\((trigger_)?async_id_symbol\)\]/;

/** A final value as the REPL's writer shows it, without the internal frames of an error inside (a rejected promise's). */
function shown(value) {
  return server
    .writer(value)
    .split("\n")
    .filter((line) => !INTERNAL_FRAME.test(line) && !ASYNC_IDS.test(line))
    .join("\n");
}

/** The error's stack without the kernel's and the REPL's own frames. */
function describe(error) {
  if (!(error instanceof Error) || !error.stack) return String(error);
  const lines = error.stack.split("\n");
  const internal = lines.findIndex((line) => /^\s+at .*\(?node:(internal\/)?(vm|repl|domain)\b/.test(line));
  return (internal > 0 ? lines.slice(0, internal) : lines).join("\n");
}

function setStdin(data) {
  fs.closeSync(0);
  if (data.length > 0) {
    fs.writeFileSync(stdinFile, data);
    fs.openSync(stdinFile, "r");
    fs.unlinkSync(stdinFile);
  } else {
    fs.openSync("/dev/null", "r");
  }
  // A fresh process.stdin over the new fd 0 (Node caches the first one it made).
  let stream;
  Object.defineProperty(process, "stdin", {
    configurable: true,
    enumerable: true,
    get: () => (stream ??= fs.createReadStream("", { fd: 0, autoClose: false })),
  });
}

// An import declaration the REPL refuses ("Cannot use import statement inside the Node.js REPL"),
// one to a line at the start of one: `import x from 'm'`, `import * as x from 'm'`,
// `import { a, b as c } from 'm'`, `import x, { a } from 'm'`, `import 'm'`.
const IMPORT = /^([ \t]*)import\s+(?:([\w$]+)\s*,?\s*)?(?:\*\s*as\s+([\w$]+)|\{([^}]*)\})?\s*(?:from\s*)?(['"][^'"\n]+['"])[ \t]*;?/gm;

/** The code with its import declarations made the dynamic imports the REPL takes, bindings kept as consts. */
function dynamicImports(code) {
  return code.replace(IMPORT, (_declaration, indent, name, namespace, names, from) => {
    const module = `await import(${from})`;
    const bindings = [
      name && `const ${name} = (${module}).default;`,
      namespace && `const ${namespace} = ${module};`,
      names !== undefined && `const { ${names.replace(/\s+as\s+/g, ": ")} } = ${module};`,
    ].filter(Boolean);
    return indent + (bindings.length > 0 ? bindings.join(" ") : `${module};`);
  });
}

function evaluate(code) {
  return new Promise((resolve) => {
    let ended = null;
    finishCall = (error, value) => {
      if (error instanceof repl.Recoverable) error = error.err;
      const failed = error !== undefined && error !== null;
      // A promise the code left rejected is reported once the microtasks have run: the call waits a
      // turn, so that the error lands in it and not in the next call.
      if (ended) {
        if (failed) ended.errors.push(error);
        return;
      }
      if (!failed && value !== undefined) process.stdout.write(`${shown(value)}\n`);
      ended = { errors: failed ? [error] : [] };
      setImmediate(() => {
        finishCall = null;
        // As a script's, a call's exit code is what it set process.exitCode to (the kernel itself never exits by it).
        const { exitCode } = process;
        process.exitCode = undefined;
        if (ended.errors.length === 0) return resolve({ status: typeof exitCode === "number" ? exitCode & 0xff : 0, state: "-" });
        const interrupted = ended.errors.some((each) => each?.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED");
        for (const each of ended.errors) {
          process.stderr.write(
            each?.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED" ? "Interrupted by SIGINT\n" : `Uncaught ${describe(each)}\n`,
          );
        }
        resolve({ status: interrupted ? 130 : 1, state: interrupted ? "interrupted" : "-" });
      });
    };
    process.removeListener("SIGINT", onSigint);
    server.eval(code, server.context, "session", (error, value) => finishCall?.(error, value));
    process.on("SIGINT", onSigint);
  });
}

const written = (stream, data) => new Promise((resolve) => stream.write(data, () => resolve()));

async function call({ id, marker, code, stdin }) {
  setStdin(stdin);
  const { status, state } = await evaluate(dynamicImports(code.toString("utf8")));
  setStdin(Buffer.alloc(0));
  await Promise.all([written(process.stdout, marker), written(process.stderr, marker)]);
  replies.write(`done ${id} ${status} ${state}\n`);
}

// Requests: "<id> <marker> <code bytes> <stdin bytes>\n" <code> "\0" <stdin> "\0"
let pending = Buffer.alloc(0);
let busy = false;
function next() {
  if (busy) return;
  const newline = pending.indexOf(10);
  if (newline < 0) return;
  const [id, marker, codeLength, stdinLength] = pending.subarray(0, newline).toString().split(" ");
  const codeEnd = newline + 1 + Number(codeLength);
  const stdinEnd = codeEnd + 1 + Number(stdinLength);
  if (pending.length < stdinEnd + 1) return;
  const request = { id, marker, code: pending.subarray(newline + 1, codeEnd), stdin: pending.subarray(codeEnd + 1, stdinEnd) };
  pending = pending.subarray(stdinEnd + 1);
  busy = true;
  void call(request).finally(() => {
    busy = false;
    next();
  });
}
requests.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  next();
});
requests.on("end", () => process.exit(0));

replies.write(`ready ${process.pid}\n`);
