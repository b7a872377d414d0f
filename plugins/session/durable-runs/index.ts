/**
 * The durable-runs plugin: makes a run survive a crash of the process. Off until the `durableRuns`
 * setting or the `--durable` flag turns it on; then every event of a run is on disk before a mode shows
 * it, each step is a checkpoint in the session (pi-compatible `custom` entries), and the next
 * `pi --continue` carries an interrupted run on from its last checkpoint. A run that crashes
 * `parkAfter` times in a row is parked until `--retry-parked`. See docs/durable.md.
 */
import { Type } from "@sinclair/typebox";
import { DurableRunsContract, FlagOwnerContract, HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { SessionStoreContract, definePlugin } from "pi-host";
import { DurableRunsService } from "./service.js";

/** The flags this plugin takes (without `--`). */
const FLAGS = ["durable", "retry-parked"];

export default definePlugin({
  id: "durable-runs",
  version: "1.0.0",
  description: "Durable runs: commit before show, a checkpoint per step, resume after a crash (--durable)",
  provides: [DurableRunsContract, FlagOwnerContract],
  requires: [SessionStoreContract, { contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Crashes in a row (no step committed between them) after which a run is parked. */
    parkAfter: Type.Integer({ minimum: 1, default: 5 }),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    const service = new DurableRunsService({
      store: ctx.use(SessionStoreContract),
      flags: () => readHostEnvironment(host)?.flags?.extensionFlags ?? {},
      parkAfter: (ctx.config as { parkAfter: number }).parkAfter,
    });
    ctx.provide(DurableRunsContract, service);
    ctx.provide(FlagOwnerContract, { registeredFlags: async () => FLAGS }, { key: "durable-runs" });
  },
});
