/**
 * pi 1.6.0's theme, startup and network flags end to end, one run of the built `pi` per flag and effect:
 * `--theme`, `--use-theme`, `--no-themes`, the `theme` setting and a theme file's hot reload, a broken
 * theme file, `--verbose` over `quietStartup`, `--offline`; and an unknown flag in an agent run (exit 2,
 * naming the closest known flag). The TUI runs in tmux; themes use 256-colour indices so the colours
 * read back from the pane exactly.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_NAMES } from "../../plugins/ui/tui/theme-tokens.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";
import { HAS_TMUX, type Pane, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the TUI theme flag tests");

/** A complete theme whose every colour is palette index 250 and whose accent is `accent`. */
function theme(name: string, accent: number): string {
  const colors: Record<string, string | number> = Object.fromEntries(TOKEN_NAMES.map((t) => [t, 250]));
  colors.accent = accent;
  return JSON.stringify({ name, colors });
}

/** The SGR sequence tmux shows for a foreground palette index. */
const fg = (index: number): string => `\x1b[38;5;${index}m`;

let tmux: TmuxServer | undefined;
beforeAll(() => {
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterEach(() => tmux?.killPanes());
afterAll(() => tmux?.close());

/** A user with the faux model and `settings`. */
function user(settings: Record<string, unknown> = {}): AgentHome {
  const home = agentHome();
  home.scriptFaux([]);
  writeFileSync(
    join(home.agent, "settings.json"),
    JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1", ...settings }),
  );
  return home;
}

function start(home: AgentHome, args: string[] = []): Pane {
  return tmux!.start({ cwd: home.project, env: home.env, args, watch: "screen" });
}

/** The header row (the one with the key hints), with its colours. */
async function headerRow(pane: Pane): Promise<string> {
  await pane.waitFor("ctrl+c twice exit");
  return (
    pane
      .captureColors()
      .split("\n")
      .find((row) => row.includes("twice exit")) ?? ""
  );
}

describe.skipIf(!HAS_TMUX)("theme and startup flags in the TUI (built CLI)", { timeout: 60_000 }, () => {
  it("--theme loads a file and --use-theme shows it", async () => {
    const home = user();
    writeFileSync(join(home.project, "mine.json"), theme("mine", 196));
    const pane = start(home, ["--theme", "mine.json", "--use-theme", "mine"]);
    // The first frame can come before the theme file is read (the shell draws while settings load); the
    // header must take the theme's colour once it is.
    await pane.waitFor(() =>
      (
        pane
          .captureColors()
          .split("\n")
          .find((row) => row.includes("twice exit")) ?? ""
      ).includes(fg(196)),
    );
    expect(await headerRow(pane)).toContain(fg(196));
  });

  it("the theme setting picks a user theme, which reloads when its file is saved", async () => {
    const home = user({ theme: "live" });
    const file = join(home.agent, "themes", "live.json");
    mkdirSync(join(home.agent, "themes"), { recursive: true });
    writeFileSync(file, theme("live", 160));
    const pane = start(home);
    await pane.waitFor(() => pane.captureColors().includes(fg(160)));
    writeFileSync(file, theme("live", 34));
    await pane.waitFor(() => pane.captureColors().includes(fg(34)));
    expect(await headerRow(pane)).not.toContain(fg(160));
  });

  it("--no-themes skips the themes folder: the chosen user theme is unknown and system shows", async () => {
    const home = user();
    mkdirSync(join(home.agent, "themes"), { recursive: true });
    writeFileSync(join(home.agent, "themes", "mine.json"), theme("mine", 196));
    const pane = start(home, ["--no-themes", "--use-theme", "mine"]);
    await pane.waitFor('theme "mine": no such theme');
    const header = await headerRow(pane);
    expect(header).not.toContain(fg(196));
    // The system theme's accent is the terminal's magenta (palette 5).
    expect(header).toMatch(/\x1b\[(35|38;5;5)m/);
  });

  it("a broken theme file is one warning naming the file and the field; the default theme shows", async () => {
    const home = user({ theme: "broken" });
    mkdirSync(join(home.agent, "themes"), { recursive: true });
    writeFileSync(
      join(home.agent, "themes", "broken.json"),
      theme("broken", 196).replace('"accent":196', '"accent":"nosuchvar"'),
    );
    const pane = start(home);
    const screen = await pane.waitFor("colors.accent:");
    expect(screen.replace(/\s+/g, " ")).toMatch(/theme \S*broken\.json: colors\.accent: "nosuchvar" is not a colour/);
    expect(await headerRow(pane)).not.toContain(fg(196));
  });

  it("quietStartup hides the header; --verbose shows it with the model scope", async () => {
    const quiet = user({ quietStartup: true });
    const hidden = start(quiet, ["--models", "faux-1"]);
    await hidden.waitFor("faux-1");
    expect(hidden.capture()).not.toContain("twice exit");
    const verbose = start(user({ quietStartup: true }), ["--verbose", "--models", "faux-1"]);
    await verbose.waitFor((s) => s.includes("twice exit") && s.includes("Model scope: faux-1"));
  });
});

describe("--offline and unknown flags (built CLI)", () => {
  let server: MockLlmServer;
  beforeAll(async () => {
    server = await new MockLlmServer().start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("an unknown flag in an agent run is exit 2 with one line naming the closest known flag; nothing is sent", async () => {
    const home = agentHome();
    home.useMockServer(`${server.url}/v1`);
    const before = server.requests.length;
    const run = await home.pi(["-p", "--model", "mock/mock-1", "--frobnicate", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'pi: unknown flag --frobnicate (no extension registers it); the closest known flag is --print; run "pi --help" for the options\n',
    );
    expect(server.requests.length).toBe(before);
  });

  it("--offline reaches extensions as PI_OFFLINE=1, and pi update skips its network work", async () => {
    const home = agentHome();
    home.useMockServer(`${server.url}/v1`);
    const seen = join(home.home, "seen.txt");
    writeFileSync(
      join(home.project, "env.ts"),
      `import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(${JSON.stringify(seen)}, String(process.env.PI_OFFLINE)); }\n`,
    );
    server.enqueue({ sse: completionsText("ok") });
    const run = await home.pi(["-p", "--offline", "--model", "mock/mock-1", "-e", "env.ts", "hi"]);
    expect(run.code).toBe(0);
    expect((await import("node:fs")).readFileSync(seen, "utf8")).toBe("1");
    const update = await home.pi(["update", "--extensions", "--offline"]);
    expect([update.code, update.stdout]).toEqual([0, "Skipped package updates (offline mode)\n"]);
    // pi itself cannot be checked offline: pi 1.6.0's note, then one line and exit 1.
    const self = await home.pi(["update", "--offline"]);
    expect(self.code).toBe(1);
    expect(self.stdout).toBe("Extensions are skipped. Run pi update --extensions to update extensions.\n");
    expect(self.stderr).toBe(
      "Error: Could not determine latest pi version: offline mode is on (--offline or PI_OFFLINE)\n",
    );
    const models = await home.pi(["update", "--models"], { env: { PI_OFFLINE: "1" } });
    expect([models.code, models.stdout]).toEqual([0, "Skipped the model catalog refresh (offline mode)\n"]);
  });
});
