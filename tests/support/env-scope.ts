/**
 * Sets environment variables for one test and puts the previous values back afterwards, so a test that
 * plays a user's shell (AWS_REGION, AZURE_OPENAI_BASE_URL, GOOGLE_CLOUD_PROJECT...) leaves no trace.
 */

/** Clears `names`, then returns a function that restores them as they were. */
export function isolateEnv(names: readonly string[]): () => void {
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const n of names) delete process.env[n];
  return () => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  };
}
