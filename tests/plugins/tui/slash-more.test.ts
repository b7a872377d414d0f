/**
 * The logic behind the TUI's /settings, /changelog, /debug, /share, /bug, /import and /trust: the
 * settings table and its value editing, changelog parsing, the debug log's text, the gist flow with a
 * fake `gh`, the bug report's files (credentials redacted), pi's path argument, and the host's trust
 * status and save over trust.json.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostTrust } from "../../../hosts/trust-status.js";
import { bugReportFiles, redactJson } from "../../../plugins/ui/tui/bug-report.js";
import { changelogText, packageRoot, parseChangelog } from "../../../plugins/ui/tui/changelog.js";
import { debugLogText } from "../../../plugins/ui/tui/debug-log.js";
import { SETTINGS, nextValue, parseTyped, settingValue, showValue } from "../../../plugins/ui/tui/settings-table.js";
import { shareSession } from "../../../plugins/ui/tui/share.js";
import { pathArgument } from "../../../plugins/ui/tui/view-commands-more.js";

const PI16_SETTINGS_DOC = join(
  packageRoot()!,
  "tests/compat/pi16/node_modules/@earendil-works/pi-coding-agent/docs/settings.md",
);
if (!existsSync(PI16_SETTINGS_DOC))
  console.warn("[skip] pi 1.6.0 is not installed (npm --prefix tests/compat/pi16 ci): skipping the settings.md check");

const setting = (key: string) => SETTINGS.find((s) => s.key === key)!;

describe("/settings table", () => {
  it.skipIf(!existsSync(PI16_SETTINGS_DOC))("lists every setting pi 1.6.0's settings.md documents, once each", () => {
    const doc = readFileSync(PI16_SETTINGS_DOC, "utf8");
    const documented = [...doc.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(60);
    const keys = SETTINGS.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(documented.filter((key) => !keys.includes(key))).toEqual([]);
  });

  it("cycles booleans and choices from the default, and parses typed values by kind", () => {
    expect(nextValue(setting("hideThinkingBlock"), undefined)).toBe(true);
    expect(nextValue(setting("hideThinkingBlock"), true)).toBe(false);
    expect(nextValue(setting("steeringMode"), undefined)).toBe("all");
    expect(nextValue(setting("steeringMode"), "all")).toBe("one-at-a-time");
    expect(nextValue(setting("editorPaddingX"), 3)).toBe(0);
    expect(parseTyped(setting("retry.maxRetries"), " 7 ")).toBe(7);
    expect(() => parseTyped(setting("retry.maxRetries"), "lots")).toThrow(
      'retry.maxRetries takes a number; got "lots"',
    );
    expect(parseTyped(setting("enabledModels"), '["a/b"]')).toEqual(["a/b"]);
    expect(() => parseTyped(setting("enabledModels"), "[a")).toThrow(/takes JSON/);
    expect(parseTyped(setting("shellPath"), "/bin/zsh")).toBe("/bin/zsh");
    expect(parseTyped(setting("shellPath"), "  ")).toBeUndefined();
  });

  it("reads dotted keys and shows unset ones as pi's default", () => {
    const settings = { retry: { provider: { maxRetries: 2 } }, theme: "light" };
    expect(settingValue(settings, "retry.provider.maxRetries")).toBe(2);
    expect(settingValue(settings, "compaction.enabled")).toBeUndefined();
    expect(showValue(setting("compaction.enabled"), undefined)).toBe("true (default)");
    expect(showValue(setting("theme"), "light")).toBe("light");
    expect(showValue(setting("enabledModels"), ["a/b"])).toBe('["a/b"]');
  });
});

describe("/changelog", () => {
  it("parses version sections newest first and shows them oldest first", () => {
    const text =
      "# Changelog\n\nintro\n\n## [1.1.0] - 2026\n\n- two\n\n## Unreleased notes\n\nskipped\n\n## 1.0.0\n\n- one\n";
    expect(parseChangelog(text).map((e) => [e.major, e.minor, e.patch])).toEqual([
      [1, 1, 0],
      [1, 0, 0],
    ]);
    const folder = mkdtempSync(join(tmpdir(), "pi-changelog-"));
    writeFileSync(join(folder, "CHANGELOG.md"), text);
    expect(changelogText(folder)).toBe("What's New\n\n## 1.0.0\n\n- one\n\n## [1.1.0] - 2026\n\n- two");
    expect(changelogText(mkdtempSync(join(tmpdir(), "pi-changelog-")))).toBe(
      "What's New\n\nNo changelog entries found.",
    );
  });

  it("pi-host's own CHANGELOG.md has an entry", () => {
    expect(changelogText()).toContain("## [0.1.0]");
  });
});

describe("/debug", () => {
  it("writes pi's layout: size, each row with its visible width, then messages as JSONL", () => {
    const text = debugLogText(
      { width: 40, height: 10, lines: ["\u001b[1mbold\u001b[0m", "plain"] },
      [{ role: "user", content: "hi" }],
      new Date("2026-12-02T00:00:00.000Z"),
    );
    expect(text.split("\n")).toEqual([
      "Debug output at 2026-12-02T00:00:00.000Z",
      "Terminal: 40x10",
      "Total lines: 2",
      "",
      "=== All rendered lines with visible widths ===",
      '[0] (w=4) "\\u001b[1mbold\\u001b[0m"',
      '[1] (w=5) "plain"',
      "",
      "=== Agent messages (JSONL) ===",
      '{"role":"user","content":"hi"}',
      "",
    ]);
  });
});

describe("/share", () => {
  const session = (): { file: string; cwd: string } => {
    const cwd = mkdtempSync(join(tmpdir(), "pi-share-cwd-"));
    const file = join(cwd, "s.jsonl");
    const at = "2026-12-01T10:00:00.000Z";
    writeFileSync(
      file,
      [
        { type: "session", version: 3, id: "sid", timestamp: at, cwd },
        {
          type: "message",
          id: "u1",
          parentId: null,
          timestamp: at,
          message: { role: "user", content: "share me", timestamp: 1 },
        },
      ]
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(""),
    );
    return { file, cwd };
  };
  const fakeGh = (script: string): string => {
    const bin = mkdtempSync(join(tmpdir(), "pi-gh-"));
    writeFileSync(join(bin, "gh"), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, "gh"), 0o755);
    return bin;
  };

  it("makes a secret gist and answers with the viewer and gist links", async () => {
    const { file, cwd } = session();
    const bin = fakeGh(
      `echo "$@" >> "$(dirname "$0")/calls"; [ "$1" = gist ] && cp "$4" "$(dirname "$0")/page.html" && echo https://gist.github.com/u/abc42; exit 0`,
    );
    const outcome = await shareSession({
      sessionFile: file,
      leafId: "u1",
      cwd,
      destination: "auto",
      spawn: (c, a, o) => spawn(c, a, o),
      env: { PATH: `${bin}:/usr/bin:/bin`, PI_SHARE_VIEWER_URL: "http://127.0.0.1/view" },
    });
    expect(outcome).toEqual({
      level: "info",
      message: "Share URL: http://127.0.0.1/view#abc42\nGist: https://gist.github.com/u/abc42",
    });
    const calls = readFileSync(join(bin, "calls"), "utf8").trim().split("\n");
    expect(calls[0]).toBe("auth status");
    expect(calls[1]).toMatch(/^gist create --public=false .*session\.html$/);
    expect(readFileSync(join(bin, "page.html"), "utf8")).toContain("share me");
  });

  it("gives pi's one-line errors: not logged in, gist failure, radius, no gh", async () => {
    const { file, cwd } = session();
    const run = (script: string | undefined, destination = "gist") =>
      shareSession({
        sessionFile: file,
        leafId: "u1",
        cwd,
        destination,
        spawn: (c, a, o) => spawn(c, a, o),
        env: { PATH: script === undefined ? "/nonexistent" : `${fakeGh(script)}:/usr/bin:/bin` },
      });
    expect((await run("exit 1")).message).toBe("GitHub CLI is not logged in. Run 'gh auth login' first.");
    expect((await run('[ "$1" = gist ] && { echo "HTTP 422" >&2; exit 1; }; exit 0')).message).toBe(
      "Failed to create gist: HTTP 422",
    );
    expect((await run("exit 0", "radius")).message).toBe(
      "Radius authentication is not configured. Run '/login radius' first.",
    );
    expect((await run(undefined)).message).toBe(
      "GitHub CLI (gh) is not installed. Install it from https://cli.github.com/",
    );
  });
});

describe("/bug", () => {
  it("redacts credential-looking keys and includes the transcript only when asked", () => {
    expect(redactJson({ apiKey: "k", nested: { authToken: "t", name: "x" }, list: [{ password: "p" }] })).toEqual({
      apiKey: "<redacted>",
      nested: { authToken: "<redacted>", name: "x" },
      list: [{ password: "<redacted>" }],
    });
    const entries = [
      { type: "message", id: "a", message: { role: "user", content: "hello" } },
      {
        type: "message",
        id: "b",
        message: { role: "assistant", stopReason: "error", errorMessage: "boom", provider: "p" },
      },
    ];
    const base = {
      hint: " it broke ",
      version: "0.1.0",
      sessionId: "sid",
      cwd: "/work",
      model: null,
      thinkingLevel: "off",
      settings: { httpProxy: "x", providers: { secretKey: "s" } },
      plugins: [],
      entries,
      id: "rid",
    };
    const without = bugReportFiles({ ...base, includeSession: false });
    expect(Object.keys(without.files).sort()).toEqual(["diagnostics.json", "report.json"]);
    const report = JSON.parse(without.files["report.json"]!);
    expect(report).toMatchObject({
      id: "rid",
      hint: "it broke",
      session: { id: "sid", included: false, messageCount: 2 },
    });
    expect(report.session.cwd).toBeUndefined();
    expect(report.settings.providers.secretKey).toBe("<redacted>");
    const diagnostics = JSON.parse(without.files["diagnostics.json"]!);
    expect(diagnostics.assistant).toEqual([expect.objectContaining({ entryId: "b", errorMessage: "boom" })]);
    expect(JSON.stringify(diagnostics)).not.toContain("hello");
    const withSession = bugReportFiles({ ...base, includeSession: true });
    expect(withSession.files["session.jsonl"]).toContain("hello");
  });
});

describe("/import and /trust", () => {
  it("takes pi's path argument: the first word or a quoted path", () => {
    expect(pathArgument("")).toBeUndefined();
    expect(pathArgument("a.jsonl extra")).toBe("a.jsonl");
    expect(pathArgument('"with space.jsonl" x')).toBe("with space.jsonl");
    expect(pathArgument("'unclosed")).toBeUndefined();
  });

  it("host/trust: status names the nearest saved decision; save writes each update", async () => {
    const agent = mkdtempSync(join(tmpdir(), "pi-trust-agent-"));
    const project = realpathSync(mkdtempSync(join(tmpdir(), "pi-trust-project-")));
    mkdirSync(join(project, "sub"));
    const trust = hostTrust(agent, false);
    expect(await trust.status(join(project, "sub"))).toEqual({
      dir: join(project, "sub"),
      parent: project,
      currentSession: false,
    });
    await trust.save([
      { dir: project, value: true },
      { dir: join(project, "sub"), value: null },
    ]);
    expect(JSON.parse(readFileSync(join(agent, "trust.json"), "utf8"))).toEqual({
      [project]: true,
      [join(project, "sub")]: null,
    });
    expect((await trust.status(join(project, "sub"))).saved).toEqual({ dir: project, trusted: true });
  });
});
