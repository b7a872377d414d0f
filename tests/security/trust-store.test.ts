/**
 * The trust store as pi 1.6.0 defines it: `<agentDir>/trust.json`, `{ "<canonical dir>": true|false|null }`,
 * nearest decided ancestor wins (a `false` below a trusted parent refuses), `null` decides nothing,
 * written sorted as 2-space JSON keeping entries pi wrote; the old `trusted-projects.json` list still
 * trusts. `pi trust` on a full disk: one line, exit 1, the old file intact and no `.tmp` left.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTrustCommand } from "../../hosts/trust-cli.js";
import { decideProjectTrust } from "../../hosts/trust-decision.js";
import {
  isTrusted,
  nodeTrustFileAccess,
  savedDecision,
  saveTrustDecision,
  type TrustFileAccess,
} from "../../hosts/trust.js";

function world(): { agent: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-trust-store-"));
  const agent = join(root, "agent");
  mkdirSync(agent);
  return { agent, root };
}

function output(): { text: string; write(t: string): void } {
  return {
    text: "",
    write(t: string) {
      this.text += t;
    },
  };
}

describe("trust.json decisions (pi 1.6.0's rules)", () => {
  it("the nearest decided ancestor wins; false below a trusted parent refuses; null decides nothing", async () => {
    const { agent, root } = world();
    const parent = join(root, "work");
    const child = join(parent, "repo");
    const grandchild = join(child, "pkg");
    mkdirSync(grandchild, { recursive: true });
    writeFileSync(join(agent, "trust.json"), JSON.stringify({ [parent]: true, [child]: false, [grandchild]: null }));
    expect(await isTrusted(agent, parent)).toBe(true);
    expect(await isTrusted(agent, join(parent, "other"))).toBe(true);
    expect(await isTrusted(agent, child)).toBe(false);
    // null at the folder itself: the next decision up (child: false) applies.
    expect(await savedDecision(agent, grandchild)).toEqual({ dir: child, trusted: false });
    expect(await savedDecision(agent, root)).toBeUndefined();
  });

  it("the old trusted-projects.json list still trusts; a trust.json decision beats it", async () => {
    const { agent, root } = world();
    const a = join(root, "a");
    const b = join(root, "b");
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(agent, "trusted-projects.json"), JSON.stringify([a, b]));
    writeFileSync(join(agent, "trust.json"), JSON.stringify({ [b]: false }));
    expect(await isTrusted(agent, join(a, "sub"))).toBe(true);
    expect(await isTrusted(agent, b)).toBe(false);
  });

  it("saves canonical folders, sorted, 2-space JSON, keeping what pi wrote; no lock or temp file remains", async () => {
    const { agent, root } = world();
    const real = join(root, "real");
    mkdirSync(real);
    symlinkSync(real, join(root, "link"));
    writeFileSync(join(agent, "trust.json"), JSON.stringify({ "/zz/pi-wrote-this": false }));
    await saveTrustDecision(agent, join(root, "link"), true);
    await saveTrustDecision(agent, join(root, "aaa"), null);
    const text = readFileSync(join(agent, "trust.json"), "utf8");
    expect(text).toBe(
      `${JSON.stringify({ [join(root, "aaa")]: null, [real]: true, "/zz/pi-wrote-this": false }, null, 2)}\n`,
    );
    expect(Object.keys(JSON.parse(text))).toEqual([join(root, "aaa"), real, "/zz/pi-wrote-this"].sort());
    expect(readdirSync(agent).sort()).toEqual(["trust.json"]);
    // A folder reached through the link is trusted too: both spellings resolve to the real folder.
    expect(await isTrusted(agent, join(root, "link"))).toBe(true);
  });

  it("decision order: flag > saved > defaultProjectTrust; no protected resource needs no decision", async () => {
    const { agent, root } = world();
    const project = join(root, "project");
    mkdirSync(join(project, ".pi"), { recursive: true });
    const home = join(root, "home");
    // A bare .pi folder is not protected.
    expect((await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home })).trust).toEqual({
      trusted: false,
      source: "none-needed",
    });
    writeFileSync(join(project, ".pi", "SYSTEM.md"), "x");
    const asked: string[][] = [];
    const ask = async (_cwd: string, resources: string[]) => {
      asked.push(resources);
      return "once" as const;
    };
    expect(await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home })).toMatchObject({
      trust: { trusted: false, source: "default" },
      resources: [".pi/SYSTEM.md"],
    });
    expect((await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home, ask })).trust).toEqual({
      trusted: true,
      source: "prompt",
    });
    expect(asked).toEqual([[".pi/SYSTEM.md"]]);
    // "once" saves nothing.
    expect(await savedDecision(agent, project)).toBeUndefined();
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ defaultProjectTrust: "never" }));
    expect((await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home, ask })).trust).toEqual({
      trusted: false,
      source: "default",
    });
    await saveTrustDecision(agent, project, true);
    expect((await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home, ask })).trust).toEqual({
      trusted: true,
      source: "saved",
    });
    expect((await decideProjectTrust({ agentDir: agent, cwd: project, homeDir: home, override: false })).trust).toEqual(
      { trusted: false, source: "flag" },
    );
    expect(asked).toHaveLength(1);
  });

  it('the prompt\'s "trust" and "no" are saved', async () => {
    const { agent, root } = world();
    const refused = join(root, "refused");
    const trusted = join(root, "trusted");
    for (const dir of [refused, trusted]) mkdirSync(join(dir, ".pi", "skills"), { recursive: true });
    expect(
      (await decideProjectTrust({ agentDir: agent, cwd: refused, homeDir: root, ask: async () => "no" })).trust,
    ).toEqual({ trusted: false, source: "prompt" });
    expect(await savedDecision(agent, refused)).toEqual({ dir: refused, trusted: false });
    expect(
      (await decideProjectTrust({ agentDir: agent, cwd: trusted, homeDir: root, ask: async () => "trust" })).trust,
    ).toEqual({ trusted: true, source: "prompt" });
    expect(await savedDecision(agent, trusted)).toEqual({ dir: trusted, trusted: true });
    // Saved: the next start does not ask again.
    const again = await decideProjectTrust({ agentDir: agent, cwd: refused, homeDir: root, ask: async () => "trust" });
    expect(again.trust).toEqual({ trusted: false, source: "saved" });
  });
});

describe("pi trust on a full disk", () => {
  it("prints one line, exits 1, keeps the old trust.json and leaves no .tmp file", async () => {
    const { agent, root } = world();
    const before = `${JSON.stringify({ "/kept": true }, null, 2)}\n`;
    writeFileSync(join(agent, "trust.json"), before);
    const fullDisk: TrustFileAccess = {
      ...nodeTrustFileAccess,
      async writeFile(path, text) {
        // Part of the file reaches the disk, then the disk is full.
        writeFileSync(path, text.slice(0, 5));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      },
    };
    const stdout = output();
    const stderr = output();
    const code = await runTrustCommand([root], { agentDir: agent, cwd: root, stdout, stderr, files: fullDisk });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe(
      `pi: could not save the trust decision for ${root}: ENOSPC: no space left on device, write\n`,
    );
    expect(stderr.text.split("\n").filter(Boolean)).toHaveLength(1);
    expect(readFileSync(join(agent, "trust.json"), "utf8")).toBe(before);
    expect(readdirSync(agent).sort()).toEqual(["trust.json"]);
  });

  it("bad input (two folders, an unknown flag) exits 2 with one line", async () => {
    const { agent, root } = world();
    const stderr = output();
    expect(await runTrustCommand(["a", "b"], { agentDir: agent, cwd: root, stdout: output(), stderr })).toBe(2);
    expect(await runTrustCommand(["--yes"], { agentDir: agent, cwd: root, stdout: output(), stderr })).toBe(2);
    expect(stderr.text.split("\n").filter(Boolean)).toHaveLength(2);
    expect(readdirSync(agent)).toEqual([]);
  });
});
