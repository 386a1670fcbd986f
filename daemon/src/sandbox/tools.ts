// Registers the sandbox tools. (Filled in by its issue.)
import type { Capability } from "../capability.js";

export const sandboxCapability: Capability = {
  name: "sandbox",
  instructions: "",
  async register() {},
};
