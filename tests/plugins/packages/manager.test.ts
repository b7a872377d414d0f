/**
 * The packages plugin booted in a kernel with the settings plugin, npm replaced through pi's
 * `npmCommand` setting by a scripted stand-in (tests/fixtures/packages/fake-npm.mjs), so the atomic
 * paths the real registry cannot reach on demand are exercised exactly: a settings write that fails
 * after the new version is in place, an install aborted while npm is mid-copy, a package that lists
 * files it lacks, and the bookkeeping of the `packages` setting.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PackagesContract, type PackageManager } from "../../../contracts/packages.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import packagesPlugin from "../../../plugins/integrations/packages/index.js";
import settingsPlugin from "../../../plugins/config/settings/index.js";
import { STAGING_PREFIX } from "../../../plugins/integrations/packages/staging.js";
import { treeHash, treeListing, writeFixturePackage } from "../../fixtures/packages/fixture-package.js";

const FAKE_NPM = fileURLToPath(new URL("../../fixtures/packages/fake-npm.mjs", import.meta.url));

let root: string;
let agentDir: string;
let cwd: string;
let packagesRoot: string;
let kernel: Kernel;
let manager: Handle<PackageManager>;

/** Puts a version of a fixture package where the fake npm finds it. */
function offer(name: string, version: string, template: "greeter" | "fake-bash" = "greeter"): string {
  const dir = join(packagesRoot, name, version);
  mkdirSync(dir, { recursive: true });
  return writeFixturePackage(template, { name, version }, dir);
}

/** Writes the global settings.json with npm pointed at the fake (plus `extra` keys), 4-space indented so a rewrite shows. */
function writeSettings(extra: Record<string, unknown> = {}, npmArgs: string[] = []): void {
  writeFileSync(
    join(agentDir, "settings.json"),
    JSON.stringify(
      { npmCommand: [process.execPath, FAKE_NPM, `--root=${packagesRoot}`, ...npmArgs], ...extra },
      null,
      4,
    ),
  );
}

const settings = (): any => JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "pi-packages-"));
  agentDir = join(root, "agent");
  cwd = join(root, "project");
  packagesRoot = join(root, "fake-registry");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  writeSettings();
  kernel = new Kernel();
  const boot = await kernel.boot([
    { id: "settings", source: { kind: "inline", label: "settings", definition: settingsPlugin }, config: { agentDir } },
    { id: "packages", source: { kind: "inline", label: "packages", definition: packagesPlugin }, config: { agentDir } },
  ]);
  expect(boot.errors).toEqual([]);
  manager = kernel.use(PackagesContract);
});
afterEach(async () => {
  await kernel.shutdown();
});

