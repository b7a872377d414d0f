/**
 * Runs this folder's test with the repository's vitest (`npx vitest run --root examples/plugins/word-count`
 * from the repository root). The plugin imports "pi-host"; here that is the repository's hosts/api.ts.
 * A plugin made with `pi plugin new` gets the same file, pointing at the installed pi instead.
 */
import { fileURLToPath } from "node:url";

export default {
  resolve: { alias: { "pi-host": fileURLToPath(new URL("../../../hosts/api.ts", import.meta.url)) } },
};
