// Loaded before a one-off Node run's code (node --import): Node runs code with module syntax
// (import, top-level await) as an ES module, where `require` is not defined; agents write both in
// one snippet. This gives such code a `require` that resolves from /project, as CommonJS code has
// its own (which shadows this one).
import { createRequire } from "node:module";

globalThis.require ??= createRequire(`${process.cwd()}/`);
