// Registers the nixpkgs tools. (Filled in by its issue.)
import type { Capability } from "../capability.js";

export const nixpkgsCapability: Capability = {
  name: "nixpkgs",
  instructions: "",
  async register() {},
};