describe("packages plugin (npm through the npmCommand setting)", () => {
  it("installs into <agent>/npm/<name>, records the source, reports progress, and describes what the package brings", async () => {
    offer("greeter", "1.0.0");
    const lines: string[] = [];
    const installed = await manager.call("install", "npm:greeter", { cwd, onProgress: (line) => lines.push(line) });
    const folder = join(agentDir, "npm", "node_modules", "greeter");
    expect(installed).toMatchObject({
      source: "npm:greeter",
      scope: "global",
      kind: "npm",
      name: "greeter",
      version: "1.0.0",
      pinned: false,
      path: folder,
      installed: true,
      problems: [],
    });
    expect(installed.contributes).toMatchObject({
      plugins: [join(folder, "plugins", "greeter")],
      skills: [join(folder, "skills")],
      prompts: [join(folder, "prompts")],
    });
    expect(settings().packages).toEqual(["npm:greeter"]);
    expect(settings().npmCommand[1]).toBe(FAKE_NPM); // other keys are kept
    expect(lines[0]).toBe(`installing npm:greeter (global) into ${folder}`);
    expect(lines).toContain("fetching greeter with npm");
    expect(lines.at(-1)).toBe("installed npm:greeter 1.0.0");
    expect(treeListing(agentDir).filter((p) => p.startsWith(".pi-staging"))).toEqual([]);
  });

  it("a settings write that fails after the new version is in place puts the old version back and leaves settings as they were", async () => {
    offer("greeter", "1.0.0");
    await manager.call("install", "npm:greeter@1.0.0", { cwd });
    writeSettings({ packages: ["npm:greeter@1.0.0"] });
    offer("greeter", "1.1.0");
    const before = treeHash(agentDir);
    // Another writer holds pi's settings lock (fresh, so it is not taken over as stale).
    mkdirSync(join(agentDir, "settings.json.lock"));
    const held = treeHash(agentDir);
    await expect(manager.call("install", "npm:greeter@1.1.0", { cwd })).rejects.toThrow(
      "another process is writing it",
    );
    expect(treeHash(agentDir)).toBe(held);
    expect(
      JSON.parse(readFileSync(join(agentDir, "npm", "node_modules", "greeter", "package.json"), "utf8")).version,
    ).toBe("1.0.0");
    expect(before).not.toBe(held);
  });

  it("an install aborted while npm is copying changes nothing, and npm's process is ended", async () => {
    offer("greeter", "1.0.0");
    let connected: (socket: Socket) => void = () => undefined;
    const npmStarted = new Promise<Socket>((resolve) => (connected = resolve));
    const server = createServer((socket) => connected(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    writeSettings({}, [`--hang-port=${(server.address() as { port: number }).port}`]);
    const before = treeHash(agentDir);
    const controller = new AbortController();
    const install = manager.call("install", "npm:greeter", { cwd, signal: controller.signal });
    const socket = await npmStarted; // npm has half-copied the package into the staging folder
    expect(treeListing(agentDir).some((p) => p.endsWith("half-copied.txt"))).toBe(true);
    const npmGone = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    controller.abort();
    await expect(install).rejects.toThrow("cancelled");
    await npmGone;
    server.close();
    expect(treeHash(agentDir)).toBe(before);
  });

  it("an aborted npm that ignores SIGTERM is killed after the grace period; the install still changes nothing", async () => {
    offer("greeter", "1.0.0");
    let connected: (socket: Socket) => void = () => undefined;
    const npmStarted = new Promise<Socket>((resolve) => (connected = resolve));
    const server = createServer((socket) => connected(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    writeSettings({}, [`--hang-port=${(server.address() as { port: number }).port}`, "--ignore-sigterm"]);
    const before = treeHash(agentDir);
    const controller = new AbortController();
    const install = manager.call("install", "npm:greeter", { cwd, signal: controller.signal });
    const socket = await npmStarted;
    const npmGone = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    controller.abort();
    await expect(install).rejects.toThrow("cancelled");
    await npmGone;
    server.close();
    expect(treeHash(agentDir)).toBe(before);
  }, 60_000);

  it("refuses a package whose manifest lists files it does not have, before moving anything", async () => {
    const dir = offer("broken", "1.0.0");
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "broken", version: "1.0.0", pi: { plugins: ["./nowhere"], skills: ["./skills"] } }),
    );
    const before = treeHash(agentDir);
    await expect(manager.call("install", "npm:broken", { cwd })).rejects.toThrow(
      "npm:broken cannot be installed: plugin ./nowhere does not exist",
    );
    expect(treeHash(agentDir)).toBe(before);
  });

  it("an unknown package fails with npm's reason in one line, and a bad source with what is accepted", async () => {
    await expect(manager.call("install", "npm:nothing-here", { cwd })).rejects.toThrow(
      /^npm install nothing-here failed \(exit code 1\): code E404 \| 404 Not Found - GET http:\/\/fake-registry\/nothing-here - no such package available$/,
    );
    await expect(manager.call("install", "git:nohost", { cwd })).rejects.toThrow(`invalid package source "git:nohost"`);
    await expect(manager.call("install", "./missing", { cwd })).rejects.toThrow(
      `no such folder or file: ${join(cwd, "missing")}`,
    );
    await expect(manager.call("install", "pi-skills", { cwd })).rejects.toThrow(
      "for an npm package write npm:pi-skills",
    );
  });

  it("update moves unpinned packages to the newest version, keeps pinned ones, and says which is which", async () => {
    offer("free", "1.0.0");
    offer("held", "1.0.0");
    await manager.call("install", "npm:free", { cwd });
    await manager.call("install", "npm:held@1.0.0", { cwd });
    offer("free", "2.0.0");
    offer("held", "2.0.0");
    const outcomes = await manager.call("update", undefined, { cwd });
    expect(outcomes).toEqual([
      { source: "npm:free", scope: "global", status: "updated", from: "1.0.0", to: "2.0.0" },
      { source: "npm:held@1.0.0", scope: "global", status: "pinned", from: "1.0.0", to: "1.0.0" },
    ]);
    expect(await manager.call("update", "npm:free", { cwd })).toEqual([
      { source: "npm:free", scope: "global", status: "current", from: "2.0.0", to: "2.0.0" },
    ]);

    // A broken entry in the setting is skipped with a progress line; the others still update.
    writeSettings({ packages: ["npm:", "npm:free"] });
    offer("free", "3.0.0");
    const lines: string[] = [];
    expect(await manager.call("update", undefined, { cwd, onProgress: (line) => lines.push(line) })).toMatchObject([
      { source: "npm:free", status: "updated", to: "3.0.0" },
    ]);
    expect(lines[0]).toBe(
      `skipping npm:: invalid package source "npm:": "" is not an npm package name (lower-case, optionally @scope/name)`,
    );
    await expect(manager.call("update", "npm:other", { cwd })).rejects.toThrow(
      `npm:other is not in the packages setting; install it with "pi install npm:other"`,
    );
  });

  it("keeps pi's filter objects when a package is reinstalled, removes only the named package, and lists a missing one with a problem", async () => {
    offer("a", "1.0.0");
    offer("b", "1.0.0");
    writeSettings({ packages: [{ source: "npm:a@1.0.0", skills: [] }, "npm:b", "npm:gone"] });
    await manager.call("install", "npm:a", { cwd });
    await manager.call("install", "npm:b", { cwd });
    expect(settings().packages).toEqual([{ source: "npm:a", skills: [] }, "npm:b", "npm:gone"]);

    const list = await manager.call("list", cwd);
    expect(list.map((p) => [p.source, p.installed, p.problems])).toEqual([
      ["npm:a", true, []],
      ["npm:b", true, []],
      ["npm:gone", false, [`not installed; run "pi install npm:gone"`]],
    ]);

    expect(await manager.call("remove", "npm:a@9.9.9", { cwd })).toBe(true); // the version does not matter
    expect(settings().packages).toEqual(["npm:b", "npm:gone"]);
    expect(existsSync(join(agentDir, "npm", "node_modules", "a"))).toBe(false);
    expect(existsSync(join(agentDir, "npm", "node_modules", "b"))).toBe(true);
    expect(await manager.call("remove", "npm:a", { cwd })).toBe(false);
  });

  it("-l installs into the project's .pi folder and settings; a local path is recorded relative to its scope, never copied", async () => {
    offer("proj", "1.0.0");
    await manager.call("install", "npm:proj", { cwd, local: true });
    expect(JSON.parse(readFileSync(join(cwd, ".pi", "settings.json"), "utf8")).packages).toEqual(["npm:proj"]);
    expect(existsSync(join(cwd, ".pi", "npm", "node_modules", "proj", "package.json"))).toBe(true);
    expect(settings().packages).toBeUndefined();

    const local = join(root, "my-local-package");
    cpSync(writeFixturePackage("greeter", { name: "local-greeter", version: "0.1.0" }), local, { recursive: true });
    const installed = await manager.call("install", local, { cwd, local: true });
    expect(installed).toMatchObject({ kind: "local", path: local, version: "0.1.0", installed: true });
    expect(JSON.parse(readFileSync(join(cwd, ".pi", "settings.json"), "utf8")).packages).toEqual([
      "npm:proj",
      "../../my-local-package",
    ]);
    // An untrusted project's packages are not acted on by update; a trusted one's are.
    const skipped: string[] = [];
    expect(await manager.call("update", undefined, { cwd, onProgress: (line) => skipped.push(line) })).toEqual([]);
    expect(skipped).toContain(
      `skipping the 2 package(s) of ${join(cwd, ".pi", "settings.json")}: this project is not trusted; run "pi trust" here, or pass --approve`,
    );
    await expect(manager.call("update", "npm:proj", { cwd })).rejects.toThrow(
      `npm:proj is not in the global packages setting, and this project's packages are updated only in a trusted project; run "pi trust" here, or pass --approve`,
    );
    expect(await manager.call("update", undefined, { cwd, projectTrusted: true })).toContainEqual({
      source: "../../my-local-package",
      scope: "project",
      status: "local",
      from: undefined,
      to: undefined,
    });
    expect(await manager.call("remove", local, { cwd, local: true })).toBe(true);
    expect(existsSync(local)).toBe(true);

    // A file is one pi extension.
    const extension = join(root, "my-extension.ts");
    writeFileSync(extension, "export default function (pi) {}\n");
    expect(await manager.call("install", extension, { cwd })).toMatchObject({
      kind: "local",
      path: extension,
      installed: true,
      problems: [],
      contributes: { extensions: [extension], plugins: [] },
    });
    expect(settings().packages).toEqual(["../my-extension.ts"]);
  });
});

describe("packages plugin: settings lock, project trust, leftover staging", () => {
  it("eight installs at once each record their package: the packages list is read and written inside the settings lock", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `parallel-${i}`);
    for (const name of names) offer(name, "1.0.0");
    await Promise.all(names.map((name) => manager.call("install", `npm:${name}`, { cwd })));
    expect([...settings().packages].sort()).toEqual(names.map((n) => `npm:${n}`).sort());
    expect(settings().npmCommand[1]).toBe(FAKE_NPM);
    expect(existsSync(join(agentDir, "settings.json.lock"))).toBe(false);
  });

  it("the project's npmCommand never runs for a global install, nor for a project install in an untrusted project; it does once trusted", async () => {
    offer("greeter", "1.0.0");
    const marker = join(root, "project-npm-ran");
    const projectNpm = join(root, "project-npm.mjs");
    writeFileSync(
      projectNpm,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran\\n");\nprocess.stderr.write("project npm ran\\n");\nprocess.exit(1);\n`,
    );
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ npmCommand: [process.execPath, projectNpm] }));

    await manager.call("install", "npm:greeter", { cwd });
    expect(existsSync(marker)).toBe(false);
    await manager.call("install", "npm:greeter", { cwd, projectTrusted: true }); // global, even in a trusted project
    expect(existsSync(marker)).toBe(false);
    await manager.call("install", "npm:greeter", { cwd, local: true });
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(cwd, ".pi", "npm", "node_modules", "greeter", "package.json"))).toBe(true);
    await manager.call("update", undefined, { cwd });
    expect(existsSync(marker)).toBe(false);

    await expect(
      manager.call("install", "npm:greeter@1.0.0", { cwd, local: true, projectTrusted: true }),
    ).rejects.toThrow("project npm ran");
    expect(existsSync(marker)).toBe(true);
  });

  it("opening a staging folder removes leftovers whose owner is gone or that are stale, and keeps a live operation's", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const deadOwner = join(agentDir, `${STAGING_PREFIX}${dead}-aaaaaa`);
    const liveOwner = join(agentDir, `${STAGING_PREFIX}${process.ppid}-bbbbbb`);
    const liveButStale = join(agentDir, `${STAGING_PREFIX}${process.ppid}-cccccc`);
    const oldFormatStale = join(agentDir, `${STAGING_PREFIX}dddddd`);
    for (const dir of [deadOwner, liveOwner, liveButStale, oldFormatStale])
      mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(liveButStale, hoursAgo, hoursAgo);
    utimesSync(oldFormatStale, hoursAgo, hoursAgo);

    offer("greeter", "1.0.0");
    await manager.call("install", "npm:greeter", { cwd });
    expect(readdirSync(agentDir).filter((n) => n.startsWith(STAGING_PREFIX))).toEqual([
      `${STAGING_PREFIX}${process.ppid}-bbbbbb`,
    ]);
  });
});
