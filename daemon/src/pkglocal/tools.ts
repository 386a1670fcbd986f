// Registers the pkglocal tools. (Filled in by its issue.)
import type { Capability } from "../capability.js";

export const pkglocalCapability: Capability = {
  name: "pkglocal",
  instructions: "",
  async register() {},
};
