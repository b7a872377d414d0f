/**
 * Which providers have a key, for pi's synchronous `ctx.modelRegistry.getAvailable()` and
 * `hasConfiguredAuth(model)`. pi-host's key store answers asynchronously, so the answer is read when the
 * extensions load (before `session_start`) and read again in the background each time an extension asks,
 * so a key added by `/login` during the session counts from the next question on. It asks the store's
 * `keySource` (where a key would come from, as `pi --list-models` shows it), which runs no `!command`
 * and refreshes no sign-in; a store without it counts no provider as keyed.
 */
import type { AuthStore, Handle, Model, ModelCatalog } from "pi-host";

/** The auth plugin's side-effect-free "where would the key come from" (not in the contract yet). */
interface KeySourceReader {
  keySource(provider: string): Promise<{ kind: string }>;
}

/** The providers with a key, as last read. */
export class KeyedProviders {
  private keyed = new Set<string>();
  private reading: Promise<void> | undefined;

  constructor(
    private readonly models: Handle<ModelCatalog>,
    private readonly auth: Handle<AuthStore>,
  ) {}

  /** Reads every catalog provider's key (errors count as "no key"). */
  refresh(): Promise<void> {
    if (this.reading !== undefined) return this.reading;
    this.reading = (async () => {
      try {
        if (!this.models.available || !this.auth.available) return;
        const store = this.auth.peek() as (AuthStore & Partial<KeySourceReader>) | undefined;
        if (typeof store?.keySource !== "function") return;
        const providers = [...new Set(this.models.api.list().map((m) => m.provider))];
        const answers = await Promise.all(
          providers.map((p) =>
            store.keySource!(p).then(
              (source) => (source.kind === "none" ? undefined : p),
              () => undefined,
            ),
          ),
        );
        this.keyed = new Set(answers.filter((p): p is string => p !== undefined));
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** Whether `model`'s provider had a key at the last reading. */
  has(model: Pick<Model, "provider">): boolean {
    void this.refresh();
    return this.keyed.has(model.provider);
  }

  /** The catalog's models whose provider had a key at the last reading. */
  available(): Model[] {
    if (!this.models.available) return [];
    void this.refresh();
    return this.models.api.list().filter((m) => this.keyed.has(m.provider));
  }
}
