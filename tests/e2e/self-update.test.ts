/**
 * `pi update` for pi itself, as pi 1.6.0 does it, against the built CLI. The registry is never reached:
 * npm is a scripted stand-in (tests/fixtures/packages/fake-npm.mjs) put first on PATH as `npm`, whose
 * "registry" is a folder of versions. A copy of the package laid out as a global npm install
 * (`<prefix>/lib/node_modules/pi-host`) updates itself through `npm install --global --prefix <prefix>`.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { PI_BIN, runPi } from "./run-pi.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FAKE_NPM = fileURLToPath(new URL("../fixtures/packages/fake-npm.mjs", import.meta.url));
const OWN = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const NOTE = "Extensions are skipped. Run pi update --extensions to update extensions.\n";

describe("pi update (pi itself, built CLI, stand-in npm)", () => {
  let home: string;
  let registry: string;
  let env: Record<string, string>;

  /** Publishes a version of pi-host to the stand-in registry. */
  const publish = (version: string): void => {
    mkdirSync(join(registry, OWN.name, version), { recursive: true });
    writeFileSync(join(registry, OWN.name, version, "package.json"), JSON.stringify({ name: OWN.name, version }));
  };

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-self-update-"));
    registry = join(home, "registry");
    const bin = join(home, "bin");
    mkdirSync(join(home, "agent"), { recursive: true });
    mkdirSync(bin);
    writeFileSync(
      join(bin, "npm"),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_NPM)} --root=${JSON.stringify(registry)} "$@"\n`,
    );
    chmodSync(join(bin, "npm"), 0o755);
    env = { PI_CODING_AGENT_DIR: join(home, "agent"), HOME: home, PATH: `${bin}${delimiter}${process.env.PATH}` };
    publish(OWN.version);
  });

  it("says pi is up to date when the registry's newest is this version, with pi's note first", async () => {
    const run = await runPi(["update"], { cwd: home, env });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, `${NOTE}pi is already up to date (v${OWN.version})\n`, ""]);
    // --self, `self` and `pi` are the same target, without the note.
    for (const args of [
      ["update", "--self"],
      ["update", "pi"],
      ["update", "self"],
    ]) {
      const again = await runPi(args, { cwd: home, env });
      expect([again.code, again.stdout]).toEqual([0, `pi is already up to date (v${OWN.version})\n`]);
    }
  });

  it("a global npm install updates itself with npm install --global into its own prefix", async () => {
    const prefix = join(home, "prefix");
    const installed = join(prefix, "lib", "node_modules", OWN.name);
    mkdirSync(installed, { recursive: true });
    for (const part of ["dist", "package.json", "plugins.json"])
      cpSync(join(ROOT, part), join(installed, part), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"));
    publish("99.0.0");
    const run = await spawnPi(join(installed, "dist", "cli.js"), ["update", "--self"], env, home);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      `Updating pi with npm install --global --prefix ${prefix} ${OWN.name}@99.0.0...\nUpdated pi from ${OWN.version} to 99.0.0\n`,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version).toBe("99.0.0");
  });

  it("a copy npm did not install is told what to do, exit 1", async () => {
    publish("99.0.0");
    const run = await runPi(["update"], { cwd: home, env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(NOTE);
    expect(run.stderr).toContain("error: pi cannot self-update this installation.\n");
    expect(run.stderr).toContain(`Update ${OWN.name}@99.0.0 using the package manager, wrapper, or source checkout`);
    expect(run.stderr).toContain(`Location of pi executable: ${PI_BIN}`);
  });

  it("PI_SELF_UPDATE_COMMAND runs with the release filled in, and --force reinstalls the current version", async () => {
    const marker = join(home, "ran.txt");
    const script = join(home, "wrapper.mjs");
    writeFileSync(
      script,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(" "));\n`,
    );
    // The pi on PATH after the wrapper ran reports the new version.
    writeFileSync(join(home, "bin", "pi"), "#!/bin/sh\necho 99.0.0\n");
    chmodSync(join(home, "bin", "pi"), 0o755);
    publish("99.0.0");
    const withCommand = { ...env, PI_SELF_UPDATE_COMMAND: `${process.execPath} ${script} {installSpec} {version}` };
    const run = await runPi(["update"], { cwd: home, env: withCommand });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Updated pi from ${OWN.version} to 99.0.0\n`);
    expect(readFileSync(marker, "utf8")).toBe(`${OWN.name}@99.0.0 99.0.0`);

    // The same from the selfUpdateCommand setting, at the current version: nothing runs without --force.
    const registryNow = join(home, "registry2");
    mkdirSync(join(registryNow, OWN.name, OWN.version), { recursive: true });
    writeFileSync(
      join(home, "agent", "settings.json"),
      JSON.stringify({
        npmCommand: [process.execPath, FAKE_NPM, `--root=${registryNow}`],
        selfUpdateCommand: [process.execPath, script, "forced {version}"],
      }),
    );
    const current = await runPi(["update", "pi"], { cwd: home, env });
    expect(current.stdout).toBe(`pi is already up to date (v${OWN.version})\n`);
    const forced = await runPi(["update", "pi", "--force"], { cwd: home, env });
    expect(forced.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe(`forced ${OWN.version}`);
    expect(forced.stdout).toContain(`Updated pi from ${OWN.version} to ${OWN.version}\n`);
  });

  it("a registry that cannot answer, offline mode and bad arguments each give one line and a non-zero exit", async () => {
    const missing = await runPi(["update", "--self"], {
      cwd: home,
      env: { ...env, PATH: env.PATH!.replace(home, join(home, "nowhere")) },
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/^Error: Could not determine latest pi version: /);

    writeFileSync(
      join(home, "agent", "settings.json"),
      JSON.stringify({ npmCommand: [process.execPath, FAKE_NPM, `--root=${join(home, "empty")}`] }),
    );
    const notFound = await runPi(["update", "--self"], { cwd: home, env });
    expect([notFound.code, notFound.stderr]).toEqual([
      1,
      `Error: Could not determine latest pi version: ${process.execPath} ${FAKE_NPM} --root=${join(home, "empty")} view ${OWN.name}@latest version --json failed (exit 1): npm error code E404\n`,
    ]);

    const offline = await runPi(["update", "--all", "--offline"], { cwd: home, env });
    expect([offline.code, offline.stdout]).toEqual([1, "Skipped package updates (offline mode)\n"]);
    expect(offline.stderr).toBe(
      "Error: Could not determine latest pi version: offline mode is on (--offline or PI_OFFLINE)\n",
    );

    for (const args of [
      ["update", "--all", "--models"],
      ["update", "npm:a", "--self"],
      ["update", "--extension"],
      ["update", "-l"],
    ]) {
      const bad = await runPi(args, { cwd: home, env });
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
      expect(bad.stderr).toContain("Usage: pi update");
    }
  });

  it("--all updates the packages first, then pi", async () => {
    const run = await runPi(["update", "--all"], { cwd: home, env });
    expect([run.code, run.stdout]).toEqual([
      0,
      `Packages are already up to date\npi is already up to date (v${OWN.version})\n`,
    ]);
  });
});

/** Runs a `pi` other than the checkout's (a copy laid out as a global install). */
async function spawnPi(
  cli: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
