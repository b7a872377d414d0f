// Cold start of the built CLI, as a user's shell sees it: `node -e 0` (the floor), `pi --version`, and
// `pi -p` answering one prompt from the faux provider (the whole default distribution booted, one turn,
// the session written). Each command runs 3 times to warm the page cache, then RUNS times in turn;
// prints the median and the 90th percentile in milliseconds.
//
//   npm run build && node tests/e2e/measure-cold-start.mjs [runs]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = Number(process.argv[2] ?? 20);
const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

const home = mkdtempSync(join(tmpdir(), "pi-cold-start-"));
const agent = join(home, "agent");
mkdirSync(agent);
writeFileSync(
  join(agent, "plugins.json"),
  JSON.stringify({
    plugins: [
      {
        id: "models",
        config: {
          providers: {
            faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] },
          },
        },
      },
      { id: "provider-faux", config: { responses: [{ content: "Hello! How can I help?" }] } },
    ],
  }),
);
const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agent };

const commands = [
  { name: "node -e 0", args: ["-e", "0"], expect: "" },
  { name: "pi --version", args: [CLI, "--version"], expect: /^\d+\.\d+\.\d+\n$/ },
  {
    name: "pi -p (faux, one turn)",
    args: [CLI, "-p", "--model", "faux/faux-1", "hello"],
    expect: "Hello! How can I help?\n",
  },
];

function once(command) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, command.args, {
    cwd: home,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const ok =
    result.status === 0 &&
    (typeof command.expect === "string" ? result.stdout === command.expect : command.expect.test(result.stdout));
  if (!ok) throw new Error(`${command.name} failed (status ${result.status}): ${result.stdout}${result.stderr}`);
  return ms;
}

const samples = new Map(commands.map((c) => [c.name, []]));
for (let i = 0; i < 3; i++) for (const c of commands) once(c);
for (let i = 0; i < RUNS; i++) for (const c of commands) samples.get(c.name).push(once(c));

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length - 1) * p))];
for (const [name, values] of samples) {
  console.log(
    `${name.padEnd(24)} median ${percentile(values, 0.5).toFixed(0).padStart(4)} ms   p90 ${percentile(values, 0.9).toFixed(0).padStart(4)} ms   (${values.length} runs)`,
  );
}
