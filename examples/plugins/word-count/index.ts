/**
 * word-count: the worked example of docs/plugins.md. A tool plugin with config (a size limit), state
 * that survives reloads (running totals, carried by `migrate` from the plugin's first version) and a
 * class provider built by dependency injection. It imports only "pi-host", so it runs from any folder.
 */
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  definePlugin,
  inject,
  PluginTokens,
  ToolContract,
  Type,
  type AgentTool,
  type PluginContext,
  type Static,
  type ToolContext,
  type ToolResult,
} from "pi-host";
import { countText, type TextCounts } from "./count.js";

const Config = Type.Object({
  maxBytes: Type.Integer({ minimum: 1, default: 1_000_000, description: "Larger files are refused" }),
});
type Config = Static<typeof Config>;

const Totals = Type.Object({
  filesCounted: Type.Integer({ minimum: 0 }),
  wordsCounted: Type.Integer({ minimum: 0 }),
});
type Totals = Static<typeof Totals>;

/**
 * Runs on every reload with the previous generation's state: the same version after an ordinary save,
 * version 1 when the old plugin (which kept only a call counter) is replaced by this one.
 */
function migrateTotals(previous: unknown, fromVersion: number): Totals {
  if (fromVersion === 2) return previous as Totals;
  if (fromVersion === 1) return { filesCounted: (previous as { calls: number }).calls, wordsCounted: 0 };
  throw new Error(`word-count cannot migrate state from version ${fromVersion}`);
}

/** "1 line", "2 lines". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

const Parameters = Type.Object({
  path: Type.String({ description: "The file to count, relative to the working folder" }),
});

/** What a call returns besides the text for the model: the counts and the totals after it. */
export interface WordCountDetails extends TextCounts {
  totals: Totals;
}

/** The tool. A class so the kernel builds it with the generation's config and context injected. */
export class WordCountTool implements AgentTool<typeof Parameters, WordCountDetails> {
  readonly name = "word_count";
  readonly label = "Word count";
  readonly description = "Count the words, lines and characters of a text file.";
  readonly parameters = Parameters;

  constructor(
    @inject(PluginTokens.Config) private readonly config: Config,
    @inject(PluginTokens.Context) private readonly ctx: PluginContext<Config, Totals>,
  ) {}

  async execute(
    _toolCallId: string,
    params: Static<typeof Parameters>,
    signal: AbortSignal | undefined,
    _onUpdate: unknown,
    tool: ToolContext,
  ): Promise<ToolResult<WordCountDetails>> {
    const file = resolve(tool.cwd, params.path);
    const { size } = await stat(file);
    if (size > this.config.maxBytes) {
      throw new Error(
        `${params.path} has ${size} bytes; word_count reads at most ${this.config.maxBytes} (config maxBytes)`,
      );
    }
    const counts = countText(await readFile(file, { encoding: "utf8", signal }));
    const before = this.ctx.getState();
    const totals = { filesCounted: before.filesCounted + 1, wordsCounted: before.wordsCounted + counts.words };
    this.ctx.setState(totals);
    const text = `${params.path}: ${count(counts.words, "word")}, ${count(counts.lines, "line")}, ${count(counts.characters, "character")}`;
    return { content: [{ type: "text", text }], details: { ...counts, totals } };
  }
}

export default definePlugin({
  id: "word-count",
  version: "2.0.0",
  description: "The word_count tool: words, lines and characters of a file",
  provides: [ToolContract],
  config: Config,
  state: {
    version: 2,
    schema: Totals,
    initial: (): Totals => ({ filesCounted: 0, wordsCounted: 0 }),
    migrate: migrateTotals,
  },
  setup(ctx) {
    ctx.provide(ToolContract, WordCountTool, { key: "word_count" });
  },
});
