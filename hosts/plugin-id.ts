/**
 * A plugin's id read from its source text, without evaluating it. `pi list` and `pi install` use this
 * for packages whose code must not run (a project package in an untrusted project): the first `id:`
 * string property after `definePlugin(`, else the folder name (index files) or file name, as --plugin
 * names a plugin. It is a label for display only; the kernel reads the real id when the plugin loads.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, extname } from "node:path";

/** The id `file` declares, read as text; its folder or file name when none is found. */
export function staticPluginId(file: string): string {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // the name below
  }
  const from = text.indexOf("definePlugin(");
  const declared = from === -1 ? undefined : /\bid\s*:\s*(["'`])([A-Za-z0-9@/._-]+)\1/.exec(text.slice(from))?.[2];
  return declared ?? nameOf(file);
}

/** The folder name of an index file, else the file's own name without extension. */
function nameOf(file: string): string {
  const name = basename(file, extname(file));
  return name === "index" ? basename(dirname(file)) : name;
}
