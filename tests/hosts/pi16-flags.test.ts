/**
 * Every flag of pi 1.6.0's `--help` (committed as tests/fixtures/pi16-help.txt), with its status here:
 * accepted with pi's meaning, or explicitly not yet. A flag marked accepted that the parser refuses
 * fails; so does a "not yet" flag that the parser starts accepting (move it), and a flag of the fixture
 * missing from the table.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { helpText, parseCliArgs, UsageError } from "../../hosts/cli-flags.js";

const help = readFileSync(new URL("../fixtures/pi16-help.txt", import.meta.url), "utf8");

/** One pi 1.6.0 flag: its spellings, a sample argv that uses it, and its status in pi-host. */
interface Pi16Flag {
  spellings: string[];
  argv: string[];
  status: "accepted" | "not yet";
}

const accepted = (spellings: string[], ...value: string[]): Pi16Flag => ({
  spellings,
  argv: [spellings[0]!, ...value],
  status: "accepted",
});

const TABLE: Pi16Flag[] = [
  accepted(["--provider"], "openai", "--model", "gpt-4.1"),
  accepted(["--model"], "openai/gpt-4.1"),
  accepted(["--api-key"], "sk-test"),
  accepted(["--system-prompt"], "be brief"),
  accepted(["--append-system-prompt"], "and kind"),
  accepted(["--mode"], "json"),
  accepted(["--print", "-p"]),
  accepted(["--continue", "-c"]),
  accepted(["--resume", "-r"]),
  accepted(["--session"], "abc"),
  accepted(["--session-id"], "abc"),
  accepted(["--fork"], "abc"),
  accepted(["--session-dir"], "/tmp/s"),
  accepted(["--no-session"]),
  accepted(["--name", "-n"], "my session"),
  accepted(["--models"], "sonnet,haiku"),
  accepted(["--no-tools", "-nt"]),
  accepted(["--no-builtin-tools", "-nbt"]),
  accepted(["--tools", "-t"], "read,bash"),
  accepted(["--exclude-tools", "-xt"], "bash"),
  accepted(["--thinking"], "high"),
  accepted(["--extension", "-e"], "./ext.ts"),
  accepted(["--no-extensions", "-ne"]),
  accepted(["--no-mcp"]),
  accepted(["--skill"], "./skill"),
  accepted(["--no-skills", "-ns"]),
  accepted(["--prompt-template"], "./prompts"),
  accepted(["--no-prompt-templates", "-np"]),
  accepted(["--theme"], "./theme.json"),
  accepted(["--use-theme"], "dark"),
  accepted(["--no-themes"]),
  accepted(["--no-context-files", "-nc"]),
  accepted(["--export"], "session.jsonl"),
  accepted(["--list-models"], "sonnet"),
  accepted(["--verbose"]),
  accepted(["--tui-mode"], "regular"),
  accepted(["--approve", "-a"]),
  accepted(["--no-approve", "-na"]),
  accepted(["--offline"]),
  accepted(["--"], "message"),
  accepted(["--help", "-h"]),
  accepted(["--version", "-v"]),
];

/** The flag spellings of the fixture's "Options:" section: `--long, -s <value>   help`. */
function fixtureFlags(): string[][] {
  const options = help.slice(help.indexOf("\nOptions:\n"), help.indexOf("\nExtensions can register"));
  return options
    .split("\n")
    .filter((line) => /^ {2}-/.test(line))
    .map((line) =>
      line
        .trim()
        .split(/\s{2,}/)[0]!
        .replace(/ <[^>]*>.*$/, "")
        .replace(/ \[[^\]]*\]$/, "")
        .split(", "),
    );
}

