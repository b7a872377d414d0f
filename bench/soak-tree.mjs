/**
 * The soak's copy of the plugins and the edits made to it.
 *
 * The soak loads the core plugins from source, as a user editing them under `pi --watch` does, so it needs
 * a tree it may write to: each core plugin's folder (`plugins/<kind>/<id>/`) is copied into a temp folder
 * at the same place, with node_modules linked (as tests/plugins/agent-loop/swap-and-live-edit.test.ts
 * does). Plugins import the kernel and the contracts only as "pi-host", which the kernel hands them as a
 * virtual module, so kernel/ and contracts/ are not copied and a reload evaluates only the plugin's own
 * files — what `pi plugin eject` (a plain copy) gives a user. Two changes are made to the copy, never to
 * the repository:
 *
 *   - every core plugin's index.ts gets a revision marker (`const SOAK_MARK = "..."`) and, in setup, a
 *     listener for the bus event "soak:probe" that answers with the plugin id, the marker and its
 *     generation. The kernel delivers bus events only to active generations, so one probe tells which
 *     code serves right now — the observable half of each edit;
 *   - provider-faux's index.ts is replaced by a soak entry that drives the real scripted provider
 *     (./faux.ts) as an endless loop of tool-call turns and answers (see PROVIDER_ENTRY).
 *
 * `rewrite` makes one harmless real edit: a new marker in index.ts (observable through the probe and, for
 * the provider, in every answer it streams) or a new trailing comment in one of the plugin's other files
 * (a deeper module transpiled and evaluated anew). Every edit writes content never written before, so
 * jiti's fs cache never has it and each reload pays a real transpile, as an editing user does.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The bus event the instrumented plugins answer. */
export const PROBE_EVENT = "soak:probe";

/**
 * The soak's provider entry, written over provider-faux/index.ts in the copy. It keeps the plugin id,
 * contract and key of the real one and drives the real provider code in ./faux.ts through its
 * programmatic API: one throwaway FauxProvider per request, scripted by a turn function of the context.
 */
export const PROVIDER_ENTRY = `/**
 * The soak's provider entry (bench/soak-tree.mjs writes it over provider-faux/index.ts in the soak's copy of
 * the tree): the real scripted provider of ./faux.ts, driven as an endless loop. A prompt "prompt N: steps:
 * K" is answered by K turns that each call the ls tool, then by a text answer that names the marker of the
 * code that streamed it; a request without tools (a compaction summary) gets a short summary. Every request
 * gets its own throwaway FauxProvider, so no request history piles up over a long run.
 */
import { Type } from "@sinclair/typebox";
import { AiProviderContract, definePlugin, type AiProvider, type Context, type Message } from "pi-host";
import { createFauxProvider, fauxText, fauxToolCall, type FauxTurn } from "./faux.js";

function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The next turn of the endless script, computed from the context alone, so a reload never loses its place. */
function soakTurn(context: Context, mark: string): FauxTurn {
  if (context.tools === undefined || context.tools.length === 0) {
    return { content: "## Goal\\nKeep the soak session going.\\n\\n## Progress\\n- Listed the folder step by step for every prompt.\\n" };
  }
  const messages = context.messages;
  let last = messages.length - 1;
  while (last >= 0 && messages[last]!.role !== "user") last--;
  const prompt = last >= 0 ? textOf(messages[last]!) : "";
  const match = /^prompt (\\d+): steps: (\\d+)/.exec(prompt);
  if (match === null) return { content: \`I did not understand "\${prompt.slice(0, 40)}".\` };
  const [, id, steps] = match;
  const done = messages.slice(last + 1).filter((m) => m.role === "toolResult").length;
  if (done < Number(steps)) return { content: [fauxText(\`Step \${done + 1} of \${steps}.\`), fauxToolCall("ls", { path: "." }, \`p\${id}-s\${done + 1}\`)] };
  return { content: \`Prompt \${id} done after \${steps} steps (\${mark}).\` };
}

export default definePlugin({
  id: "provider-faux",
  version: "1.0.0",
  description: "The scripted provider, driven as an endless tool loop for the soak",
  provides: [AiProviderContract],
  config: Type.Object({
    /** Stream pacing, so each answer takes a while. */
    tokensPerSecond: Type.Number({ minimum: 0, default: 50 }),
  }),
  setup(ctx) {
    const { tokensPerSecond } = ctx.config;
    const provider: AiProvider = {
      api: "faux",
      stream(model, context, options) {
        const faux = createFauxProvider({ responses: [(request) => soakTurn(request.context, SOAK_MARK)], tokensPerSecond });
        return faux.stream(model, context, options);
      },
    };
    ctx.provide(AiProviderContract, provider, { key: "faux" });
  },
});
`;

const MARK_LINE = /const SOAK_MARK = "[^"]*";/;
const COMMENT_LINE = /\n\/\/ soak edit [^\n]*\n$/;

