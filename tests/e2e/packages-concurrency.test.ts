/**
 * `pi install` as separate processes on the built CLI: eight at once each record their package (the
 * `packages` list is changed inside pi's settings lock), SIGTERM mid-install ends npm's process group and
 * removes the staging folder, and a staging folder left by a process killed outright (SIGKILL) is removed
 * by the next install. npm is a scripted stand-in (tests/fixtures/packages/fake-npm.mjs) set through the
 * global `npmCommand`; with --hang-port it half-copies the package, connects to the test, and waits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFixturePackage } from "../fixtures/packages/fixture-package.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const FAKE_NPM = fileURLToPath(new URL("../fixtures/packages/fake-npm.mjs", import.meta.url));
const SLOW = 180_000;

let user: AgentHome;
let registry: string;
let server: Server | undefined;

beforeEach(() => {
  user = agentHome();
  registry = join(user.home, "fake-registry");
});
afterEach(() => {
  server?.close();
  server = undefined;
});

function offer(name: string): void {
  const dir = join(registry, name, "1.0.0");
  mkdirSync(dir, { recursive: true });
  writeFixturePackage("greeter", { name, version: "1.0.0" }, dir);
}

function useFakeNpm(extra: string[] = []): void {
  writeFileSync(
    join(user.agent, "settings.json"),
    JSON.stringify({ npmCommand: [process.execPath, FAKE_NPM, `--root=${registry}`, ...extra] }),
  );
}

const stagingFolders = (): string[] => readdirSync(user.agent).filter((n) => n.startsWith(".pi-staging-"));

/** Pids of running processes whose command line mentions `text` (this test's unique folder). */
function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Starts `pi install` in the background. */
function startInstall(source: string): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
} {
  const child = spawn(process.execPath, [PI_BIN, "install", source], {
    cwd: user.project,
    env: { ...process.env, ...user.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout!.resume();
  return {
    child,
    done: new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr }))),
  };
}

/** A server the hanging fake npm connects to; resolves its port and the first connection. */
async function hangServer(): Promise<{ port: number; connected: Promise<Socket> }> {
  let connect: (socket: Socket) => void = () => undefined;
  const connected = new Promise<Socket>((resolve) => (connect = resolve));
  server = createServer((socket) => connect(socket));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, connected };
}

describe("pi install as concurrent and interrupted processes", () => {
  it(
    "eight pi install processes at once all exit 0 and all eight are recorded",
    async () => {
      const names = Array.from({ length: 8 }, (_, i) => `pi-parallel-${i}`);
      for (const name of names) offer(name);
      useFakeNpm();
      const runs = await Promise.all(names.map((name) => startInstall(`npm:${name}`).done));
      for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
      const recorded = JSON.parse(readFileSync(join(user.agent, "settings.json"), "utf8")).packages as string[];
      expect([...recorded].sort()).toEqual(names.map((n) => `npm:${n}`).sort());
      for (const name of names)
        expect(existsSync(join(user.agent, "npm", "node_modules", name, "package.json"))).toBe(true);
      expect(stagingFolders()).toEqual([]);
    },
    SLOW,
  );

  it(
    "SIGTERM mid-install ends npm, removes the staging folder, changes no setting, and exits 143",
    async () => {
      if (!existsSync("/proc")) return void console.log("skipped: no /proc to look for npm's process");
      offer("pi-fixture-greeter");
      const { port, connected } = await hangServer();
      useFakeNpm([`--hang-port=${port}`]);
      const settingsBefore = readFileSync(join(user.agent, "settings.json"), "utf8");
      const install = startInstall("npm:pi-fixture-greeter");
      const socket = await connected; // npm has half-copied the package into the staging folder
      expect(stagingFolders()).toHaveLength(1);
      expect(processesMentioning(registry).length).toBeGreaterThan(0);
      const npmGone = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      install.child.kill("SIGTERM");
      const result = await install.done;
      expect(result.code).toBe(143);
      expect(result.stderr).toContain("pi install cancelled by SIGTERM; nothing was changed");
      await npmGone;
      expect(processesMentioning(registry)).toEqual([]);
      expect(stagingFolders()).toEqual([]);
      expect(readFileSync(join(user.agent, "settings.json"), "utf8")).toBe(settingsBefore);
      expect(existsSync(join(user.agent, "npm", "node_modules", "pi-fixture-greeter"))).toBe(false);
    },
    SLOW,
  );

  it(
    "a staging folder left by a pi install killed outright is removed by the next install",
    async () => {
      if (!existsSync("/proc")) return void console.log("skipped: no /proc to look for npm's process");
      offer("pi-fixture-greeter");
      const { port, connected } = await hangServer();
      useFakeNpm([`--hang-port=${port}`]);
      const install = startInstall("npm:pi-fixture-greeter");
      await connected;
      install.child.kill("SIGKILL");
      await install.done;
      const leftover = stagingFolders();
      expect(leftover).toHaveLength(1);
      // SIGKILL gives pi no chance to end npm; end the orphan here so the test leaves nothing running.
      for (const pid of processesMentioning(registry)) process.kill(pid, "SIGKILL");

      useFakeNpm();
      const next = await startInstall("npm:pi-fixture-greeter").done;
      expect(next.code, next.stderr).toBe(0);
      expect(stagingFolders()).toEqual([]);
    },
    SLOW,
  );
});
