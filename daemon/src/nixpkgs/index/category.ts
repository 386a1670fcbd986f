// What nixpkgs's own tree says a package is: a top-level package defined under
// pkgs/tools/security/pass or pkgs/applications/networking/sniffers/wireshark is filed under
// "security" or "networking sniffers", words its description may not use. Packages moved to
// pkgs/by-name have no such folder; set members' folders name their set, not what they do.
import type { CatalogEntry } from "./catalog.js";
import { textTerms } from "../search/text.js";

/** Folders that file nearly everything: they say nothing of what a package does. */
const GENERIC_FOLDERS = new Set([
  "pkgs",
  "tools",
  "applications",
  "development",
  "misc",
  "libraries",
  "os-specific",
  "linux",
  "data",
  "servers",
]);

/** Description stems of the folders a top-level package's expression sits in, below pkgs/ and above its own. */
export function categoryTerms(entry: Pick<CatalogEntry, "attr" | "position">): string[] {
  if (entry.attr.includes(".")) return [];
  const folders = entry.position.split(":")[0]!.split("/").slice(0, -2);
  if (folders[0] !== "pkgs" || folders[1] === "by-name") return [];
  return [...new Set(folders.filter((folder) => !GENERIC_FOLDERS.has(folder)).flatMap((folder) => textTerms(folder.replaceAll("-", " "))))];
}
