/**
 * soak-host: bench/soak.mjs with the copied plugins importing the kernel and the contracts from the
 * "pi-host" module, as `pi plugin eject` writes a user's copy of a built-in, instead of by relative path.
 * The difference to `soak` is what each reload evaluates: only the plugin's own files here, the plugin
 * plus a private copy of kernel/ and contracts/ (~60 modules) there. Results: bench/results/soak-host.json.
 */
process.env.PI_SOAK_IMPORTS = "host";
process.env.PI_SOAK_RESULT = "soak-host";
await import("./soak.mjs");