/** Adds the revision marker and the probe listener to a plugin's index.ts. Throws if its shape is unexpected. */
export function instrument(source, pluginId) {
  const exportAt = source.indexOf("export default definePlugin({");
  const setupAt = source.indexOf("setup(ctx) {");
  if (exportAt === -1 || setupAt === -1 || source.indexOf("setup(ctx) {", setupAt + 1) !== -1) {
    throw new Error(
      `${pluginId}/index.ts: expected one "export default definePlugin({" and one "setup(ctx) {" to instrument`,
    );
  }
  const mark = `/** The soak's revision marker: bench/soak.mjs rewrites it and reads it back through "${PROBE_EVENT}". */\nconst SOAK_MARK = "rev-0";\n\n`;
  const probe =
    `\n    ctx.on(${JSON.stringify(PROBE_EVENT)}, (probe: { answer(id: string, mark: string, generation: number, owner: object): void }) =>` +
    ` probe.answer(${JSON.stringify(pluginId)}, SOAK_MARK, ctx.generation, ctx));`;
  const withProbe =
    source.slice(0, setupAt + "setup(ctx) {".length) + probe + source.slice(setupAt + "setup(ctx) {".length);
  return withProbe.slice(0, exportAt) + mark + withProbe.slice(exportAt);
}

/** The folder of plugin `id` under `plugins/<kind>/`, relative to `root`. Throws unless exactly one kind has it. */
export function pluginFolder(root, id) {
  const kinds = readdirSync(join(root, "plugins"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const found = kinds
    .map((kind) => join("plugins", kind.name, id))
    .filter((folder) => existsSync(join(root, folder, "index.ts")));
  if (found.length !== 1)
    throw new Error(`plugin "${id}": expected one plugins/<kind>/${id}/index.ts, found ${found.length}`);
  return found[0];
}

/**
 * Copies the given plugins into `tree` at their `plugins/<kind>/<id>/` places, links node_modules,
 * instruments each plugin and installs the provider entry. Returns, per plugin, its entry file and its
 * other source files.
 */
export function buildTree(root, tree, pluginIds, providerId) {
  mkdirSync(tree, { recursive: true });
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"), "dir");
  const plugins = {};
  for (const id of pluginIds) {
    const dir = join(tree, pluginFolder(root, id));
    cpSync(join(root, pluginFolder(root, id)), dir, { recursive: true });
    const entry = join(dir, "index.ts");
    const original = id === providerId ? PROVIDER_ENTRY : readFileSync(entry, "utf8");
    writeFileSync(entry, instrument(original, id));
    const others = readdirSync(dir)
      .filter((name) => name.endsWith(".ts") && name !== "index.ts")
      .sort()
      .map((name) => join(dir, name));
    plugins[id] = { id, dir, entry, others };
  }
  return plugins;
}

/**
 * Every import in the copied plugins' files that leaves the plugin's own folder by path ("../..."). The
 * layout rule says there are none: the kernel, contracts and shared code come only through "pi-host". One
 * would fail to resolve in the copy (kernel/ and contracts/ are not copied), so the soak reports them.
 */
export function importsLeavingPlugin(tree, plugins) {
  const left = [];
  for (const plugin of Object.values(plugins)) {
    for (const file of [plugin.entry, ...plugin.others]) {
      for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.\.\/[^"]+)"/g))
        left.push(`${relative(tree, file)} → ${match[1]}`);
    }
  }
  return left;
}

/**
 * One harmless real edit of `plugin`: kind "mark" sets a new SOAK_MARK in index.ts; kind "comment" sets a
 * new trailing comment in one of its other files (picked with `random`). Returns what was written where.
 */
export function rewrite(plugin, kind, revision, random) {
  if (kind === "mark" || plugin.others.length === 0) {
    const mark = `rev-${revision}`;
    const source = readFileSync(plugin.entry, "utf8");
    if (!MARK_LINE.test(source)) throw new Error(`${plugin.entry}: the SOAK_MARK line is gone`);
    writeFileSync(plugin.entry, source.replace(MARK_LINE, `const SOAK_MARK = "${mark}";`));
    return { kind: "mark", file: plugin.entry, mark };
  }
  const file = plugin.others[Math.floor(random() * plugin.others.length)];
  const source = readFileSync(file, "utf8");
  const line = `\n// soak edit ${revision}\n`;
  writeFileSync(
    file,
    COMMENT_LINE.test(source) ? source.replace(COMMENT_LINE, line) : `${source.replace(/\n?$/, "")}\n${line}`,
  );
  return { kind: "comment", file, mark: undefined };
}

/** A seeded shuffle of `count` saves over `ids`, each plugin as often as the others (±1). */
export function saveSchedule(count, ids, random) {
  const order = Array.from({ length: count }, (_, i) => ids[i % ids.length]);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** An exponential gap around `meanMs`, cut to 50..2500 ms: saves at random moments, some close together. */
export function randomGapMs(random, meanMs) {
  return Math.min(2_500, Math.max(50, -Math.log(1 - random()) * meanMs));
}

/** A small seeded PRNG (mulberry32): the same seed gives the same soak schedule. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