function refusal(argv: string[]): string | undefined {
  try {
    parseCliArgs(argv);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
}

describe("pi 1.6.0's flags", () => {
  it("the table lists exactly the flags of pi 1.6.0's --help", () => {
    expect(TABLE.map((f) => f.spellings)).toEqual(fixtureFlags());
    expect(TABLE).toHaveLength(42);
  });

  it("pi-host's --help documents every accepted spelling", () => {
    const text = helpText();
    const missing = TABLE.filter((f) => f.status === "accepted" && f.spellings[0] !== "--")
      .flatMap((f) => f.spellings)
      .filter((spelling) => !new RegExp(`(^|[\\s,])${spelling}([\\s,]|$)`, "m").test(text));
    expect(missing).toEqual([]);
  });

  for (const flag of TABLE) {
    for (const spelling of flag.spellings) {
      const argv = [spelling, ...flag.argv.slice(1)];
      if (flag.status === "accepted") {
        it(`accepts ${argv.join(" ")}`, () => expect(refusal(argv)).toBeUndefined());
      } else {
        it(`does not accept ${spelling} yet (one line naming a known flag; move it to accepted when it lands)`, () => {
          const message = refusal(argv);
          expect(message).toMatch(new RegExp(`^unknown flag ${spelling.replace(/[-]/g, "\\-")};`));
          expect(message).not.toContain("\n");
        });
      }
    }
  }
});

describe("pi 1.6.0's flag values", () => {
  it("--thinking max is pi 1.6.0's level and asks for xhigh, the strongest any provider here takes", () => {
    expect(parseCliArgs(["--thinking", "max"]).thinking).toBe("xhigh");
    // pi 1.6's sentence for a provider alone; --list-models takes it as a filter.
    expect(refusal(["--provider", "anthropic", "-p", "hi"])).toBe(
      "--provider requires --model (for example: --provider anthropic --model <pattern>)",
    );
    expect(parseCliArgs(["--list-models", "--provider", "openai"]).provider).toBe("openai");
    expect(refusal(["--thinking", "loud"])).toBe(
      '--thinking must be one of off, minimal, low, medium, high, xhigh, max, not "loud"',
    );
  });

  it("--tools refuses names mixed with changes, and patterns in changes", () => {
    expect(parseCliArgs(["-t", "+codemode,-write"]).tools).toEqual(["+codemode", "-write"]);
    expect(refusal(["--tools", "read,-write"])).toMatch(/^--tools mixes tool names \(read\)/);
    expect(refusal(["--tools", "-mcp__*"])).toMatch(/is a pattern; \+name\/-name take exact names/);
    expect(refusal(["-xt", ","])).toBe("--exclude-tools is empty; give tool names");
  });

  it("--session-id takes pi's ids and refuses any other in one line", () => {
    expect(parseCliArgs(["--session-id", "my-run_1.2"]).sessionId).toBe("my-run_1.2");
    expect(parseCliArgs(["--no-mcp"]).noMcp).toBe(true);
    for (const bad of ["-x", "a/b", "end.", "", "sp ace"]) {
      expect(refusal([`--session-id=${bad}`])).toBe(
        `--session-id "${bad}" is not a session id (letters, digits, . _ -; a letter or digit first and last)`,
      );
    }
  });

  it("--theme repeats, --use-theme takes a name or a light/dark pair, and the switches are typed", () => {
    const args = parseCliArgs(["--theme", "a.json", "--theme", "themes/", "--use-theme", "light/dark", "--no-themes"]);
    expect([args.themes, args.useTheme, args.noThemes]).toEqual([["a.json", "themes/"], "light/dark", true]);
    expect(parseCliArgs(["--verbose", "--offline"])).toMatchObject({ verbose: true, offline: true });
    expect(parseCliArgs([])).toMatchObject({
      themes: [],
      useTheme: undefined,
      noThemes: false,
      verbose: false,
      offline: false,
    });
    for (const bad of ["a/b/c", "/dark", "light/"])
      expect(refusal(["--use-theme", bad])).toBe(
        `--use-theme takes a theme name or light/dark names such as light/dark, not "${bad}"`,
      );
  });

  it("-n/--name and --fork keep their values", () => {
    const args = parseCliArgs(["-n", "Refactor auth", "--fork", "0f3a"]);
    expect([args.name, args.fork]).toEqual(["Refactor auth", "0f3a"]);
  });
});
