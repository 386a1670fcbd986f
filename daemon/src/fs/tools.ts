// Registers the fs tools. (Filled in by its issue.)
import type { Capability } from "../capability.js";

export const fsCapability: Capability = {
  name: "fs",
  instructions: "",
  async register() {},
};
