/**
 * The layer rule of docs/architecture.md §1 as code: imports point down only. kernel/ imports nothing of
 * contracts/, kit/, plugins/ or hosts/; contracts/ import only the kernel's public API and TypeBox; kit/
 * imports the kernel's public API, contracts/ and npm packages; a plugin imports "pi-host", its own files
 * and npm packages — never the kernel, contracts or kit by path, another plugin or a host; hosts/ never
 * import a plugin.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
const SKIP = new Set(["node_modules", "dist", ".git"]);
const IMPORT =
  /(?:^|[^\w.])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|require\s*\(\s*["']([^"']+)["']\s*\)/g;

/** One import that points the wrong way. */
export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

function walk(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Whether `dir` (inside root) is a plugin folder: it holds an index file. */
function isPluginDir(dir: string): boolean {
  return ["index.ts", "index.js", "index.mts"].some((name) => {
    try {
      return statSync(join(dir, name)).isFile();
    } catch {
      return false;
    }
  });
}

/** The layer of a path inside `root`: kernel, contracts, kit, hosts, plugins/[<kind>/]<name>, or outside. */
function layerOf(root: string, path: string): string {
  const parts = relative(root, path).split(sep);
  if (parts[0] !== "plugins") return parts[0] ?? "";
  for (let depth = 2; depth < parts.length; depth++) {
    if (isPluginDir(join(root, ...parts.slice(0, depth)))) return parts.slice(0, depth).join("/");
  }
  return "plugins";
}

/** Checks every source file under kernel/, contracts/, plugins/ and hosts/ of `root`. */
export function checkLayers(root: string): Violation[] {
  root = resolve(root);
  const violations: Violation[] = [];
  const kernelApi = join(root, "kernel", "index.ts");
  for (const top of ["kernel", "contracts", "kit", "plugins", "hosts"]) {
    for (const file of walk(join(root, top))) {
      const from = layerOf(root, file);
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3]!;
        const rule = broken(root, file, from, specifier, kernelApi);
        if (rule) violations.push({ file: relative(root, file), specifier, rule });
      }
    }
  }
  return violations;
}

function broken(root: string, file: string, from: string, specifier: string, kernelApi: string): string | undefined {
  const relativeImport = specifier.startsWith(".");
  const target = relativeImport ? resolve(dirname(file), specifier).replace(/\.js$/, ".ts") : undefined;
  const to = target !== undefined ? layerOf(root, target) : "npm";
  if (from === "kernel" && (to === "contracts" || to === "kit" || to === "hosts" || to.startsWith("plugins")))
    return `the kernel imports nothing from ${to}`;
  if (from === "contracts") {
    if (to === "npm" && !specifier.startsWith("@sinclair/typebox") && !specifier.startsWith("node:"))
      return "contracts import only the kernel's public API and TypeBox";
    if (to === "kernel" && target !== kernelApi)
      return "contracts import only the kernel's public API (kernel/index.ts)";
    if (to === "kit" || to === "hosts" || to.startsWith("plugins")) return `contracts import nothing from ${to}`;
  }
  if (from === "kit") {
    if (to === "kernel" && target !== kernelApi) return "kit imports only the kernel's public API (kernel/index.ts)";
    if (to === "hosts" || to.startsWith("plugins")) return `kit imports nothing from ${to}`;
  }
  if (from.startsWith("plugins/")) {
    if (to.startsWith("plugins") && to !== from) return "a plugin never imports another plugin; go through a contract";
    if (to === "hosts") return "a plugin never imports a host";
    if (to === "kernel" || to === "contracts" || to === "kit")
      return `a plugin imports the kernel, contracts and kit only as "pi-host", never by path (${to})`;
  }
  if (from === "hosts" && to.startsWith("plugins")) return "a host never imports a plugin; it loads a distribution";
  return undefined;
}
